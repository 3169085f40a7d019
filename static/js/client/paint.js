// Drawing helpers shared by both games' drawings (./halfmoon-draw.js, ./seahaven-draw.js): a
// place's copy, a card's face, the info bar's figures and controls. Every change goes through
// ./cover.js, so the server's board can be shown again.

import { rankOf, suitOf } from "../rules/deal.js";
import { setAttribute, setDisabled, setText } from "./cover.js";

export const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = { H: true, D: true };

export function board() {
  return document.getElementById("board");
}

export function copyOf(element) {
  const copy = element.cloneNode(true);
  copy.querySelectorAll("[data-htmx-powered]").forEach((e) => e.removeAttribute("data-htmx-powered"));
  copy.removeAttribute("data-htmx-powered");
  return copy;
}

export function processed(copy) {
  if (window.htmx && copy.querySelector("form, [hx-post]")) window.htmx.process(copy);
  else if (window.htmx && copy.matches("form")) window.htmx.process(copy);
}

function letters() {
  const script = document.querySelector("script[data-letters]");
  const [j, q, k] = (script ? script.dataset.letters : "J Q K").split(" ");
  return { 11: j, 12: q, 13: k };
}

export function printed(card) {
  const rank = rankOf(card);
  return rank === 1 ? "A" : rank > 10 ? letters()[rank] : String(rank);
}

/** A card as read out: its rank and suit's symbol. */
export function named(card) {
  return `${printed(card)} ${SYMBOLS[suitOf(card)]}`;
}

export function face(button, card) {
  const rank = button.querySelector(".rank");
  const suit = button.querySelector(".suit");
  if (rank) rank.textContent = printed(card);
  if (suit) suit.textContent = SYMBOLS[suitOf(card)];
  button.classList.remove("red", "black");
  button.classList.add(RED[suitOf(card)] ? "red" : "black");
}

export function recount(place, count) {
  place.dataset.count = String(count);
  const label = place.querySelector(".label-count");
  if (label) label.textContent = label.textContent.replace(/\d+/, String(count));
}

export function pressed(root) {
  return [...root.querySelectorAll("button.card[aria-pressed=true]")];
}

// a drawn Undo with nothing left to undo disables itself: the focus goes on to the next control
// that can be used (as static/js/app.js does after an answer), never to <body>
function nextControl(element) {
  const all = [...document.querySelectorAll(".controls button, .controls a")];
  const at = all.indexOf(element);
  const after = at < 0 ? all : all.slice(at + 1).concat(all.slice(0, at).reverse());
  return after.find((e) => !e.disabled && e.offsetParent !== null) || null;
}

/** The score or move count as drawn: the server's (data-score, data-moves) with the moves drawn
 * ahead of it (data-drawn-score, data-drawn-moves while any is drawn). */
export function figure(root, name) {
  const drawn = root.getAttribute(`data-drawn-${name}`);
  return +(drawn === null ? root.getAttribute(`data-${name}`) : drawn);
}

/** A move drawn: its score and move count; Undo can take it back, nothing is left to redo
 * (an Undo or Redo drawn: whether each can go on). The board's own data-score and data-moves
 * stay the server's: only its answer sets them. */
export function drawFigures(root, score, moves, canUndo = true, canRedo = false) {
  const states = [
    ["control-undo", canUndo],
    ["control-redo", canRedo],
    ["control-restart", moves > 0 || canRedo], // as the server's
  ];
  // the enabled first: a focused control that disables itself hands the focus on to them
  states.sort((a, b) => b[1] - a[1]);
  for (const [id, enabled] of states) setDisabled(document.getElementById(id), !enabled, nextControl);
  setAttribute(root, "data-drawn-score", String(score));
  setAttribute(root, "data-drawn-moves", String(moves));
  setText(document.getElementById("score"), String(score));
  setText(document.getElementById("moves"), String(moves));
}
