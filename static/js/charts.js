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
      fitHeatmapText(div, fig.data || []);
      Plotly.newPlot(div, fig.data || [], fig.layout || {},
                     { responsive: true, displaylogo: false, displayModeBar: narrow ? false : "hover" })
        .then(function () { div.dataset.drawn = "1"; });
    });
  }
  // A heatmap's cells carry mean, SE and n on three lines; where a cell is too narrow for them
  // (a phone) it shows the mean alone, and nothing below that width. The table under the chart
  // holds every value, so a touch screen loses nothing it could not hover anyway.
  function fitHeatmapText(div, traces) {
    traces.forEach(function (t) {
      if (t.type !== "heatmap" || !t.x || !t.texttemplate) { return; }
      var cell = (div.clientWidth - 200) / t.x.length;  // less the axis labels and colour bar
      if (cell < 26) { t.texttemplate = ""; } else if (cell < 48) { t.texttemplate = "%{z:.1f}"; }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
