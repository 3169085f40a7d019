// Seahaven drawn ahead of the server (./drawn.js calls it): the board read into the rules' game
// (static/js/rules/seahaven.js), a form's action as the rules' play (a tap, a double tap, a
// drop, a selection then its destination, Send all home), and a played game drawn over the
// board (./cover.js). A card taken back from a foundation is left to the answer.

import { parseCode } from "../rules/deal.js";
import * as SH from "../rules/seahaven.js";
import { replace, setAttribute, toggleClass } from "./cover.js";
import { copyOf, drawFigures, face, figure, named, pressed, processed, recount } from "./paint.js";

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

export const seahaven = {
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

  draw(root, game, before, answer, flight) {
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
      button.setAttribute("aria-label", named(card));
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

seahaven.fresh = (code) => new SH.Seahaven(code);
seahaven.playText = SH.playText;
seahaven.moveText = SH.moveText;
