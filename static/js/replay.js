// A replay's keys (issue 26): ← and → press Previous and Next, Home and End First and Last —
// the page's own links or buttons (the same request as a click), never while typing in a
// field or with a modifier held. The keys' hint shows only where they work (with this script).
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last" };

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var id = KEYS[event.key];
    var control = id && document.getElementById(id);
    if (!control || !document.getElementById("replay")) return;
    event.preventDefault();
    if (control.matches("a[href], button")) control.click();
  });

  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("replay-keys");
    if (hint) hint.hidden = false;
  });
})();
