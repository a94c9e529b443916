// Live countdown next to every <time data-deadline> (the open, unpaused phase). Without JavaScript the page keeps
// the server-rendered time left ("2 hours, 5 minutes left"), so nothing depends on this script.
(function () {
  function pad(n) { return String(n).padStart(2, "0"); }
  function tick() {
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var out = el.parentElement.querySelector(".countdown");
      var deadline = Date.parse(el.dataset.deadline);
      if (!out || isNaN(deadline)) return;
      var left = Math.floor((deadline - Date.now()) / 1000);
      if (left <= 0) { out.textContent = "(" + (out.dataset.passed || "0:00:00") + ")"; return; }
      var d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
      var m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = "(" + (d ? d + " " + (out.dataset.days || "d") + " " : "") + h + ":" + pad(m) + ":" + pad(s) + ")";
    });
  }
  tick();
  setInterval(tick, 1000);
})();
