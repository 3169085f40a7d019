// The one place the game page's client listens (issue 47, item 4): every htmx and input event
// it handles is registered here, in one table, in the order they run. Each listener reads what
// it needs from the event (an htmx request's context, the board's version, an answer's status)
// into a plain event, dispatch() steps the one state (./state.js) with it and carries out what
// the step decided (./effects.js). Answers the page draws with motion, focus and the live region
// are static/js/app.js's and static/js/motion.js's own listeners (classic scripts, every page).

import * as store from "../kept.js";
import { pressClicked, pressEnded, pressStarted } from "../board/redrawn-press.js";
import { retargetQueued, sendShownBoardVersion, submitThroughHtmx } from "../board/requests.js";
import { listenForGestures } from "../board/seahaven-gestures.js";
import { run } from "./effects.js";
import { gamePath, historyAction, playOf } from "./drawn.js";
import { board } from "./paint.js";
import { initial, step } from "./state.js";

let state = initial();

/** Step the state with ``event`` and carry out its effects; the effects (a listener may need
 * "prevent": the event's default prevented). */
export function dispatch(event) {
  state = step(state, event);
  const effects = state.effects;
  for (const effect of effects) run(effect, state, dispatch);
  return effects;
}

function has(effects, type) {
  return effects.some((effect) => effect.type === type);
}

// --- requests and their contexts ------------------------------------------------------------

const ids = new WeakMap(); // an htmx request's context: its id in the state
let lastId = 0;

function idOf(ctx) {
  if (!ids.has(ctx)) ids.set(ctx, ++lastId);
  return ids.get(ctx);
}

function fieldsOf(ctx) {
  const body = ctx.request && ctx.request.body;
  if (body && typeof body.get === "function") return body;
  return new URLSearchParams();
}

function boardVersion() {
  const root = board();
  try {
    return JSON.parse(root.getAttribute("hx-headers:inherited") || "{}")["X-Board-Version"] || null;
  } catch (e) {
    return null;
  }
}

/** The board version a request was made on (its header, else the board's now). */
function versionOf(ctx) {
  return ctx.request.headers["X-Board-Version"] || boardVersion();
}

function unreachable(detail) {
  const error = detail && detail.error;
  if (!error) return false;
  if (!navigator.onLine) return true;
  const text = String(error.message || error);
  return error.name === "TypeError" || /fetch|network|load failed|timeout/i.test(text);
}

// An answer that is not the server's (a proxy's 502, 503 or 504 page: the application behind
// it is down, or did not answer in time) is no answer: the action is kept like one that got
// none. (Sent again from the same board, an action that was made after all is answered, not
// made twice.) The server's own answers carry its status line.
function fromAProxy(ctx) {
  const status = ctx.response ? ctx.response.status : 0;
  return status >= 502 && status <= 504 && !/\bid=["']?status["'\s>]/.test(ctx.text || "");
}

const htmxReady = () => !!window.htmx;

// --- the listeners --------------------------------------------------------------------------

/** A game form htmx has taken, at the tap (its own URL and fields, never rebuilt): drawn at once,
 * sent, or kept. */
function configRequest(event) {
  const ctx = event.detail && event.detail.ctx;
  const source = ctx && ctx.sourceElement;
  const root = board();
  if (!ctx || !source || !root || !source.matches || ctx.keptEntry) return;
  if (!source.matches("form[hx-sync]") || !(source.getAttribute("hx-sync") || "").startsWith("#main")) return;
  const onBoard = root.contains(source) || (source.id || "").startsWith("gesture-");
  const action = String(ctx.request.action);
  const drawable = onBoard || historyAction(new URL(action, location.href).pathname);
  const play = drawable ? playOf(action, fieldsOf(ctx)) : null;
  const entry = { id: idOf(ctx), action, fields: [...fieldsOf(ctx)], play };
  if (has(dispatch({ type: "taken", entry, drawable }), "prevent")) event.preventDefault();
}

/** A request leaves: it names the board shown now; behind a kept action it is kept too. */
function beforeRequest(event) {
  const ctx = event.detail && event.detail.ctx;
  sendShownBoardVersion(ctx);
  if (!ctx || ctx.keptEntry) return;
  if (has(dispatch({ type: "leaving", id: idOf(ctx) }), "prevent")) event.preventDefault();
}

/** An answer came: a queued request finds its target again; a kept action's answer says whether
 * it was taken; a proxy's answer is no answer. */
function afterRequest(event) {
  const ctx = event.detail && event.detail.ctx;
  retargetQueued(ctx);
  if (!ctx) return;
  if (ctx.keptEntry) {
    const response = ctx.response;
    if (!response) return;
    dispatch({
      type: "keptAnswer",
      id: ctx.keptEntry,
      status: response.status,
      refused: response.headers.get("X-Kept") === "refused",
      version: response.headers.get("X-Board-Version"),
      retryAfter: +(response.headers.get("Retry-After") || 0),
    });
    return;
  }
  if (!fromAProxy(ctx)) return;
  // kept: static/js/install.js says nothing of it
  if (has(dispatch({ type: "proxied", id: idOf(ctx), version: versionOf(ctx) }), "kept-request")) ctx.kept = true;
}

/** No answer at all (the network is gone, the server unreachable): the action is kept. */
function requestError(event) {
  const ctx = event.detail && event.detail.ctx;
  if (!ctx || !unreachable(event.detail)) return;
  if (ctx.keptEntry) dispatch({ type: "unreachable", id: ctx.keptEntry, kept: true });
  else dispatch({ type: "unreachable", id: idOf(ctx), kept: false, version: versionOf(ctx) });
}

/** An answer is about to be drawn: everything drawn here goes first, and the answer's parts that
 * htmx found among the drawn copies find the server's elements again by id. From here to the
 * answer's end only promises run (no settle delay), so no tap falls in between. */
function beforeSwap(event) {
  const detail = event.detail || {};
  const root = board();
  const id = detail.ctx ? (detail.ctx.keptEntry ?? idOf(detail.ctx)) : null;
  dispatch({ type: "swapping", id, boardState: root ? root.dataset.state : null });
  (detail.tasks || []).forEach((task) => {
    const target = task.target;
    if (target && target.nodeType === 1 && !target.isConnected && target.id) {
      task.target = document.getElementById(target.id) || target;
    }
  });
}

function afterSwap() {
  const root = board();
  dispatch({ type: "swapped", boardState: root ? root.dataset.state : null });
}

/** A request's end: its answer drawn, the queue is drawn on it. */
function finallyRequest(event) {
  const ctx = event.detail && event.detail.ctx;
  if (!ctx) return;
  const kept = !!ctx.keptEntry;
  dispatch({ type: "answered", id: kept ? ctx.keptEntry : idOf(ctx), kept, htmx: htmxReady() });
}

/** Every listener of the game page's client, in the order they run. A Seahaven board's double
 * tap and drag and drop listen first (before the state's own listeners). */
export function listen() {
  if (document.querySelector("#board[data-game=seahaven]")) listenForGestures();
  const on = [
    [document, "htmx:after:request", afterRequest],
    [window, "online", () => dispatch({ type: "online", htmx: htmxReady() })],
    [document, "htmx:config:request", configRequest],
    [document, "htmx:before:request", beforeRequest],
    [document, "htmx:error", requestError],
    [document, "htmx:before:swap", beforeSwap],
    [document, "htmx:finally:request", finallyRequest],
    [document, "htmx:after:swap", afterSwap],
    // the board's forms and presses (static/js/board/), in the capture phase
    [document, "submit", submitThroughHtmx, true],
    [document, "pointerdown", pressStarted, true],
    [document, "pointerup", pressEnded, true],
    [document, "click", pressClicked, true],
  ];
  for (const [target, type, listener, capture] of on) target.addEventListener(type, listener, !!capture);
}

/** A page opened again: what was kept is drawn and sent. A copy of the page the service worker
 * kept (no network) shows #main as the server last drew it. */
export function restore() {
  const path = gamePath();
  if (!path) return;
  const record = store.load(path);
  const main = document.getElementById("main");
  if (document.documentElement.hasAttribute("data-offline-copy") && main) {
    const html = (record && record.main) || store.snapshot(path);
    if (html) {
      main.innerHTML = html;
      if (window.htmx) window.htmx.process(main);
    }
  }
  if (!record || !Array.isArray(record.actions) || !record.actions.length) return;
  const entries = [];
  for (const { action, fields } of record.actions) {
    // only this game's own actions (what this page wrote; anything else is dropped)
    if (typeof action !== "string" || !action.startsWith(`${path}/`) || !Array.isArray(fields)) continue;
    entries.push({ id: ++lastId, action, fields, play: playOf(action, new URLSearchParams(fields)) });
  }
  dispatch({ type: "restored", base: record.base, main: record.main, entries, htmx: htmxReady() });
}
