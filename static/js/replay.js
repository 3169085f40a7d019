// A replay's keys (issue 26): ← and → press Previous and Next, Home and End First and Last —
// the page's own links or buttons (the same request as a click), never while typing in a
// field or with a modifier held. A key pressed while a step is still on its way waits for it
// and then presses the new page's control, so no press is lost and each lands on the step the
// screen shows. The keys' hint shows only where they work (with this script).
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last" };
  var waiting = []; // controls to press once the step on its way is drawn
  var busy = false;

  function press(id) {
    var control = document.getElementById(id);
    if (!control || !control.matches("a[href], button")) return;
    busy = !!window.htmx; // without htmx the click loads the page
    control.click();
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var id = KEYS[event.key];
    if (!id || !document.getElementById("replay")) return;
    event.preventDefault();
    if (busy) waiting.push(id);
    else press(id);
  });

  function next() {
    busy = false;
    if (waiting.length) press(waiting.shift());
  }

  // once the step's request is over (drawn, or failed: then the next press retries it)
  document.addEventListener("htmx:finally:request", function () {
    setTimeout(next, 0);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("replay-keys");
    if (hint) hint.hidden = false;
  });
})();
