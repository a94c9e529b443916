// The game thread's quote buttons: put [quote="Name"]…[/quote] into the reply box at the cursor instead of
// reloading the page (the button's link does that without JavaScript: ?quote=<post id>#post-form).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("a.quote-button[data-quote]") : null;
    var box = document.querySelector("#post-form textarea[name=body]");
    if (!button || !box) return;
    event.preventDefault();
    var text = button.dataset.quote;
    var start = box.selectionStart || 0, end = box.selectionEnd || 0;
    var before = box.value.slice(0, start);
    if (before && !/\n$/.test(before)) text = "\n" + text;
    box.value = before + text + box.value.slice(end);
    box.focus();
    box.selectionStart = box.selectionEnd = start + text.length;
    box.scrollIntoView({block: "center"});
  });
})();
