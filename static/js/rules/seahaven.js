// Seahaven Towers' rules for the page (issue 32): the deal, what the rules allow, taps, double
// taps, drags and Send all home, as app/engine/seahaven/ has them. Places are numbered as there:
// columns 0 … 9, cells 10 … 13, foundations 14 … 17 (S H D C). A position is
// {columns: [[card, …] bottom → top × 10], cells: [card | null × 1, 2 or 4],
//  foundations: [S, H, D, C heights]}, cards as text ("10H"). Whether a position is lost takes
// the server's search: the page never says so by itself.

import { History } from "./history.js";
import { SUITS, cardText, rankOf, shuffledCards, suitOf } from "./deal.js";

export const COLUMNS = 10;
export const CELLS = 10; // the first cell's number
export const FOUNDATIONS = 14; // the first foundation's number
const KING = 13;
export const VARIANT_CELLS = { C4: 4, C2: 2, C1: 1 };

const isColumn = (place) => place >= 0 && place < COLUMNS;
const isCell = (place) => place >= CELLS && place < FOUNDATIONS;
const isFoundation = (place) => place >= FOUNDATIONS && place < FOUNDATIONS + 4;

export function foundationOf(card) {
  return FOUNDATIONS + SUITS.indexOf(suitOf(card));
}

export function placeName(place) {
  if (isColumn(place)) return `column-${place + 1}`;
  if (isCell(place)) return `cell-${place - CELLS + 1}`;
  return `foundation-${SUITS[place - FOUNDATIONS]}`;
}

export function parsePlace(name, cells) {
  let match = /^column-(\d{1,2})$/.exec(name);
  if (match && +match[1] >= 1 && +match[1] <= COLUMNS) return +match[1] - 1;
  match = /^cell-(\d)$/.exec(name);
  if (match && +match[1] >= 1 && +match[1] <= cells) return CELLS + +match[1] - 1;
  match = /^foundation-([SHDC])$/.exec(name);
  if (match) return FOUNDATIONS + SUITS.indexOf(match[1]);
  return null;
}

export function deal(code) {
  const cellCount = code.game === "SH" ? VARIANT_CELLS[code.variant] || 0 : 0;
  if (!cellCount) return null;
  const c = shuffledCards(code, 1);
  const columns = [];
  for (let k = 0; k < COLUMNS; k++) columns.push(c.slice(5 * k, 5 * k + 5));
  const cells = new Array(cellCount).fill(null);
  cells[0] = c[50];
  if (cellCount === 1) columns[1].push(c[51]);
  else cells[1] = c[51];
  return { columns, cells, foundations: [0, 0, 0, 0] };
}

export function top(position, place) {
  if (isColumn(place)) {
    const column = position.columns[place];
    return column.length ? column[column.length - 1] : null;
  }
  if (isCell(place)) return position.cells[place - CELLS];
  const height = position.foundations[place - FOUNDATIONS];
  return height ? cardText(height, SUITS[place - FOUNDATIONS]) : null;
}

export function runLength(position, place) {
  const cards = position.columns[place];
  if (!cards.length) return 0;
  let length = 1;
  for (let i = cards.length - 1; i > 0; i--) {
    const lower = cards[i];
    const upper = cards[i - 1];
    if (suitOf(lower) !== suitOf(upper) || rankOf(lower) + 1 !== rankOf(upper)) break;
    length += 1;
  }
  return length;
}

export function accepts(position, place, card) {
  if (isColumn(place)) {
    const column = position.columns[place];
    if (!column.length) return rankOf(card) === KING;
    const onto = column[column.length - 1];
    return suitOf(onto) === suitOf(card) && rankOf(onto) === rankOf(card) + 1;
  }
  if (isCell(place)) return position.cells[place - CELLS] === null;
  const i = place - FOUNDATIONS;
  return suitOf(card) === SUITS[i] && position.foundations[i] + 1 === rankOf(card);
}

const freeCells = (position) => position.cells.filter((c) => c === null).length;
const emptyColumns = (position) => position.columns.filter((c) => !c.length).length;

export function maxGroup(position, toEmptyColumn) {
  let empty = emptyColumns(position);
  if (toEmptyColumn && empty) empty -= 1;
  return (freeCells(position) + 1) * 2 ** empty;
}

/** Why a move is refused ({reason, limit}), or null when the rules allow it. */
export function checkMove(position, move) {
  const [source, count, target] = move;
  const cellCount = position.cells.length;
  for (const place of [source, target]) {
    if (!(isColumn(place) || isFoundation(place) || (isCell(place) && place - CELLS < cellCount))) {
      return { reason: "unknown_place" };
    }
  }
  if (!Number.isInteger(count) || count < 1 || source === target) return { reason: "not_movable" };
  let card;
  if (isColumn(source)) {
    const column = position.columns[source];
    if (!column.length) return { reason: "nothing_there" };
    if (count > runLength(position, source)) return { reason: "not_movable" };
    card = column[column.length - count];
  } else {
    card = top(position, source);
    if (card === null) return { reason: "nothing_there" };
    if (count !== 1) return { reason: "not_movable" };
  }
  if (isFoundation(target)) {
    if (count > 1) return { reason: "foundation_one_at_a_time" };
    return accepts(position, target, card) ? null : { reason: "foundation_order" };
  }
  if (isCell(target)) {
    return count > 1 || !accepts(position, target, card) ? { reason: "cell_holds_one" } : null;
  }
  const toEmpty = !position.columns[target].length;
  if (!accepts(position, target, card)) return { reason: toEmpty ? "king_only" : "same_suit_one_lower" };
  if (count > 1) {
    const limit = maxGroup(position, toEmpty);
    if (count > limit) return { reason: "group", limit };
  }
  return null;
}

/** The position after a move checkMove allowed. */
export function moveResult(position, move) {
  const [source, count, target] = move;
  const columns = position.columns.slice();
  const cells = position.cells.slice();
  const foundations = position.foundations.slice();
  let moving;
  if (isColumn(source)) {
    moving = columns[source].slice(-count);
    columns[source] = columns[source].slice(0, -count);
  } else if (isCell(source)) {
    moving = [cells[source - CELLS]];
    cells[source - CELLS] = null;
  } else {
    const i = source - FOUNDATIONS;
    moving = [cardText(foundations[i], SUITS[i])];
    foundations[i] -= 1;
  }
  if (isColumn(target)) columns[target] = columns[target].concat(moving);
  else if (isCell(target)) cells[target - CELLS] = moving[0];
  else foundations[target - FOUNDATIONS] += 1;
  return { columns, cells, foundations };
}

export function isWon(position) {
  return position.foundations.reduce((a, b) => a + b, 0) === 52;
}

/** Send all home's foundation moves, lowest rank first (suits S H D C among equals), or null. */
export function homeLine(position) {
  if (isWon(position)) return null;
  const sources = [];
  for (let p = 0; p < COLUMNS; p++) sources.push(p);
  for (let i = 0; i < position.cells.length; i++) sources.push(CELLS + i);
  const line = [];
  while (!isWon(position)) {
    let best = null;
    for (const source of sources) {
      const card = top(position, source);
      if (card === null || !accepts(position, foundationOf(card), card)) continue;
      const key = [rankOf(card), foundationOf(card), source];
      if (!best || key[0] < best[0] || (key[0] === best[0] && (key[1] < best[1] || (key[1] === best[1] && key[2] < best[2])))) {
        best = key;
      }
    }
    if (!best) return null;
    const move = [best[2], 1, best[1]];
    line.push(move);
    position = moveResult(position, move);
  }
  return line;
}

const LETTERS = "abcdefghijklmnSHDC"; // one letter a place, as records write a move

/** A move as a record writes it: source and target letters, then the count when over one. */
export function moveText([source, count, target]) {
  return LETTERS[source] + LETTERS[target] + (count > 1 ? String(count) : "");
}

/** The move a record's text names and the position after it, or null when the text is no move
 * or the rules refuse it there. */
export function playText(position, text) {
  const match = /^([a-nSHDC])([a-nSHDC])([2-9]|1[0-3])?$/.exec(text);
  if (!match) return null;
  const move = [LETTERS.indexOf(match[1]), match[3] ? +match[3] : 1, LETTERS.indexOf(match[2])];
  return checkMove(position, move) ? null : [move, moveResult(position, move)];
}

const moved = (move) => ({ outcome: "moved", move });
const refused = (refusal) => ({ outcome: "refused", reason: refusal.reason, limit: refusal.limit });

/** A game as Seahaven is: every action answers {outcome, move, reason, limit}. */
export class Seahaven extends History {
  /** A game of the deal ``code`` (parseCode's value), or one starting from ``start``. */
  constructor(code, start = null) {
    super(start || deal(code));
    this.selection = null; // [place, card]
  }

  clearSelection() {
    this.selection = null;
  }

  get cellCount() {
    return this.position.cells.length;
  }

  get score() {
    return 10 * this.position.foundations.reduce((a, b) => a + b, 0);
  }

  /** "won" or "playing" (a lost verdict is the server's). */
  status() {
    return isWon(this.position) ? "won" : "playing";
  }

  selectedCards() {
    if (!this.selection) return [];
    const [place, card] = this.selection;
    if (isColumn(place)) {
      const column = this.position.columns[place];
      return column.slice(column.indexOf(card));
    }
    return [card];
  }

  isThere(place, card) {
    if (isColumn(place)) {
      const column = this.position.columns[place];
      return card === null ? !column.length : column.includes(card);
    }
    return top(this.position, place) === card;
  }

  movableCount(place, card) {
    if (isColumn(place)) {
      const column = this.position.columns[place];
      const at = column.indexOf(card);
      if (at < 0) return null;
      const n = column.length - at;
      return n <= runLength(this.position, place) ? n : null;
    }
    return top(this.position, place) === card ? 1 : null;
  }

  play(move) {
    this.push([move], [moveResult(this.position, move)]);
    return moved(move);
  }

  move(source, card, target) {
    if (card === null || !this.isThere(source, card)) return { outcome: card !== null ? "stale" : "ignored" };
    if (source === target) return { outcome: "ignored" };
    const count = this.movableCount(source, card);
    if (count === null) return { outcome: "refused", reason: "not_movable" };
    const move = [source, count, target];
    const refusal = checkMove(this.position, move);
    return refusal ? refused(refusal) : this.play(move);
  }

  tap(place, card) {
    if (!this.isThere(place, card)) return { outcome: "stale" };
    const selection = this.selection;
    if (selection) {
      if (selection[0] === place && selection[1] === card) {
        this.selection = null;
        return { outcome: "deselected" };
      }
      if (selection[0] !== place) {
        const answer = this.move(selection[0], selection[1], place);
        if (answer.outcome === "moved" || card === null) {
          this.selection = null;
          return answer;
        }
      }
      this.selection = null;
    }
    if (card === null) return { outcome: "ignored" };
    const count = this.movableCount(place, card);
    if (count === null) return { outcome: "refused", reason: "not_movable" };
    if (count === 1 && !isFoundation(place)) {
      const home = foundationOf(card);
      if (accepts(this.position, home, card)) return this.play([place, 1, home]);
    }
    this.selection = [place, card];
    return { outcome: "selected" };
  }

  auto(place, card) {
    if (card === null) return { outcome: "ignored" };
    if (!this.isThere(place, card)) return { outcome: "stale" };
    const count = this.movableCount(place, card);
    if (count === null) return { outcome: "refused", reason: "not_movable" };
    let tooLarge = null;
    for (const target of this.autoTargets(place, card, count)) {
      const refusal = checkMove(this.position, [place, count, target]);
      if (!refusal) return this.play([place, count, target]);
      if (refusal.reason === "group" && !tooLarge) tooLarge = refusal;
    }
    return refused(tooLarge || { reason: "no_destination" });
  }

  finishDoubleTap(place, card) {
    if (card === null) return { outcome: "ignored" };
    if (this.selection && this.selection[0] === place && this.selection[1] === card) {
      this.selection = null;
      return this.auto(place, card);
    }
    const done = this.doneByFirstClick(place, card);
    if (done) return moved(done);
    return this.auto(place, card);
  }

  doneByFirstClick(tapped, card) {
    const last = this.lastMove;
    if (!last || this.selection) return null;
    const [source, count, target] = last;
    const position = this.position;
    if (source === tapped && count === 1 && target === foundationOf(card)) {
      return top(position, target) === card ? last : null;
    }
    if (target !== tapped || source === tapped) return null;
    if (isColumn(tapped)) {
      const column = position.columns[tapped];
      return column.length > count && column[column.length - count - 1] === card ? last : null;
    }
    if (isFoundation(tapped)) {
      const onTop = top(position, tapped);
      return onTop && rankOf(onTop) - 1 === rankOf(card) && suitOf(onTop) === suitOf(card) ? last : null;
    }
    return null;
  }

  autoTargets(source, card, count) {
    const position = this.position;
    const targets = [];
    if (count === 1 && !isFoundation(source)) targets.push(foundationOf(card));
    const filled = [];
    for (let i = 0; i < COLUMNS; i++) {
      if (i !== source && position.columns[i].length && accepts(position, i, card)) filled.push(i);
    }
    filled.sort((a, b) => position.columns[b].length - position.columns[a].length || a - b);
    targets.push(...filled);
    const wholeColumn = isColumn(source) && count === position.columns[source].length;
    if (rankOf(card) === KING && !wholeColumn) {
      for (let i = 0; i < COLUMNS; i++) if (!position.columns[i].length) targets.push(i);
    }
    if (count === 1 && !isCell(source)) {
      for (let i = 0; i < this.cellCount; i++) targets.push(CELLS + i);
    }
    return targets;
  }

  sendHome() {
    const line = homeLine(this.position);
    if (!line) return { outcome: "refused", reason: "no_destination" };
    const positions = [];
    let position = this.position;
    for (const move of line) {
      position = moveResult(position, move);
      positions.push(position);
    }
    this.push(line, positions);
    return { outcome: "moved", move: line[line.length - 1], moves: line };
  }
}
