// A press on a card an answer redrew meanwhile (its listeners: ../client/dispatch.js).
// An answer redraws the places it changes (hx-swap-oob: new elements, same ids). A press that
// began on a card and is released after an answer redrew that card began on a button that is
// gone: the browser fires its click on an ancestor that is still there, not on a button, and the
// tap is lost — the second tap of a quick double tap or double click, when the first's answer
// lands between its press and its release (tests/browser/test_overlap.py). A press released on
// the button drawn in its place (the same id) is that tap: the script clicks the new button
// itself, once. Not on a Seahaven board: ./seahaven-gestures.js owns its presses (a second press
// on a redrawn card is its double tap; a touch tap the browser drops, its own rescue).

const RESCUE_MS = 120;
let pressed = null; // the primary press going on: its pointer and the card it began on
let rescue = null; // a released press whose card was redrawn, waiting for the browser's click

function cardButton(event) {
  return event.target.closest ? event.target.closest("#board button[id]") : null;
}

/** pointerdown (capture): a press that closed a panel (static/js/app.js) is no tap. */
export function pressStarted(event) {
  pressed = null;
  if (!event.isPrimary || event.button !== 0) return;
  if (window.pagePanels && window.pagePanels.closedBy(event)) return;
  const button = cardButton(event);
  if (button) pressed = { button, pointer: event.pointerId };
}

/** pointerup (capture): released on the button drawn in place of the one pressed. */
export function pressEnded(event) {
  const done = pressed;
  pressed = null;
  if (!done || event.pointerId !== done.pointer || done.button.isConnected) return;
  if (document.querySelector("#board[data-game=seahaven]")) return; // seahaven-gestures.js's presses
  const button = document.getElementById(done.button.id);
  if (!button || cardButton(event) !== button) return; // released elsewhere: no tap
  if (rescue) clearTimeout(rescue.timer);
  rescue = { button, timer: setTimeout(rescued, RESCUE_MS) };
}

function rescued() {
  const lost = rescue;
  rescue = null;
  if (lost && lost.button.isConnected && !lost.button.disabled) lost.button.click();
}

/** click (capture): the browser's click of that press, on the new button or an ancestor. */
export function pressClicked(event) {
  if (!rescue || event.detail === 0) return; // none waiting, or a key's or the script's click
  clearTimeout(rescue.timer);
  if (cardButton(event) === rescue.button) {
    rescue = null; // the browser clicked the new button after all: the tap
    return;
  }
  rescued(); // the browser's click, on an ancestor: make the tap now
}
