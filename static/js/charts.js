// Draw every server-built plotly figure on the page. Figures arrive as JSON in
// <script type="application/json"> blocks (escaped by Django's json_script), never as code.
(function () {
  "use strict";
  function draw() {
    if (typeof Plotly === "undefined") { return; }
    document.querySelectorAll("[data-chart]").forEach(function (div) {
      var source = document.getElementById(div.dataset.chart);
      if (!source) { return; }
      var fig = JSON.parse(source.textContent);
      Plotly.newPlot(div, fig.data || [], fig.layout || {}, { responsive: true, displaylogo: false })
        .then(function () { div.dataset.drawn = "1"; });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
