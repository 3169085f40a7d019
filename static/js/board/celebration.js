// The win: a celebration, then the summary (imported by ../instant.js). When an answer turns the
// board to won, the board gets .celebrating for a few seconds: the cards of the cascade fall over
// it and the summary comes forward (CSS). Focus is on the summary's heading already (autofocus:
// static/js/app.js); the live region announces the win. Never under reduced motion (cards move:
// static/js/motion.js).

const CELEBRATION_MS = 3200;
const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
let stateBefore = null; // the board's data-state before the answer being drawn

/** Before an answer is drawn (htmx:before:swap): the state it leaves from. */
export function noteStateBefore() {
  const board = document.getElementById("board");
  stateBefore = board ? board.dataset.state : null;
}

/** After an answer is drawn (htmx:after:swap): a board it turned to won celebrates. */
export function celebrateWin() {
  const board = document.getElementById("board");
  if (!board || board.dataset.state !== "won" || !stateBefore || stateBefore === "won") return;
  stateBefore = "won";
  if (reduce && reduce.matches) return;
  board.classList.add("celebrating");
  setTimeout(() => board.classList.remove("celebrating"), CELEBRATION_MS);
}
