// A replay's keys (issue 26): ← and → press Previous and Next, Home and End First and Last —
// the page's own links or buttons (the same request as a click), never while typing in a
// field or with a modifier held. A key pressed while a step is still on its way waits for it
// and then presses the new page's control, so no press is lost and each lands on the step the
// screen shows. The keys' hint shows only where they work (with this script, and a keyboard:
// static/css/replay.css).
//
// Issue 35: Play presses Next at the chosen pace until the last move (from the last, it starts
// at the deal again); any other step a player takes goes on from there. The slider goes to its
// step when let go (its form's own request); the move list marks the step shown.
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "step-prev", ArrowRight: "step-next", Home: "step-first", End: "step-last" };
  var waiting = []; // controls to press once the step on its way is drawn
  var busy = false;
  var timer = null;

  function live(id) {
    var control = document.getElementById(id);
    return control && control.matches("a[href], button") ? control : null;
  }

  function press(id) {
    var control = live(id);
    if (!control) return false;
    busy = !!window.htmx; // without htmx the click loads the page
    control.click();
    return true;
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

  // --- play and pause ----------------------------------------------------------------------
  function playButton() {
    return document.getElementById("replay-autoplay");
  }

  function showPlaying(playing) {
    var button = playButton();
    if (!button) return;
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    button.querySelector(".play-text").textContent = playing ? button.dataset.pause : button.dataset.play;
    button.querySelector(".play-icon").textContent = playing ? "❚❚" : "▶";
  }

  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    showPlaying(false);
  }

  function pace() {
    var speed = document.getElementById("replay-speed");
    var ms = speed ? parseInt(speed.value, 10) : 1000;
    return ms > 0 ? ms : 1000;
  }

  function tick() {
    timer = null;
    if (busy) return; // the step on its way schedules the next tick once drawn
    if (!press("step-next")) return stop(); // the last move: the end
    if (!busy) schedule(); // without htmx the page loads anew and playing ends
  }

  function schedule() {
    if (timer === null) timer = setTimeout(tick, pace());
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#replay-autoplay");
    if (!button) return;
    if (button.getAttribute("aria-pressed") === "true") return stop();
    showPlaying(true);
    if (!live("step-next")) press("step-first"); // at the end: again from the deal
    schedule();
  });

  // --- the slider ----------------------------------------------------------------------------
  document.addEventListener("change", function (event) {
    var slider = event.target;
    if (slider.id !== "replay-slider" || !slider.form) return;
    if (slider.form.id === "pager-form") {
      // a pasted game: its Go button sends the slider's step (no step button pressed)
      slider.form.requestSubmit(document.getElementById("scrub-go"));
    } else {
      slider.form.requestSubmit();
    }
  });

  // --- the move list: the step shown is marked and kept in view in its box ------------------
  function markStep() {
    var replay = document.getElementById("replay");
    var list = document.getElementById("move-list");
    if (!replay || !list) return;
    var step = replay.dataset.step;
    list.querySelectorAll("li[aria-current]").forEach(function (li) { li.removeAttribute("aria-current"); });
    var current = list.querySelector('li[data-step="' + step + '"]');
    if (!current) return;
    current.setAttribute("aria-current", "step");
    var top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  function next() {
    busy = false;
    markStep();
    if (waiting.length) press(waiting.shift());
    else if (playButton() && playButton().getAttribute("aria-pressed") === "true") schedule();
  }

  // once the step's request is over (drawn, or failed: then the next press retries it)
  document.addEventListener("htmx:finally:request", function () {
    setTimeout(next, 0);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("replay-keys");
    if (hint) hint.hidden = false;
    var player = document.getElementById("replay-player");
    if (player) player.hidden = false;
    document.documentElement.classList.add("replay-scripted"); // the slider needs no Go
    markStep();
  });
})();
