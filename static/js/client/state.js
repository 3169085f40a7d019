// The game page's client state (issue 47, item 4): one plain object, changed only by step()
// (next = step(state, event)), a pure function like the rules' (static/js/rules/): no DOM, no
// timers, no network. What step decides is carried out by ./effects.js: next.effects lists it
// ({type, ...} plain objects, in order). ./dispatch.js turns the htmx, input and timer events
// into these events, one at a time.
//
// The state:
// - pending: the game actions htmx has taken (at the tap), in order, until each answer is drawn;
// - kept: the actions made while the server could not be reached (issue 32 item 5), in order,
//   with keptBase (the board version the first was made on) and keptMain (#main as the server
//   last drew it then); kept actions come first: while any is kept, every new one is kept behind;
// - sending: the kept action on its way (its id), keptThen: what its answer said to do next
//   ({id, next: true} or {id, retry: ms}), retrying: a retry is scheduled;
// - answering: the request whose answer is being drawn (from its swap to its end);
// - stateBefore: the board's data-state before the answer being drawn (a win celebrates).
// The confirmed board is the server's: the DOM as its last answer drew it (./cover.js sets aside
// what a drawing covers). The drawn board is the confirmed board with kept then pending actions
// played on it by the rules (./drawn.js), drawn from this state whenever it changes.
//
// An action (an entry): {id, action, fields, play}: the form's own URL and fields, never rebuilt,
// and the rules' play of it (null: only the server's answer can draw it).

export function initial() {
  return {
    pending: [],
    kept: [],
    keptBase: null,
    keptMain: null,
    sending: null,
    keptThen: null,
    retrying: false,
    answering: null,
    stateBefore: null,
    effects: [],
  };
}

/** The actions drawn on the confirmed board, in order: the kept ones, then the pending ones. */
export function queued(state) {
  return [...state.kept, ...state.pending];
}

const RETRY_MS = 4000;

/** The state after ``event``; its ``effects``: what to do about it, in order. */
export function step(state, event) {
  const handle = HANDLERS[event.type];
  const next = { ...state, effects: [] };
  if (handle) handle(next, event);
  return next;
}

// Each handler changes ``s`` (a fresh copy of the state: its arrays are replaced, never
// changed in place) and lists its effects.

function effect(s, type, fields = {}) {
  s.effects = [...s.effects, { type, ...fields }];
}

function without(list, id) {
  return list.filter((entry) => entry.id !== id);
}

function find(list, id) {
  return list.find((entry) => entry.id === id) || null;
}

/** Keep an action that could not reach the server; ``version``: the board it was made on. It
 * was the first pending action (or a new one), so kept last it keeps its place in the order. */
function keep(s, entry, version) {
  s.kept = [...s.kept, entry];
  if (s.kept.length === 1) {
    s.keptBase = version || null;
    // #main as the server drew it (everything drawn set aside), then drawn again
    effect(s, "keep-main");
  }
  effect(s, "save");
  effect(s, "say", { text: "offline" });
  effect(s, "mark");
  schedule(s, RETRY_MS);
}

function schedule(s, ms) {
  if (s.retrying || !s.kept.length) return;
  s.retrying = true;
  effect(s, "timer", { ms });
}

/** Send the first kept action, made only on the board it was kept on (X-Kept). */
function sendKept(s, htmx) {
  if (s.sending !== null || !s.kept.length || !htmx || s.pending.length) {
    if (s.kept.length && s.sending === null) schedule(s, RETRY_MS);
    return;
  }
  s.sending = s.kept[0].id;
  s.keptThen = null;
  effect(s, "send", { entry: s.kept[0], base: s.keptBase });
}

const HANDLERS = {
  /** htmx took a game form (htmx:config:request): sent, or kept behind the kept ones. */
  taken(s, { entry, drawable }) {
    if (s.kept.length && !entry.play) {
      // offline, an action only the server's answer can draw (Restart) is not kept: the taps
      // after it would be drawn on a board it had not changed
      effect(s, "prevent");
      effect(s, "say", { text: "waits" });
      return;
    }
    if (s.kept.length) {
      effect(s, "prevent");
      keep(s, entry, null);
    } else {
      s.pending = [...s.pending, entry];
    }
    effect(s, "mark");
    if (!drawable) return; // an action from outside the board (Restart): drawn by its answer
    // drawn now, in the task of the tap, on the board the earlier actions left (while an answer
    // is being drawn, once it is)
    const all = queued(s);
    if (s.answering === null && all.slice(0, -1).every((e) => e.play)) effect(s, "redraw", { all: all.length });
  },

  /** A pending action leaves (htmx:before:request): behind a kept one, it is kept too. */
  leaving(s, { id }) {
    const entry = find(s.pending, id);
    if (!s.kept.length || !entry) return;
    effect(s, "prevent");
    s.pending = without(s.pending, id);
    keep(s, entry, null);
  },

  /** No answer at all (htmx:error: the network is gone, the server unreachable). */
  unreachable(s, { id, kept, version }) {
    if (kept) {
      s.keptThen = { id, retry: RETRY_MS };
      effect(s, "say", { text: "offline" });
      return;
    }
    const entry = find(s.pending, id);
    if (!entry) return;
    s.pending = without(s.pending, id);
    if (!entry.play) {
      effect(s, "say", { text: "waits" }); // Restart: not kept (see taken)
      return;
    }
    // made on the board its version names; the actions behind it are kept as they leave
    keep(s, entry, version);
  },

  /** A proxy's answer (502, 503, 504 without the server's status line) is no answer. */
  proxied(s, { id, version }) {
    const entry = find(s.pending, id);
    if (!entry || !entry.play) return; // Restart: the status line says so
    s.pending = without(s.pending, id);
    effect(s, "kept-request");
    keep(s, entry, version);
  },

  /** The answer to a kept action (htmx:after:request). */
  keptAnswer(s, { id, status, refused, version, retryAfter }) {
    if (!s.kept.length || s.kept[0].id !== id) return;
    if (status === 200 && !refused) {
      s.kept = s.kept.slice(1); // taken: the answer draws it
      s.keptBase = version || null;
      s.keptMain = null; // the answer's board is the server's now; kept again at the next keep
      s.keptThen = { id, next: true };
    } else if (status === 429 || status >= 500) {
      s.keptThen = { id, retry: retryAfter * 1000 || 5000 };
    } else {
      // refused (the game moved on elsewhere), or never to be taken (a form the server no
      // longer accepts): the server's board and its words are the answer; nothing more is
      // sent. The game as this page played it is offered as a replay (drawn before the answer).
      if (refused) effect(s, "offer-replay");
      s.kept = [];
    }
    effect(s, "save");
  },

  /** An answer is about to be drawn (htmx:before:swap): everything drawn here goes first. */
  swapping(s, { id, boardState }) {
    s.stateBefore = boardState;
    s.answering = id;
    effect(s, "uncover");
  },

  /** An answer was drawn (htmx:after:swap): a board it turned to won celebrates. */
  swapped(s, { boardState }) {
    if (boardState !== "won" || !s.stateBefore || s.stateBefore === "won") return;
    s.stateBefore = "won";
    effect(s, "celebrate");
  },

  /** A request's end (htmx:finally:request): its answer is drawn, the queue drawn on it. */
  answered(s, { id, kept, htmx }) {
    if (s.answering === id) s.answering = null;
    if (kept) {
      if (s.sending === id) s.sending = null;
      effect(s, "draw");
      effect(s, "mark");
      const then = s.keptThen && s.keptThen.id === id ? s.keptThen : null;
      s.keptThen = null;
      if (then && then.next) sendKept(s, htmx);
      else if (then && then.retry) schedule(s, then.retry);
      return;
    }
    if (!find(s.pending, id)) return;
    s.pending = without(s.pending, id);
    effect(s, "draw");
    effect(s, "mark");
    if (!s.pending.length && s.kept.length) sendKept(s, htmx);
    if (!s.pending.length && !s.kept.length) effect(s, "snapshot");
  },

  /** htmx.ajax of a kept action settled with no answer event (htmx declined it). */
  sendEnded(s, { id }) {
    if (s.sending === id) s.sending = null;
  },

  /** The browser is online again, or a retry's time came. */
  online(s, { htmx }) {
    sendKept(s, htmx);
  },

  retry(s, { htmx }) {
    s.retrying = false;
    sendKept(s, htmx);
  },

  /** #main as the server last drew it, read when the first action was kept. */
  mainKept(s, { main }) {
    s.keptMain = main;
  },

  /** A page opened again: what it kept is drawn and sent. */
  restored(s, { base, main, entries, htmx }) {
    if (!entries.length) return;
    s.keptBase = base || null;
    s.keptMain = main || null;
    s.kept = [...s.kept, ...entries];
    effect(s, "mark");
    effect(s, "redraw", { all: -1 });
    effect(s, "say", { text: "offline" });
    sendKept(s, htmx);
  },
};
