"""Click → paint in a real browser: how long from pressing on a card to the frame that shows the
board the server sent back, for Half Moon and Seahaven taps.

Run: ``.venv/bin/python -m bench.bench_click [--rounds 3] [--baseline DIR] [--latency 0 150 600]
[--phone] [--moves N]``

A real uvicorn on loopback (SQLite store, one worker) and Debian's Chromium through Playwright.
The page measures itself: ``performance.now()`` at the ``pointerdown`` of the click (or the
``touchstart`` of a finger's tap, whichever comes first), and again
in the animation frame after the first change to the board's nodes (a MutationObserver on child
lists: the swap of the board or of its places — never the ``htmx-request`` class the click
itself adds, nor the info bar's ticking clock). Each tap waits for its paint before the next,
so this is the latency a player feels, not throughput; a move the page draws before its answer
(issue 32) counts from that drawing, and the next tap still waits for its answer.

The taps follow a solver's line from the start of a deal, kind by kind:

- Half Moon ``select``: the first card(s) of a pair or triple (drawn selected);
- Half Moon ``remove``: the card that completes it (the cards leave);
- Seahaven ``home``: a single top card sent to its foundation by one click;
- Seahaven ``select``: a card (with its run) that becomes the selection;
- Seahaven ``destination``: the place the selection goes to;
- ``undo`` and ``redo`` (both games): the info bar's Undo then Redo, once after the third
  move of the line (a game still going on).

With ``--baseline DIR`` (another checkout, e.g. ``git worktree add DIR 1c2db3a``) the same taps
run against a server started from DIR too (this checkout's Python, with DIR first on
``PYTHONPATH`` and as its working directory), round by round in turn, so both see the same load
on this machine: the figures to compare are in one run.

``--latency`` takes one or more round trips to add (ms, Chromium's
``Network.emulateNetworkConditions``): every round plays every latency against every server.
``--phone`` is a 390×844 phone with touch: each tap is a finger's (``touchscreen.tap``).
The last lines print the medians as a Markdown table, one row per kind of tap.

Target (issue 12): median ≤ 50 ms for both games on loopback.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path

from playwright.sync_api import Browser, FloatRect, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from app.engine.codes import DealCode
from app.engine.halfmoon import place_name as hm_place
from app.engine.seahaven import CELLS, COLUMNS, FOUNDATIONS, Seahaven
from app.engine.seahaven import place_name as sh_place
from tests.browser.play import HM, SH, STILL, hm_line, moving_card, sh_line
from tests.system.servers import Server, start_server

ARM = """() => {
  window.__paint = new Promise((resolve) => {
    let start = null;
    // a finger's touchstart comes before its pointerdown; a mouse has only the pointerdown
    const pressed = () => { if (start === null) start = performance.now(); };
    document.addEventListener('touchstart', pressed, {once: true, capture: true, passive: true});
    document.addEventListener('pointerdown', pressed, {once: true, capture: true});
    const main = document.getElementById('main');
    // the board replaced, or nodes inside it (answers of only the changed places); never
    // the info bar's clock, which ticks on its own
    const drawn = (r) => r.target === main
      ? [...r.addedNodes].some((n) => n.id === 'board')
      : !!(r.target.closest && r.target.closest('#board'));
    const observer = new MutationObserver((records) => {
      if (start === null || !records.some(drawn)) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    });
    // a card drawn selected by the page itself is the screen answering too (issue 32)
    observer.observe(main, {childList: true, subtree: true, attributes: true,
                            attributeFilter: ['aria-pressed']});
    setTimeout(() => resolve(NaN), 10000);  // never painted: reported, not waited for
  });
}"""
WAIT = "() => window.__paint"
SETTLED = "() => !document.querySelector('.htmx-request')"


def start(root: Path, work: Path, name: str) -> Server:
    """uvicorn serving the checkout at ``root``, with its own SQLite file (another checkout
    without a ``.venv`` of its own runs with this one's Python, its own code first)."""
    env = {"PYTHONPATH": str(root)}
    return start_server(str(work / f"{name}.db"), work, name=name, root=root, env=env)


def chromium() -> str:
    found = os.environ.get("SOLITAIRE_CHROMIUM") or shutil.which("chromium")
    return found or "/usr/bin/chromium"


DOUBLE_TAP_MS = 350
"""``static/js/board/seahaven-gestures.js``: a second press this soon after a click, on the same
card or within 12 px of it, is the second half of a double tap."""

_last_click: dict[int, tuple[str, tuple[float, float]]] = {}


def aim(page: Page, selector: str) -> FloatRect:
    """Where the element is, as a player aims at it: on the screen, standing still (a card an
    answer moved slides for 200 ms and takes no presses on its way, static/js/motion.js: a
    click aimed at it mid-flight reached the felt, and no answer came). An element an answer
    still being drawn replaces is looked up again."""
    locator = page.locator(selector)
    for _ in range(20):
        try:
            locator.wait_for(state="visible")
            locator.scroll_into_view_if_needed()
            locator.evaluate(STILL)
            box = locator.bounding_box()
        except PlaywrightError:
            page.wait_for_timeout(25)
            continue
        if box is not None:
            return box
    raise AssertionError(f"{selector}: not on the page")


def tap(page: Page, selector: str) -> float:
    """Click the element (at the strip a fanned card shows) and return click → paint in ms.

    A click on the card clicked last, or where the previous click landed (the card under it
    went home, the next one is in its place), waits out the double-tap time first: the
    script would read it as the second half of a double tap."""
    box = aim(page, selector)
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 9)
    last = _last_click.get(id(page))
    if last is not None and (last[0] == selector or math.dist(last[1], (x, y)) <= 16):
        page.wait_for_timeout(DOUBLE_TAP_MS + 50)
    _last_click[id(page)] = (selector, (x, y))
    page.evaluate(ARM)
    if TOUCH[0]:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    elapsed = float(page.evaluate(WAIT))
    assert elapsed == elapsed, f"no paint within 10 s after clicking {selector}"
    # a move the page drew itself (issue 32) may still wait for its answer: the next tap (or
    # the next player, whose cookies an answer in flight would overwrite) starts after it
    page.wait_for_function(SETTLED)
    return elapsed


TOUCH: list[bool] = [False]
"""``--phone``: taps are a finger's (``touchscreen.tap``), not a mouse's clicks."""

MOVES: list[int | None] = [None]
"""``--moves``: how many moves of each game's line are played (all when None)."""


TOKEN = re.compile(r'name="token" value="([^"]+)"')


def fresh_player(page: Page, base: str) -> None:
    """A new player (no cookies) who has dismissed every game's how-to-play (issue 35), so the
    taps reach the board, not the newcomer's panel over it (a checkout older than the panel
    refuses the field: its players see the board at once anyway)."""
    page.goto("about:blank")  # nothing of the last game's page in flight with its cookies
    page.context.clear_cookies()
    found = TOKEN.search(page.context.request.get(f"{base}/faq").text())
    assert found is not None, "no form token on /faq"
    body = f"learned=half-moon&learned=seahaven&token={found.group(1)}"
    answer = page.context.request.post(
        f"{base}/settings",
        data=body,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        max_redirects=0,
    )
    # 422: a baseline from before issue 35 knows no "learned" field (nor shows the panel)
    assert answer.status in (303, 422), (answer.status, answer.text()[:300])


def half_moon(page: Page, base: str, samples: dict[str, list[float]]) -> None:
    fresh_player(page, base)
    page.goto(f"{base}/half-moon/{HM}")
    for n, removal in enumerate(hm_line(HM)[: MOVES[0]], 1):
        for i, place in enumerate(removal):
            kind = "remove" if i == len(removal) - 1 else "select"
            samples[f"Half Moon {kind}"].append(tap(page, f"#card-{hm_place(place)}"))
        if n == UNDO_AFTER:
            undo_redo(page, "Half Moon", samples)


def seahaven(page: Page, base: str, samples: dict[str, list[float]]) -> None:
    fresh_player(page, base)
    page.goto(f"{base}/seahaven/{SH}")
    game = Seahaven(DealCode.parse(SH))
    for move in sh_line(SH)[: MOVES[0]]:
        source, count, target = move
        card = moving_card(game, move)
        home = target in FOUNDATIONS and count == 1 and source not in FOUNDATIONS
        if home:
            samples["Seahaven home"].append(tap(page, f"#card-{card}"))
        else:
            samples["Seahaven select"].append(tap(page, f"#card-{card}"))
            aim = f"[data-place={sh_place(target)}] button"
            samples["Seahaven destination"].append(tap(page, f"{aim} >> nth=-1"))
        game.play(move, now=0)
        assert source in (*COLUMNS, *CELLS, *FOUNDATIONS)
        if game.move_count == UNDO_AFTER:
            undo_redo(page, "Seahaven", samples)


UNDO_AFTER = 3
"""The move after which Undo and Redo are tapped once each."""


def undo_redo(page: Page, game: str, samples: dict[str, list[float]]) -> None:
    samples[f"{game} undo"].append(tap(page, "#control-undo"))
    samples[f"{game} redo"].append(tap(page, "#control-redo"))


def latency(page: Page, ms: int) -> None:
    """Add ``ms`` of latency to the page's requests (Network.emulateNetworkConditions)."""
    if not ms:
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):7.1f} {p95:7.1f} {len(ordered):5d}"


Results = dict[tuple[int, str], dict[str, list[float]]]
"""(added latency, server) → kind of tap → click → paint of each tap, ms."""


def run(browser: Browser, servers: dict[str, Server], rounds: int, delays: list[int]) -> Results:
    results: Results = {(ms, name): defaultdict(list) for ms in delays for name in servers}
    if TOUCH[0]:
        options: dict = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
        options["is_mobile"] = True
    else:
        options = {"viewport": {"width": 1440, "height": 900}}
    pages = {}
    for ms in delays:  # one page for each latency, its network conditions set once
        pages[ms] = browser.new_context(**options).new_page()
        latency(pages[ms], ms)
    for _ in range(rounds):
        for ms in delays:
            for name, server in servers.items():
                half_moon(pages[ms], server.url, results[ms, name])
                seahaven(pages[ms], server.url, results[ms, name])
    for page in pages.values():
        page.context.close()
    return results


KINDS = {
    "Half Moon select": "Half Moon: a card selected",
    "Half Moon remove": "Half Moon: a pair (or triple) leaves",
    "Seahaven home": "Seahaven: a card tapped home",
    "Seahaven select": "Seahaven: a card selected",
    "Seahaven destination": "Seahaven: the selection's destination",
    "Half Moon undo": "Half Moon: Undo",
    "Half Moon redo": "Half Moon: Redo",
    "Seahaven undo": "Seahaven: Undo",
    "Seahaven redo": "Seahaven: Redo",
}


def table(results: Results, servers: list[str], delays: list[int]) -> list[str]:
    """The medians as a Markdown table: a row for each kind of tap (its taps per run of one
    server at one latency), a column for each latency and server."""
    head = ["tap"] + [f"{ms} ms {name}" for ms in delays for name in servers]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for kind, words in KINDS.items():
        taps = len(results[delays[0], servers[-1]].get(kind, []))
        cells = [f"{words} ({taps})"]
        for ms in delays:
            for name in servers:
                values = results[ms, name].get(kind, [])
                cells.append(f"{statistics.median(values):.1f}" if values else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="games of each per server")
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument(
        "--latency", type=int, nargs="+", default=[0], help="ms of added round trip (one or more)"
    )
    parser.add_argument("--phone", action="store_true", help="390×844 with touch, finger taps")
    parser.add_argument("--moves", type=int, default=None, help="moves of each line played")
    args = parser.parse_args()
    TOUCH[0] = args.phone
    MOVES[0] = args.moves
    root = Path(__file__).resolve().parents[1]
    work = Path(tempfile.mkdtemp(prefix="bench-click-"))
    servers = {}
    if args.baseline:
        servers["before"] = start(args.baseline.resolve(), work, "before")
    servers["now"] = start(root, work, "now")
    try:
        with sync_playwright() as playwright:
            as_root = hasattr(os, "geteuid") and os.geteuid() == 0
            browser = playwright.chromium.launch(
                executable_path=chromium(), args=["--no-sandbox"] if as_root else []
            )
            results = run(browser, servers, args.rounds, args.latency)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
    screen = "390×844 touch" if args.phone else "1440×900 mouse"
    print(f"click → paint, ms ({args.rounds} rounds, {screen}; median, p95, taps)")
    for (ms, name), samples in results.items():
        print(f"\n{name}, {ms} ms added latency")
        for game in ("Half Moon", "Seahaven"):
            every = [v for kind, values in samples.items() if kind.startswith(game) for v in values]
            print(f"  {game + ' all':24} {summary(every)}")
            for kind in sorted(k for k in samples if k.startswith(game)):
                print(f"  {kind:24} {summary(samples[kind])}")
    print("\nmedians, ms (taps of one server at one latency)\n")
    print("\n".join(table(results, list(servers), args.latency)))


if __name__ == "__main__":
    main()
