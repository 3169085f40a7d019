// Cards move instead of teleporting (issue 16), with the Web Animations API on the live
// elements ("FLIP"), never under prefers-reduced-motion:
// - before an answer is swapped in (htmx:before:swap) the board's cards' boxes are read, each
//   card by its name: Seahaven's by its id (one deck), Half Moon's by data-motion (its place
//   and its depth there: two decks hold two of each card);
// - in the frame that first draws the answer, a card whose box changed is animated from the
//   old box to the new one (`translate`, which adds to the card's own transform); a card coming
//   from another place takes no presses on its way (they reach the card laid out under them);
//   a Half Moon card that is gone leaves visibly (a copy where it was rises and fades), the card
//   under it arrives; a Seahaven card that a move covers stays drawn under the card sliding
//   onto it;
// - static/js/board/seahaven-gestures.js hands over a dropped card's box where it was let go (the drag's
//   copy, [data-motion-for]), so a drop travels from the drop point to wherever the server put
//   it: its destination, or back to its place when the move was refused;
// - Send all home (issue 27): the answer's live region names the cards sent, in order
//   (#status[data-flight]); they fly to their foundations one after another, each one's copy
//   staying on its way until the last has landed.
// - a move the page draws ahead of its answer (static/js/instant.js, issue 32) moves the same way
//   at once (cardMotion.around); when the answer replaces those cards by the server's same ones,
//   their animations carry on, on the new elements, from where they were (transplant).
// Nothing waits for an animation: the DOM is updated at once (a view transition would first
// capture every named card, which cost hundreds of milliseconds per tap: docs/performance.md),
// the moving cards are the real, clickable buttons, and the next answer finishes whatever still
// moves before it reads the boxes.
(function () {
  "use strict";

  var SLIDE = { duration: 200, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" };
  var LEAVE = { duration: 260, easing: "ease-in" };
  var ARRIVE = { duration: 180, easing: "ease-out" };
  var CARDS = ".card[data-motion], .board.seahaven .card[data-card]";

  var reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function on() {
    return !!Element.prototype.animate && !(reduce && reduce.matches);
  }

  function keyOf(card) {
    return card.dataset.motion || "card-" + card.dataset.card;
  }

  var running = []; // the animations and copies of the answer drawn last
  var ahead = []; // {key, frames, options, animation, rect} of moves drawn ahead of the answer
  var recording = null; // while around() plays: where its card animations are noted
  var before = null; // key -> {rect, el}: the boxes read before the answer's swap
  var scheduled = false;

  // An answer is drawn at once: whatever still moves jumps to its end first.
  function finishAll() {
    running.forEach(function (item) {
      if (item.finish) item.finish();
      else item.remove();
    });
    running = [];
  }

  function boxes(board) {
    var seen = new Map();
    board.querySelectorAll(CARDS).forEach(function (card) {
      if (card.classList.contains("motion-copy")) return;
      seen.set(keyOf(card), { rect: card.getBoundingClientRect(), el: card });
    });
    return seen;
  }

  // A card on its way is drawn over the others; one that travels from another place takes no
  // presses until it lands (.flying), so a press lands on the card laid out under the pointer,
  // never on a card passing over it.
  function track(animation, card, far, frames, options, rect) {
    if (recording && card) recording.push({ key: keyOf(card), frames: frames, options: options, animation: animation, rect: rect, far: far });
    else running.push(animation);
    if (!card) return animation;
    card.classList.add("moving");
    if (far) card.classList.add("flying");
    animation.onfinish = animation.oncancel = function () {
      card.classList.remove("moving", "flying");
    };
    return animation;
  }

  // A copy of a card that is gone, where it was (inside the board, so it keeps its look).
  function copyAt(board, old) {
    var copy = old.el.cloneNode(true);
    ["id", "data-motion", "aria-pressed", "data-selected", "aria-label", "role"].forEach(function (name) {
      copy.removeAttribute(name);
    });
    copy.setAttribute("aria-hidden", "true");
    copy.tabIndex = -1;
    copy.classList.add("motion-copy");
    var frame = board.getBoundingClientRect();
    copy.style.left = old.rect.left - frame.left - board.clientLeft + "px";
    copy.style.top = old.rect.top - frame.top - board.clientTop + "px";
    copy.style.width = old.rect.width + "px";
    copy.style.height = old.rect.height + "px";
    board.appendChild(copy);
    running.push(copy);
    return copy;
  }

  var NO_FLIGHT = { keys: [], end: SLIDE.duration, delay: function () { return 0; } };

  // Send all home: the cards sent, in order, and when each one leaves.
  function flightOf() {
    var status = document.getElementById("status");
    var keys = status && status.dataset.flight ? status.dataset.flight.split(" ") : [];
    var step = keys.length ? Math.min(90, 1600 / keys.length) : 0;
    return {
      keys: keys,
      end: keys.length ? step * keys.length + SLIDE.duration : SLIDE.duration,
      delay: function (key) {
        var i = keys.indexOf(key);
        return i < 0 ? 0 : i * step;
      },
    };
  }

  // A card sent home that the answer no longer draws (a foundation shows its top card only):
  // its copy flies from its place to its foundation in its turn, and stays there to the end.
  function flyHome(board, copy, old, key, flight) {
    var home = board.querySelector("#place-foundation-" + key.slice(-1) + " .card");
    if (!home) return false;
    var to = home.getBoundingClientRect();
    if (recording) running.splice(running.indexOf(copy), 1);
    var fly = copy.animate(
      [{ translate: "0px 0px" }, { translate: to.left - old.rect.left + "px " + (to.top - old.rect.top) + "px" }],
      Object.assign({ id: "home " + key, delay: flight.delay(key), fill: "both" }, SLIDE)
    );
    if (!recording) running.push(fly);
    setTimeout(function () {
      copy.remove();
    }, flight.end);
    return true;
  }

  // Animate the board's cards from the boxes in `was`. `only`: just the cards named there
  // (a drag's return), no leaving or arriving cards.
  function play(was, only, flight) {
    var board = document.getElementById("board");
    if (!board || !was) return;
    flight = flight || (only ? NO_FLIGHT : flightOf());
    var halfMoon = board.classList.contains("half-moon");
    var moved = [];
    var arrived = [];
    var present = new Set();
    var carried = new Set(); // cards going on with a move drawn ahead of its answer
    ahead.forEach(function (a) {
      if (a.animation.playState === "running" && a.animation.effect) carried.add(a.animation.effect.target);
    });
    board.querySelectorAll(CARDS).forEach(function (card) {
      var key = keyOf(card);
      if (carried.has(card)) {
        present.add(key);
        return;
      }
      present.add(key);
      var old = was.get(key);
      if (!old) {
        if (halfMoon && !only) arrived.push(card);
        return;
      }
      var now = card.getBoundingClientRect();
      var dx = old.rect.left - now.left;
      var dy = old.rect.top - now.top;
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) {
        var far = Math.abs(dx) > now.width / 2 || Math.abs(dy) > now.height / 2;
        moved.push([card, dx, dy, key, far, now]);
      }
    });
    if (!only) {
      was.forEach(function (old, key) {
        if (present.has(key) || old.el.isConnected) return;
        var copy = copyAt(board, old);
        if (halfMoon) {
          var leave = copy.animate(
            [
              { transform: "none", opacity: 1 },
              { transform: "translateY(-45%) scale(1.12) rotate(-6deg)", opacity: 0 },
            ],
            Object.assign({ fill: "forwards", id: "leave " + key }, LEAVE)
          );
          leave.onfinish = function () {
            copy.remove();
          };
          if (recording) running.splice(running.indexOf(copy), 1);
          else running.push(leave);
        } else if (flight.keys.indexOf(key) < 0 || !flyHome(board, copy, old, key, flight)) {
          if (recording) running.splice(running.indexOf(copy), 1);
          copy.classList.add("covered"); // under the card that slides onto it, until it lands
          setTimeout(function () {
            copy.remove();
          }, flight.end);
        }
      });
    }
    moved.forEach(function (m) {
      var from = m[1] + "px " + m[2] + "px";
      var frames = [{ translate: from }, { translate: "0px 0px" }];
      var options = Object.assign({ id: "slide " + m[3], delay: flight.delay(m[3]), fill: "backwards" }, SLIDE);
      track(m[0].animate(frames, options), m[0], m[4], frames, options, m[5]);
    });
    arrived.forEach(function (card) {
      var frames = [{ transform: "scale(0.9)", opacity: 0 }, { transform: "none", opacity: 1 }];
      var options = Object.assign({ id: "arrive " + keyOf(card) }, ARRIVE);
      if (recording) {
        var rect = card.getBoundingClientRect();
        recording.push({ key: keyOf(card), frames: frames, options: options, animation: card.animate(frames, options), rect: rect });
      } else track(card.animate(frames, options), null, false);
    });
  }

  document.addEventListener("htmx:before:swap", function () {
    finishAll();
    before = null;
    var board = document.getElementById("board");
    if (!board || !on()) return;
    before = boxes(board);
    ahead = ahead.filter(function (a) {
      return a.animation.playState === "running";
    });
    ahead.forEach(function (a) {
      var old = before.get(a.key);
      if (old) old.rect = a.rect; // where it is going: the answer's same card does not move
    });
    // a dropped card starts from where it was let go
    document.querySelectorAll(".drag-ghost[data-landing] [data-motion-for]").forEach(function (copy) {
      var old = before.get(copy.dataset.motionFor);
      if (old) old.rect = copy.getBoundingClientRect();
    });
  });

  // Right after the DOM changed (before:settle follows each part's swap): the animations start
  // in the frame that first draws the answer, so no frame shows a card at its new place still.
  document.addEventListener("htmx:before:settle", function () {
    transplant(); // in the task of the swap: no frame shows the new cards standing still
    if (!before || scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () {
      scheduled = false;
      var was = before;
      before = null;
      play(was, false);
    });
  });

  // The answer replaced cards still moving ahead of it by the server's same cards: each new one
  // takes over its animation from where it was.
  function transplant() {
    var board = document.getElementById("board");
    if (!board) return;
    var cards = boxes(board);
    ahead.forEach(function (a) {
      var old = a.animation;
      var target = old.effect && old.effect.target;
      if (!target || target.isConnected || old.playState !== "running") return;
      var now = cards.get(a.key);
      if (!now) return;
      var time = old.currentTime;
      old.cancel();
      a.animation = now.el.animate(a.frames, a.options);
      a.animation.currentTime = time;
      if (a.options.id.indexOf("slide ") === 0) {
        now.el.classList.add("moving");
        if (a.far) now.el.classList.add("flying");
        a.animation.onfinish = a.animation.oncancel = function () {
          now.el.classList.remove("moving", "flying");
        };
      }
    });
  }

  // For static/js/instant.js: `change` draws a move ahead of its answer; the cards move as the
  // answer's would. flightKeys: Send all home's cards in order. Returns what change returns.
  function around(change, flightKeys) {
    var board = document.getElementById("board");
    if (!board || !on()) return change();
    var was = boxes(board);
    document.querySelectorAll(".drag-ghost[data-landing] [data-motion-for]").forEach(function (copy) {
      var old = was.get(copy.dataset.motionFor);
      if (old) old.rect = copy.getBoundingClientRect();
    });
    var result = change();
    transplant(); // cards redrawn while they still move go on moving
    if (typeof flightKeys === "function") flightKeys = flightKeys();
    var flight = NO_FLIGHT;
    if (flightKeys && flightKeys.length) {
      var step = Math.min(90, 1600 / flightKeys.length);
      flight = {
        keys: flightKeys,
        end: step * flightKeys.length + SLIDE.duration,
        delay: function (key) {
          var i = flightKeys.indexOf(key);
          return i < 0 ? 0 : i * step;
        },
      };
    }
    recording = [];
    try {
      play(was, false, flight);
      ahead = ahead.concat(recording);
    } finally {
      recording = null;
    }
    return result;
  }

  // For static/js/board/seahaven-gestures.js: the cards named in `from` (key -> DOMRect) travel from there to
  // where they are now (a drag let go outside any place returns).
  window.cardMotion = {
    on: on,
    around: around,
    slide: function (from) {
      if (!on()) return;
      var was = new Map();
      from.forEach(function (rect, key) {
        was.set(key, { rect: rect, el: null });
      });
      play(was, true);
    },
  };
})();
