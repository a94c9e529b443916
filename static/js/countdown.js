// Live countdown next to every <time data-deadline>; the page works without it.
(function () {
  function tick() {
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var out = el.parentElement.querySelector(".countdown");
      if (!out) return;
      var left = Math.max(0, Math.floor((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = "(" + h + ":" + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0") + ")";
    });
  }
  tick();
  setInterval(tick, 1000);
})();
