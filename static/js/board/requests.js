// The board's game forms and their htmx requests and answers (their listeners: ../client/dispatch.js,
// which calls these from its own).

/** The board shown now. */
function board() {
  return document.getElementById("board");
}

/** The board version an action sends names the board it leaves from (docs/decisions.md, "A tap
 * whose answer was lost"). htmx reads #board's hx-headers when the click happens, but an action
 * queued behind an earlier one leaves after that answer was drawn: it acts on the board shown
 * now, so it sends that board's version. Then the second tap of a double click is a new action
 * on the new board (it deselects), while the same tap sent again from a board no answer changed
 * (its answer was lost) is a replay, answered with the board as it is. (htmx:before:request) */
export function sendShownBoardVersion(ctx) {
  const request = ctx && ctx.request;
  const headers = request && request.headers;
  const root = board();
  if (!headers || !root) return;
  if (!headers["X-Board-Version"] || headers["X-Kept"]) return; // a kept action: its own board
  try {
    const now = JSON.parse(root.getAttribute("hx-headers:inherited") || "{}")["X-Board-Version"];
    if (now) headers["X-Board-Version"] = String(now);
  } catch (e) {
    // a board without its version: send what htmx read
  }
}

/** A page's game actions wait in one queue (hx-sync="#main:queue all" on every game form), so an
 * action can leave after an earlier answer replaced the form or board it was clicked on. htmx
 * resolves the target when the click happens (a game form with hx-swap="none" is its own target)
 * and throws the answer away, out-of-band parts included, when that target is no longer in the
 * document. Give it the element with the same id that is there now; for an answer that is out of
 * band only (hx-swap="none": every game action, docs/decisions.md), any element in the page will
 * do, since the parts find their places by id. No answer is lost. (htmx:after:request) */
export function retargetQueued(ctx) {
  const target = ctx && ctx.target;
  if (!target || target.isConnected !== false) return;
  let current = target.id ? document.getElementById(target.id) : null;
  if (!current && ctx.swap === "none") current = document.getElementById("main") || document.body;
  if (current) ctx.target = current;
}

/** A form htmx has not taken over yet (an answer's new board, between its swap and htmx's
 * processing of it) would be posted by the browser itself and reload the whole page. Hand it to
 * htmx first, then submit it again through htmx and its queue. (With no settle delay, htmx
 * processes a swapped board at once; this covers any other way to such a window.) (submit, in
 * the capture phase) */
export function submitThroughHtmx(event) {
  const form = event.target;
  if (!window.htmx || !form.matches || !form.matches("form[hx-post]")) return;
  if (form.hasAttribute("data-htmx-powered")) return;
  window.htmx.process(form);
  if (!form.hasAttribute("data-htmx-powered")) return; // htmx declined: a plain post
  event.preventDefault();
  event.stopPropagation();
  // requestSubmit() is ignored while the form is firing its submit event: dispatch a
  // SubmitEvent (with the same submitter) that htmx takes like any submit
  const again = { bubbles: true, cancelable: true, submitter: event.submitter || null };
  form.dispatchEvent(new SubmitEvent("submit", again));
}
