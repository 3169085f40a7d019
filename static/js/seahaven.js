// Seahaven Towers: double tap and drag and drop on top of the plain forms.
// Without JavaScript every card is a form button: a tap selects or sends to the foundation,
// a second tap on a destination moves the selection there. With it:
// - a single click waits a moment: a second click makes it a double tap (/auto), never both;
// - keyboard activation (Enter, Space) taps at once;
// - a movable card (with the run above it) can be dragged to a column, cell or foundation
//   (mouse and touch, through pointer events); a drop the rules refuse snaps back.
(function () {
  "use strict";

  var DOUBLE_TAP_MS = 280;
  var DRAG_START_PX = 8;
  var pending = null;
  var drag = null;
  var swallowClick = false;

  function board() {
    return document.getElementById("board");
  }

  function onBoard(element) {
    var b = board();
    return b && b.classList.contains("seahaven") && b.contains(element);
  }

  function token() {
    var input = board().querySelector("input[name=token]");
    return input ? input.value : "";
  }

  function post(verb, values) {
    values.token = token();
    return htmx.ajax("POST", "/seahaven/" + board().dataset.code + "/" + verb, {
      target: "#board",
      swap: "outerHTML",
      values: values,
    });
  }

  function tapValues(button) {
    return { place: button.form.dataset.place, card: button.value };
  }

  function flushPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    var values = pending.values;
    pending = null;
    post("tap", values);
  }

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("button[name=card]");
      if (!button || !onBoard(button) || !window.htmx) return;
      event.preventDefault();
      if (swallowClick) {
        swallowClick = false;
        return;
      }
      if (event.detail === 0) {
        // keyboard or assistive technology: a tap, now
        flushPending();
        post("tap", tapValues(button));
        return;
      }
      if (pending && pending.button === button) {
        clearTimeout(pending.timer);
        pending = null;
        post("auto", tapValues(button));
        return;
      }
      flushPending();
      var values = tapValues(button);
      pending = {
        button: button,
        values: values,
        timer: setTimeout(function () {
          pending = null;
          post("tap", values);
        }, DOUBLE_TAP_MS),
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
    if (pending) {
      clearTimeout(pending.timer);
      pending = null;
    }
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
    swallowClick = true;
    setTimeout(function () {
      swallowClick = false;
    }, 0);
    state.ghost.hidden = true;
    var place = cancelled ? null : placeAt(event.clientX, event.clientY);
    endDrag(state);
    if (place && place !== state.button.form) {
      post("move", {
        from: state.button.form.dataset.place,
        card: state.button.value,
        to: place.dataset.place,
      });
    }
  }

  document.addEventListener("pointerup", function (event) {
    finish(event, false);
  });
  document.addEventListener("pointercancel", function (event) {
    finish(event, true);
  });
})();
