// The page answers every tap in the frame after it (issue 32), from its copy of the rules
// (static/js/rules/); the server's answer stays the only judge.
//
// One owner of the board's client state:
// - the confirmed board: what the server drew last (the DOM, with nothing drawn here);
// - the pending actions: every game form htmx has taken (htmx:config:request, at the tap: the
//   form's own URL and fields, never rebuilt), in order, until its answer has been drawn;
// - the drawn board: the confirmed board with each pending action played on it by the rules,
//   one after the other, each on the board the previous one left.
// Drawing replaces a place's element by a changed copy (and sets a few attributes), each change
// journaled; when an answer comes, everything drawn is taken back first (htmx:before:swap), the
// server's answer is drawn, and the actions still pending are drawn again on it
// (htmx:finally:request). So once an answer comes the screen is the server's board plus what is
// still on its way: a refusal, a stale board, a 429 or a 5xx shows the server's board.
//
// What only the server says stays the server's: the board's data-state, data-score and
// data-moves are set by answers only (a drawn move's score and count show in the info bar, and
// in data-drawn-score / data-drawn-moves while drawn), and while any game form is unanswered the
// board carries data-pending. So "data-moves is 5" means the server accepted the fifth move.
//
// Drawn here: a selection (both games), a Half Moon pair or triple leaving (the cards under them
// come from the deal: a pile's cards leave from the top only), a Seahaven card or run going to a
// foundation, column or cell (a tap, a double tap, a drop, a selection then its destination),
// Send all home, and Undo and Redo (the rules replay the history the server writes on #board),
// with score, move count, Undo and Redo; the cards move as an answer's would
// (static/js/motion.js cardMotion.around, nothing under reduced motion). Left to the answer:
// Restart, a card taken back from a foundation, Undo from an ended game, the end box, the live
// region's words; an action after one of those waits for that answer before it is drawn.

import { parseCode, rankOf, suitOf } from "./rules/deal.js";
import * as HM from "./rules/halfmoon.js";
import * as SH from "./rules/seahaven.js";
import * as store from "./kept.js";
import { celebrateWin, noteStateBefore } from "./board/celebration.js";
import { pressClicked, pressEnded, pressStarted } from "./board/redrawn-press.js";
import { retargetQueued, sendShownBoardVersion, submitThroughHtmx } from "./board/requests.js";
import { listenForGestures } from "./board/seahaven-gestures.js";

// A Seahaven board's double tap and drag and drop listen first (before the state's own listeners).
if (document.querySelector("#board[data-game=seahaven]")) listenForGestures();

const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = { H: true, D: true };

// --- the journal of what is drawn ahead of the server ---------------------------------------

const journal = []; // functions that take one change back, in the order made

function replace(original, copy) {
  original.replaceWith(copy);
  journal.push(() => copy.replaceWith(original));
}

function setAttribute(element, name, value) {
  const old = element.getAttribute(name);
  if (old === value) return;
  element.setAttribute(name, value);
  journal.push(() => (old === null ? element.removeAttribute(name) : element.setAttribute(name, old)));
}

function setText(element, text) {
  if (!element || element.textContent === text) return;
  const old = element.textContent;
  element.textContent = text;
  journal.push(() => {
    element.textContent = old;
  });
}

function toggleClass(element, name, on) {
  if (element.classList.contains(name) === on) return;
  element.classList.toggle(name, on);
  journal.push(() => element.classList.toggle(name, !on));
}

/** Take back everything drawn ahead of the server, newest first. */
export function takeBack() {
  while (journal.length) journal.pop()();
}

// --- shared drawing -------------------------------------------------------------------------

function board() {
  return document.getElementById("board");
}

function copyOf(element) {
  const copy = element.cloneNode(true);
  copy.querySelectorAll("[data-htmx-powered]").forEach((e) => e.removeAttribute("data-htmx-powered"));
  copy.removeAttribute("data-htmx-powered");
  return copy;
}

function processed(copy) {
  if (window.htmx && copy.querySelector("form, [hx-post]")) window.htmx.process(copy);
  else if (window.htmx && copy.matches("form")) window.htmx.process(copy);
}

function letters() {
  const script = document.querySelector("script[data-letters]");
  const [j, q, k] = (script ? script.dataset.letters : "J Q K").split(" ");
  return { 11: j, 12: q, 13: k };
}

function printed(card) {
  const rank = rankOf(card);
  return rank === 1 ? "A" : rank > 10 ? letters()[rank] : String(rank);
}

function colour(card) {
  return RED[suitOf(card)] ? "red" : "black";
}

function face(button, card) {
  const rank = button.querySelector(".rank");
  const suit = button.querySelector(".suit");
  if (rank) rank.textContent = printed(card);
  if (suit) suit.textContent = SYMBOLS[suitOf(card)];
  button.classList.remove("red", "black");
  button.classList.add(colour(card));
}

function recount(place, count) {
  place.dataset.count = String(count);
  const label = place.querySelector(".label-count");
  if (label) label.textContent = label.textContent.replace(/\d+/, String(count));
}

function setDisabled(element, on) {
  if (!element || element.disabled === on) return;
  const focused = on && document.activeElement === element;
  element.disabled = on;
  journal.push(() => {
    element.disabled = !on;
  });
  // a drawn Undo with nothing left to undo disables itself: the focus goes on to the next
  // control that can be used (as static/js/app.js does after an answer), never to <body>
  if (focused) nextControl(element)?.focus({ preventScroll: true });
}

function nextControl(element) {
  const all = [...document.querySelectorAll(".controls button, .controls a")];
  const at = all.indexOf(element);
  const after = at < 0 ? all : all.slice(at + 1).concat(all.slice(0, at).reverse());
  return after.find((e) => !e.disabled && e.offsetParent !== null) || null;
}

/** The score or move count as drawn: the server's (data-score, data-moves) with the moves drawn
 * ahead of it (data-drawn-score, data-drawn-moves while any is drawn). */
function figure(root, name) {
  const drawn = root.getAttribute(`data-drawn-${name}`);
  return +(drawn === null ? root.getAttribute(`data-${name}`) : drawn);
}

/** A move drawn: its score and move count; Undo can take it back, nothing is left to redo
 * (an Undo or Redo drawn: whether each can go on). The board's own data-score and data-moves
 * stay the server's: only its answer sets them. */
function drawFigures(root, score, moves, canUndo = true, canRedo = false) {
  const states = [
    ["control-undo", canUndo],
    ["control-redo", canRedo],
    ["control-restart", moves > 0 || canRedo], // as the server's
  ];
  // the enabled first: a focused control that disables itself hands the focus on to them
  states.sort((a, b) => b[1] - a[1]);
  for (const [id, enabled] of states) setDisabled(document.getElementById(id), !enabled);
  setAttribute(root, "data-drawn-score", String(score));
  setAttribute(root, "data-drawn-moves", String(moves));
  setText(document.getElementById("score"), String(score));
  setText(document.getElementById("moves"), String(moves));
}

function pressed(root) {
  return [...root.querySelectorAll("button.card[aria-pressed=true]")];
}

// --- Half Moon ------------------------------------------------------------------------------

const halfMoon = {
  read(root) {
    const code = parseCode(root.dataset.code);
    const dealt = HM.deal(code);
    const piles = [];
    const reserve = [];
    for (let p = 0; p < HM.PLACES; p++) {
      const place = root.querySelector(`[data-place="${HM.placeName(p)}"]`);
      if (!place) return null;
      const count = +place.dataset.count;
      if (p < HM.PILES) piles.push(dealt.piles[p].slice(0, count));
      else reserve.push(count ? place.querySelector("[data-card]").dataset.card : null);
    }
    const game = new HM.HalfMoon(code, { piles, reserve });
    game.selection = pressed(root).map((b) => HM.parsePlace(b.closest("[data-place]").dataset.place));
    return game;
  },

  action(verb, fields) {
    if (verb !== "tap") return null;
    const place = HM.parsePlace(fields.get("place") || "");
    return place === null ? null : (game) => game.tap(place, fields.get("card"));
  },

  draw(root, game, before, answer) {
    const after = game.position;
    for (let p = 0; p < HM.PLACES; p++) {
      if (HM.count(before, p) === HM.count(after, p)) continue;
      const name = HM.placeName(p);
      const place = root.querySelector(`[data-place="${name}"]`);
      const copy = copyOf(place);
      const count = HM.count(after, p);
      recount(copy, count);
      const top = HM.top(after, p);
      const form = copy.querySelector("form");
      const button = copy.querySelector("button.card");
      if (top && button) {
        button.dataset.card = top;
        button.dataset.motion = `hm-${name}-${count}`;
        button.setAttribute("aria-pressed", "false");
        face(button, top);
        const spoken = (button.getAttribute("aria-label") || "").split(", ").slice(1).join(", ");
        button.setAttribute(
          "aria-label",
          `${printed(top)} ${SYMBOLS[suitOf(top)]}, ${spoken.replace(/\d+/, String(count))}`
        );
        form.querySelector("input[name=card]").setAttribute("value", top);
      } else if (top) {
        refilled(root, copy, name, count, top); // an Undo or Redo gave an empty place a card
      } else if (form) {
        const empty = document.createElement("div");
        empty.className = "card empty";
        empty.id = `card-${name}`;
        empty.setAttribute("role", "img");
        empty.setAttribute("tabindex", "-1");
        empty.setAttribute("aria-label", copy.querySelector(".label")?.textContent.trim() || name);
        form.replaceWith(empty);
      }
      replace(place, copy);
      processed(copy);
    }
    const selected = new Set(game.selection.map(HM.placeName));
    root.querySelectorAll("[data-place]").forEach((place) => {
      const button = place.querySelector("button.card");
      if (button) setAttribute(button, "aria-pressed", selected.has(place.dataset.place) ? "true" : "false");
      if (!selected.size) toggleClass(place, "dimmed", false);
    });
    if (answer.outcome === "removed") {
      drawFigures(root, figure(root, "score") + (answer.move.length === 2 ? 10 : 15), figure(root, "moves") + 1);
    }
  },
};

/** A Half Moon place drawn without its card (``copy``) gets one again: a form like every other
 * place's (the first on the board, its place and card set). */
function refilled(root, copy, name, count, card) {
  const template = root.querySelector("[data-place] form");
  const empty = copy.querySelector(".card.empty");
  if (!template || !empty) return;
  const form = copyOf(template);
  form.querySelector("input[name=place]").setAttribute("value", name);
  form.querySelector("input[name=card]").setAttribute("value", card);
  const button = form.querySelector("button.card");
  button.id = `card-${name}`;
  button.dataset.card = card;
  button.dataset.motion = `hm-${name}-${count}`;
  button.setAttribute("aria-pressed", "false");
  face(button, card);
  const where = [".label-place", ".label-count"].map((s) => copy.querySelector(s)?.textContent.trim());
  button.setAttribute("aria-label", [`${printed(card)} ${SYMBOLS[suitOf(card)]}`, ...where.filter(Boolean)].join(", "));
  empty.replaceWith(form);
}

// --- Seahaven -------------------------------------------------------------------------------

function shPlaces(cells) {
  const places = [];
  for (let c = 0; c < SH.COLUMNS; c++) places.push(c);
  for (let i = 0; i < cells; i++) places.push(SH.CELLS + i);
  for (let f = 0; f < 4; f++) places.push(SH.FOUNDATIONS + f);
  return places;
}

function shCards(position, place) {
  if (place < SH.COLUMNS) return position.columns[place];
  const top = SH.top(position, place);
  return top ? [top] : [];
}

function shCount(position, place) {
  if (place < SH.COLUMNS) return position.columns[place].length;
  if (place < SH.FOUNDATIONS) return position.cells[place - SH.CELLS] ? 1 : 0;
  return position.foundations[place - SH.FOUNDATIONS];
}

const seahaven = {
  read(root) {
    const code = parseCode(root.dataset.code);
    const cells = root.querySelectorAll('[data-place^="cell-"]').length;
    const columns = [];
    const cellCards = [];
    const foundations = [];
    for (const place of shPlaces(cells)) {
      const element = root.querySelector(`[data-place="${SH.placeName(place)}"]`);
      if (!element) return null;
      const cards = [...element.querySelectorAll("button.card[data-card]")].map((b) => b.dataset.card);
      if (place < SH.COLUMNS) columns.push(cards);
      else if (place < SH.FOUNDATIONS) cellCards.push(cards[0] || null);
      else foundations.push(+element.dataset.count);
    }
    const game = new SH.Seahaven(code, { columns, cells: cellCards, foundations });
    const selected = pressed(root)[0];
    if (selected) {
      game.selection = [SH.parsePlace(selected.closest("[data-place]").dataset.place, cells), selected.dataset.card];
    }
    return game;
  },

  action(verb, fields, root) {
    const cells = root.querySelectorAll('[data-place^="cell-"]').length;
    const place = (name) => SH.parsePlace(fields.get(name) || "", cells);
    const card = fields.get("card") || null;
    if (verb === "tap" && place("place") !== null) return (game) => game.tap(place("place"), card);
    if (verb === "auto" && place("place") !== null) {
      const double = fields.get("double") === "1";
      return (game) => (double ? game.finishDoubleTap(place("place"), card) : game.auto(place("place"), card));
    }
    if (verb === "move" && place("from") !== null && place("to") !== null) {
      if (place("from") >= SH.FOUNDATIONS) return null; // a card taken back: its answer draws it
      return (game) => game.move(place("from"), card, place("to"));
    }
    if (verb === "home") return (game) => game.sendHome();
    return null;
  },

  draw(root, game, before, answer) {
    const after = game.position;
    const cells = after.cells.length;
    const changed = shPlaces(cells).filter(
      (p) => shCount(before, p) !== shCount(after, p) || shCards(before, p).join() !== shCards(after, p).join()
    );
    const history = answer.outcome === "undo" || answer.outcome === "redo";
    if (!history && changed.some((p) => p >= SH.FOUNDATIONS && shCount(after, p) < shCount(before, p))) {
      return false; // a card taken back from a foundation: its answer draws it
    }
    const buttons = new Map();
    root.querySelectorAll("button.card[data-card]").forEach((b) => buttons.set(b.dataset.card, b));
    // a card an Undo brings back from under a foundation's top has no button: one like the others
    const cardButton = (card) => {
      if (buttons.has(card)) return buttons.get(card).cloneNode(true);
      const button = buttons.values().next().value.cloneNode(true);
      button.id = `card-${card}`;
      button.value = card;
      button.dataset.card = card;
      face(button, card);
      button.setAttribute("aria-label", `${printed(card)} ${SYMBOLS[suitOf(card)]}`);
      return button;
    };
    for (const p of changed) {
      const name = SH.placeName(p);
      const place = root.querySelector(`[data-place="${name}"]`);
      const copy = copyOf(place);
      const holder = copy.querySelector(".fan") || copy;
      const label = copy.querySelector(".label");
      holder.querySelectorAll(":scope > .card").forEach((c) => c.remove());
      const cards = shCards(after, p);
      const run = p < SH.COLUMNS ? SH.runLength(after, p) : 1;
      cards.forEach((card, depth) => {
        const button = cardButton(card);
        button.removeAttribute("data-targets");
        button.classList.remove("moving", "flying", "dragging");
        button.classList.toggle("movable", depth >= cards.length - run);
        holder.insertBefore(button, holder === copy ? label : null);
      });
      if (!cards.length) {
        const empty = document.createElement("button");
        empty.id = `slot-${name}`;
        empty.name = "card";
        empty.value = "";
        empty.className = "card empty";
        empty.setAttribute("aria-label", label ? label.textContent.trim() : name);
        holder.insertBefore(empty, holder === copy ? label : null);
      }
      copy.classList.remove("destination");
      recount(copy, shCount(after, p));
      replace(place, copy);
      processed(copy);
    }
    // the run of every column may have changed; the selection is the rules'
    const selected = new Set(game.selectedCards());
    root.querySelectorAll("button.card[data-card]").forEach((button) => {
      setAttribute(button, "aria-pressed", selected.has(button.dataset.card) ? "true" : "false");
    });
    if (!selected.size) root.querySelectorAll(".place.destination").forEach((p) => toggleClass(p, "destination", false));
    if (answer.moves && !history) {
      let position = before;
      for (const move of answer.moves) {
        flight.push(`card-${SH.top(position, move[0])}`);
        position = SH.moveResult(position, move);
      }
    }
    // moves the rules made here (a double tap's second half that the first did: none)
    if (game.moveCount && !history) drawFigures(root, game.score, figure(root, "moves") + game.moveCount);
    return true;
  },
};

halfMoon.fresh = (code) => new HM.HalfMoon(code);
halfMoon.playText = HM.playText;
halfMoon.moveText = HM.moveText;
seahaven.fresh = (code) => new SH.Seahaven(code);
seahaven.playText = SH.playText;
seahaven.moveText = SH.moveText;

const GAMES = { "half-moon": halfMoon, seahaven };

// --- the game's history: Undo and Redo drawn at once ----------------------------------------
// The server writes the game's history on #board (data-line, data-redo, data-floor: its
// record's notation, app/engine/game.py history_text). The rules replay it from the deal to draw
// an Undo or a Redo; each move drawn ahead of the server is written on as it is drawn.

const UNDO_LIMIT = 100;

/** The game on the board with its history, or null (no history on the board, or one that does
 * not lead to the board shown: then only the server's answer draws an Undo). */
function historyOf(root, rules) {
  const line = root.getAttribute("data-line");
  if (line === null) return null;
  const shown = rules.read(root);
  if (!shown) return null;
  const game = rules.fresh(parseCode(root.dataset.code));
  const floor = +(root.getAttribute("data-floor") || 0);
  if (!game.load(line, root.getAttribute("data-redo") || "", floor, rules.playText)) return null;
  if (JSON.stringify(game.position) !== JSON.stringify(shown.position)) return null;
  game.selection = shown.selection;
  return game;
}

/** Write a game's history on the board (an Undo or Redo drawn). */
function writeHistory(root, rules, game) {
  const [line, redo, floor] = game.written(rules.moveText);
  setAttribute(root, "data-line", line);
  setAttribute(root, "data-redo", redo);
  setAttribute(root, "data-floor", String(floor));
}

/** A tap's moves drawn: its action joins the history, and nothing is left to redo. (``game``
 * was read from the board: its steps are this tap's.) */
function extendHistory(root, rules, game) {
  const line = root.getAttribute("data-line");
  if (line === null || !game.steps.length) return;
  const [added] = game.written(rules.moveText);
  const total = (line ? line.split(/[.+]/).length : 0) + game.moveCount;
  setAttribute(root, "data-line", line ? `${line}.${added}` : added);
  setAttribute(root, "data-redo", "");
  const floor = Math.max(+(root.getAttribute("data-floor") || 0), total - UNDO_LIMIT);
  setAttribute(root, "data-floor", String(floor));
}

/** Undo or Redo, drawn: false when the history cannot draw it (the answer will). */
function drawHistory(root, rules, verb) {
  const game = historyOf(root, rules);
  if (!game) return false;
  const before = game.position;
  if (!(verb === "undo" ? game.undo() : game.redo())) return false;
  if (rules.draw(root, game, before, { outcome: verb }) === false) return false;
  writeHistory(root, rules, game);
  drawFigures(root, game.score, game.moveCount, game.canUndo(), game.canRedo());
  return true;
}

// --- the pending and kept actions -----------------------------------------------------------

// An action: {ctx, play, action, fields}. Pending: sent (htmx has it), in order, until its answer
// is drawn. Kept: made while the server could not be reached (issue 32 item 5), in order, in
// the browser's storage (a reload or a closed tab keeps them) until the server has taken each
// (static/js/kept.js). Kept actions come first: they were made first, and while any is kept,
// every new action is kept behind it, so none overtakes another.
const pending = [];
const kept = [];
let keptBase = null; // the board version the first kept action was made on (the server's)
let keptMain = null; // #main as the server last drew it, when the first action was kept

// While any game action is unanswered or kept the board says so (data-pending): what is drawn
// is not yet the server's, and a script or test that waits for the server's board waits for it.
function markPending() {
  const root = board();
  if (root) root.toggleAttribute("data-pending", pending.length > 0 || kept.length > 0);
  showKept();
}

// While actions are kept (offline), a note at the top of the screen says so, however many
// taps are drawn after it (issue 45): outside #main, so no answer or redraw takes it away.
function showKept() {
  let note = document.getElementById("kept-note");
  if (!kept.length) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.id = "kept-note";
    note.className = "kept-note";
    note.textContent = OFFLINE_TEXT;
    document.body.append(note);
  }
  note.hidden = false;
}

let flight = []; // Send all home's cards, in order, as the last drawing sent them (motion.js)

/** Draw the kept then the pending actions on the confirmed board; how many were drawn. */
function drawPending() {
  flight = [];
  const root = board();
  if (!root || root.dataset.state !== "playing") return 0;
  const rules = GAMES[root.dataset.game];
  if (!rules) return 0;
  let drawnCount = 0;
  for (const entry of [...kept, ...pending]) {
    if (!entry.play) break; // an action only the server draws: later ones wait for it
    if (entry.play.history) {
      if (!drawHistory(root, rules, entry.play.history)) break;
      drawnCount += 1;
      continue;
    }
    const game = rules.read(root);
    if (!game) break;
    const before = game.position;
    const answer = entry.play(game);
    if (rules.draw(root, game, before, answer) === false) break;
    extendHistory(root, rules, game);
    drawnCount += 1;
  }
  return drawnCount;
}

function redrawAll() {
  const redraw = () =>
    keepingFocus(() => {
      takeBack();
      return drawPending();
    });
  const motion = window.cardMotion;
  return motion ? motion.around(redraw, () => flight) : redraw();
}

function fieldsOf(ctx) {
  const body = ctx.request && ctx.request.body;
  if (body && typeof body.get === "function") return body;
  return new URLSearchParams();
}

/** The rules' play of a game form's action (null: only the server's answer can draw it). Undo
 * and Redo: drawn from the board's history (drawHistory), when the board has one. */
function playOf(action, fields) {
  const root = board();
  const rules = root && GAMES[root.dataset.game];
  if (!rules) return null;
  const verb = action.split("/").pop();
  if (verb === "undo" || verb === "redo") {
    return root.hasAttribute("data-line") ? Object.assign(() => null, { history: verb }) : null;
  }
  return rules.action(verb, fields, root);
}

/** Undo or Redo of this board's game (their forms are in the info bar, not on the board). */
function historyAction(action) {
  const path = gamePath();
  return !!path && (action === `${path}/undo` || action === `${path}/redo`);
}

function entryOf(ctx, play) {
  return { ctx, play, action: String(ctx.request.action), fields: [...fieldsOf(ctx)] };
}

// --- kept actions: kept, sent, taken or refused ------------------------------------------------

const script = document.querySelector("script[data-letters]");
const OFFLINE_TEXT = script ? script.dataset.offline || "" : "";
const WAITS_TEXT = script ? script.dataset.offlineWaits || "" : "";

function gamePath() {
  const root = board();
  if (!root) return null;
  const practice = root.dataset.practice ? "/practice" : ""; // a practice's own URLs (issue 43)
  return `/${root.dataset.game}/${root.dataset.code}${practice}`;
}

function say(text) {
  const status = document.getElementById("status");
  if (status && text) status.textContent = text;
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
  return main && !journal.length ? mainMarkup(main) : null;
}

function saveKept() {
  const path = gamePath();
  if (!path) return;
  if (!kept.length) {
    store.forget(path);
    return;
  }
  store.keep(path, {
    base: keptBase,
    main: keptMain,
    actions: kept.map((e) => ({ action: e.action, fields: e.fields })),
  });
}

/** Keep an action that could not reach the server; ``version``: the board it was made on. It
 * was the first pending action (or a new one), so kept last it keeps its place in the order. */
function keep(entry, version) {
  entry.ctx = null;
  kept.push(entry);
  if (kept.length === 1) {
    keptBase = version || null;
    // #main as the server drew it: everything drawn taken back, then drawn again
    const main = document.getElementById("main");
    keepingFocus(() => {
      takeBack();
      keptMain = main ? mainMarkup(main) : null;
      drawPending();
    });
  }
  saveKept();
  say(OFFLINE_TEXT);
  markPending();
  schedule();
}

function boardVersion() {
  const root = board();
  try {
    return JSON.parse(root.getAttribute("hx-headers:inherited") || "{}")["X-Board-Version"] || null;
  } catch (e) {
    return null;
  }
}

let sender = null; // the form kept actions leave from (in #main's queue, like every game form)
let sending = null; // the kept entry on its way
let retryTimer = null;

function schedule(ms = 4000) {
  if (retryTimer || !kept.length) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    sendKept();
  }, ms);
}

/** Send the first kept action, made only on the board it was kept on (X-Kept). */
function sendKept() {
  if (sending || !kept.length || !window.htmx || pending.length) {
    if (kept.length && !sending) schedule();
    return;
  }
  if (!sender) {
    sender = document.createElement("form");
    sender.id = "kept-sender";
    sender.hidden = true;
    sender.setAttribute("method", "post");
    sender.setAttribute("hx-swap", "none");
    sender.setAttribute("hx-sync", "#main:queue all");
    document.body.append(sender);
  }
  const entry = kept[0];
  sending = entry;
  const values = {};
  entry.fields.forEach(([name, value]) => {
    values[name] = value;
  });
  sender.setAttribute("action", entry.action);
  const headers = { "X-Kept": "1" };
  if (keptBase) headers["X-Board-Version"] = keptBase;
  window.htmx
    .ajax("POST", entry.action, { source: sender, values, headers, swap: "none", keptEntry: entry })
    .catch(() => {})
    .finally(() => {
      if (sending === entry) sending = null; // no answer event came (htmx declined it)
    });
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

function keptAnswer(ctx) {
  const entry = ctx.keptEntry;
  const response = ctx.response;
  if (!response || kept[0] !== entry) return;
  if (response.status === 200 && response.headers.get("X-Kept") !== "refused") {
    kept.shift(); // taken: the answer draws it
    keptBase = response.headers.get("X-Board-Version") || null;
    keptMain = null; // the answer's board is the server's now; kept again at the next keep
    ctx.keptNext = true;
  } else if (response.status === 429 || response.status >= 500) {
    ctx.keptRetry = +(response.headers.get("Retry-After") || 0) * 1000 || 5000;
  } else {
    // refused (the game moved on elsewhere), or never to be taken (a form the server no
    // longer accepts): the server's board and its words are the answer; nothing more is sent.
    // The game as this page played it is offered as a replay (drawn now, before the answer).
    if (response.headers.get("X-Kept") === "refused") offerReplay();
    kept.length = 0;
  }
  saveKept();
}

// An answer that is not the server's (a proxy's 502, 503 or 504 page: the application behind
// it is down, or did not answer in time) is no answer: the action is kept like one that got
// none. (Sent again from the same board, an action that was made after all is answered, not
// made twice.) The server's own answers carry its status line.
function fromAProxy(ctx) {
  const status = ctx.response ? ctx.response.status : 0;
  return status >= 502 && status <= 504 && !/\bid=["']?status["'\s>]/.test(ctx.text || "");
}

document.addEventListener("htmx:after:request", (event) => {
  const ctx = event.detail && event.detail.ctx;
  retargetQueued(ctx);
  if (!ctx) return;
  if (ctx.keptEntry) {
    keptAnswer(ctx);
    return;
  }
  if (!fromAProxy(ctx)) return;
  const at = pending.findIndex((entry) => entry.ctx === ctx);
  if (at < 0 || !pending[at].play) return; // Restart: the status line says so
  const [entry] = pending.splice(at, 1);
  ctx.kept = true;
  keep(entry, ctx.request.headers["X-Board-Version"] || boardVersion());
});

window.addEventListener("online", () => sendKept());

// --- game forms: each action drawn at once, sent, or kept ---------------------------------------

document.addEventListener("htmx:config:request", (event) => {
  const ctx = event.detail && event.detail.ctx;
  const source = ctx && ctx.sourceElement;
  const root = board();
  if (!ctx || !source || !root || !source.matches || ctx.keptEntry) return;
  if (!source.matches("form[hx-sync]") || !(source.getAttribute("hx-sync") || "").startsWith("#main")) return;
  const onBoard = root.contains(source) || (source.id || "").startsWith("gesture-");
  const drawable = onBoard || historyAction(new URL(String(ctx.request.action), location.href).pathname);
  const entry = entryOf(ctx, drawable ? playOf(String(ctx.request.action), fieldsOf(ctx)) : null);
  if (kept.length && !entry.play) {
    // offline, an action only the server's answer can draw (Restart) is not kept:
    // the taps after it would be drawn on a board it had not changed
    event.preventDefault();
    say(WAITS_TEXT);
    return;
  }
  if (kept.length) {
    // kept behind the kept ones: sent after them, in order
    event.preventDefault();
    keep(entry, null);
  } else {
    pending.push(entry);
  }
  markPending();
  if (!drawable) return; // an action from outside the board (Restart): drawn by its answer
  // drawn now, in the task of the tap, on the board the earlier actions left (while an answer
  // is being drawn, once it is)
  const all = [...kept, ...pending];
  if (!answering && all.slice(0, -1).every((e) => e.play)) {
    const drawnCount = redrawAll();
    if (drawnCount === all.length) {
      // a drop drawn where it goes: its copy at the pointer is not needed any more
      document.querySelectorAll(".drag-ghost[data-landing]").forEach((ghost) => ghost.remove());
      document.querySelectorAll("#board .card.dragging").forEach((card) => card.classList.remove("dragging"));
    }
  }
});

// An action queued behind one that could not be sent leaves after it was kept: it is kept too.
document.addEventListener("htmx:before:request", (event) => {
  const ctx = event.detail && event.detail.ctx;
  sendShownBoardVersion(ctx);
  if (!ctx || ctx.keptEntry || !kept.length) return;
  const at = pending.findIndex((entry) => entry.ctx === ctx);
  if (at < 0) return;
  event.preventDefault();
  const [entry] = pending.splice(at, 1);
  keep(entry, null);
});

function unreachable(detail) {
  const error = detail && detail.error;
  if (!error) return false;
  if (!navigator.onLine) return true;
  const text = String(error.message || error);
  return error.name === "TypeError" || /fetch|network|load failed|timeout/i.test(text);
}

// No answer at all (the network is gone, the server unreachable): the action is kept.
document.addEventListener("htmx:error", (event) => {
  const ctx = event.detail && event.detail.ctx;
  if (!ctx || !unreachable(event.detail)) return;
  if (ctx.keptEntry) {
    ctx.keptRetry = 4000;
    say(OFFLINE_TEXT);
    return;
  }
  const at = pending.findIndex((entry) => entry.ctx === ctx);
  if (at < 0) return;
  const [entry] = pending.splice(at, 1);
  if (!entry.play) {
    say(WAITS_TEXT); // Restart: not kept (see htmx:config:request)
    return;
  }
  // made on the board its version names; the actions behind it are kept as they leave
  keep(entry, ctx.request.headers["X-Board-Version"] || boardVersion());
});

function usable(element) {
  return element && !element.disabled && element.offsetParent !== null;
}

// A drawing replaces places' elements: the focus stays on the card with the same id, or else on
// the same place's last card (as static/js/app.js does after an answer), never falls to <body>.
function keepingFocus(redraw) {
  const active = document.activeElement;
  const root = board();
  if (!active || !root || !root.contains(active)) return redraw();
  const place = active.closest("[data-place]");
  const name = place && place.dataset.place;
  const result = redraw();
  if (active.isConnected) return result;
  let target = active.id ? document.getElementById(active.id) : null;
  if (!usable(target) && name) {
    const now = root.querySelector(`[data-place="${name}"]`);
    target = now ? [...now.querySelectorAll("button")].pop() : null;
  }
  if (usable(target)) target.focus({ preventScroll: true });
  return result;
}

let answering = null; // the ctx of the answer being drawn, from its swap to its end

// An answer is about to be drawn: everything drawn here goes first, and the answer's parts that
// htmx found among the drawn copies find the server's elements again by id. From here to the
// answer's end only promises run (no settle delay), so no tap falls in between.
document.addEventListener("htmx:before:swap", (event) => {
  const detail = event.detail || {};
  noteStateBefore();
  answering = detail.ctx || null;
  takeBack();
  (detail.tasks || []).forEach((task) => {
    const target = task.target;
    if (target && target.nodeType === 1 && !target.isConnected && target.id) {
      task.target = document.getElementById(target.id) || target;
    }
  });
});

document.addEventListener("htmx:finally:request", (event) => {
  const ctx = event.detail && event.detail.ctx;
  if (ctx && ctx.keptEntry) {
    if (sending === ctx.keptEntry) sending = null;
    if (answering === ctx) answering = null;
    takeBack();
    drawPending();
    markPending();
    if (ctx.keptNext) sendKept();
    else if (ctx.keptRetry) schedule(ctx.keptRetry);
    return;
  }
  const at = pending.findIndex((entry) => entry.ctx === ctx);
  if (at < 0) return;
  pending.splice(at, 1);
  if (answering === ctx) answering = null;
  takeBack();
  drawPending();
  markPending();
  if (!pending.length && kept.length) sendKept();
  if (!pending.length && !kept.length) store.snapshotSoon(gamePath, confirmedMainNow);
});

document.addEventListener("htmx:after:swap", celebrateWin);

// --- the board's forms and presses (static/js/board/) ----------------------------------------

document.addEventListener("submit", submitThroughHtmx, true);
document.addEventListener("pointerdown", pressStarted, true);
document.addEventListener("pointerup", pressEnded, true);
document.addEventListener("click", pressClicked, true);

// --- a page opened again: what was kept is drawn and sent ----------------------------------------

function restore() {
  const path = gamePath();
  if (!path) return;
  const record = store.load(path);
  const main = document.getElementById("main");
  // a copy of the page the service worker kept (no network): #main as the server last drew it
  if (document.documentElement.hasAttribute("data-offline-copy") && main) {
    const html = (record && record.main) || store.snapshot(path);
    if (html) {
      main.innerHTML = html;
      if (window.htmx) window.htmx.process(main);
    }
  }
  if (!record || !Array.isArray(record.actions) || !record.actions.length) return;
  keptBase = record.base || null;
  keptMain = record.main || null;
  for (const { action, fields } of record.actions) {
    // only this game's own actions (what this page wrote; anything else is dropped)
    if (typeof action !== "string" || !action.startsWith(`${path}/`) || !Array.isArray(fields)) continue;
    const entry = { ctx: null, play: null, action, fields };
    entry.play = playOf(action, new URLSearchParams(fields));
    kept.push(entry);
  }
  markPending();
  redrawAll();
  say(OFFLINE_TEXT);
  sendKept();
}

restore();
