"""Installable, and honest offline, in Chromium (issue 27): the service worker takes the site,
answers a navigation to a page it has not kept with the offline page in the player's language
and look once the network is gone, and lets the game go on where it was when the network is
back. A game's page it has seen goes on offline: tests/browser/test_offline_play.py."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from app.web.edge.middleware import SECURITY_HEADERS
from tests.browser.conftest import PHONE, screenshot
from tests.browser.play import HM, board, hm_line, hm_remove, token

UNSEEN = "HM1-N-AAAAAAC"
"""A deal no test of this file opens before it goes offline."""


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page (it claims pages when it activates)."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=15_000,
    )
    page.evaluate("() => navigator.serviceWorker.ready")


def told(page: Page, **look: str) -> None:
    """Wait until the worker has kept the look a page told it (its ``patience-look`` cache,
    which the offline page reads): a page's message is handled when the worker gets to it,
    later on a loaded machine."""
    page.wait_for_function(
        """async (want) => {
          const hit = await caches.match('/__look__', {cacheName: 'patience-look'});
          const look = hit ? await hit.json() : {};
          return Object.entries(want).every(([name, value]) => look[name] === value);
        }""",
        arg=look,
        timeout=15_000,
    )


def settings(page: Page, **fields: str) -> None:
    response = page.request.post(
        "/settings", form={**fields, "token": token(page), "next": "/"}, max_redirects=0
    )
    assert response.status == 303


def test_offline_a_navigation_shows_the_offline_page_in_the_players_language_and_look(
    new_context: Callable[..., BrowserContext],
):
    context = new_context(viewport=PHONE, has_touch=True, service_workers="allow")
    page = context.new_page()
    page.goto(f"/half-moon/{HM}")
    settings(page, lang="tr", theme="dark")
    page.reload()
    controlled(page)
    hm_remove(page, hm_line()[0], 1)  # a move the server keeps
    live = page.goto("/")  # a page of the new look tells the worker (lang, theme)
    assert live is not None
    controlled(page)
    told(page, lang="tr", theme="dark")
    context.set_offline(True)
    response = page.goto(f"/half-moon/{UNSEEN}")  # a game this browser has not shown
    assert response is not None and response.status == 503 and response.from_service_worker
    # as strict as every page: the same security headers as the live page's, CSP first
    headers, online = response.all_headers(), live.all_headers()
    assert headers["content-security-policy"] == online["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    for name in (name.decode() for name, _ in SECURITY_HEADERS):
        assert headers.get(name) == online[name], name
    assert headers["cache-control"] == "no-store"
    expect(page.locator("h1")).to_have_text("Çevrimdışısınız")
    expect(page.locator("#offline")).to_contain_text("Oyununuz kaydedildi ve sizi bekliyor")
    root = page.locator("html")
    expect(root).to_have_attribute("lang", "tr")
    expect(root).to_have_attribute("data-theme", "dark")
    theme_colours = page.locator('meta[name="theme-color"]')  # the chosen theme's, alone
    expect(theme_colours).to_have_count(1)
    expect(theme_colours).to_have_attribute("content", "#23272b")
    expect(theme_colours).not_to_have_attribute("media", re.compile(".*"))
    assert page.locator("#board").count() == 0
    background = page.evaluate("() => getComputedStyle(document.body).backgroundImage")
    assert "rgb(35, 39, 43)" in background  # the dark table
    screenshot(page, "offline-phone-tr-dark")
    # the stylesheet came from the worker's cache: the page is drawn, not bare HTML
    assert page.evaluate("() => document.styleSheets.length") >= 1
    # back online: Try again opens the game; the one played goes on where it was
    context.set_offline(False)
    page.locator("#offline-again").click()
    expect(board(page)).to_have_attribute("data-code", UNSEEN)
    page.goto(f"/half-moon/{HM}")
    expect(board(page)).to_have_attribute("data-moves", "1")
    expect(page.locator("h1.visually-hidden")).to_have_count(1)


def test_offline_in_english_for_a_player_who_never_chose_a_language(
    new_context: Callable[..., BrowserContext],
):
    context = new_context(service_workers="allow")
    page = context.new_page()
    page.goto("/")
    controlled(page)
    told(page, lang="en")
    context.set_offline(True)
    page.goto("/stats")
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("#offline")).to_contain_text("Your game is saved and waits for you")
    screenshot(page, "offline-desktop-en")


def test_a_page_the_worker_does_not_control_is_taken_over_once_it_tells_its_look(
    new_context: Callable[..., BrowserContext],
):
    """A page can load past an active worker: after a hard reload (which bypasses it), or when
    its navigation was under way while the worker activated, so ``clients.claim()`` came too
    early for it (this made the offline test fail on a loaded machine: the page was never
    controlled). The page tells the worker its look once the worker is ready; the worker
    claims it then, so its static files come from the cache from that moment on."""
    context = new_context(service_workers="allow")
    page = context.new_page()
    page.goto(f"/half-moon/{HM}")
    controlled(page)
    with page.expect_navigation():
        context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
    page.wait_for_load_state()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10_000)
    expect(board(page)).to_be_visible()


def test_the_worker_serves_the_static_files_from_its_versioned_cache(
    new_context: Callable[..., BrowserContext],
):
    context = new_context(service_workers="allow")
    page = context.new_page()
    page.goto("/")
    controlled(page)
    names = page.evaluate("() => caches.keys()")
    version = page.evaluate(
        "() => fetch('/sw.js').then(r => r.text()).then(t => JSON.parse(t.match(/var VERSION = (.+);/)[1]))"
    )
    assert f"patience-{version}" in names
    cached = page.evaluate(
        "(name) => caches.open(name).then(c => c.keys()).then(ks => ks.map(k => new URL(k.url).pathname))",
        f"patience-{version}",
    )
    assert "/offline/en" in cached and any(p.startswith("/static/css/app.") for p in cached)
    assert not any(p.startswith(("/half-moon/", "/seahaven/")) for p in cached)
    # an old version's cache is deleted when a worker activates
    page.evaluate("() => caches.open('patience-old').then(c => c.put('/x', new Response('x')))")
    page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.unregister())")
    page.reload()
    controlled(page)
    page.wait_for_function("() => caches.has('patience-old').then(h => !h)", timeout=10_000)
    assert page.evaluate("() => caches.has('patience-old')") is False
    hits = []
    page.on("response", lambda r: hits.append((r.url, r.from_service_worker)))
    page.reload()
    expect(board(page) if page.locator("#board").count() else page.locator("main")).to_be_visible()
    css = [hit for url, hit in hits if "/static/css/app." in url]
    assert css == [True]
