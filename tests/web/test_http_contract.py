"""The HTTP contract every page shares: sessions and cookies, security headers and CSP, bad
input, errors, codes in URLs, caching, assets and gzip."""

import gzip
import re
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.config import Config
from app.engine.games import FORMAT_HELP
from app.main import create_app
from app.store import MemoryStore, StoredGame, StoreError
from app.web.edge.middleware import CSP
from tests.web.conftest import HTMX, cookie_for, sid_of, token_of, varies
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
URL = f"/half-moon/{CODE}"


def sid_from(response) -> str:
    """The session id of the answer's cookie (``sid=ID.SIGNATURE``)."""
    match = re.search(r"sid=([A-Za-z0-9_-]+)\.", response.headers.get("set-cookie", ""))
    assert match, response.headers
    return match.group(1)


def record(store, client, code=CODE):
    return store.load(sid_of(client), code)[1]


# --- sessions ------------------------------------------------------------------------------------


def test_a_first_visit_gets_an_http_only_lax_cookie_with_a_long_random_id(client):
    response = client.get(URL)
    cookie = response.headers["set-cookie"]
    sid = sid_from(response)
    assert len(sid) == 43  # 32 random bytes, URL-safe base64: 256 bits
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie or "samesite=lax" in cookie.lower()
    assert "Secure" not in cookie
    assert "Path=/" in cookie


def test_the_cookie_is_secure_over_https(store):
    with TestClient(create_app(store=store.store), base_url="https://example.org") as client:
        assert "Secure" in client.get(URL).headers["set-cookie"]


def test_a_returning_player_is_sent_the_same_id_again(client):
    first = sid_from(client.get(URL))
    assert "set-cookie" not in client.get(URL).headers  # kept: sent again only once a day
    assert sid_of(client) == first  # never replaced


@pytest.mark.parametrize("garbage", ["", "x", "a" * 31, "a" * 33, "%C3%A9" * 6, "a.b" * 11])
def test_a_garbage_cookie_starts_a_new_session(client, garbage):
    client.cookies.set("sid", garbage)
    response = client.get(URL)
    assert response.status_code == 200
    assert sid_from(response) != garbage


def test_an_id_we_signed_is_kept_and_nothing_is_stored_for_it(app, client, store):
    # A GET never writes, so an id with nothing stored is simply one that has not played yet
    chosen = "A" * 43
    client.cookies.set("sid", cookie_for(app, chosen))
    response = client.get(URL)
    assert response.status_code == 200
    assert "set-cookie" not in response.headers  # kept as it came (sent today)
    assert sid_of(client) == chosen
    assert store.load(chosen, CODE) == (None, None)


@pytest.mark.all_stores
def test_two_sessions_are_isolated(app, player):
    me = player()
    me.tap("pile-1")
    other = TestClient(app, base_url="http://testserver")  # no lifespan: the app keeps its store
    page = parse(other.get(URL).text)
    assert page.find_all(aria_pressed="true") == []
    token = token_of(page)
    # my token means nothing in the other session
    response = other.post(f"{URL}/undo", data={"token": me.token}, follow_redirects=False)
    assert response.status_code == 403
    assert token != me.token


@pytest.mark.all_stores
def test_a_shared_url_starts_fresh_for_the_visitor_and_resumes_for_its_owner(app, player):
    me = player()
    for place in ("pile-1", "pile-1"):  # select and deselect: two actions, a running clock
        me.tap(place)
    me.tap("pile-4")
    friend = TestClient(app, base_url="http://testserver")
    page = parse(friend.get(URL).text)
    assert page.by_id("clock").attrs["data-running"] == "false"
    assert page.find_all(aria_pressed="true") == []
    me.open()
    assert me.board.find(data_place="pile-4").find("button").attrs["aria-pressed"] == "true"
    assert me.doc.by_id("clock").attrs["data-running"] == "true"


# --- security --------------------------------------------------------------------------------------


def test_security_headers_on_every_response(client):
    for url in ("/", URL, "/half-moon/nonsense", "/static/css/app.css"):
        headers = client.get(url).headers
        assert headers["content-security-policy"] == CSP, url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert headers["x-frame-options"] == "DENY"
    assert "script-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    assert "unsafe" not in CSP


def test_pages_have_no_inline_scripts_or_styles(client, player):
    p = player()
    p.tap("pile-1")
    for url in ("/", URL, "/half-moon/nonsense"):
        doc = parse(client.get(url).text)
        assert [s for s in doc.find_all("script") if "src" not in s.attrs or s.text] == []
        assert doc.find_all("style") == []
        assert doc.find_all(style=True) == []
        assert [e for e in doc.iter() if any(a.startswith(("on", "hx-on")) for a in e.attrs)] == []


def test_htmx_is_configured_for_the_csp(client):
    doc = parse(client.get(URL).text)
    meta = doc.find("meta", name="htmx-config")
    assert '"includeIndicatorCSS": false' in meta.attrs["content"]
    scripts = [s.attrs["src"] for s in doc.find_all("script")]
    assert re.fullmatch(r"/static/vendor/htmx-4\.0\.1\.min\.[0-9a-f]{10}\.js", scripts[0])


@pytest.mark.parametrize(
    "headers",
    [{"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}, {"Origin": "null"}],
)
def test_posts_from_other_sites_are_refused_and_change_nothing(player, client, store, headers):
    p = player()
    before = record(store, client)
    response = client.post(
        f"{URL}/tap",
        data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
        headers=headers,
    )
    assert response.status_code == 403
    assert "this site’s own pages" in response.text
    assert record(store, client) == before


def test_same_origin_posts_pass(player, client):
    p = player()
    response = client.post(
        f"{URL}/tap",
        data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
        headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    )
    assert response.status_code == 303


@pytest.mark.all_stores
def test_a_wrong_form_token_is_refused_and_changes_nothing(player, client, store):
    p = player()
    p.tap("pile-1")
    before = record(store, client)
    response = client.post(
        f"{URL}/tap", data={"place": "pile-2", "card": p.top("pile-2"), "token": "x" * 32}
    )
    assert response.status_code == 403
    page = parse(response.text)
    assert page.find("h1").text == "This page has expired"
    assert page.find("a", href=URL).text == "Reload"
    assert record(store, client) == before


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"card": "AS"}, "The field “place” is missing."),
        ({"place": "pile-1"}, "The field “card” is missing."),
        (
            {"place": "pile-13", "card": "AS"},
            "A Half Moon place is pile-1 … pile-12 or reserve-1 … reserve-8.",
        ),
        ({"place": "column-1", "card": "AS"}, "A Half Moon place is pile-1"),
        ({"place": "pile-1", "card": "ZZ"}, "A card is written rank then suit: AS, 10D, JC"),
        (
            {"place": "pile-1", "card": "AS", "colour": "red"},
            "The field “colour” is not accepted here.",
        ),
        (
            {"place": "pile-1" * 10, "card": "AS"},
            "The field “place” has a value that is not accepted.",
        ),
    ],
)
def test_bad_tap_fields_get_a_clear_422_and_change_nothing(player, client, store, fields, message):
    p = player()
    p.tap("pile-1")
    before = record(store, client)
    response = client.post(f"{URL}/tap", data={**fields, "token": p.token})
    assert response.status_code == 422
    page = parse(response.text)
    assert page.find("h1").text == "That request was not understood"
    assert message in page.find(class_="detail").text
    assert record(store, client) == before


def test_a_bad_tap_with_htmx_answers_only_a_notice_so_the_board_stays(player, client):
    p = player()
    response = client.post(
        f"{URL}/tap", data={"place": "pile-99", "card": "AS", "token": p.token}, headers=HTMX
    )
    assert response.status_code == 422
    fragment = parse(response.text)
    assert [c.attrs["id"] for c in fragment.children] == ["status"]
    assert fragment.by_id("status").attrs["hx-swap-oob"] == "true"
    assert "pile-1 … pile-12" in fragment.by_id("status").text
    assert "HX-Request" in varies(response)


def test_a_tap_on_an_empty_place_is_a_stale_tap(player, client, store):
    p = player()
    before = record(store, client)
    response = client.post(f"{URL}/tap", data={"place": "pile-1", "card": "KS", "token": p.token})
    assert response.headers["location"].startswith(f"{URL}?n=stale&t=")
    assert record(store, client) == before


def test_an_oversized_body_is_refused_with_413(player, client):
    p = player()
    response = client.post(
        f"{URL}/tap", data={"place": "pile-1", "card": "AS", "token": p.token, "x": "y" * 20_000}
    )
    assert response.status_code == 413
    assert "at most 16384 bytes" in response.text


def test_a_wrong_method_gets_405_with_allow(client):
    response = client.get(f"{URL}/tap")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert "This address accepts only POST." in response.text
    response = client.delete(URL)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET"


def test_an_unknown_page_gets_a_404_page(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert parse(response.text).find("h1").text == "Page not found"


def test_bad_settings_are_refused(player, client):
    p = player()
    for data, message in [
        ({"move_errors": "maybe"}, "Accepted: on or off."),
        ({"lang": "de"}, "Accepted: en, tr or bg."),
        ({"colour": "red"}, "The field “colour” is not accepted here."),
    ]:
        response = client.post("/settings", data={**data, "token": p.token})
        assert response.status_code == 422
        assert message in response.text
    assert client.post("/settings", data={"lang": "tr"}).status_code == 422
    assert client.post("/settings", data={"lang": "tr", "token": "nope"}).status_code == 403


def test_settings_redirect_only_to_paths_on_this_site(player, client):
    p = player()
    for target, expected in [
        (URL, URL),
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
        ("/\\evil", "/"),
    ]:
        response = client.post("/settings", data={"lang": "en", "token": p.token, "next": target})
        assert response.headers["location"] == expected


@pytest.mark.all_stores
def test_an_unreadable_saved_game_is_offered_a_fresh_start_not_a_500(player, client, store):
    p = player()
    p.tap("pile-1")
    sid = sid_of(client)
    store.change_game(sid, CODE, lambda s, g: (StoredGame(CODE, {"v": 99, "junk": True}), None))
    page = parse(client.get(URL).text)
    assert (
        page.by_id("status").text
        == "Your saved game for this deal could not be read, so it starts afresh."
    )
    assert page.by_id("board").attrs["data-moves"] == "0"
    p.open()
    p.tap("pile-2")
    assert record(store, client).moves == 0
    assert record(store, client).record["sel"] == "b"


# --- codes in URLs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["hm1-n-aaaaaab", " HM1-N-AAAAAAB", "HM1-N-AAAAAA8"])
def test_a_non_canonical_code_redirects_308_to_the_canonical_url(client, spelling):
    response = client.get(f"/half-moon/{spelling}")
    assert response.status_code == 308
    assert response.headers["location"] == URL


@pytest.mark.parametrize(
    "bad", ["HM1-N-AAAAAA", "HM2-N-AAAAAAB", "XX1-N-AAAAAAB", "nonsense", "HM1-C4-AAAAAAB"]
)
def test_an_invalid_code_gets_a_404_page_that_shows_the_format_and_offers_a_new_deal(client, bad):
    response = client.get(f"/half-moon/{bad}")
    assert response.status_code == 404
    page = parse(response.text)
    assert page.find("h1").text == "No such deal"
    assert FORMAT_HELP in page.find(class_="detail").text
    assert page.find("a", href="/half-moon").text == "New game"


def test_the_home_code_box_goes_to_the_canonical_url(client):
    assert client.get("/play", params={"code": "hm1-n-aaaaaab"}).headers["location"] == URL
    response = client.get("/play", params={"code": "HM1-N"})
    assert response.status_code == 404
    assert "A deal code looks like" in response.text


@pytest.mark.all_stores
def test_home_lists_games_in_progress(player, client):
    page = parse(client.get("/").text)
    # one tap to a fresh deal of each game and level (issue 35): no dialog on the way
    assert [a.attrs["href"] for a in page.by_id("new-deals").find_all("a")] == [
        "/half-moon",
        "/seahaven?cells=4",
        "/seahaven?cells=2",
        "/seahaven?cells=1",
    ]
    assert page.find_all(class_="continue") == []
    p = player()
    p.tap("pile-1")
    page = parse(client.get("/").text)
    link = page.find(class_="continue").find("a")
    assert link.attrs["href"] == URL
    assert link.text == f"Half Moon {CODE}"


# --- responses -------------------------------------------------------------------------------------


def test_game_pages_vary_on_htmx_and_are_not_cached(client):
    response = client.get(URL)
    assert "HX-Request" in varies(response)
    assert response.headers["cache-control"] == "no-store"


def test_pages_are_gzipped(client):
    response = client.get(URL, headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    raw = client.get(URL, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert len(gzip.compress(raw.content)) < len(raw.content) / 3


def test_static_assets_are_served_under_content_hashed_names_for_a_year(client):
    doc = parse(client.get(URL).text)
    sheets = [link.attrs["href"] for link in doc.find_all("link", rel="stylesheet")]
    css, game_css, _look = sheets  # the shared styles, the game's own (issue 25), the look's
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{10}\.css", css)
    assert re.fullmatch(r"/static/css/games/half-moon\.[0-9a-f]{10}\.css", game_css)
    response = client.get(css)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["content-type"] == "text/css; charset=utf-8"
    plain = client.get("/static/css/app.css")
    assert plain.headers["cache-control"] == "no-cache"
    assert plain.content == response.content
    assert client.get("/static/css/app.0000000000.css").status_code == 404
    assert client.get("/static/../app/main.py").status_code == 404


class CountingStore(MemoryStore):
    def __init__(self):
        super().__init__()
        self.calls = []

    async def load(self, sid, code=None):
        self.calls.append("load")
        return await super().load(sid, code)

    async def save_session(self, sid, session):
        self.calls.append("save_session")
        return await super().save_session(sid, session)

    async def change_game(self, sid, code, change):
        self.calls.append("change_game")
        return await super().change_game(sid, code, change)


def test_a_tap_costs_one_read_and_one_write():
    store = CountingStore()
    with TestClient(
        create_app(store=store), base_url="http://testserver", follow_redirects=False
    ) as client:
        page = parse(client.get(URL).text)
        store.calls.clear()
        card = page.find(data_place="pile-1").find("button").attrs["data-card"]
        response = client.post(
            f"{URL}/tap",
            data={"place": "pile-1", "card": card, "token": token_of(page)},
            headers=HTMX,
        )
        assert response.status_code == 200
    assert store.calls == ["change_game"]  # one transaction: one SELECT, one upsert


def test_the_default_store_is_a_sqlite_file_created_on_first_run(tmp_path, monkeypatch):
    path = tmp_path / "data" / "games.db"
    monkeypatch.setenv("SOLITAIRE_STORE", str(path))
    with TestClient(create_app(), base_url="http://testserver") as client:
        assert client.get(URL).status_code == 200
    assert path.exists()
    assert Config.from_env().store == str(path)
    monkeypatch.delenv("SOLITAIRE_STORE")
    assert Config.from_env().store == "var/solitaire.db"


@pytest.mark.parametrize("store_url", ["sqlite", "redis"])
def test_an_app_can_be_started_twice_each_run_opens_the_store_it_closes(
    tmp_path, request, store_url
):
    """Two lifespans one after the other (a test client per test, a server restarted in the
    same process): the second meets an open store, and plays on the first one's game."""
    url = (
        str(tmp_path / "games.db")
        if store_url == "sqlite"
        else request.getfixturevalue("redis_url")
    )
    if store_url == "redis":
        request.getfixturevalue("redis_client")  # an empty database
    app = create_app(Config(store=url))
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as first:
        page = parse(first.get(URL).text)
        card = page.find(data_place="pile-1").find(data_card=True).attrs["data-card"]
        tapped = first.post(
            f"{URL}/tap", data={"place": "pile-1", "card": card, "token": token_of(page)}
        )
        assert tapped.status_code == 303, tapped.text[:300]
        cookies = dict(first.cookies)
    with TestClient(app, base_url="http://testserver", cookies=cookies) as second:
        assert second.get("/health").text == "ok"
        page = parse(second.get(URL).text)
        assert page.find(data_place="pile-1").find(aria_pressed="true") is not None  # saved


def test_the_first_run_in_a_process_freezes_the_heap_it_started_with(monkeypatch):
    """A worker's startup objects are moved out of the collector's reach once, after a
    collection (full collections walked them all: 20–130 ms pauses every few seconds)."""
    import app.main as main

    calls = []
    monkeypatch.setattr(main, "_SETTLED", False)
    monkeypatch.setattr(main.gc, "collect", lambda *args: calls.append("collect"))
    monkeypatch.setattr(main.gc, "freeze", lambda: calls.append("freeze"))
    app = create_app(Config(store="memory:"))
    with TestClient(app, base_url="http://testserver") as client:
        assert client.get("/health").text == "ok"
        assert calls == ["collect", "freeze"]
    with TestClient(app, base_url="http://testserver"):
        pass
    assert calls == ["collect", "freeze"]


def test_health_answers_ok_without_a_session(client):
    response = client.get("/health")
    assert (response.status_code, response.text) == (200, "ok")
    assert "set-cookie" not in response.headers
    assert response.headers["cache-control"] == "no-store"


def test_the_expiry_sweep_runs_when_the_app_starts(monkeypatch):
    store = MemoryStore()
    cutoffs = []
    idle = []

    async def sweep(cutoff, batch=500, *, idle_cutoff_ms=None):
        cutoffs.append(cutoff)
        idle.append(idle_cutoff_ms)
        return 0

    monkeypatch.setattr(store, "sweep", sweep)
    config = Config(store="memory:", expire_days=30, sweep_seconds=3600)
    with TestClient(create_app(config, store=store)) as client:
        client.get("/health")
        for _ in range(100):
            if cutoffs:
                break
            time.sleep(0.01)
    assert len(cutoffs) == 1
    age_days = (time.time() * 1000 - cutoffs[0]) / 86_400_000
    assert 29.99 < age_days < 30.01
    idle_hours = (time.time() * 1000 - idle[0]) / 3_600_000
    assert 22.99 < idle_hours < 23.01  # a day less one sweep interval: gone within a day


class FailingStore(MemoryStore):
    """A store whose writes fail, as a locked or unreachable one would."""

    async def change_game(self, sid, code, change):
        raise StoreError("database is locked")


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_failing_store_answers_503_and_says_the_move_was_not_made(htmx):
    store = FailingStore()
    with TestClient(
        create_app(store=store), base_url="http://testserver", follow_redirects=False
    ) as client:
        page = parse(client.get(URL).text)
        card = page.find(data_place="pile-1").find("button").attrs["data-card"]
        response = client.post(
            f"{URL}/tap",
            data={"place": "pile-1", "card": card, "token": token_of(page)},
            headers=HTMX if htmx else {},
        )
    assert response.status_code == 503
    assert response.headers["retry-after"] == "1"
    said = (
        parse(response.text).by_id("status").text
        if htmx
        else parse(response.text).find(class_="detail").text
    )
    assert "Your move was not made" in said


@pytest.mark.parametrize(
    ("url", "fields"),
    [
        ("/half-moon/HM1-X/tap", {"place": "pile-99", "card": "ZZ"}),
        ("/seahaven/SH1-X/move", {"from": "pile-1", "card": "ZZ", "to": "nowhere"}),
        ("/half-moon/HM1-X/undo", {"colour": "red"}),
    ],
)
def test_an_action_on_a_bad_code_is_a_404_before_its_form_is_read(client, url, fields):
    """Every action checks its URL before its form, the same way in both games: the form's
    values are parsed against the deal the URL names (a Seahaven place needs its cells)."""
    page = parse(client.get("/").text)
    response = client.post(url, data={**fields, "token": token_of(page)})
    assert response.status_code == 404
    assert parse(response.text).find("h1").text == "No such deal"
