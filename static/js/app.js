// Small enhancements on top of plain forms and htmx; the game is playable without them.
// - the clock ticks between server answers (the server's elapsed time is the truth);
// - the copy-link button appears and copies the deal's URL;
// - arrow keys move between the board's cards.
(function () {
  "use strict";

  function format(ms) {
    var seconds = Math.floor(ms / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(rest).padStart(2, "0");
  }

  var seen = new WeakMap();

  function tick() {
    var clock = document.getElementById("clock");
    if (!clock) return;
    var base = Number(clock.dataset.elapsed) || 0;
    if (!seen.has(clock)) seen.set(clock, performance.now());
    var running = clock.dataset.running === "true";
    var shown = running ? base + performance.now() - seen.get(clock) : base;
    var text = format(shown);
    if (clock.textContent !== text) clock.textContent = text;
  }

  function revealCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    navigator.clipboard.writeText(button.dataset.copy).then(function () {
      var status = document.getElementById("status");
      if (status) status.textContent = button.dataset.copied;
    });
  });

  // Arrow keys walk the board's cards and places (Tab reaches them too): Left/Up to the
  // previous one, Right/Down to the next, Home/End to the first and last.
  document.addEventListener("keydown", function (event) {
    var keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
    var step = keys[event.key];
    var board = document.getElementById("board");
    if (step === undefined || !board || !board.contains(document.activeElement)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var stops = Array.prototype.filter.call(
      board.querySelectorAll("button:not([disabled]), [tabindex='-1'].card"),
      function (el) { return el.offsetParent !== null; }
    );
    var here = stops.indexOf(document.activeElement);
    var next = step === "first" ? 0 : step === "last" ? stops.length - 1 : here + step;
    if (next < 0 || next >= stops.length) return;
    event.preventDefault();
    stops[next].focus();
  });

  // A page's game actions wait in one queue (hx-sync="#main:queue all" on every game form), so
  // an action can leave after an earlier answer replaced the board it was clicked on. htmx
  // resolves hx-target when the click happens and would throw the answer away because that
  // board is gone; draw it on the board that is there now (same id), so no answer is lost.
  document.addEventListener("htmx:after:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var target = ctx && ctx.target;
    if (target && target.id && target.isConnected === false) {
      var current = document.getElementById(target.id);
      if (current) ctx.target = current;
    }
  });

  document.addEventListener("DOMContentLoaded", revealCopyButtons);
  document.addEventListener("htmx:after:swap", revealCopyButtons);
  setInterval(tick, 250);
})();
