// Bloodwood's turn form (BW-6a, BW-21a): the target picker offers only the legal targets of the card picked (the
// server's list, data-targets on each card's option), and "Play" is disabled for a card that can't be played now
// (it may still be discarded). Without JavaScript every player is offered and the server refuses an illegal target
// with BW-26's reason, so nothing depends on this script.
(function () {
  var box = document.getElementById("bw-targets");
  if (!box) return;
  var form = box.closest("form");
  var card = form.querySelector("select[name=card]"), target = form.querySelector("select[name=target]");
  var play = form.querySelector("button[name=line][value=play]");
  function filter() {
    var picked = card.options[card.selectedIndex];
    if (!picked) return;
    var legal = (picked.dataset.targets || "").split(",").filter(Boolean);
    Array.prototype.forEach.call(target.options, function (o) {
      var keep = o.value === "" || legal.indexOf(o.value) >= 0;
      o.hidden = !keep;
      o.disabled = !keep;
    });
    if (target.selectedOptions.length && target.selectedOptions[0].disabled) target.value = "";
    if (legal.length && target.value === "") target.value = legal[0];
    if (play) play.disabled = picked.dataset.playable !== "1";
  }
  card.addEventListener("change", filter);
  filter();
})();
