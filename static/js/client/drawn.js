// The drawn board: the confirmed board (the server's, as its last answer drew it) with the
// queued actions (./state.js queued(): kept, then pending) played on it by the rules, one after
// the other, each on the board the previous one left, and drawn over it (./cover.js). Every
// drawing starts from the server's board: draw(entries) shows the state, whatever was drawn
// before. Undo and Redo are drawn from the game's history the server writes on #board.

import { parseCode } from "../rules/deal.js";
import { UNDO_LIMIT } from "../rules/history.js";
import { setAttribute, uncover } from "./cover.js";
import { halfMoon } from "./halfmoon-draw.js";
import { board, drawFigures } from "./paint.js";
import { seahaven } from "./seahaven-draw.js";

const GAMES = { "half-moon": halfMoon, seahaven };

// --- the game's history: Undo and Redo drawn at once ----------------------------------------
// The server writes the game's history on #board (data-line, data-redo, data-floor: its
// record's notation, app/engine/game.py history_text). The rules replay it from the deal to draw
// an Undo or a Redo; each move drawn ahead of the server is written on as it is drawn.

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
function drawHistory(root, rules, verb, flight) {
  const game = historyOf(root, rules);
  if (!game) return false;
  const before = game.position;
  if (!(verb === "undo" ? game.undo() : game.redo())) return false;
  if (rules.draw(root, game, before, { outcome: verb }, flight) === false) return false;
  writeHistory(root, rules, game);
  drawFigures(root, game.score, game.moveCount, game.canUndo(), game.canRedo());
  return true;
}

// --- the queue drawn ------------------------------------------------------------------------

let flight = []; // Send all home's cards, in order, as the last drawing sent them (motion.js)

/** Draw ``entries`` on the server's board (it is shown first); how many were drawn (an action
 * only the server draws, or one the rules cannot draw here: the later ones wait for it). */
export function draw(entries) {
  uncover();
  flight = [];
  const root = board();
  if (!root || root.dataset.state !== "playing") return 0;
  const rules = GAMES[root.dataset.game];
  if (!rules) return 0;
  let drawnCount = 0;
  for (const entry of entries) {
    if (!entry.play) break;
    if (entry.play.history) {
      if (!drawHistory(root, rules, entry.play.history, flight)) break;
      drawnCount += 1;
      continue;
    }
    const game = rules.read(root);
    if (!game) break;
    const before = game.position;
    const answer = entry.play(game);
    if (rules.draw(root, game, before, answer, flight) === false) break;
    extendHistory(root, rules, game);
    drawnCount += 1;
  }
  return drawnCount;
}

function usable(element) {
  return element && !element.disabled && element.offsetParent !== null;
}

// A drawing replaces places' elements: the focus stays on the card with the same id, or else on
// the same place's last card (as static/js/app.js does after an answer), never falls to <body>.
export function keepingFocus(change) {
  const active = document.activeElement;
  const root = board();
  if (!active || !root || !root.contains(active)) return change();
  const place = active.closest("[data-place]");
  const name = place && place.dataset.place;
  const result = change();
  if (active.isConnected) return result;
  let target = active.id ? document.getElementById(active.id) : null;
  if (!usable(target) && name) {
    const now = root.querySelector(`[data-place="${name}"]`);
    target = now ? [...now.querySelectorAll("button")].pop() : null;
  }
  if (usable(target)) target.focus({ preventScroll: true });
  return result;
}

/** Draw ``entries`` as a tap's drawing: the focus kept, the cards moving as an answer's would
 * (static/js/motion.js cardMotion.around, nothing under reduced motion). */
export function redraw(entries) {
  const change = () => keepingFocus(() => draw(entries));
  const motion = window.cardMotion;
  return motion ? motion.around(change, () => flight) : change();
}

// --- a game form's action as the rules' play -------------------------------------------------

/** The rules' play of a game form's action (null: only the server's answer can draw it). Undo
 * and Redo: drawn from the board's history (drawHistory), when the board has one. */
export function playOf(action, fields) {
  const root = board();
  const rules = root && GAMES[root.dataset.game];
  if (!rules) return null;
  const verb = action.split("/").pop();
  if (verb === "undo" || verb === "redo") {
    return root.hasAttribute("data-line") ? Object.assign(() => null, { history: verb }) : null;
  }
  return rules.action(verb, fields, root);
}

/** This board's game path: its actions' URLs start with it. */
export function gamePath() {
  const root = board();
  if (!root) return null;
  const practice = root.dataset.practice ? "/practice" : ""; // a practice's own URLs (issue 43)
  return `/${root.dataset.game}/${root.dataset.code}${practice}`;
}

/** Undo or Redo of this board's game (their forms are in the info bar, not on the board). */
export function historyAction(action) {
  const path = gamePath();
  return !!path && (action === `${path}/undo` || action === `${path}/redo`);
}
