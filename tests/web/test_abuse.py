"""Issue 17: bounded growth, rate limits and HTTP done right — one section per item."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.config import Config
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES
from app.engine.seahaven import Move, Seahaven
from app.main import create_app
from app.store import MemoryStore, StoredGame
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore
from app.web.edge.middleware import CSP
from app.web.players import sessions
from app.web.players.sessions import form_token
from tests.store.helpers import footprint
from tests.web.conftest import HTMX, plant, sid_of, token_of
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
URL = f"/half-moon/{CODE}"
SH_CODE = "SH1-C4-AAAAAJ2"
SH_URL = f"/seahaven/{SH_CODE}"


def client_for(app, base_url="http://testserver", **kwargs) -> TestClient:
    return TestClient(app, base_url=base_url, follow_redirects=False, **kwargs)


def cookies_of(response) -> list[str]:
    return response.headers.get_list("set-cookie")


def tap_first(client, url=URL, headers=None):
    """Open a Half Moon page and tap its first pile's card, like a browser would."""
    page = parse(client.get(url).text)
    card = page.find(data_place="pile-1").find("button").attrs["data-card"]
    return client.post(
        f"{url}/tap",
        data={"place": "pile-1", "card": card, "token": token_of(page)},
        headers=headers or HTMX,
    )


# --- 1. growth: a GET never writes; the first action does --------------------------------------

GETS = [
    "/",
    URL,
    SH_URL,
    "/seahaven",
    "/half-moon/SH1-C4-AAAAAJ2",  # 308 to the other game
    "/nowhere",  # 404
    f"{URL}/tap",  # a GET on a POST-only route: 405
    "/play?code=nonsense",
    f"{URL}?n=stale",
    "/seahaven?last=2",
    "/rules/half-moon",
    "/rules/seahaven",
    "/examples",
    "/examples?step=3",
    "/faq",
    "/winnability",
    "/stats",  # issue 16: statistics, the daily deals, the device link's question
    "/stats?ask=reset",
    "/daily/half-moon",
    "/daily/seahaven?cells=2",
    "/link/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # 404: no such link
    "/replay",  # issue 26: the form for a game's text, a replay that is not there
    "/replay/AAAAAAAAAAAAAAAAAAAAAA",
    "/replay/AAAAAAAAAAAAAAAAAAAAAA.txt",
]


@pytest.mark.parametrize("path", GETS)
def test_a_get_without_a_cookie_stores_nothing(client, store, path):
    before = footprint(store)
    response = client.get(path)
    assert response.status_code in (200, 303, 308, 404, 405)
    sid = sid_of(client)
    assert len(sid) == 43  # an id is handed out …
    assert store.load(sid, CODE) == (None, None)  # … but nothing is stored for it
    assert store.recent_games(sid) == []
    assert store.player_stats(sid) is None and not store.has_link(sid)
    assert footprint(store) == before  # nor anything else (issue 23: no verdict, no counter)


def test_a_page_token_works_for_the_first_action_which_stores_the_game(client, store):
    response = tap_first(client)
    assert response.status_code == 200
    sid = sid_of(client)
    session, game = store.load(sid, CODE)
    assert game is not None and game.record["sel"] != ""  # the tap selected a card
    assert session is None  # a session row waits for a setting: the game is what was kept


def test_the_page_token_is_the_one_derived_from_the_cookie(client):
    page = parse(client.get(URL).text)
    assert token_of(page) == form_token(sid_of(client))


@pytest.mark.parametrize(
    "token",
    ["", "A" * 32, form_token("B" * 32)],  # none, made up, another id's
)
def test_a_forged_token_is_refused_and_nothing_is_stored(client, store, token):
    client.get(URL)
    response = client.post(
        f"{URL}/tap", data={"place": "pile-1", "card": "AS", "token": token}, headers=HTMX
    )
    assert response.status_code in (403, 422)
    assert store.load(sid_of(client), CODE) == (None, None)


def test_a_post_without_a_cookie_is_refused_even_with_a_derived_token(app, store):
    with client_for(app) as client:
        response = client.post(
            f"{URL}/tap",
            data={"place": "pile-1", "card": "AS", "token": form_token("C" * 32)},
            headers=HTMX,
        )
    assert response.status_code == 403
    assert "This page has expired" in response.text


def test_settings_of_a_new_player_create_the_session_with_the_page_token(client, store):
    page = parse(client.get("/").text)
    response = client.post("/settings", data={"lang": "tr", "token": token_of(page), "next": "/"})
    assert response.status_code == 303
    session, _ = store.load(sid_of(client))
    assert session is not None and session.lang == "tr"
    assert session.token == form_token(sid_of(client))


# --- 1. growth: rate limits ------------------------------------------------------------------------


def test_writes_beyond_the_limit_get_429_with_retry_after_in_the_players_language(store):
    app = create_app(Config(rate_writes="3/minute"), store=store.store)
    with client_for(app) as client:
        page = parse(client.get(URL, headers={"Accept-Language": "tr"}).text)
        data = {"token": token_of(page)}
        turkish = {**HTMX, "Accept-Language": "tr"}
        answers = [client.post(f"{URL}/undo", data=data, headers=turkish) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        refused = answers[-1]
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert refused.headers["content-security-policy"] == CSP
        assert "Çok fazla istek" in refused.text  # "Too many requests", in Turkish
        plain = client.post(f"{URL}/undo", data=data, headers={"Accept-Language": "tr"})
        assert plain.status_code == 429
        assert plain.headers["retry-after"].isdigit()
        links = [a.attrs["href"] for a in parse(plain.text).by_id("main").find_all("a")]
        assert links == [URL, "/"]  # back to the game, or home


def test_the_write_limit_counts_per_client_address():
    # One app, two clients at once: each TestClient runs its own event loop, which only the
    # memory store's limiter does not mind (a server has one loop per worker).
    app = create_app(Config(rate_writes="2/minute"), store=MemoryStore())
    with client_for(app) as first, client_for(app, client=("198.51.100.7", 5000)) as second:
        for client in (first, first, second, second):
            page = parse(client.get(URL).text)
            response = client.post(f"{URL}/undo", data={"token": token_of(page)}, headers=HTMX)
            assert response.status_code == 200
        page = parse(first.get(URL).text)
        response = first.post(f"{URL}/undo", data={"token": token_of(page)}, headers=HTMX)
        assert response.status_code == 429


def test_new_games_beyond_their_limit_are_refused_but_games_in_progress_go_on(store):
    app = create_app(Config(rate_new="2/hour", rate_writes="off"), store=store.store)
    with client_for(app) as client:
        codes = ["HM1-N-AAAAAAB", "HM1-N-AAAAAAC", "HM1-N-AAAAAAD"]
        answers = [tap_first(client, f"/half-moon/{code}") for code in codes]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert int(answers[-1].headers["retry-after"]) > 60  # one new game per 30 minutes
        sid = sid_of(client)
        assert store.load(sid, codes[2])[1] is None  # nothing was written
        page = parse(client.get(f"/half-moon/{codes[0]}").text)
        again = client.post(
            f"/half-moon/{codes[0]}/undo", data={"token": token_of(page)}, headers=HTMX
        )
        assert again.status_code == 200


@pytest.fixture(params=["sqlite", "redis", "redis-cluster"])
def shared_stores(request, tmp_path):
    """Two stores on one backend, as two worker processes or two instances have."""
    if request.param == "sqlite":
        made = [SQLiteStore(str(tmp_path / "games.db")) for _ in range(2)]
    elif request.param == "redis-cluster":
        request.getfixturevalue("redis_cluster_client")
        made = [RedisStore(request.getfixturevalue("redis_cluster").url) for _ in range(2)]
    else:
        request.getfixturevalue("redis_client")
        url = request.getfixturevalue("redis_url")
        made = [RedisStore(url) for _ in range(2)]
    yield made
    for store in made:
        SyncStore(store).close()


@pytest.mark.slow
def test_the_write_limit_is_shared_by_every_worker_and_instance(shared_stores):
    apps = [create_app(Config(rate_writes="4/minute"), store=s) for s in shared_stores]
    with client_for(apps[0]) as one, client_for(apps[1]) as two:
        statuses = []
        for client in (one, two, one, two, one):
            page = parse(client.get(URL).text)
            response = client.post(f"{URL}/undo", data={"token": token_of(page)}, headers=HTMX)
            statuses.append(response.status_code)
    assert statuses == [200, 200, 200, 200, 429]


# --- 2. a record is bounded when the move is made ---------------------------------------------------


def _long_seahaven(moves: int) -> StoredGame:
    """A Seahaven game of ``moves`` moves: a card shuttled between two cells."""
    game = Seahaven(DealCode.parse(SH_CODE))
    for i in range(moves):
        game.play(Move(10, 1, 12) if i % 2 == 0 else Move(12, 1, 10), 0)
    return StoredGame(SH_CODE, game.to_record(), "playing", game.score, game.move_count, 1)


def _shuttle(client, token, moves):
    """Post the next shuttle move of a game of ``moves`` moves (cell-1 ↔ cell-3)."""
    source, target = ("cell-1", "cell-3") if moves % 2 == 0 else ("cell-3", "cell-1")
    return client.post(
        f"{SH_URL}/move",
        data={"from": source, "card": "10H", "to": target, "token": token},
        headers=HTMX,
    )


def test_a_game_at_the_move_limit_refuses_the_next_move_and_stays_readable(client, store):
    page = parse(client.get(SH_URL).text)
    token = token_of(page)
    sid = sid_of(client)
    store.change_game(sid, SH_CODE, lambda s, g: (_long_seahaven(MAX_RECORD_MOVES - 1), None))

    last = _shuttle(client, token, MAX_RECORD_MOVES - 1)  # the 5000th move is kept
    assert last.status_code == 200, last.text
    assert Seahaven.from_record(store.load(sid, SH_CODE)[1].record).move_count == MAX_RECORD_MOVES

    over = _shuttle(client, token, MAX_RECORD_MOVES)
    assert over.status_code == 409
    assert "A game keeps at most 5000 moves" in over.text
    stored = store.load(sid, SH_CODE)[1]
    assert Seahaven.from_record(stored.record).move_count == MAX_RECORD_MOVES  # readable

    shown = parse(client.get(SH_URL).text)
    assert shown.by_id("board").attrs["data-moves"] == str(MAX_RECORD_MOVES)
    assert "could not be read" not in shown.by_id("status").text
    undo = client.post(f"{SH_URL}/undo", data={"token": token}, headers=HTMX)
    assert undo.status_code == 200  # the way on the refusal offers still works


# --- 3. sliding cookie expiry ---------------------------------------------------------------------


def test_the_cookie_is_sent_when_issued_then_once_a_day_for_the_sliding_expiry(client, monkeypatch):
    """Issue 44: before, every answer sent the cookie again (a late answer could put back an
    id a revocation had emptied). Now the same day's answers send none; the first answer of a
    later day renews it (90 days from that visit), once."""
    first = client.get(URL)
    (issued,) = cookies_of(first)
    sid = client.cookies["sid"]  # the id, the day and their signature
    assert issued.startswith(f"sid={sid};") and "Max-Age=7776000" in issued
    assert "HttpOnly" in issued and "Path=/" in issued
    for response in (client.get(URL), client.get("/"), tap_first(client)):
        assert cookies_of(response) == []
    tomorrow = sessions.now_ms() + sessions.DAY_MS
    monkeypatch.setattr(sessions, "now_ms", lambda: tomorrow)
    (renewed,) = cookies_of(client.get(URL))
    assert renewed.startswith(f"sid={sid.partition('.')[0]}.") and "Max-Age=7776000" in renewed
    assert client.cookies["sid"] != sid  # another day in it
    assert cookies_of(client.get(URL)) == [] and cookies_of(tap_first(client)) == []


def test_a_cookie_of_the_form_before_is_renewed_once_in_the_new_form(client, app):
    """A cookie from before issue 44 (``ID.TAG``) is read, and its first answer sends the
    dated form, once."""
    client.get(URL)
    sid = sid_of(client)
    signer = sessions.signer_of(app)
    plant(client, sessions.cookie_value(signer, "sid", sid))
    (renewed,) = cookies_of(client.get(URL))
    assert renewed.startswith(f"sid={sid}.{sessions.today()}.")
    assert cookies_of(client.get(URL)) == []


# --- 4. notices from the URL; the 500 page ----------------------------------------------------------


@pytest.mark.parametrize("key", ["group-²", "group-①", "group-⁵", "group-٣", "group-0"])
def test_notices_with_unicode_digits_are_ignored_not_a_500(client, key):
    response = client.get(SH_URL, params={"n": key})
    assert response.status_code == 200
    assert parse(response.text).by_id("status").text == ""


def test_a_seahaven_notice_is_not_shown_on_half_moon(client):
    for key in ("group-3", "group-9999", "king_only"):
        response = client.get(URL, params={"n": key})
        assert response.status_code == 200
        assert parse(response.text).by_id("status").text == ""


def test_a_half_moon_notice_is_not_shown_on_seahaven(client):
    response = client.get(SH_URL, params={"n": "sum"})
    assert parse(response.text).by_id("status").text == ""


def test_a_group_limit_is_shown_only_when_the_board_allows_it(client):
    # SH1-C4-AAAAAJ2 starts with two free cells and no empty column: 3 cards may move.
    true = parse(client.get(SH_URL, params={"n": "group-3"}).text)
    assert "at most 3 cards can move now." in true.by_id("status").text
    for lie in ("group-9999", "group-4", "group-1"):
        assert parse(client.get(SH_URL, params={"n": lie}).text).by_id("status").text == ""


def test_nothing_to_undo_is_not_claimed_of_a_game_that_can_undo(client):
    token = token_of(parse(client.get(SH_URL).text))
    assert "nothing to undo" in parse(client.get(SH_URL, params={"n": "no-undo"}).text).text
    assert _shuttle(client, token, 0).status_code == 200  # a move: now there is one to undo
    page = parse(client.get(SH_URL, params={"n": "no-undo"}).text)
    assert "nothing to undo" not in page.by_id("status").text


def _crashing_app():
    app = create_app(store=MemoryStore())

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    return app


def test_a_crash_is_the_500_page_with_security_headers_and_nothing_reraised():
    # raise_server_exceptions: an exception that escaped the application (so uvicorn would
    # drop the connection) would be raised here.
    with client_for(_crashing_app(), raise_server_exceptions=True) as client:
        response = client.get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert response.headers["content-security-policy"] == CSP
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["cache-control"] == "no-store"


# --- 5. HEAD --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/health", URL, "/seahaven"])
def test_head_answers_like_get_without_a_body(client, path):
    get = client.get(path)
    head = client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-security-policy"] == CSP


def test_head_on_a_post_only_route_is_405(client):
    response = client.head(f"{URL}/tap")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"


# --- 6. a chunked body over the limit --------------------------------------------------------------


def test_a_chunked_body_over_the_limit_is_413(store):
    app = create_app(Config(max_body=1024), store=store.store)

    def chunks():
        for _ in range(8):
            yield b"x" * 512

    with client_for(app) as client:
        page = parse(client.get(URL).text)
        response = client.post(
            f"{URL}/tap",
            content=chunks(),
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert response.status_code == 413
        assert "at most 1024 bytes" in response.text
        assert response.headers["connection"] == "close"
        assert token_of(page)  # the page itself was fine


def test_a_chunked_body_within_the_limit_is_read(client):
    page = parse(client.get(URL).text)
    card = page.find(data_place="pile-1").find("button").attrs["data-card"]
    body = f"place=pile-1&card={card}&token={token_of(page)}".encode()
    response = client.post(
        f"{URL}/tap",
        content=iter([body[:10], body[10:]]),
        headers={"content-type": "application/x-www-form-urlencoded", **HTMX},
    )
    assert response.status_code == 200


# --- 8. the public origin ------------------------------------------------------------------------------


def test_behind_a_proxy_that_rewrites_host_the_configured_origin_is_accepted(store):
    app = create_app(Config(origin="https://cards.example"), store=store.store)
    with client_for(app, base_url="http://127.0.0.1:8000") as client:  # what the proxy sends
        response = client.get(URL)
        cookie = cookies_of(response)[0].split(";")[0]  # the proxy passes the browser's cookie on
        page = parse(response.text)
        card = page.find(data_place="pile-1").find("button").attrs["data-card"]
        data = {"place": "pile-1", "card": card, "token": token_of(page)}
        sent = {**HTMX, "Cookie": cookie}
        ours = client.post(
            f"{URL}/tap", data=data, headers={**sent, "Origin": "https://cards.example"}
        )
        assert ours.status_code == 200, ours.text
        internal = client.post(
            f"{URL}/tap", data=data, headers={**sent, "Origin": "http://127.0.0.1:8000"}
        )
        assert internal.status_code == 403


def test_the_share_link_names_the_configured_origin_not_the_host_header(store):
    app = create_app(Config(origin="https://cards.example"), store=store.store)
    with client_for(app) as client:
        page = client.get(URL, headers={"Host": "evil.example"}).text
    assert "evil.example" not in page
    assert f"https://cards.example{URL}" in page


def test_without_a_configured_origin_the_host_is_the_fallback(client):
    page = client.get(URL).text
    assert f"http://testserver{URL}" in page


@pytest.mark.parametrize("bad", ["cards.example", "https://cards.example/play", "ftp://x"])
def test_a_malformed_origin_is_refused_at_start_up(bad):
    with pytest.raises(ValueError, match="SOLITAIRE_ORIGIN"):
        Config(origin=bad)


# --- 9. HTTPS: __Host- cookie and HSTS --------------------------------------------------------------


def test_under_https_the_cookie_is_host_prefixed_and_hsts_is_sent(store):
    with client_for(create_app(store=store.store), base_url="https://cards.example") as client:
        response = client.get(URL)
        (cookie,) = cookies_of(response)
        assert cookie.startswith("__Host-sid=")
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie
        assert response.headers["strict-transport-security"] == "max-age=31536000"
        assert tap_first(client).status_code == 200  # the prefixed cookie carries the session


def test_a_configured_https_origin_means_https_behind_a_plain_http_proxy(store):
    app = create_app(Config(origin="https://cards.example"), store=store.store)
    with client_for(app) as client:
        response = client.get(URL)
    assert cookies_of(response)[0].startswith("__Host-sid=")
    assert "strict-transport-security" in response.headers


def test_over_plain_http_no_hsts_and_a_plain_cookie(client):
    response = client.get(URL)
    assert "strict-transport-security" not in response.headers
    assert cookies_of(response)[0].startswith("sid=")


def test_a_plain_cookie_is_never_read_under_https(store):
    # issue 23: any site of the domain, or a plain-HTTP hop, can plant a plain ``sid``; only
    # ``__Host-sid`` cannot be planted, so it is the only one read under HTTPS
    app = create_app(store=store.store)
    with client_for(app) as plain:
        plain.get(URL)
        issued = plain.cookies["sid"]
    with client_for(app, base_url="https://cards.example") as client:
        client.cookies.set("sid", issued)
        response = client.get(URL)
    (new,) = cookies_of(response)
    assert new.startswith("__Host-sid=") and issued not in new


# --- 10. an action on the other game's URL ----------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "fields", "game"),
    [
        (f"/half-moon/{SH_CODE}/tap", {"place": "pile-1", "card": "AS"}, "Seahaven Towers"),
        (f"/seahaven/{CODE}/undo", {}, "Half Moon"),
    ],
)
def test_an_action_on_the_other_games_url_is_a_clear_404(client, url, fields, game):
    page = parse(client.get("/").text)
    response = client.post(url, data={**fields, "token": token_of(page)})
    assert response.status_code == 404
    assert f"is a {game} deal" in response.text
    assert "location" not in response.headers
