// Admin job form: narrow the benchmark picker to one family. Options of other families are hidden,
// not removed, so what is already selected stays selected and is submitted.
(function () {
  "use strict";
  function setup() {
    document.querySelectorAll("select[data-filters]").forEach(function (filter) {
      var target = document.getElementById(filter.dataset.filters);
      if (!target) { return; }
      filter.addEventListener("change", function () {
        var family = filter.value;
        Array.prototype.forEach.call(target.options, function (opt) {
          opt.hidden = Boolean(family) && opt.dataset.family !== family && !opt.selected;
        });
      });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
