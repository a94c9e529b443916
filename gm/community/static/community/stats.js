// The statistics page's charts (Chart.js, served from static/vendor/chartjs): each <canvas data-labels
// data-values> becomes a bar chart of win percentages. The tables below the charts hold the same figures, so the
// page says everything without JavaScript.
(function () {
  "use strict";
  function draw(canvas) {
    if (!window.Chart || !canvas) { return; }
    var labels = (canvas.dataset.labels || "").split("|");
    var values = (canvas.dataset.values || "").split("|").map(Number);
    if (!labels.length || labels[0] === "") { return; }
    new window.Chart(canvas, {
      type: "bar",
      data: {labels: labels, datasets: [{label: canvas.dataset.title || "", data: values}]},
      options: {responsive: true, maintainAspectRatio: false, animation: false,
                scales: {y: {beginAtZero: true, max: 100}}, plugins: {legend: {display: false}}}
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    draw(document.getElementById("chart-sides"));
    draw(document.getElementById("chart-roles"));
  });
})();
