"""Real-browser fixtures: one live server and one Chromium for the session, a fresh browser
context (fresh cookies, so a fresh player) for every test, and axe-core for accessibility.

Chromium comes from the system (Debian's ``/usr/bin/chromium``), never from Playwright's own
download: ``SOLITAIRE_CHROMIUM`` overrides the path. A missing browser fails the run; browser
tests never skip.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from weakref import WeakSet

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.system.servers import Server, start_server

ROOT = Path(__file__).resolve().parents[2]
VENDOR = Path(__file__).resolve().parent / "vendor"
AXE_FILE = VENDOR / "axe-core-4.14.1.min.js"
AXE_URL_PATH = "/__tests__/axe-core-4.14.1.min.js"
"""Where pages load axe from: answered by the test's own route, never by the application."""
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa")
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def chromium_executable() -> str:
    """``SOLITAIRE_CHROMIUM``, else ``chromium`` on the PATH, else ``/usr/bin/chromium``."""
    override = os.environ.get("SOLITAIRE_CHROMIUM")
    if override:
        if not Path(override).is_file():
            pytest.fail(
                f"SOLITAIRE_CHROMIUM={override} is not a file: run bash scripts/test, which "
                "installs chromium",
                pytrace=False,
            )
        return override
    for candidate in (shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    pytest.fail("no Chromium found: run bash scripts/test, which installs chromium", pytrace=False)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real application under uvicorn, with a SQLite store in a temporary directory."""
    where = tmp_path_factory.mktemp("browser-server")
    # its scripted players win in a second: the human-pace floor of the standings is off here
    # (tests/web/test_standings.py holds it)
    floor = {"SOLITAIRE_FLOOR_MS_PER_MOVE": "0"}
    server = start_server(str(where / "solitaire.db"), where, name="browser", env=floor)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_executable()
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox"] if as_root else []
        )
        yield browser
        browser.close()


class Problems:
    """What a page must never do: throw, break the CSP, or fail to load one of its assets."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def watch(self, page: Page) -> None:
        def on_console(message: Any) -> None:
            # a failed load is reported below with its URL; anything else logged as an error
            # (a CSP violation above all) is a problem
            if message.type == "error" and not message.text.startswith("Failed to load"):
                self.found.append(f"console error on {page.url}: {message.text}")

        def on_response(response: Any) -> None:
            # (axe's own script is the tests', retried by axe() when it failed to load)
            if (
                response.status >= 400
                and response.request.resource_type != "document"
                and AXE_URL_PATH not in response.url
            ):
                self.found.append(f"{response.status} for {response.url} (from {page.url})")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.found.append(f"uncaught on {page.url}: {error}"))
        page.on("response", on_response)


TOKEN = re.compile(r'name="token" value="([^"]+)"')


def knows_the_games(context: BrowserContext) -> None:
    """Make the context's player one who dismissed every game's how-to-play (issue 35), as a
    player does with one tap: the panel a newcomer sees over a fresh deal is then not drawn,
    and the tests that play see the board alone. A test of the newcomer's first visit asks
    for one (``new_context(newcomer=True)``)."""
    page = context.request.get("/faq")
    found = TOKEN.search(page.text())
    assert found is not None, "no form token on /faq"
    body = "&".join([*(f"learned={slug}" for slug in SLUGS), f"token={found.group(1)}"])
    answer = context.request.post(
        "/settings",
        data=body,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        max_redirects=0,
    )
    assert answer.status == 303, answer.status


SLUGS = ("half-moon", "seahaven")


@pytest.fixture
def new_context(browser: Browser, server: Server) -> Iterator[Callable[..., BrowserContext]]:
    """Make a browser context (a separate player: its own cookies), a player who knows the
    games (:func:`knows_the_games`) unless ``newcomer=True``; all are closed after the test,
    which fails if any of their pages threw, broke the CSP or missed an asset."""
    contexts: list[BrowserContext] = []
    problems = Problems()

    def make(newcomer: bool = False, **options: Any) -> BrowserContext:
        # The site's service worker is blocked unless a test asks for it: a page it controls
        # sends its fetches through the worker, where Playwright's routes do not reach, so
        # axe's script (answered only by a route) reached the app's 404 now and then when the
        # worker had claimed the page first. tests/browser/test_offline.py allows it.
        settings = {
            "base_url": server.url,
            "viewport": DESKTOP,
            "locale": "en-US",
            "service_workers": "block",
            **options,
        }
        context = browser.new_context(**settings)
        context.set_default_timeout(10_000)
        context.on("page", problems.watch)
        contexts.append(context)
        if not newcomer:
            knows_the_games(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert problems.found == [], "\n".join(problems.found)


@pytest.fixture
def context(new_context: Callable[..., BrowserContext]) -> BrowserContext:
    return new_context()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


# --- axe-core ------------------------------------------------------------------------------------

_AXE_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => {
      const element = document.querySelector(n.target.join(' '));
      return {
        target: n.target.join(' '),
        html: n.html.slice(0, 160),
        summary: n.failureSummary,
        card: !!(element && element.matches('button.card[data-card]')),
      };
    }),
  }));
}"""

_ROUTED: WeakSet[Page] = WeakSet()


def axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2.0/2.1/2.2 A and AA violations on the page as it is now.

    The pages' CSP (``script-src 'self'``) refuses an inline ``<script>``, so axe is not added
    with ``add_script_tag(content=…)`` — that would need a CSP bypass, and the browser tests
    keep the real CSP on. It is added from a same-origin URL that only this test's route
    answers: the application itself never serves it (``test_vendor.py``).
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # On a loaded machine the script has failed to load now and then (its request answered
        # by the app's 404 page instead of the route): route it afresh and try again.
        body = AXE_FILE.read_bytes()
        for attempt in range(3):
            if page not in _ROUTED:
                page.route(
                    f"**{AXE_URL_PATH}",
                    lambda route: route.fulfill(body=body, content_type="text/javascript"),
                )
                _ROUTED.add(page)
            try:
                page.add_script_tag(url=AXE_URL_PATH)
                break
            except PlaywrightError:
                if attempt == 2:
                    raise
                page.unroute(f"**{AXE_URL_PATH}")
                _ROUTED.discard(page)
    violations: list[dict[str, Any]] = page.evaluate(_AXE_RUN, list(WCAG_TAGS))
    return violations


def _symbolic_card_face(violation: dict[str, Any], node: dict[str, Any]) -> bool:
    """axe's label-in-name heuristic on a card button: the face shows symbols (``K♣``) and the
    name says what they mean ("king of clubs, pile 3, 8 cards"). WCAG's Understanding 2.5.3
    leaves symbolic characters to their meaning; the names are the HTML contract pinned by
    tests/web/test_languages.py. The reasoning is in docs/decisions.md, *Accessibility*."""
    return violation["id"] == "label-content-name-mismatch" and node["card"]


def assert_accessible(page: Page, where: str) -> None:
    """Zero axe violations (WCAG 2.x A/AA) on the page, with a readable list if not."""
    found = []
    for violation in axe(page):
        nodes = [n for n in violation["nodes"] if not _symbolic_card_face(violation, n)]
        if nodes:
            found.append({**violation, "nodes": nodes})
    lines = [
        f"{v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"    {n['target']}  {n['html']}\n      {n['summary']}" for n in v["nodes"])
        for v in found
    ]
    assert found == [], f"axe on {where}:\n" + "\n".join(lines)


def screenshot(page: Page, name: str) -> Path:
    """Save what the player sees under test-artifacts/screenshots/ (the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
