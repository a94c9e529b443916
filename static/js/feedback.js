// Feedback where the user acted. After a form is sent — swapped in by htmx, or a plain POST that came back to an
// anchor of the page (#fm-orders, #console …) — its confirmation or its first error is brought into view below the
// sticky page menu and given the focus (so that a screen reader reads it), instead of waiting somewhere above.
// Without JavaScript the messages stay at the top of the page and anchors keep their CSS scroll margin.
(function () {
  var root = document.documentElement;

  function stickyBottom() {
    var nav = document.querySelector(".dash-nav");
    if (!nav) return 0;
    var box = nav.getBoundingClientRect();
    return box.top <= 1 ? box.bottom : 0;  // it covers the page only once it sticks to the top
  }

  function measure() {
    var nav = document.querySelector(".dash-nav");
    root.style.setProperty("--sticky-top", (nav ? nav.offsetHeight : 0) + "px");
  }

  function show(message) {
    if (!message) return;
    var box = message.getBoundingClientRect();
    var top = stickyBottom() + 8;
    if (box.top < top || box.bottom > window.innerHeight) {
      window.scrollBy(0, box.top - top);
      var covered = stickyBottom() + 8 - message.getBoundingClientRect().top;  // the menu sticks only now
      if (covered > 0) window.scrollBy(0, -covered);
    }
    if (!message.hasAttribute("tabindex")) message.setAttribute("tabindex", "-1");
    message.focus({preventScroll: true});
  }

  function firstMessage(container) {
    return container && (container.querySelector("[role=alert]") || container.querySelector("[role=status]"));
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || !config.triggeringEvent || config.triggeringEvent.type !== "submit") return;
    var id = config.target && config.target.id;
    show(firstMessage(id ? document.getElementById(id) : null));
  });

  function placeMessages() {
    measure();
    var list = document.querySelector("main > .messages");
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!list || !target || target.id === "main") return;
    var heading = target.querySelector("h1, h2, h3");
    if (heading && heading.parentNode === target) heading.after(list); else target.prepend(list);
    show(list);
  }

  window.addEventListener("resize", measure);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", placeMessages);
  else placeMessages();
})();
