"""Installable, and honest offline, over HTTP (issue 27): the manifest in each language, its
icons (real PNGs of the sizes it names, a maskable one whose drawing stays in the safe zone),
the service worker at /sw.js and what it caches, the offline page."""

from __future__ import annotations

import json
import math
import re

import pytest

from app.web.edge.middleware import CSP, SECURITY_HEADERS
from app.web.pages.install import THEME_COLOUR
from app.web.rendering.assets import Assets
from app.web.rendering.templates import THEME_COLOURS
from tests.web.html import parse
from tests.web.png import read_png

FELT = (15, 92, 58, 255)  # THEME_COLOUR as RGBA


def manifest_of(client, lang: str = "en") -> dict:
    response = client.get(f"/manifest.{lang}.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    return json.loads(response.text)


def theme_colours(page) -> list[tuple[str | None, str]]:
    """The page's ``<meta name="theme-color">`` tags: (media, colour)."""
    return [
        (m.attrs.get("media"), m.attrs["content"])
        for m in page.find_all("meta", name="theme-color")
    ]


def test_every_page_links_the_manifest_of_its_language_and_the_theme_colour(client, player):
    p = player()
    assert p.doc.find("link", rel="manifest").attrs["href"] == "/manifest.en.webmanifest"
    apple = p.doc.find("link", rel="apple-touch-icon").attrs["href"]
    assert read_png(client.get(apple).content).width == 180
    client.post("/settings", data={"lang": "bg", "theme": "dark", "token": p.token})
    page = parse(client.get("/stats").text)
    assert page.find("link", rel="manifest").attrs["href"] == "/manifest.bg.webmanifest"
    assert theme_colours(page) == [(None, THEME_COLOURS["dark"])]


def test_the_theme_colour_follows_the_system_under_auto_and_the_choice_otherwise(client, player):
    """Under ``auto`` the browser's bar takes the felt of the system's scheme (a tag per
    scheme); a chosen theme has the one colour of its felt, whatever the system says."""
    p = player()
    assert theme_colours(p.doc) == [
        ("(prefers-color-scheme: light)", THEME_COLOUR),
        ("(prefers-color-scheme: dark)", THEME_COLOURS["dark"]),
    ]
    for theme, colour in (("light", THEME_COLOUR), ("dark", THEME_COLOURS["dark"])):
        client.post("/settings", data={"theme": theme, "token": p.token})
        assert theme_colours(parse(client.get(p.url).text)) == [(None, colour)]


def test_the_manifest_makes_an_installable_standalone_app(client):
    m = manifest_of(client)
    assert (m["name"], m["short_name"]) == ("Patience: Half Moon and Seahaven Towers", "Patience")
    assert (m["start_url"], m["scope"], m["id"], m["display"]) == ("/", "/", "/", "standalone")
    assert m["theme_color"] == THEME_COLOUR and m["background_color"] == "#0a4129"
    assert m["lang"] == "en"
    assert [(i["sizes"], i["purpose"], i["type"]) for i in m["icons"]] == [
        ("192x192", "any", "image/png"),
        ("512x512", "any", "image/png"),
        ("512x512", "maskable", "image/png"),
    ]


@pytest.mark.parametrize(
    ("lang", "name", "short"),
    [
        ("tr", "Pasyans: Half Moon ve Seahaven Towers", "Pasyans"),
        ("bg", "Пасианс: Half Moon и Seahaven Towers", "Пасианс"),
    ],
)
def test_the_manifest_speaks_the_pages_language(client, lang, name, short):
    m = manifest_of(client, lang)
    assert (m["name"], m["short_name"], m["lang"]) == (name, short, lang)
    assert m["description"] != manifest_of(client)["description"]


def test_a_manifest_in_an_unknown_language_is_a_404_page(client):
    response = client.get("/manifest.de.webmanifest")
    assert response.status_code == 404
    assert parse(response.text).find("h1").text == "Page not found"


def test_the_icons_are_pngs_of_the_sizes_the_manifest_names(client):
    for icon in manifest_of(client)["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        assert "immutable" in response.headers["cache-control"]
        png = read_png(response.content)
        size = int(icon["sizes"].split("x")[0])
        assert (png.width, png.height) == (size, size)
        if icon["purpose"] == "any":  # a rounded square: its corners are transparent
            assert png.rgba(0, 0)[3] == 0 and png.rgba(size // 2, size // 2)[3] == 255


def test_the_maskable_icon_fills_its_square_and_draws_only_inside_the_safe_zone(client):
    """A maskable icon is cut to any shape down to the circle of 40 % of its size around the
    centre: the felt must reach every edge, and the card must lie within that circle."""
    src = next(i["src"] for i in manifest_of(client)["icons"] if i["purpose"] == "maskable")
    png = read_png(client.get(src).content)
    centre, safe = png.width / 2, 0.4 * png.width
    drawn_at = 0.0
    for y in range(png.height):
        for x in range(png.width):
            distance = math.hypot(x + 0.5 - centre, y + 0.5 - centre)
            if png.rgba(x, y) != FELT:
                drawn_at = max(drawn_at, distance)
    assert 0.3 * png.width < drawn_at <= safe


def test_the_service_worker_is_served_at_the_root_and_caches_every_static_file(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["content-security-policy"] == CSP
    assert "set-cookie" not in response.headers
    script = response.text
    version = json.loads(re.search(r"var VERSION = (.+);", script).group(1))
    assets = json.loads(re.search(r"var ASSETS = (.+);", script).group(1))
    offline = json.loads(re.search(r"var OFFLINE = (.+);", script).group(1))
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert (
        assets == Assets().hashed_urls() + Assets().module_urls()
        and "/static/js/install." in " ".join(assets)
    )
    assert offline == {"en": "/offline/en", "tr": "/offline/tr", "bg": "/offline/bg"}
    for url in [*assets, *offline.values()]:
        assert client.get(url).status_code == 200, url
    # versioned: the cache is named after the version, and activation deletes the others
    assert "var CACHE = PREFIX + VERSION;" in script
    assert "caches.delete(name)" in script


def test_the_service_worker_never_answers_a_post_from_a_cache(client):
    """It keeps the look and a game's page as the network gave it (offline play, issue 32),
    nothing else."""
    script = client.get("/sw.js").text
    fetch = script[script.index('addEventListener("fetch"') :]
    fetch = fetch[: fetch.index("\n});")]
    assert 'if (request.method !== "GET") return;' in fetch  # POSTs: never respondWith
    rest = script.replace("cache.put(LOOK_URL", "").replace("cache.put(key, response)", "")
    assert "cache.put" not in rest
    assert 'var GAMES = ["half-moon", "seahaven"];' in script
    # a kept page names the static files of its deployment: its cache goes with theirs
    assert 'var GAME_CACHE = PREFIX + "games-" + VERSION;' in script
    assert 'requestMethod: "POST" }, source: "network"' in script


def test_the_offline_page_the_worker_makes_carries_every_security_header_of_a_page(client):
    """The worker builds the offline page's answer itself: it gives it the headers the app
    gives every page (the CSP above all), which the server writes into the worker."""
    script = client.get("/sw.js").text
    headers = json.loads(re.search(r"var HEADERS = (.+);", script).group(1))
    page = client.get("/offline/en").headers
    assert headers == {name.decode(): page[name.decode()] for name, _ in SECURITY_HEADERS}
    assert headers["content-security-policy"] == CSP


def test_the_service_worker_version_follows_the_security_headers(app, monkeypatch):
    """A deployment that changes the CSP installs a new worker, whose offline page has it."""
    from app.web.pages import install

    before = install._worker.__wrapped__(Assets(), app.state.renderer)
    stricter = [(b"content-security-policy", CSP.encode() + b"; upgrade-insecure-requests")]
    monkeypatch.setattr(install, "SECURITY_HEADERS", stricter)
    after = install._worker.__wrapped__(Assets(), app.state.renderer)
    version = re.compile(r"var VERSION = (.+);")
    assert version.search(before).group(1) != version.search(after).group(1)
    assert "upgrade-insecure-requests" in re.search(r"var HEADERS = (.+);", after).group(1)


def test_the_service_worker_version_follows_the_static_files(app, tmp_path):
    """Another set of static files is another version, so another cache (the old one goes)."""
    from app.web.pages import install

    (tmp_path / "a.css").write_text("a{}")
    one = install._worker(Assets(tmp_path), app.state.renderer)
    (tmp_path / "a.css").write_text("a{color:red}")
    two = install._worker(Assets(tmp_path), app.state.renderer)
    assert re.search(r"var VERSION = (.+);", one).group(1) != re.search(
        r"var VERSION = (.+);", two
    ).group(1)


@pytest.mark.parametrize(
    ("lang", "title", "saved"),
    [
        ("en", "You are offline", "Your game is saved and waits for you"),
        ("tr", "Çevrimdışısınız", "Oyununuz kaydedildi ve sizi bekliyor"),
        ("bg", "Няма връзка", "Играта ви е запазена и ви чака"),
    ],
)
def test_the_offline_page_in_each_language_is_nobodys_page(client, lang, title, saved):
    response = client.get(f"/offline/{lang}", headers={"Accept-Language": "de"})
    assert response.status_code == 200 and "set-cookie" not in response.headers
    page = parse(response.text)
    assert page.find("html").attrs["lang"] == lang
    assert page.find("h1").text == title
    assert saved in page.by_id("offline").text
    assert page.by_id("offline-again").attrs["href"] == ""
    assert page.find_all("form") == [] and page.find_all("input", name="token") == []
    root = page.find("html").attrs
    assert (root["data-theme"], root["data-deck"], root["data-zen"]) == ("auto", "classic", "off")
    assert client.get("/offline/de").status_code == 404
