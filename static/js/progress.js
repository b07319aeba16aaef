// Live job page: poll the JSON endpoint and keep everything on the page true until the job ends:
// the bar, the status badge (done / partial / failed / cancelled), the run rows of the page shown,
// and the staff buttons. Text goes in with textContent only.
(function () {
  "use strict";
  // Cancelling asks first (a form attribute, so it works without the poller too).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.confirm(form.dataset.confirm)) { e.preventDefault(); }
    });
  });
  var block = document.getElementById("progress");
  if (!block) { return; }
  var bar = document.getElementById("progress-bar");
  var text = document.getElementById("progress-text");
  var status = document.getElementById("progress-status");
  var rate = document.getElementById("progress-rate");
  var eta = document.getElementById("progress-eta");
  var table = document.querySelector('table[data-table="job-runs"]');
  var columns = {};
  if (table) {
    table.querySelectorAll("thead th").forEach(function (th, i) { columns[th.dataset.col] = i; });
  }
  function duration(s) {
    if (s === null || s === undefined) { return ""; }
    s = Math.round(s);
    if (s < 90) { return s + " s left"; }
    if (s < 5400) { return Math.round(s / 60) + " min left"; }
    return (s / 3600).toFixed(1) + " h left";
  }
  function badge(cell, value) {
    if (!cell) { return; }
    var span = document.createElement("span");
    span.className = "badge " + value;
    span.textContent = value;
    cell.replaceChildren(span);
  }
  function updateRuns(runs) {
    if (!table || !runs) { return; }
    runs.forEach(function (r) {
      var row = table.querySelector('tbody tr[data-key="' + r.id + '"]');
      if (!row) { return; }
      var cells = row.children;
      badge(cells[columns.status], r.outcome);
      var items = cells[columns.items];
      if (items) {
        var span = document.createElement("span");
        span.textContent = r.done + " / " + r.failed + " / " + r.total;
        items.replaceChildren(span);
      }
      var score = cells[columns.score];
      if (score) {
        var link = document.createElement("a");
        link.href = r.url;
        link.textContent = r.score_text;
        score.replaceChildren(link);
      }
      row.dataset.status = r.outcome;
    });
  }
  function show(id, visible) {
    var node = document.getElementById(id);
    if (node) { node.hidden = !visible; }
  }
  function update(d) {
    var pct = d.total ? Math.round(100 * (d.done + d.failed) / d.total) : 0;
    bar.style.width = pct + "%";
    block.querySelector(".progress").setAttribute("aria-valuenow", String(pct));
    text.textContent = d.done + " done, " + d.failed + " failed of " + d.total + " (" + pct + "%)";
    status.textContent = d.outcome;
    status.className = "badge " + d.outcome;
    rate.textContent = d.rate_per_s ? d.rate_per_s.toFixed(2) + " items/s" : "";
    eta.textContent = d.status === "running" ? duration(d.eta_s) : "";
    updateRuns(d.runs);
    show("cancel-form", d.can_cancel);
    show("resume-form", d.can_resume);
    block.dataset.percent = String(pct);
    block.dataset.outcome = d.outcome;
    block.dataset.status = d.status;  // last: tests and scripts wait on it
    return d.status === "pending" || d.status === "running";
  }
  var url = block.dataset.url + "?runs=1&page=" + encodeURIComponent(block.dataset.page || "1");
  function poll() {
    fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (d) { if (update(d)) { setTimeout(poll, 1000); } })
      .catch(function () { setTimeout(poll, 3000); });
  }
  // An ended job's page is already true; poll only while it can change.
  if (block.dataset.live === "1") { poll(); }
})();
