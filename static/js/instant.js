// The page answers a tap in the frame after it (issue 32): what a tap on a card will do to the
// selection is drawn at once, before the server's answer, which stays the only judge.
//
// - A Half Moon card tapped: selected, deselected, a face card replacing one of its rank, or the
//   selection cleared by a tap that cannot combine with it. A removal is left to the answer.
// - A Seahaven card tapped with nothing selected: it (and the run above it) is selected, unless
//   it goes home (left to the answer) or cannot move; the selected card tapped again: cleared.
//
// What is drawn here is only ever attributes of the server's own elements, each change kept
// with the value it replaced. Every answer (htmx:before:swap, and htmx:finally:request for one
// that drew nothing) first takes back everything drawn here, then is drawn itself: the screen
// is the server's board as soon as an answer comes, whatever was guessed. The forms are not
// touched: a tap posts what it always posted.

const drawn = []; // functions that take back one change each, in the order made

function board() {
  return document.getElementById("board");
}

function setAttribute(element, name, value) {
  const old = element.getAttribute(name);
  if (old === value) return;
  element.setAttribute(name, value);
  drawn.push(() => {
    if (old === null) element.removeAttribute(name);
    else element.setAttribute(name, old);
  });
}

function press(buttons, on) {
  buttons.forEach((button) => setAttribute(button, "aria-pressed", on ? "true" : "false"));
}

/** Take back everything drawn ahead of the server, newest first. */
export function takeBack() {
  while (drawn.length) drawn.pop()();
}

// --- cards ------------------------------------------------------------------------------------

const RANKS = { A: 1, J: 11, Q: 12, K: 13 };

/** A card's text ("10H", "QS") as its rank (1 … 13) and suit. */
export function parseCard(text) {
  const rank = RANKS[text.slice(0, -1)] || Number(text.slice(0, -1));
  return { rank, suit: text.slice(-1) };
}

const isFace = (card) => card.rank > 10;

// --- Half Moon --------------------------------------------------------------------------------

function halfMoonTap(root, button) {
  const selected = [...root.querySelectorAll("button.card[aria-pressed=true]")];
  if (selected.includes(button)) return press([button], false);
  if (!selected.length) return press([button], true);
  const card = parseCard(button.dataset.card);
  const chosen = selected.map((b) => parseCard(b.dataset.card));
  if (!isFace(chosen[0])) {
    if (!isFace(card) && chosen[0].rank + card.rank === 11) return; // a pair: the answer removes it
    return press(selected, false); // refused: the selection goes
  }
  if (!isFace(card)) return press(selected, false);
  const same = selected.find((b, i) => chosen[i].rank === card.rank);
  if (same) {
    press([same], false);
    return press([button], true);
  }
  if (selected.length === 2) return; // a triple: the answer removes it
  press([button], true);
}

// --- Seahaven ---------------------------------------------------------------------------------

function runFrom(button) {
  const run = [button];
  for (let next = button.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.matches("button.card")) run.push(next);
  }
  return run;
}

function seahavenTap(root, button) {
  const selected = [...root.querySelectorAll("button.card[aria-pressed=true]")];
  if (selected.length) {
    if (selected[0] === button) press(selected, false);
    return; // a destination, or a fresh tap on another card: left to the answer
  }
  if (!button.classList.contains("movable")) return;
  const place = button.form && button.form.dataset.place;
  if (!place) return;
  const run = runFrom(button);
  if (run.length === 1 && !place.startsWith("foundation-")) {
    const card = parseCard(button.dataset.card);
    const home = root.querySelector(`[data-place="foundation-${card.suit}"]`);
    if (home && Number(home.dataset.count) === card.rank - 1) return; // home: left to the answer
  }
  press(run, true);
}

const TAPS = { "half-moon": halfMoonTap, seahaven: seahavenTap };

// A click on a card that the page's scripts let through is a tap (seahaven.js swallows the
// click that ends a drag or a double tap: it is defaultPrevented by then).
document.addEventListener("click", (event) => {
  if (event.defaultPrevented || !window.htmx) return;
  const root = board();
  const button = event.target.closest && event.target.closest("button.card[data-card]");
  if (!root || !button || !root.contains(button) || button.disabled) return;
  if (root.dataset.state !== "playing") return;
  const tap = TAPS[root.dataset.game];
  if (tap) tap(root, button);
});

document.addEventListener("htmx:before:swap", takeBack);
document.addEventListener("htmx:finally:request", takeBack);
