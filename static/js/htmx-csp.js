// htmx under the site's Content-Security-Policy (script-src 'self', no 'unsafe-eval'): htmx must not evaluate
// attribute code (trigger filters, js: values, hx-on), so code that used to live in attributes lives here.
(function () {
  if (!window.htmx) return;
  htmx.config.allowEval = false;
  // The order form saves itself when a card or option is picked (.fm-pick): a named event instead of the
  // eval'd trigger filter change[target.classList.contains('fm-pick')].
  document.addEventListener("change", function (event) {
    var pick = event.target.closest ? event.target.closest(".fm-pick") : null;
    var form = pick && pick.form;
    if (form) htmx.trigger(form, "fm-pick");
  });
})();
