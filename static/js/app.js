// Small enhancements on top of plain forms and htmx; the game is playable without them.
// - the clock ticks between server answers (the server's elapsed time is the truth), never
//   while the page is hidden, and each action says how long the page was hidden;
// - the copy-link button appears and copies the deal's URL;
// - arrow keys move between the board's cards by their position on the screen;
// - focus never falls to the page body when an answer replaces what had it;
// - keyboard shortcuts press the page's own Undo, Redo and New game controls;
// - the header's menu and the other panels close on Esc and on a press outside them.
// What acts on the game's board and its forms (the board version an action sends, a queued
// answer's target, a form htmx has not taken yet, a press on a redrawn card, the win's
// celebration) lives with the board's state: static/js/client/ (static/js/instant.js) and static/js/board/.
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

  // Time the page was hidden (visibilitychange) is no play time (issue 35): the clock does not
  // tick through it, and each game action tells the server how long the page was hidden since
  // the last one (X-Hidden-Ms), which the server leaves out of the game's time, within bounds.
  var hiddenTotal = 0;
  var hiddenSince = document.hidden ? performance.now() : null;
  var hiddenSent = 0;

  function hiddenMs() {
    return hiddenTotal + (hiddenSince === null ? 0 : performance.now() - hiddenSince);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden && hiddenSince === null) hiddenSince = performance.now();
    else if (!document.hidden && hiddenSince !== null) {
      hiddenTotal += performance.now() - hiddenSince;
      hiddenSince = null;
    }
  });

  var seen = new WeakMap();

  function tick() {
    var clock = document.getElementById("clock");
    if (!clock) return;
    var base = Number(clock.dataset.elapsed) || 0;
    if (!seen.has(clock)) seen.set(clock, [performance.now(), hiddenMs()]);
    var running = clock.dataset.running === "true";
    // time away does not count: without an action the clock stops where the server's does
    var left = clock.dataset.awayLeft === undefined ? Infinity : Number(clock.dataset.awayLeft);
    var since = seen.get(clock);
    var played = performance.now() - since[0] - (hiddenMs() - since[1]);
    var shown = running ? base + Math.min(played, left) : base;
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

  // --- arrow keys: by position on the board ------------------------------------------------
  // Up, Down, Left and Right go to the nearest card or place in that direction as the board is
  // drawn (Half Moon: from pile 1 at the bottom left, Up goes to pile 2; Seahaven: Up and Down
  // walk a column's fan, Left and Right go to the neighbouring column at the same height).
  // A card's point is the middle of its top strip, the part of a fanned card that shows.
  // Home and End go to the first and the last card in reading order.

  function stopsOf(board) {
    return Array.prototype.filter.call(
      board.querySelectorAll("button:not([disabled]), [tabindex='-1'].card"),
      function (el) { return el.offsetParent !== null; }
    );
  }

  function pointOf(el) {
    var r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + Math.min(r.height / 2, 12) };
  }

  var DIRECTIONS = {
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
  };

  // The nearest stop inside a cone around the direction (it must lead there more than it
  // strays sideways), else the nearest anywhere on that side.
  function nearest(stops, from, direction) {
    var here = pointOf(from);
    var best = [null, null];
    var bestScore = [Infinity, Infinity];
    stops.forEach(function (el) {
      if (el === from) return;
      var p = pointOf(el);
      var dx = p.x - here.x;
      var dy = p.y - here.y;
      var along = dx * direction[0] + dy * direction[1];
      if (along <= 4) return; // not in that direction
      var across = Math.abs(dx * direction[1]) + Math.abs(dy * direction[0]);
      var score = along + 2.5 * across;
      var kind = across <= along ? 0 : 1;
      if (score < bestScore[kind]) {
        bestScore[kind] = score;
        best[kind] = el;
      }
    });
    return best[0] || best[1];
  }

  document.addEventListener("keydown", function (event) {
    var board = document.getElementById("board");
    if (!board || !board.contains(document.activeElement)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var stops = stopsOf(board);
    var next = null;
    if (event.key === "Home") next = stops[0];
    else if (event.key === "End") next = stops[stops.length - 1];
    else if (DIRECTIONS[event.key]) next = nearest(stops, document.activeElement, DIRECTIONS[event.key]);
    else return;
    event.preventDefault();
    if (next) next.focus();
  });

  // --- focus after a swap --------------------------------------------------------------------
  // An answer replaces the board and the info bar. htmx puts the focus back on an element with
  // the same id; when there is none (an empty slot that now holds a card) or it is disabled
  // (Undo with nothing left to undo), the focus would fall to <body>. Instead it goes to the
  // same place's card, or the next control that can be used, or the board's first card.

  var last = null;

  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (!el || !el.closest) return;
    var place = el.closest("[data-place]");
    var controls = el.closest(".controls");
    last = {
      id: el.id,
      place: place ? place.dataset.place : null,
      control: controls ? Array.prototype.indexOf.call(controls.querySelectorAll("button, a"), el) : -1,
    };
  });

  function usable(el) {
    return el && !el.disabled && el.offsetParent !== null;
  }

  function restoreFocus() {
    var board = document.getElementById("board");
    var asked = board && board.querySelector("[autofocus]");
    if (asked && usable(asked) && !asked.contains(document.activeElement)) {
      asked.focus();
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    if (!last) return;
    var target = last.id ? document.getElementById(last.id) : null;
    if (!usable(target) && last.place && board) {
      var place = board.querySelector('[data-place="' + last.place + '"]');
      var inPlace = place ? stopsOf(place) : [];
      target = inPlace[inPlace.length - 1];
    }
    if (!usable(target) && last.control >= 0) {
      var all = Array.prototype.slice.call(document.querySelectorAll(".controls button, .controls a"));
      var after = all.slice(last.control).concat(all.slice(0, last.control).reverse());
      target = after.filter(usable)[0];
    }
    if (!usable(target) && board) target = stopsOf(board)[0];
    if (usable(target)) target.focus();
  }

  var pendingRestore = false;
  document.addEventListener("htmx:after:swap", function () {
    if (pendingRestore) return;
    pendingRestore = true;
    setTimeout(function () {
      pendingRestore = false;
      restoreFocus();
    }, 0);
  });

  // --- keyboard shortcuts ----------------------------------------------------------------------
  // Undo: Ctrl+Z or U; Redo: Ctrl+Y, Ctrl+Shift+Z or Shift+U; New game: N. Never while typing in
  // a field. They press the page's own controls (the real forms: same URL, fields, token and
  // request queue as a click), listed in templates/partials/shortcuts.html.

  function letter(event) {
    var key = event.key || "";
    if (/^[a-z]$/i.test(key)) return key.toLowerCase();
    var code = /^Key([A-Z])$/.exec(event.code || ""); // a Cyrillic layout: the key's place
    return code ? code[1].toLowerCase() : "";
  }

  function shortcut(event) {
    if (event.altKey) return null;
    var key = letter(event);
    if (event.ctrlKey || event.metaKey) {
      if (key === "z") return event.shiftKey ? "control-redo" : "control-undo";
      if (key === "y" && !event.shiftKey) return "control-redo";
      return null;
    }
    if (key === "u") return event.shiftKey ? "control-redo" : "control-undo";
    if (key === "n" && !event.shiftKey) return "control-new";
    return null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    if (target && target.isContentEditable) return;
    var id = shortcut(event);
    var control = id && document.getElementById(id);
    if (!control) return;
    event.preventDefault();
    if (control.disabled) return;
    if (control.form) control.form.requestSubmit(control);
    else control.click();
  });

  // Each game action tells the server how long the page was hidden since the last one (the
  // board's own request work, the board version it leaves from: static/js/board/requests.js).
  document.addEventListener("htmx:before:request", function (event) {
    var request = event.detail && event.detail.ctx && event.detail.ctx.request;
    var headers = request && request.headers;
    var board = document.getElementById("board");
    if (!headers || !board) return;
    var game = "/" + board.dataset.game + "/" + board.dataset.code + "/";
    if (String(request.action).indexOf(game) !== -1) {  // a game action, the info bar's too
      var hidden = hiddenMs();
      headers["X-Hidden-Ms"] = String(Math.max(0, Math.round(hidden - hiddenSent)));
      hiddenSent = hidden;
    }
  });

  // --- menus: the header's menu, Settings and the shortcuts' help ---------------------------
  // Each is a <details>: it opens and closes without JavaScript, by click, tap, Enter or Space.
  // Here Esc closes the innermost open one (the focus goes back to its button), and a press
  // outside an open one closes it and does nothing else (a tap on the board to close the menu
  // never plays a card).

  var PANELS = "details.menu, details.settings, details.shortcuts-help";
  var closedByPress = false;
  var pressesThatClosed = new WeakSet(); // the pointerdown events that closed a panel

  // Other scripts' press handlers (the board's) ask whether a press closed a panel: such a
  // press is no tap of theirs (its click is swallowed below).
  window.pagePanels = {
    closedBy: function (event) {
      return pressesThatClosed.has(event);
    },
  };

  function openPanels() {
    return Array.prototype.filter.call(document.querySelectorAll(PANELS), function (d) {
      return d.open;
    });
  }

  function close(panel, refocus) {
    panel.open = false;
    var summary = panel.querySelector("summary");
    if (refocus && summary) summary.focus();
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    var open = openPanels();
    if (!open.length) {
      closeHowto(event);
      return;
    }
    // the innermost: an open panel with no open panel inside it
    var inner = open.filter(function (d) {
      return !open.some(function (other) {
        return other !== d && d.contains(other);
      });
    });
    var active = document.activeElement;
    var holding = inner.filter(function (d) {
      return d.contains(active);
    });
    event.preventDefault();
    (holding.length ? holding : inner).forEach(function (d) {
      close(d, true);
    });
  });

  // The how-to-play (a panel over the foot of a game page, not a <details>): Esc closes it as
  // its × does (issue 45), by sending the × button's own form.
  function closeHowto(event) {
    var howto = document.getElementById("howto");
    var close = document.getElementById("howto-close");
    if (!howto || howto.hidden || !close || !howto.getClientRects().length) return;
    event.preventDefault();
    close.click();
  }

  document.addEventListener(
    "pointerdown",
    function (event) {
      closedByPress = false;
      // a press on a panel's own button (the menu's, with Settings open inside it) closes the
      // panels it is outside of and still toggles its own: one tap, not two (issue 45)
      var summary = event.target.closest && event.target.closest("summary");
      var toggles = summary && summary.parentElement.matches(PANELS);
      openPanels().forEach(function (d) {
        if (!d.contains(event.target)) {
          close(d, false);
          if (toggles) return;
          closedByPress = true;
          pressesThatClosed.add(event);
        }
      });
    },
    true
  );

  document.addEventListener(
    "click",
    function (event) {
      if (!closedByPress) return;
      closedByPress = false;
      if (event.detail === 0) return; // a key press: never swallowed
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    true
  );

  document.addEventListener("DOMContentLoaded", revealCopyButtons);
  document.addEventListener("htmx:after:swap", revealCopyButtons);
  setInterval(tick, 250);
})();
