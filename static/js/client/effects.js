// What ./state.js's step() decided, carried out: the DOM, the browser's storage (../kept.js),
// timers and htmx. run(effect, state, dispatch): ``state`` is the state after the step; an
// effect that learns something (a timer's end, #main as the server drew it) dispatches it.

import * as store from "../kept.js";
import { isCovered, uncover } from "./cover.js";
import { draw, gamePath, keepingFocus, redraw } from "./drawn.js";
import { board } from "./paint.js";
import { queued } from "./state.js";

const script = document.querySelector("script[data-letters]");
const TEXTS = {
  offline: script ? script.dataset.offline || "" : "",
  waits: script ? script.dataset.offlineWaits || "" : "",
};
const CELEBRATION_MS = 3200;
const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

function say(text) {
  const status = document.getElementById("status");
  if (status && text) status.textContent = text;
}

// While any game action is unanswered or kept the board says so (data-pending): what is drawn
// is not yet the server's, and a script or test that waits for the server's board waits for it.
// While actions are kept (offline), a note at the top of the screen says so, however many taps
// are drawn after it (issue 45): outside #main, so no answer or redraw takes it away.
function mark(state) {
  const root = board();
  if (root) root.toggleAttribute("data-pending", state.pending.length > 0 || state.kept.length > 0);
  let note = document.getElementById("kept-note");
  if (!state.kept.length) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = "kept-note";
    note.className = "kept-note";
    note.textContent = TEXTS.offline;
    document.body.append(note);
  }
  note.hidden = false;
}

/** #main's markup to keep: without the offer of a refused game's replay (a page's own). */
function mainMarkup(main) {
  const offer = main.querySelector("#kept-offer");
  if (!offer) return main.innerHTML;
  const copy = main.cloneNode(true);
  copy.querySelector("#kept-offer").remove();
  return copy.innerHTML;
}

/** #main now, when nothing is drawn ahead of the server. */
function confirmedMainNow() {
  const main = document.getElementById("main");
  return main && !isCovered() ? mainMarkup(main) : null;
}

function save(state) {
  const path = gamePath();
  if (!path) return;
  if (!state.kept.length) {
    store.forget(path);
    return;
  }
  store.keep(path, {
    base: state.keptBase,
    main: state.keptMain,
    actions: state.kept.map((e) => ({ action: e.action, fields: e.fields })),
  });
}

let sender = null; // the form kept actions leave from (in #main's queue, like every game form)

function send({ entry, base }, dispatch) {
  if (!sender) {
    sender = document.createElement("form");
    sender.id = "kept-sender";
    sender.hidden = true;
    sender.setAttribute("method", "post");
    sender.setAttribute("hx-swap", "none");
    sender.setAttribute("hx-sync", "#main:queue all");
    document.body.append(sender);
  }
  const values = {};
  entry.fields.forEach(([name, value]) => {
    values[name] = value;
  });
  sender.setAttribute("action", entry.action);
  const headers = { "X-Kept": "1" };
  if (base) headers["X-Board-Version"] = base;
  window.htmx
    .ajax("POST", entry.action, { source: sender, values, headers, swap: "none", keptEntry: entry.id })
    .catch(() => {})
    .finally(() => dispatch({ type: "sendEnded", id: entry.id })); // no answer event came
}

function hiddenField(name, value) {
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = name;
  input.value = value;
  return input;
}

/** The game as drawn here (the server's moves, then the kept ones: the history the drawing
 * wrote on #board, undone moves left out) as a pasted replay's text (POST /replay, every move
 * checked there): a form under the status line that opens it. */
function offerReplay() {
  const root = board();
  const line = root && root.getAttribute("data-line");
  const label = script ? script.dataset.keptOffer : "";
  const token = document.querySelector("#main form input[name=token]");
  const status = document.getElementById("status");
  if (!line || !label || !token || !status) return;
  const form = document.createElement("form");
  form.id = "kept-offer";
  form.className = "kept-offer";
  form.method = "post";
  form.action = "/replay";
  const text = [root.dataset.code, ...line.split(/[.+]/)].join("\n") + "\n";
  form.append(hiddenField("token", token.value), hiddenField("text", text));
  const button = document.createElement("button");
  button.id = "kept-replay";
  button.textContent = label;
  form.append(button);
  document.getElementById("kept-offer")?.remove();
  status.after(form);
}

/** A board an answer turned to won celebrates: the cards of the cascade fall over it and the
 * summary comes forward (CSS), for a few seconds; never under reduced motion. */
function celebrate() {
  const root = board();
  if (!root || (reduce && reduce.matches)) return;
  root.classList.add("celebrating");
  setTimeout(() => root.classList.remove("celebrating"), CELEBRATION_MS);
}

const EFFECTS = {
  say: ({ text }) => say(TEXTS[text]),
  mark: (effect, state) => mark(state),
  save: (effect, state) => save(state),
  "keep-main": (effect, state, dispatch) => {
    // #main as the server drew it: everything drawn taken back, then drawn again
    const main = document.getElementById("main");
    keepingFocus(() => {
      uncover();
      dispatch({ type: "mainKept", main: main ? mainMarkup(main) : null });
      draw(queued(state));
    });
  },
  timer: ({ ms }, state, dispatch) => setTimeout(() => dispatch({ type: "retry", htmx: !!window.htmx }), ms),
  send: (effect, state, dispatch) => send(effect, dispatch),
  "offer-replay": offerReplay,
  uncover,
  celebrate,
  draw: (effect, state) => draw(queued(state)),
  redraw: ({ all }, state) => {
    const drawnCount = redraw(queued(state));
    if (drawnCount === all) {
      // a drop drawn where it goes: its copy at the pointer is not needed any more
      document.querySelectorAll(".drag-ghost[data-landing]").forEach((ghost) => ghost.remove());
      document.querySelectorAll("#board .card.dragging").forEach((card) => card.classList.remove("dragging"));
    }
  },
  snapshot: () => store.snapshotSoon(gamePath, confirmedMainNow),
};

/** Carry out one effect (those the dispatcher handles itself, "prevent" and "kept-request", are
 * not here). */
export function run(effect, state, dispatch) {
  const carry = EFFECTS[effect.type];
  if (carry) carry(effect, state, dispatch);
}
