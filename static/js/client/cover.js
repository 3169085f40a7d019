// What a drawing puts over the server's board (the confirmed board: the DOM as the last answer
// drew it). Drawing replaces a place's element by a changed copy and sets a few attributes;
// each element and value it covers is set aside here, so uncover() shows the server's board
// again exactly (before an answer is drawn: htmx's out-of-band parts find the server's elements
// by id), and the next drawing starts from it.

const covered = []; // functions that each put back one thing covered, in the order covered

/** Is anything drawn over the server's board? */
export function isCovered() {
  return covered.length > 0;
}

/** Show the server's board again: everything drawn over it taken back, newest first. */
export function uncover() {
  while (covered.length) covered.pop()();
}

export function replace(original, copy) {
  original.replaceWith(copy);
  covered.push(() => copy.replaceWith(original));
}

export function setAttribute(element, name, value) {
  const old = element.getAttribute(name);
  if (old === value) return;
  element.setAttribute(name, value);
  covered.push(() => (old === null ? element.removeAttribute(name) : element.setAttribute(name, old)));
}

export function setText(element, text) {
  if (!element || element.textContent === text) return;
  const old = element.textContent;
  element.textContent = text;
  covered.push(() => {
    element.textContent = old;
  });
}

export function toggleClass(element, name, on) {
  if (element.classList.contains(name) === on) return;
  element.classList.toggle(name, on);
  covered.push(() => element.classList.toggle(name, !on));
}

/** Disable or enable a control; a focused control that disables itself hands the focus on to
 * ``next(element)`` (never to <body>). */
export function setDisabled(element, on, next) {
  if (!element || element.disabled === on) return;
  const focused = on && document.activeElement === element;
  element.disabled = on;
  covered.push(() => {
    element.disabled = !on;
  });
  if (focused) next(element)?.focus({ preventScroll: true });
}
