// Half Moon drawn ahead of the server (./drawn.js calls it): the board read into the rules'
// game (static/js/rules/halfmoon.js), a form's action as the rules' play, and a played game
// drawn over the board (./cover.js). A pair or triple leaving: the cards under them come from
// the deal (a pile's cards leave from the top only).

import { parseCode } from "../rules/deal.js";
import * as HM from "../rules/halfmoon.js";
import { replace, setAttribute, toggleClass } from "./cover.js";
import { copyOf, drawFigures, face, figure, named, pressed, processed, recount } from "./paint.js";

export const halfMoon = {
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
          `${named(top)}, ${spoken.replace(/\d+/, String(count))}`
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
  button.setAttribute("aria-label", [named(card), ...where.filter(Boolean)].join(", "));
  empty.replaceWith(form);
}

halfMoon.fresh = (code) => new HM.HalfMoon(code);
halfMoon.playText = HM.playText;
halfMoon.moveText = HM.moveText;
