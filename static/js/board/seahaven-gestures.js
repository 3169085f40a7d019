// Seahaven Towers: double tap and drag and drop on top of the plain forms (an ES module: the
// board's dispatcher, static/js/client/dispatch.js, calls listenForGestures() on a Seahaven board only).
// Without JavaScript every card is a form button: a tap selects or sends to the foundation,
// a second tap on a destination moves the selection there. With it, the script only decides
// *when* a form is submitted; URLs, fields and the token come from the forms in the page, and
// every submission joins the page's one queue (hx-sync on #main), so actions stay in order:
// - every click is a tap at once (the place form, through htmx); a second press on the same
//   card within the double-tap window is the double tap: the #gesture-double form (auto with
//   double=1), which the server finishes so the game ends as the double tap alone leaves it.
//   The second press is recognised when it goes down, not by its click: the first tap's answer
//   may redraw the card while the button is held (the browser then fires no click). Only a
//   press on that same card (its place and card, redrawn or not) is a second: a press on any
//   other card, the card the first tap uncovered too, is a new tap (issue 32: 3♥ 4♥ 5♥ tapped
//   home at one spot 0.25 s apart each go home);
// - keyboard activation (Enter, Space) is always a tap;
// - a touch tap the browser drops after a quick drag (no click comes) is made all the same;
// - a movable card (with the run above it) can be dragged to a column, cell or foundation
//   (mouse and touch, through pointer events): the #gesture-drop form; the cards then travel
//   from the drop point to where the server put them (a refused drop returns to its place).
export function listenForGestures() {
  var DOUBLE_TAP_MS = 350;
  var DOUBLE_TAP_SLOP_PX = 12;
  var DRAG_START_PX = 8;
  var lastTap = null; // the last click sent as a tap: its place, its card, when it was pressed
  var pressedAt = -Infinity; // when the last press went down: a tap's time is its press's
  var second = null; // a press that is a double tap's second: the first tap's place and card
  var drag = null;
  var swallowClick = false; // the click of a press that ended as a drag or a double tap

  function board() {
    return document.getElementById("board");
  }

  function onBoard(element) {
    var b = board();
    return b && b.classList.contains("seahaven") && b.contains(element);
  }

  function placeOf(button) {
    var field = button.form && button.form.elements.namedItem("place");
    return field ? field.value : "";
  }

  // Fill a gesture form's fields and submit it (htmx takes the submit event).
  function submit(id, values) {
    var form = document.getElementById(id);
    if (!form) return;
    Object.keys(values).forEach(function (name) {
      form.elements.namedItem(name).value = values[name];
    });
    form.requestSubmit();
  }

  // Is this press the second of a double tap? Within the window, on the first tap's card (the
  // same place and card, whether or not an answer has redrawn its button since). The page
  // draws a card a tap sends home gone at once (static/js/instant.js): a press at the same spot
  // within UNCOVERED_MS is still that double tap's second; later, a press on the card it
  // uncovered is a new tap (issue 32, item 4: 3♥ 4♥ 5♥ tapped home 0.25 s apart).
  var UNCOVERED_MS = 200;

  function secondPress(event) {
    var tap = lastTap;
    var since = tap ? performance.now() - tap.at : Infinity;
    if (since > DOUBLE_TAP_MS) return false;
    var button = event.target.closest && event.target.closest("button[name=card]");
    if (!button || !onBoard(button)) return false;
    if (placeOf(button) === tap.place && button.value === tap.card) return true;
    if (since > UNCOVERED_MS) return false;
    var near = Math.hypot(event.clientX - tap.x, event.clientY - tap.y) <= DOUBLE_TAP_SLOP_PX;
    var gone = !board().querySelector('[data-place="' + tap.place + '"] button[value="' + tap.card + '"]');
    return near && gone;
  }

  document.addEventListener(
    "pointerdown",
    function (event) {
      swallowClick = false; // a new press: its click is its own
      second = null;
      var at = performance.now();
      if (!event.isPrimary || event.button !== 0 || !window.htmx) return;
      if (secondPress(event)) {
        second = { place: lastTap.place, card: lastTap.card, pointer: event.pointerId };
      }
      lastTap = null;
      pressedAt = at;
    },
    true
  );

  document.addEventListener(
    "pointerup",
    function (event) {
      if (!second || event.pointerId !== second.pointer) return;
      var double = second;
      second = null;
      if (drag && drag.started) return; // pressed again and dragged: a drop, not a double tap
      swallowClick = true; // the press's click (if the browser fires one) is no tap
      submit("gesture-double", { place: double.place, card: double.card });
    },
    true
  );

  document.addEventListener(
    "pointercancel",
    function () {
      second = null;
    },
    true
  );

  // --- a touch tap the browser drops (issue 22) -----------------------------------------------
  // Chromium fires no click for a tap that comes soon after a quick touch drag released while
  // still moving: the drag (on a card with touch-action: none) starts a fling that moves
  // nothing, and the next touch only stops it — up to a second and more later. The pointer
  // events of that tap still come (tests/browser/test_phone.py shows all this on a page without
  // scripts). So a touch press on a card that ends where it began, with no drag, and gets no
  // click within LOST_TAP_MS of its release, is the tap it was: the script clicks the card's
  // button itself (its own form, as a keyboard tap). Not while the page was scrolling: stopping
  // a real fling is no tap. If the browser's click comes after all, it is swallowed: exactly
  // one tap either way.

  var LOST_TAP_MS = 120;
  var press = null; // the touch press going on: its pointer, where it began, its card
  var pending = null; // a released touch press waiting for its click
  var clicked = null; // a tap the script made: the browser's late click of it is no tap
  var scrolledAt = -Infinity;

  window.addEventListener(
    "scroll",
    function () {
      scrolledAt = performance.now();
    },
    { capture: true, passive: true }
  );

  document.addEventListener(
    "pointerdown",
    function (event) {
      press = null;
      if (event.pointerType !== "touch" || !event.isPrimary || !window.htmx) return;
      // a press that closes a menu plays no card (app.js: window.pagePanels)
      if (window.pagePanels && window.pagePanels.closedBy(event)) return;
      var button = event.target.closest && event.target.closest("button[name=card]");
      if (!button || !onBoard(button)) return;
      press = {
        pointer: event.pointerId,
        x: event.clientX,
        y: event.clientY,
        button: button,
        scrolling: performance.now() - scrolledAt < 150,
      };
    },
    true
  );

  document.addEventListener(
    "pointermove",
    function (event) {
      if (!press || event.pointerId !== press.pointer) return;
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > DOUBLE_TAP_SLOP_PX) {
        press = null; // a drag (or a scroll), not a tap
      }
    },
    true
  );

  document.addEventListener(
    "pointerup",
    function (event) {
      var done = press;
      press = null;
      if (!done || event.pointerId !== done.pointer || done.scrolling) return;
      if (swallowClick || (drag && drag.started)) return; // a double tap's second, or a drop
      if (pending) clearTimeout(pending.timer);
      pending = {
        button: done.button,
        place: placeOf(done.button),
        timer: setTimeout(tapLost, LOST_TAP_MS),
      };
    },
    true
  );

  document.addEventListener(
    "pointercancel",
    function () {
      press = null;
    },
    true
  );

  function tapLost() {
    var lost = pending;
    pending = null;
    if (!lost) return;
    // the card the player saw: its button, or the one an answer drew in its place since
    var button = lost.button.isConnected ? lost.button : document.getElementById(lost.button.id);
    if (!button || !onBoard(button) || placeOf(button) !== lost.place || button.disabled) return;
    clicked = { button: button, until: performance.now() + 1000 };
    button.click();
  }

  document.addEventListener(
    "click",
    function (event) {
      if (event.detail === 0) return; // a key press or the script's own click
      if (pending) {
        clearTimeout(pending.timer); // the browser's click came: it is the tap
        pending = null;
        return;
      }
      var made = clicked;
      clicked = null;
      if (made && performance.now() < made.until) {
        var button = event.target.closest && event.target.closest("button[name=card]");
        if (button && button.id === made.button.id) {
          event.preventDefault(); // the browser's click of a tap the script already made
          event.stopImmediatePropagation();
        }
      }
    },
    true
  );

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("button[name=card]");
      if (swallowClick && event.detail !== 0) {
        // the click that ends a drag or a double tap is no tap (wherever it lands)
        swallowClick = false;
        if (button || onBoard(event.target)) {
          event.preventDefault();
          event.stopPropagation();
        }
        return;
      }
      if (!button || !onBoard(button) || !window.htmx) return;
      // a tap: the button submits its place form now (keyboard taps never start a double tap)
      lastTap =
        event.detail === 0 || button.value === ""
          ? null
          : {
              place: placeOf(button),
              card: button.value,
              // the press's time, not the click's: a held tap's click comes when the finger
              // lifts, and taps "0.25 s apart" are 0.25 s from press to press
              at: Math.min(pressedAt, performance.now()),
              x: event.clientX,
              y: event.clientY,
            };
    },
    true
  );

  // --- drag and drop ------------------------------------------------------------------------

  function runOf(button) {
    // the card and every card above it in its column (a cell or foundation: the card alone)
    var run = [button];
    var next = button.nextElementSibling;
    while (next && next.matches("button.card")) {
      run.push(next);
      next = next.nextElementSibling;
    }
    return run;
  }

  function startDrag(state) {
    var rect = state.button.getBoundingClientRect();
    var ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    state.run.forEach(function (card) {
      var copy = card.cloneNode(true);
      copy.removeAttribute("id");
      copy.setAttribute("data-motion-for", "card-" + card.dataset.card); // static/js/motion.js
      copy.tabIndex = -1;
      ghost.appendChild(copy);
      card.classList.add("dragging");
    });
    ghost.style.width = rect.width + "px";
    document.body.appendChild(ghost);
    state.marked = markTargets(state.button);
    state.ghost = ghost;
    state.dx = state.x - rect.left;
    state.dy = state.y - rect.top;
    state.started = true;
    lastTap = null;
  }

  function placeGhost(state, x, y) {
    state.ghost.style.transform =
      "translate(" + (x - state.dx) + "px, " + (y - state.dy) + "px)";
  }

  // Placement help: the server lists where a card may go (data-targets); while it is dragged
  // those places are marked as the selection's destinations are.
  function markTargets(button) {
    var names = (button.dataset.targets || "").split(" ").filter(Boolean);
    var marked = [];
    names.forEach(function (name) {
      var place = board().querySelector('[data-place="' + name + '"]');
      if (place && !place.classList.contains("destination")) {
        place.classList.add("destination");
        marked.push(place);
      }
    });
    return marked;
  }

  function endDrag(state) {
    (state.marked || []).forEach(function (place) {
      place.classList.remove("destination");
    });
    if (state.ghost) state.ghost.remove();
    state.run.forEach(function (card) {
      card.classList.remove("dragging");
    });
    document.querySelectorAll(".drop-target").forEach(function (el) {
      el.classList.remove("drop-target");
    });
  }

  function placeAt(x, y) {
    var under = document.elementFromPoint(x, y);
    var place = under && under.closest && under.closest("[data-place]");
    return place && onBoard(place) ? place : null;
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !window.htmx) return;
    var button = event.target.closest && event.target.closest("button.card.movable");
    if (!button || !onBoard(button)) return;
    drag = { button: button, run: runOf(button), x: event.clientX, y: event.clientY, started: false };
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      startDrag(drag);
    }
    event.preventDefault();
    placeGhost(drag, event.clientX, event.clientY);
    document.querySelectorAll(".drop-target").forEach(function (el) {
      el.classList.remove("drop-target");
    });
    var place = placeAt(event.clientX, event.clientY);
    if (place && place !== drag.button.form) place.classList.add("drop-target");
  });

  function finish(event, cancelled) {
    if (!drag) return;
    var state = drag;
    drag = null;
    if (!state.started) return;
    swallowClick = true; // reset by the next press
    state.ghost.hidden = true;
    var place = cancelled ? null : placeAt(event.clientX, event.clientY);
    var dropped = !!place && place !== state.button.form;
    state.ghost.hidden = false;
    if (dropped && motion()) {
      // the copy stays where it was let go until the answer is drawn: the cards then travel
      // from there (static/js/motion.js reads its box), and it goes (landed, below)
      state.ghost.setAttribute("data-landing", "");
      endDrag({ marked: state.marked, ghost: null, run: [] });
    } else {
      var from = boxesOf(state.ghost);
      endDrag(state);
      if (!dropped && motion()) window.cardMotion.slide(from); // back to its place
    }
    if (dropped) {
      submit("gesture-drop", {
        from: placeOf(state.button),
        card: state.button.value,
        to: place.dataset.place,
      });
    }
  }

  // --- motion: the dropped cards travel from where they were let go ---------------------------

  function motion() {
    return !!window.cardMotion && window.cardMotion.on();
  }

  function boxesOf(ghost) {
    var from = new Map();
    ghost.querySelectorAll("[data-motion-for]").forEach(function (copy) {
      from.set(copy.dataset.motionFor, copy.getBoundingClientRect());
    });
    return from;
  }

  // A dropped copy goes once the answer is in the page (its box was read before the swap),
  // or, with no answer drawn (the request failed), the cards return from it to their place.
  function landed(event) {
    document.querySelectorAll(".drag-ghost[data-landing]").forEach(function (ghost) {
      var from = boxesOf(ghost);
      ghost.remove();
      if (!drag) {
        document.querySelectorAll(".seahaven .card.dragging").forEach(function (card) {
          card.classList.remove("dragging");
        });
      }
      if (event.type === "htmx:finally:request" && motion()) window.cardMotion.slide(from);
    });
  }

  document.addEventListener("htmx:before:settle", landed);
  document.addEventListener("htmx:finally:request", landed);

  document.addEventListener("pointerup", function (event) {
    finish(event, false);
  });
  document.addEventListener("pointercancel", function (event) {
    finish(event, true);
  });
}
