// The page answers every tap in the frame after it (issue 32), from its copy of the rules
// (static/js/rules/); the server's answer stays the only judge.
//
// The game page's client (issue 47, item 4), in static/js/client/:
// - state.js: the one state (the pending actions, the kept queue, the kept action in flight,
//   the answer being drawn) and step(state, event), a pure function;
// - dispatch.js: the one place that listens (htmx, input, online) and dispatches;
// - effects.js: what a step decided, carried out (DOM, storage, timers, htmx);
// - drawn.js: the board drawn from the state: the server's board with the queue played on it
//   (halfmoon-draw.js, seahaven-draw.js, paint.js), over it (cover.js).
//
// What only the server says stays the server's: the board's data-state, data-score and
// data-moves are set by answers only (a drawn move's score and count show in the info bar, and
// in data-drawn-score / data-drawn-moves while drawn), and while any game form is unanswered the
// board carries data-pending. So "data-moves is 5" means the server accepted the fifth move.
//
// Drawn here: a selection (both games), a Half Moon pair or triple leaving, a Seahaven card or
// run going to a foundation, column or cell (a tap, a double tap, a drop, a selection then its
// destination), Send all home, and Undo and Redo (the rules replay the history the server
// writes on #board), with score, move count, Undo and Redo; the cards move as an answer's would
// (static/js/motion.js cardMotion.around, nothing under reduced motion). Left to the answer:
// Restart, a card taken back from a foundation, Undo from an ended game, the end box, the live
// region's words; an action after one of those waits for that answer before it is drawn.

import { listen, restore } from "./client/dispatch.js";

listen();
restore();
