// Half Moon's rules for the page (issue 32): the deal (with every pile's hidden cards), a tap's
// effect on the selection, removals, score and ending, as app/engine/halfmoon/ has them. Places
// are numbered as there: 0 … 11 the piles, 12 … 19 the reserve. A position is
// {piles: [[card, …] bottom → top × 12], reserve: [card | null × 8]}, cards as text ("10H").

import { History } from "./history.js";
import { rankOf, shuffledCards } from "./deal.js";

export const PILES = 12;
export const RESERVE = 8;
export const PLACES = PILES + RESERVE;
const PILE_SIZE = 8;

export function placeName(index) {
  return index < PILES ? `pile-${index + 1}` : `reserve-${index - PILES + 1}`;
}

export function parsePlace(name) {
  const match = /^(pile|reserve)-(\d{1,2})$/.exec(String(name).trim().toLowerCase());
  if (!match) return null;
  const n = +match[2];
  if (match[1] === "pile" && n >= 1 && n <= PILES) return n - 1;
  if (match[1] === "reserve" && n >= 1 && n <= RESERVE) return PILES + n - 1;
  return null;
}

export function deal(code) {
  const cards = shuffledCards(code, 2);
  const piles = [];
  for (let p = 0; p < PILES; p++) piles.push(cards.slice(PILE_SIZE * p, PILE_SIZE * (p + 1)));
  return { piles, reserve: cards.slice(PILES * PILE_SIZE) };
}

export function top(position, place) {
  if (place < PILES) {
    const pile = position.piles[place];
    return pile.length ? pile[pile.length - 1] : null;
  }
  return position.reserve[place - PILES];
}

export function count(position, place) {
  return place < PILES ? position.piles[place].length : position.reserve[place - PILES] ? 1 : 0;
}

const isFace = (card) => rankOf(card) > 10;

export function isPair(a, b) {
  return !isFace(a) && !isFace(b) && rankOf(a) + rankOf(b) === 11;
}

function playable(position) {
  const found = [];
  for (let place = 0; place < PLACES; place++) {
    const card = top(position, place);
    if (card) found.push([place, card]);
  }
  return found;
}

export function cardsLeft(position) {
  return position.piles.reduce((n, pile) => n + pile.length, 0) + position.reserve.filter(Boolean).length;
}

export function hasRemoval(position) {
  const ranks = new Set(playable(position).map(([, card]) => rankOf(card)));
  if (ranks.has(11) && ranks.has(12) && ranks.has(13)) return true;
  for (let r = 1; r <= 5; r++) if (ranks.has(r) && ranks.has(11 - r)) return true;
  return false;
}

/** "won", "stuck" or "playing". */
export function statusOf(position) {
  if (cardsLeft(position) === 0) return "won";
  return hasRemoval(position) ? "playing" : "stuck";
}

/** The position without the top cards of a removal's places. */
export function result(position, removal) {
  const piles = position.piles.slice();
  const reserve = position.reserve.slice();
  for (const place of removal) {
    if (place < PILES) piles[place] = piles[place].slice(0, -1);
    else reserve[place - PILES] = null;
  }
  return { piles, reserve };
}

const LETTERS = "abcdefghijklmnopqrst"; // one letter a place, as records write a removal

/** A removal as a record writes it ("ab": the places' letters, in order). */
export function moveText(removal) {
  return removal.map((place) => LETTERS[place]).join("");
}

/** The removal a record's text names and the position after it, or null when the text is no
 * removal or the cards it names do not remove together there. */
export function playText(position, text) {
  if (!/^[a-t]{2,3}$/.test(text)) return null;
  const removal = [...text].map((letter) => LETTERS.indexOf(letter)).sort((a, b) => a - b);
  if (new Set(removal).size !== removal.length) return null;
  const cards = removal.map((place) => top(position, place));
  if (cards.some((card) => card === null)) return null;
  const ranks = cards.map(rankOf).sort((a, b) => a - b);
  const removes = cards.length === 2 ? isPair(cards[0], cards[1]) : ranks.join() === "11,12,13";
  return removes ? [removal, result(position, removal)] : null;
}

/** A game as HalfMoon is: a tap answers {outcome, move, reason}. */
export class HalfMoon extends History {
  /** A game of the deal ``code`` (parseCode's value), or one starting from ``start``. */
  constructor(code, start = null) {
    super(start || deal(code));
    this.selection = [];
  }

  clearSelection() {
    this.selection = [];
  }

  get score() {
    let points = 0;
    for (const step of this.steps) for (const move of step.moves) points += move.length === 2 ? 10 : 15;
    return points;
  }

  status() {
    return statusOf(this.position);
  }

  tap(place, card) {
    const shown = top(this.position, place);
    if (shown === null) return { outcome: "ignored" };
    if (shown !== card) return { outcome: "stale" };
    const answer = this.decide(place, card);
    if (answer.move) {
      const removal = answer.move.slice().sort((a, b) => a - b);
      answer.move = removal;
      this.push([removal], [result(this.position, removal)]);
    }
    return answer;
  }

  decide(place, card) {
    const selection = this.selection;
    if (selection.includes(place)) {
      this.selection = selection.filter((p) => p !== place);
      return { outcome: "deselected" };
    }
    if (!selection.length) {
      this.selection = [place];
      return { outcome: "selected" };
    }
    const chosen = selection.map((p) => top(this.position, p));
    if (!isFace(chosen[0])) {
      if (isPair(chosen[0], card)) return { outcome: "removed", move: [selection[0], place] };
      this.selection = [];
      return { outcome: "refused", reason: "sum" };
    }
    if (!isFace(card)) {
      this.selection = [];
      return { outcome: "refused", reason: "jqk" };
    }
    const same = selection.findIndex((p, i) => rankOf(chosen[i]) === rankOf(card));
    if (same >= 0) {
      this.selection = selection.map((p, i) => (i === same ? place : p));
      return { outcome: "replaced" };
    }
    if (selection.length === 2) return { outcome: "removed", move: [...selection, place] };
    this.selection = [...selection, place];
    return { outcome: "selected" };
  }
}
