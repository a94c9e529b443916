// The BBCode button bar above a reply box: wrap the selection (or insert at the cursor) in a tag pair. The bar
// is in the page hidden and shown only here, so without JavaScript nobody sees buttons that do nothing.
(function () {
  function wire(root) {
    root.querySelectorAll(".bbcode-bar[hidden]").forEach(function (bar) { bar.hidden = false; });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".bbcode-bar button[data-open]") : null;
    if (!button) return;
    var bar = button.closest(".bbcode-bar");
    var box = document.getElementById(bar.dataset.target);
    if (!box) return;
    event.preventDefault();
    var open = button.dataset.open, close = button.dataset.close || "";
    var start = box.selectionStart || 0, end = box.selectionEnd || 0;
    var selected = box.value.slice(start, end);
    box.value = box.value.slice(0, start) + open + selected + close + box.value.slice(end);
    box.focus();
    box.selectionStart = start + open.length;
    box.selectionEnd = start + open.length + selected.length;
  });
  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  // htmx swaps the thread (a published post, a preview): show the new bar too.
  document.addEventListener("htmx:afterSwap", function () { wire(document); });
})();
