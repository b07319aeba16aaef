// Draw every server-built plotly figure on the page. Figures arrive as JSON in
// <script type="application/json"> blocks (escaped by Django's json_script), never as code.
(function () {
  "use strict";
  function draw() {
    if (typeof Plotly === "undefined") { return; }
    var tplNode = document.getElementById("plot-template");
    var template = tplNode ? JSON.parse(tplNode.textContent) : null;
    document.querySelectorAll("[data-chart]").forEach(function (div) {
      var source = document.getElementById(div.dataset.chart);
      if (!source) { return; }
      var fig = JSON.parse(source.textContent);
      fig.layout = fig.layout || {};
      if (template && !fig.layout.template) { fig.layout.template = template; }
      // On a phone the mode bar would sit on the title (and a touch screen has no hover to hide
      // it again): no mode bar there; elsewhere it shows while the pointer is over the chart.
      var narrow = window.matchMedia("(max-width: 700px)").matches;
      Plotly.newPlot(div, fig.data || [], fig.layout || {},
                     { responsive: true, displaylogo: false, displayModeBar: narrow ? false : "hover" })
        .then(function () { div.dataset.drawn = "1"; });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
