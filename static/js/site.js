// Site-wide touches, loaded on every page (deferred).
// Dates: the server writes <time datetime="ISO" title="ISO">2026-12-01 14:05 UTC</time>; here the
// text becomes the reader's local time, readable, with the ISO kept in the tooltip.
(function () {
  "use strict";
  var fmt;
  try {
    fmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric",
      hour: "2-digit", minute: "2-digit" });
  } catch (e) { return; }
  function localise(root) {
    (root || document).querySelectorAll("time[datetime]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d.getTime())) { return; }
      t.textContent = fmt.format(d);
      if (!t.title) { t.title = t.getAttribute("datetime"); }
      t.dataset.local = "1";
    });
  }
  window.podiumLocalise = localise;
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", function () { localise(); }); }
  else { localise(); }
})();
