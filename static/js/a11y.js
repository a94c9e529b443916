// Screen readers and keyboards (issue 24 item 7; docs/accessibility.md).
//
// 1. htmx swaps most regions outerHTML: the region carrying aria-live is itself replaced, and a live region that is
//    new to the page is not announced by screen readers (only changes inside one already there are). So after every
//    swap the message of the new content — its first role="alert" or role="status", or the whole region when it is a
//    small live region itself (the unread badge, "3 new posts — show") — is copied into the page's permanent live
//    region (#gm-announcer in base.html), once per new wording. A form sent by the user is left to feedback.js, which
//    moves the focus to its message (and so has it read).
// 2. A link to an element inside a closed <details> (a location of the October Night board → its entry in the list)
//    opens the <details> and moves the focus there, instead of jumping to nothing.
(function () {
  "use strict";
  var said = {};

  function announce(text) {
    var box = document.getElementById("gm-announcer");
    if (!box || !text) return;
    box.textContent = "";
    // A pause between emptying and filling, so the same words said again are read again.
    window.setTimeout(function () { box.textContent = text; }, 50);
  }

  function words(el) {
    return (el.textContent || "").replace(/\s+/g, " ").trim();
  }

  function message(el) {
    if (!el || !el.querySelector) return null;
    var inner = el.querySelector("[role=alert], [role=status]");
    if (inner) return inner;
    var live = el.matches("[role=alert], [role=status], [aria-live]") ? el : null;
    return live && words(live).length <= 200 ? live : null;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (config && config.triggeringEvent && config.triggeringEvent.type === "submit") return;  // feedback.js
    var el = message(event.target);
    var key = (event.target && event.target.id) || "";
    var text = el ? words(el) : "";
    if (text === (said[key] || "")) return;
    said[key] = text;
    announce(text);
  });

  function reveal(id) {
    var target = id && document.getElementById(id);
    if (!target) return;
    var closed = false;
    for (var el = target.parentElement; el; el = el.parentElement) {
      if (el.nodeName === "DETAILS" && !el.open) { el.open = true; closed = true; }
    }
    if (!closed && !target.closest(".oc-locations")) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
    if (link) reveal(decodeURIComponent(link.getAttribute("href").slice(1)));
  });
  window.addEventListener("hashchange", function () { reveal(decodeURIComponent(location.hash.slice(1))); });
})();
