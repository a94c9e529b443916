// Bloodwood's refill split (BW-6b, BW-6f), checked as it is picked: the day and night counts must add up to the
// cards due and be a split the decks allow (the server's list, data-splits: the valid day counts). Picking one
// count sets the other; an impossible split shows the reason and disables the button. Without JavaScript the
// server checks the split and refuses it with the same reason, so nothing depends on this script.
(function () {
  var box = document.getElementById("bw-split");
  if (!box) return;
  var form = box.closest("form"), due = parseInt(box.dataset.due, 10);
  var valid = box.dataset.splits.split(",").filter(Boolean).map(Number);
  var day = form.querySelector("select[name=day]"), night = form.querySelector("select[name=night]");
  var check = document.getElementById("bw-split-check"), button = form.querySelector("button[type=submit]");
  function has(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return Number(o.value) === value; });
  }
  function verify() {
    var ok = Number(day.value) + Number(night.value) === due && valid.indexOf(Number(day.value)) >= 0;
    check.hidden = ok;
    button.disabled = !ok;
  }
  day.addEventListener("change", function () {
    var rest = due - Number(day.value);
    if (has(night, rest)) night.value = String(rest);
    verify();
  });
  night.addEventListener("change", function () {
    var rest = due - Number(night.value);
    if (has(day, rest)) day.value = String(rest);
    verify();
  });
  verify();
})();
