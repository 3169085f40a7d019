// The game page's client state (static/js/client/state.js) without a browser: every event of
// an action's life (taken, answered, kept, sent again, refused) stepped on plain objects.
// Run by tests/static/test_client_state.py (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { initial, queued, step } from "../../../static/js/client/state.js";

const tap = (id, play = () => ({})) => ({ id, action: "/half-moon/1/tap", fields: [["place", "p1"]], play });
const restart = (id) => ({ id, action: "/half-moon/1/restart", fields: [], play: null });
const types = (state) => state.effects.map((e) => e.type);

function run(state, ...events) {
  return events.reduce(step, state);
}

test("a tap online is pending and drawn at once", () => {
  const s = step(initial(), { type: "taken", entry: tap(1), drawable: true });
  assert.deepEqual(s.pending.map((e) => e.id), [1]);
  assert.deepEqual(s.kept, []);
  assert.deepEqual(types(s), ["mark", "redraw"]);
  assert.equal(s.effects[1].all, 1);
});

test("step changes nothing in place: the state before is as it was", () => {
  const before = initial();
  const after = step(before, { type: "taken", entry: tap(1), drawable: true });
  assert.deepEqual(before.pending, []);
  assert.deepEqual(before.effects, []);
  assert.notEqual(after, before);
});

test("a tap while an answer is being drawn waits for it (drawn at its end)", () => {
  const s = run(initial(), { type: "swapping", id: 9, boardState: "playing" }, { type: "taken", entry: tap(1), drawable: true });
  assert.deepEqual(types(s), ["mark"]);
  const end = step(s, { type: "answered", id: 9, kept: false, htmx: true });
  assert.equal(end.answering, null);
});

test("a tap after Restart waits: Restart is drawn by its answer only", () => {
  const s = run(initial(), { type: "taken", entry: restart(1), drawable: false }, { type: "taken", entry: tap(2), drawable: true });
  assert.deepEqual(queued(s).map((e) => e.id), [1, 2]);
  assert.deepEqual(types(s), ["mark"]);
});

test("an answer drawn: its action leaves the queue, the rest is drawn on it, the page kept", () => {
  let s = run(initial(), { type: "taken", entry: tap(1), drawable: true }, { type: "taken", entry: tap(2), drawable: true });
  s = step(s, { type: "answered", id: 1, kept: false, htmx: true });
  assert.deepEqual(s.pending.map((e) => e.id), [2]);
  assert.deepEqual(types(s), ["draw", "mark"]);
  s = step(s, { type: "answered", id: 2, kept: false, htmx: true });
  assert.deepEqual(types(s), ["draw", "mark", "snapshot"]);
});

test("no answer: the action is kept with the board it was made on, and retried", () => {
  let s = step(initial(), { type: "taken", entry: tap(1), drawable: true });
  s = step(s, { type: "unreachable", id: 1, kept: false, version: "v7" });
  assert.deepEqual(s.pending, []);
  assert.deepEqual(s.kept.map((e) => e.id), [1]);
  assert.equal(s.keptBase, "v7");
  assert.deepEqual(types(s), ["keep-main", "save", "say", "mark", "timer"]);
  assert.equal(s.effects[2].text, "offline");
  assert.equal(s.retrying, true);
});

test("while kept, a new tap is kept behind (not sent); Restart is refused with words", () => {
  let s = run(initial(), { type: "taken", entry: tap(1), drawable: true }, { type: "unreachable", id: 1, kept: false, version: "v7" });
  s = step(s, { type: "taken", entry: tap(2), drawable: true });
  assert.deepEqual(s.kept.map((e) => e.id), [1, 2]);
  assert.equal(s.keptBase, "v7");
  assert.deepEqual(types(s).slice(0, 2), ["prevent", "save"]);
  assert.ok(!types(s).includes("keep-main"));
  s = step(s, { type: "taken", entry: restart(3), drawable: false });
  assert.deepEqual(types(s), ["prevent", "say"]);
  assert.equal(s.effects[1].text, "waits");
  assert.deepEqual(s.kept.map((e) => e.id), [1, 2]);
});

test("a pending action leaving behind a kept one is kept too, in order", () => {
  let s = run(
    initial(),
    { type: "taken", entry: tap(1), drawable: true },
    { type: "taken", entry: tap(2), drawable: true },
    { type: "unreachable", id: 1, kept: false, version: "v1" },
  );
  s = step(s, { type: "leaving", id: 2 });
  assert.equal(types(s)[0], "prevent");
  assert.deepEqual(s.kept.map((e) => e.id), [1, 2]);
  assert.deepEqual(s.pending, []);
});

test("a proxy's 502 is no answer: the action is kept; Restart's is not", () => {
  let s = step(initial(), { type: "taken", entry: tap(1), drawable: true });
  s = step(s, { type: "proxied", id: 1, version: "v3" });
  assert.ok(types(s).includes("kept-request"));
  assert.deepEqual(s.kept.map((e) => e.id), [1]);
  const r = run(initial(), { type: "taken", entry: restart(5), drawable: false }, { type: "proxied", id: 5, version: "v3" });
  assert.deepEqual(r.kept, []);
  assert.deepEqual(r.effects, []);
});

function keptOne() {
  return run(
    initial(),
    { type: "taken", entry: tap(1), drawable: true },
    { type: "unreachable", id: 1, kept: false, version: "v1" },
    { type: "taken", entry: tap(2), drawable: true },
  );
}

test("kept actions are sent one at a time, the first with its board, once nothing is pending", () => {
  let s = step(keptOne(), { type: "retry", htmx: true });
  assert.equal(s.sending, 1);
  assert.deepEqual(types(s), ["send"]);
  assert.equal(s.effects[0].base, "v1");
  // sent again before its answer: nothing more leaves
  assert.deepEqual(types(step(s, { type: "online", htmx: true })), []);
  s = step(s, { type: "keptAnswer", id: 1, status: 200, refused: false, version: "v2", retryAfter: 0 });
  assert.deepEqual(s.kept.map((e) => e.id), [2]);
  assert.equal(s.keptBase, "v2");
  assert.equal(s.keptMain, null);
  s = step(s, { type: "answered", id: 1, kept: true, htmx: true });
  assert.equal(s.sending, 2);
  assert.deepEqual(types(s), ["draw", "mark", "send"]);
  assert.equal(s.effects[2].base, "v2");
});

test("a kept action's 429 or 5xx: sent again after Retry-After (5 s without one)", () => {
  let s = step(keptOne(), { type: "retry", htmx: true });
  s = step(s, { type: "keptAnswer", id: 1, status: 429, refused: false, version: null, retryAfter: 2 });
  s = step(s, { type: "answered", id: 1, kept: true, htmx: true });
  assert.deepEqual(s.effects.at(-1), { type: "timer", ms: 2000 });
  assert.deepEqual(s.kept.map((e) => e.id), [1, 2]);
  let t = step(keptOne(), { type: "retry", htmx: true });
  t = run(t, { type: "keptAnswer", id: 1, status: 503, refused: false, version: null, retryAfter: 0 }, { type: "answered", id: 1, kept: true, htmx: true });
  assert.deepEqual(t.effects.at(-1), { type: "timer", ms: 5000 });
});

test("a kept action refused: the queue is dropped and the game offered as a replay", () => {
  let s = step(keptOne(), { type: "retry", htmx: true });
  s = step(s, { type: "keptAnswer", id: 1, status: 409, refused: true, version: null, retryAfter: 0 });
  assert.deepEqual(s.kept, []);
  assert.deepEqual(types(s), ["offer-replay", "save"]);
});

test("a kept action's send that gets no answer at all: retried in 4 s", () => {
  let s = step(keptOne(), { type: "retry", htmx: true });
  s = step(s, { type: "unreachable", id: 1, kept: true });
  s = step(s, { type: "answered", id: 1, kept: true, htmx: true });
  assert.equal(s.sending, null);
  assert.deepEqual(s.effects.at(-1), { type: "timer", ms: 4000 });
});

test("kept actions wait while a pending one is unanswered", () => {
  let s = run(initial(), { type: "restored", base: "v1", main: "<p>", entries: [tap(1)], htmx: true });
  assert.equal(s.sending, 1);
  s = initial();
  s = run(s, { type: "taken", entry: tap(5), drawable: true });
  s = step(s, { type: "restored", base: "v1", main: null, entries: [tap(1)], htmx: true });
  assert.equal(s.sending, null);
  assert.deepEqual(types(s), ["mark", "redraw", "say", "timer"]);
});

test("a win celebrates once: only a board an answer turned to won", () => {
  let s = run(initial(), { type: "swapping", id: 1, boardState: "playing" }, { type: "swapped", boardState: "won" });
  assert.deepEqual(types(s), ["celebrate"]);
  s = run(s, { type: "swapping", id: 2, boardState: "won" }, { type: "swapped", boardState: "won" });
  assert.deepEqual(types(s), []);
  s = run(initial(), { type: "swapping", id: 1, boardState: "playing" }, { type: "swapped", boardState: "playing" });
  assert.deepEqual(types(s), []);
});

test("a request's end clears the answer being drawn, whatever request it was", () => {
  const s = run(initial(), { type: "swapping", id: 4, boardState: "playing" }, { type: "answered", id: 4, kept: false, htmx: true });
  assert.equal(s.answering, null);
  assert.deepEqual(s.effects, []);
});
