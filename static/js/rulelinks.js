// Rule IDs ("FM-5.3", "ON-4.1", "FM-10.H1") in any text of the page become links to their definition on the rules
// pages (/rules/id/<ID>/ redirects there) — also in parts htmx swaps in later. Text the server already linked, form
// fields, code and buttons are left alone. Without JavaScript the server-rendered links still work.
(function () {
  "use strict";
  var ID = /(^|[^\w\/#.-])((?:FM|ON|BW|BV|OC)-\d+[a-z]?(?:\.(?:H?\d+[a-z]?))*)(?![\w-])/g;
  // SUMMARY: a link inside a <summary> would be a control inside a control (the summary toggles its <details>).
  var SKIP = { A: 1, SUMMARY: 1, SCRIPT: 1, STYLE: 1, TEXTAREA: 1, INPUT: 1, SELECT: 1, OPTION: 1, CODE: 1, PRE: 1, BUTTON: 1,
               LABEL: 1, TIME: 1 };

  function link(root) {
    if (!root || !root.ownerDocument) { return; }
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        for (var el = node.parentNode; el && el !== root.parentNode; el = el.parentNode) {
          if (SKIP[el.nodeName] || (el.classList && el.classList.contains("no-rule-links"))) {
            return NodeFilter.FILTER_REJECT;
          }
        }
        ID.lastIndex = 0;
        return ID.test(node.nodeValue) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) { nodes.push(walker.currentNode); }
    nodes.forEach(function (node) {
      var text = node.nodeValue, frag = document.createDocumentFragment(), last = 0, m;
      ID.lastIndex = 0;
      while ((m = ID.exec(text)) !== null) {
        var start = m.index + m[1].length;
        frag.appendChild(document.createTextNode(text.slice(last, start)));
        var a = document.createElement("a");
        a.className = "rule-link";
        a.href = "/rules/id/" + m[2] + "/";
        a.textContent = m[2];
        frag.appendChild(a);
        last = start + m[2].length;
      }
      frag.appendChild(document.createTextNode(text.slice(last)));
      node.parentNode.replaceChild(frag, node);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { link(document.getElementById("main")); });
  document.addEventListener("htmx:afterSettle", function (event) { link(event.target); });
})();
