// Live job progress: poll the JSON endpoint and update the bar until the job ends.
(function () {
  "use strict";
  var block = document.getElementById("progress");
  if (!block) { return; }
  var bar = document.getElementById("progress-bar");
  var text = document.getElementById("progress-text");
  var status = document.getElementById("progress-status");
  var rate = document.getElementById("progress-rate");
  var eta = document.getElementById("progress-eta");
  function duration(s) {
    if (s === null || s === undefined) { return ""; }
    s = Math.round(s);
    if (s < 90) { return s + " s left"; }
    if (s < 5400) { return Math.round(s / 60) + " min left"; }
    return (s / 3600).toFixed(1) + " h left";
  }
  function update(d) {
    var pct = d.total ? Math.round(100 * (d.done + d.failed) / d.total) : 0;
    bar.style.width = pct + "%";
    block.querySelector(".progress").setAttribute("aria-valuenow", String(pct));
    text.textContent = d.done + " done, " + d.failed + " failed of " + d.total + " (" + pct + "%)";
    status.textContent = d.status;
    status.className = "badge " + d.status;
    rate.textContent = d.rate_per_s ? d.rate_per_s.toFixed(2) + " items/s" : "";
    eta.textContent = d.status === "running" ? duration(d.eta_s) : "";
    block.dataset.percent = String(pct);
    block.dataset.status = d.status;
    return d.status === "pending" || d.status === "running";
  }
  function poll() {
    fetch(block.dataset.url, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (d) { if (update(d)) { setTimeout(poll, 1000); } })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
