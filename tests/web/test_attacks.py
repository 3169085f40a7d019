"""Issue 23: holding up against a determined attacker — one section per item of the issue.

Each test is an attack that did harm before (bounded storage, true answers, sessions only
this site issued); the server-process attacks (the connection cap, bodies, forwarded
addresses, the access log) are in ``tests/system/test_server_limits.py``, the store-level
ones in ``tests/store/test_secret_revocation_and_full_stores.py``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.clock import now_ms
from app.config import Config
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES
from app.engine.halfmoon import HalfMoon
from app.engine.seahaven import Move, Seahaven, deal_position
from app.main import create_app
from app.services import daily
from app.store import SessionData, StoredGame
from tests.store.helpers import footprint
from tests.web.anonymous import SAMPLES, Made, UncoveredRouteError, anonymous_gets, get_routes
from tests.web.conftest import cookie_for, plant, sid_of, token_of
from tests.web.html import parse
from tests.web.test_stats import stats_row, win

CODE = "HM1-N-AAAAAAB"
URL = f"/half-moon/{CODE}"
SH = "SH1-C4-AAAAAJ2"


def run(coroutine):
    """``asyncio.run`` in a thread of its own: the browser tests' Playwright keeps an event
    loop running in the main thread for the rest of the run."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def browser(app, base_url: str = "http://testserver") -> TestClient:
    return TestClient(app, base_url=base_url, follow_redirects=False)


def make_link(client) -> str:
    """Select a card (so there is something to carry), make a device link; its secret."""
    url = "/half-moon/HM1-N-AAAAAAC"
    page = parse(client.get(url).text)
    token = token_of(page)
    card = page.find(data_place="pile-1").find("button").attrs["data-card"]
    client.post(f"{url}/tap", data={"place": "pile-1", "card": card, "token": token})
    made = client.post("/stats/link", data={"token": token})
    return str(parse(made.text).by_id("device-link").attrs["value"]).rsplit("/", 1)[1]


def use_link(client, secret: str):
    question = client.get(f"/link/{secret}")
    assert question.status_code == 200
    return client.post(f"/link/{secret}", data={"token": token_of(parse(question.text))})


@contextlib.contextmanager
def joined(app, client, player) -> Iterator[tuple[str, str, TestClient]]:
    """``client`` wins a game and makes a device link; another browser uses it. Yields the
    link's secret, the owner's id and that other browser."""
    win(player)
    secret = make_link(client)
    owner = sid_of(client)
    with browser(app) as other:
        use_link(other, secret)
        yield secret, owner, other


# --- 1. a GET without a session writes nothing -------------------------------------------------

MORE_DEALS = [
    *(f"/seahaven/{DealCode('SH', 1, 'C1', n)}" for n in range(1, 25)),  # 24 verdicts to prove
    "/seahaven/SH1-C1-AAAAAAC",  # lost at the deal
]


@pytest.mark.all_stores
def test_no_get_without_a_cookie_writes_anything_to_the_store(app, client, store, player):
    """Every GET route (``tests/web/anonymous.py``: from the app's route table), GET and
    HEAD, without a cookie. Before: every Seahaven deal opened stored its verdict (a row, a
    key), 90 days."""
    win(player)  # a replay to open
    made = Made(store.player_replays(sid_of(client))[0].id, make_link(client))
    with browser(app) as anonymous:
        before = footprint(store)
        for path in anonymous_gets(app, 0, made) + MORE_DEALS:
            for method in ("GET", "HEAD"):
                anonymous.cookies.clear()
                response = anonymous.request(method, path)
                assert response.status_code in (200, 303, 308, 404, 405, 422), (method, path)
        assert footprint(store) == before


def test_every_get_route_has_sample_paths(app):
    assert get_routes(app) == sorted(SAMPLES)


def test_a_get_route_without_sample_paths_fails_the_anonymous_gets(app):
    app.add_api_route("/new-page/{thing}", lambda thing: thing, methods=["GET"])
    with pytest.raises(UncoveredRouteError, match=r"\['/new-page/\{thing\}'\]"):
        anonymous_gets(app, 0, Made("R" * 22, "L" * 32))


def test_verdicts_of_positions_no_saved_game_holds_stay_in_this_workers_memory(app, client):
    client.get(f"/seahaven/{SH}")
    assert app.state.prover.known(deal_position(DealCode.parse(SH))) is False


def test_the_workers_verdicts_are_bounded(monkeypatch):
    from app.services import proofs

    monkeypatch.setattr(proofs, "MEMO_SIZE", 3)

    async def main() -> int:
        prover = proofs.Prover(pool=concurrent.futures.ThreadPoolExecutor(1))
        for n in range(1, 8):
            await prover.verdict(deal_position(DealCode("SH", 1, "C4", n)), wait=30)
        return len(prover._memo)

    assert run(main()) == 3


def test_a_flood_of_deals_queues_a_bounded_number_of_proofs(monkeypatch):
    from app.services import proofs

    monkeypatch.setattr(proofs, "MAX_PENDING", 4)
    pool = concurrent.futures.ThreadPoolExecutor(1)
    pool.submit(time.sleep, 1)  # the pool is busy: proofs wait

    async def main() -> tuple[int, int]:
        prover = proofs.Prover(pool=pool)
        asks = [
            prover.verdict(deal_position(DealCode("SH", 1, "C4", n)), wait=0.01)
            for n in range(1, 20)
        ]
        await asyncio.gather(*asks)
        return len(prover._jobs), prover.refused

    assert run(main()) == (4, 15)
    pool.shutdown(cancel_futures=True)


# --- 3. sessions only we issued -----------------------------------------------------------------


def play_a_move(client, url: str = URL) -> str:
    page = parse(client.get(url).text)
    card = page.find(data_place="pile-1").find("button").attrs["data-card"]
    response = client.post(
        f"{url}/tap", data={"place": "pile-1", "card": card, "token": token_of(page)}
    )
    assert response.status_code == 303
    return card


@pytest.mark.parametrize(
    "forged",
    [
        "{sid}",  # the bare id, as before
        "{sid}.AAAAAAAAAAAAAAAAAAAAAA",  # with a made-up signature
        "{sid}.{other_tag}",  # with another id's signature
    ],
)
def test_an_id_we_did_not_sign_is_answered_with_a_fresh_session(app, client, store, forged):
    play_a_move(client)
    victim = sid_of(client)
    other_tag = cookie_for(app, "B" * 43).partition(".")[2]
    with browser(app) as attacker:
        plant(attacker, forged.format(sid=victim, other_tag=other_tag))
        page = parse(attacker.get(URL).text)
        assert sid_of(attacker) != victim  # a new id, not the planted one
        assert page.find_all(aria_pressed="true") == []  # the victim's selection is not shown
    assert store.load(victim, CODE)[1] is not None


def test_under_https_a_plain_sid_planted_by_a_sibling_is_never_adopted(app, store):
    """Before: a plain ``sid`` (any site of the domain can set one) was moved into
    ``__Host-sid``, so an attacker's own session became the victim's."""
    with browser(app, "https://cards.example") as attacker:
        attacker.get(URL)
        planted = attacker.cookies["__Host-sid"]  # an id this site did issue, to the attacker
        attacker_sid = sid_of(attacker, "__Host-sid")
    with browser(app, "https://cards.example") as victim:
        plant(victim, planted)
        response = victim.get(URL)
        assert sid_of(victim, "__Host-sid") != attacker_sid
        assert all("sid=" + planted not in c for c in response.headers.get_list("set-cookie"))


LEGACY = "L" * 32
"""An id as the previous version issued them: 32 characters, no signature."""


@pytest.mark.all_stores
def test_players_from_before_signed_ids_keep_their_games(app, store):
    """The migration: an unsigned id the store holds something for is honoured once and
    answered with its signed form; its games, settings and form token stay the same."""
    game = HalfMoon(DealCode.parse(CODE))  # the legacy player's game: a card selected
    game.tap("pile-1", game.position.top(0), now=now_ms())
    saved = StoredGame(CODE, game.to_record(), "playing", 0, 0, now_ms())
    store.change_game(LEGACY, CODE, lambda s, g: (saved, None))
    with browser(app) as player:
        plant(player, LEGACY)
        page = parse(player.get(URL).text)
        assert len(page.find_all(aria_pressed="true")) == 1  # their selection
        assert player.cookies["sid"] == cookie_for(app, LEGACY)  # now signed
        answer = player.post(f"{URL}/undo", data={"token": token_of(page)})
        assert answer.status_code == 303  # the old form token still acts for the id


HTTPS = "https://cards.example"


@pytest.mark.all_stores
def test_players_from_before_signed_ids_keep_their_games_under_https(store, proof_pool):
    """The migration under HTTPS: an unsigned id issued as ``__Host-sid`` is honoured under
    that name and answered with its signed ``__Host-sid``; the same id in a plain ``sid``
    (which a sibling or a plain-HTTP hop could plant) is never read."""
    game = HalfMoon(DealCode.parse(CODE))
    game.tap("pile-1", game.position.top(0), now=now_ms())
    saved = StoredGame(CODE, game.to_record(), "playing", 0, 0, now_ms())
    store.change_game(LEGACY, CODE, lambda s, g: (saved, None))
    app = create_app(Config(origin=HTTPS), store=store.store, proof_pool=proof_pool)
    with browser(app, HTTPS) as player:
        plant(player, LEGACY, "__Host-sid")
        page = parse(player.get(URL).text)
        assert len(page.find_all(aria_pressed="true")) == 1  # their selection
        assert player.cookies["__Host-sid"] == cookie_for(app, LEGACY, "__Host-sid")
        card = str(game.position.top(0))
        deselect = {"place": "pile-1", "card": card, "token": token_of(page)}
        tap = player.post(f"{URL}/tap", data=deselect, headers={"Origin": HTTPS})
        assert tap.status_code == 303
        assert store.load(LEGACY, CODE)[1].record["sel"] == ""  # the legacy game, deselected
    with browser(app, HTTPS) as planted:
        plant(planted, LEGACY)  # the plain name
        page = parse(planted.get(URL).text)
        assert page.find_all(aria_pressed="true") == []
        assert sid_of(planted, "__Host-sid") != LEGACY


@pytest.mark.parametrize("value", ["U" * 32, "U" * 43])
def test_an_unsigned_id_the_store_never_held_gets_a_fresh_session(client, value):
    plant(client, value)
    client.get(URL)
    assert sid_of(client) != value and len(sid_of(client)) == 43


def test_using_a_device_link_replaces_this_browsers_id_with_a_signed_one(app, client):
    secret = make_link(client)
    owner = sid_of(client)
    with browser(app) as other:
        other.get("/")
        before = sid_of(other)
        used = use_link(other, secret)
        assert used.status_code == 303
        assert sid_of(other) == owner != before
        assert other.cookies["sid"] == cookie_for(app, owner, joined=True)
        assert other.cookies["sid"] != cookie_for(app, owner)  # not the owner's own


@pytest.mark.all_stores
def test_a_browser_that_uses_a_link_leaves_its_own_id_and_its_games_stay_with_that_id(
    app, client, store
):
    """Using a link rotates the browser's id to the link's: it no longer reaches what its own
    (perhaps planted) id had, and nothing is carried into the link's player (a planted id's
    games would be pushed into the owner's). The own id's games stay with that id: another
    browser may share it through the own id's link."""
    secret = make_link(client)  # the owner, on HM1-N-AAAAAAC
    owner = sid_of(client)
    with browser(app) as other, browser(app) as tablet:
        play_a_move(other)  # its own game, on URL
        own, own_cookie = sid_of(other), other.cookies["sid"]
        plant(tablet, own_cookie)  # a second browser of that id (its own link, say)
        used = use_link(other, secret)
        # answered with the owner's id, held through the link
        assert used.cookies["sid"] == cookie_for(app, owner, joined=True)
        assert sid_of(other) == owner != own
        home = parse(other.get("/").text)
        assert home.find_all("a", href=URL) == []  # no longer reaches what its own id had
        assert len(home.find_all("a", href="/half-moon/HM1-N-AAAAAAC")) >= 1
        assert store.load(owner, CODE) == (None, None)  # nothing carried
        assert store.load(own, CODE)[1] is not None  # the own id's game stays with it
        page = parse(tablet.get(URL).text)
        assert len(page.find_all(aria_pressed="true")) == 1  # its other browser still sees it
        assert sid_of(tablet) == own


def test_the_secret_comes_from_the_environment_when_set(store):
    one = create_app(Config(secret="s" * 40), store=store.store)
    two = create_app(Config(secret="s" * 40), store=store.store)
    with browser(one) as a, browser(two) as b:
        a.get("/")
        plant(b, a.cookies["sid"])
        b.get("/")
        assert sid_of(b) == sid_of(a)  # two instances, one secret: one session


def test_a_short_secret_is_refused_at_start_up():
    with pytest.raises(ValueError, match="SOLITAIRE_SECRET has 8 characters"):
        Config(secret="12345678")


# --- 4. revoking a device link ends every other browser's access ---------------------------------


@pytest.mark.all_stores
def test_revoking_the_link_cuts_off_the_browsers_that_used_it(app, client, store, player):
    with joined(app, client, player) as (secret, old, other):
        assert stats_row(other)["won"] == "1"
        stats = parse(client.get("/stats").text)
        assert stats.by_id("revoke-help").text == (  # said before revoking
            "Revoking the link also ends the access of every browser that used it: they no"
            " longer see your games and statistics. This browser keeps them."
        )
        token = token_of(stats)
        revoked = client.post("/stats/link/revoke", data={"token": token})
        assert revoked.headers["location"].startswith("/stats?n=revoked&t=")
        notice = parse(client.get(revoked.headers["location"]).text).by_id("stats-notice")
        assert "the browsers that used it no longer see your games" in notice.text
        assert sid_of(client) != old
        assert stats_row(client)["won"] == "1"  # the revoking browser keeps everything
        assert store.load(sid_of(client), CODE)[1] is not None
        assert stats_row(other)["won"] == "0"  # the other one has nothing any more
        assert parse(other.get("/").text).find_all("a", href=URL) == []
        assert store.load(old, CODE) == (None, None)
        again = other.post(f"/link/{secret}", data={"token": token_of(parse(other.get("/").text))})
        assert again.status_code == 404


# --- 5. a notice shows only when true ------------------------------------------------------------


def test_a_crafted_unreadable_notice_on_a_readable_game_says_nothing(client):
    play_a_move(client)
    page = parse(client.get(URL, params={"n": "unreadable"}).text)
    assert page.by_id("status").text == ""


def test_a_crafted_stale_notice_says_nothing(client):
    assert parse(client.get(URL, params={"n": "stale"}).text).by_id("status").text == ""


def test_a_crafted_revoked_notice_while_the_link_works_says_nothing(client):
    make_link(client)
    page = parse(client.get("/stats", params={"n": "revoked"}).text)
    assert page.find_all(id="stats-notice") == []


@pytest.mark.parametrize("key", ["linked", "reset", "revoked"])
def test_stats_notices_in_a_link_someone_sent_say_nothing(client, key):
    assert parse(client.get("/stats", params={"n": key}).text).find_all(id="stats-notice") == []


def test_a_crafted_replay_deleted_notice_says_nothing(client):
    """Issue 34, finding 7: ``/stats?n=replay-deleted`` without its tag said "The replay was
    deleted…"."""
    page = parse(client.get("/stats", params={"n": "replay-deleted"}).text)
    assert page.find_all(id="stats-notice") == []


def test_a_deleted_replay_is_still_told(client, player):
    from tests.web.test_replays import replay_url

    p = win(player)
    url = replay_url(p)
    done = client.post(f"{url}/delete", data={"token": p.token})
    assert done.headers["location"].startswith("/stats?n=replay-deleted&t=")
    notice = parse(client.get(done.headers["location"]).text).by_id("stats-notice")
    assert notice.text == "The replay was deleted: its link opens nothing any more."


def test_a_crafted_cleared_notice_says_nothing(client):
    """Issue 34, finding 7: ``/half-moon/CODE?n=cleared`` said "Selection cleared." though
    nothing was selected or cleared; the refusal's own redirect still says it (its tag)."""
    assert parse(client.get(URL, params={"n": "cleared"}).text).by_id("status").text == ""


def test_a_notice_for_another_session_says_nothing(app, client):
    from app.web.players.sessions import signer_of
    from app.web.rendering.notices import notice_tag

    tag = notice_tag(signer_of(app), "X" * 43, "/stats", "linked")
    page = parse(client.get("/stats", params={"n": "linked", "t": tag}).text)
    assert page.find_all(id="stats-notice") == []


def test_a_true_unreadable_notice_is_still_shown(client, store):
    play_a_move(client)
    store.change_game(sid_of(client), CODE, lambda s, g: (StoredGame(CODE, {"v": 99}), None))
    assert "could not be read" in parse(client.get(URL).text).by_id("status").text


# --- 6. statistics cannot be inflated: the daily deal ------------------------------------------


@pytest.mark.all_stores
def test_yesterdays_daily_deal_first_played_today_counts_for_no_day(
    client, store, player, fixed_day
):
    yesterday = daily.yesterday_of(daily.today())
    code = str(run(daily.daily_codes(yesterday))["HM"])
    win(player, code)
    doc = store.player_stats(sid_of(client))
    assert doc["daily"]["streak"] == 0 and doc["daily"]["days"] == []
    assert store.load(sid_of(client), code)[1].marks.daily == ""


@pytest.mark.all_stores
def test_todays_daily_deal_counts_for_today(client, store, player, fixed_day):
    code = str(run(daily.daily_codes(daily.today()))["HM"])
    win(player, code)
    assert store.player_stats(sid_of(client))["daily"]["days"] == [daily.today()]


# --- 7. a link guess past the limit: the same answer, right or wrong -----------------------------


@pytest.mark.all_stores
def test_past_the_guess_limit_the_right_secret_is_refused_like_a_wrong_one(app, client):
    secret = make_link(client)
    with browser(app) as guesser:
        token = token_of(parse(guesser.get("/").text))
        misses = [
            guesser.post(f"/link/{'G' * 30}{i:02d}", data={"token": token}).status_code
            for i in range(20)
        ]
        assert misses == [404] * 20
        wrong = guesser.post(f"/link/{'G' * 32}", data={"token": token})
        right = guesser.post(f"/link/{secret}", data={"token": token})
        assert (wrong.status_code, right.status_code) == (429, 429)
        assert wrong.headers["retry-after"] == right.headers["retry-after"]
        assert guesser.get(f"/link/{secret}").status_code == 200  # the question only: no answer


# --- 8. an aborted body: one line in the log -----------------------------------------------------


def test_a_client_that_goes_away_mid_body_costs_one_log_line(app, caplog):
    async def call() -> list[dict]:
        sent: list[dict] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/link/{'S' * 32}",
            "raw_path": f"/link/{'S' * 32}".encode(),
            "query_string": b"",
            "headers": [
                (b"host", b"testserver"),
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"content-length", b"100"),
            ],
            "client": ("203.0.113.1", 5000),
            "server": ("testserver", 80),
        }
        messages = iter([{"type": "http.request", "body": b"tok", "more_body": True}])

        async def receive() -> dict:
            return next(messages, {"type": "http.disconnect"})

        async def send(message: dict) -> None:
            sent.append(message)

        await app(scope, receive, send)
        return sent

    with browser(app):  # the lifespan: the store, the limiter
        caplog.set_level(logging.INFO)
        sent = run(call())
    records = [r for r in caplog.records if r.levelno >= logging.INFO and "app." in r.name]
    assert [r.getMessage() for r in records] == [
        "POST /link/…: the client went away before its body arrived"
    ]
    assert records[0].exc_info is None and sent == []


def test_the_access_log_never_shows_a_link_secret():
    from app.web.edge.logs import MaskSecrets

    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", "/link/s3cr3t-s3cr3t-s3cr3t?x=1", "1.1", 200),
        None,
    )
    MaskSecrets().filter(record)
    assert record.getMessage() == '1.2.3.4:5 - "GET /link/…?x=1 HTTP/1.1" 200'


# --- 9. a game at the move cap costs what a short one does to view ------------------------------


def _long_seahaven(moves: int) -> StoredGame:
    game = Seahaven(DealCode.parse(SH))
    for i in range(moves):  # a card shuttled between two cells
        game.play(Move(10, 1, 12) if i % 2 == 0 else Move(12, 1, 10), 0)
    return StoredGame(SH, game.to_record(), "playing", game.score, game.move_count, now_ms())


def test_a_long_game_is_replayed_once_off_the_loop_then_shown_from_the_cache(
    client, store, monkeypatch
):
    """Before: every view replayed all 5,000 moves through the rules on the event loop."""
    client.get(f"/seahaven/{SH}")
    sid = sid_of(client)
    store.change_game(sid, SH, lambda s, g: (_long_seahaven(MAX_RECORD_MOVES), None))
    replays: list[str] = []
    original = Seahaven.from_record.__func__

    def counted(cls, record):
        replays.append(threading.current_thread().name)
        return original(cls, record)

    monkeypatch.setattr(Seahaven, "from_record", classmethod(counted))
    loop_thread = threading.main_thread().name
    for _ in range(5):
        page = parse(client.get(f"/seahaven/{SH}").text)
        assert page.by_id("board").attrs["data-moves"] == str(MAX_RECORD_MOVES)
    assert len(replays) == 1 and replays[0] != loop_thread  # once, in a thread
    token = token_of(page)
    moved = client.post(
        f"/seahaven/{SH}/undo", data={"token": token}, headers={"HX-Request": "true"}
    )
    assert moved.status_code == 200
    assert len(replays) == 1  # the action took the cached game too
    shown = parse(client.get(f"/seahaven/{SH}").text)
    assert shown.by_id("board").attrs["data-moves"] == str(MAX_RECORD_MOVES - 1)


def test_the_workers_games_are_bounded_by_their_moves():
    from app.web.play.gamecache import GameCache, Kept

    cache = GameCache(size=100, max_moves=12_000)
    for n in range(4):
        row = _long_seahaven(5000 if n < 3 else 10)
        game = Seahaven.from_record(row.record)
        cache.keep(f"s{n}", SH, Kept(row, game, SessionData("t")))
    assert cache.moves <= 12_000
    assert cache.peek("s0", SH) is None  # the oldest went when the third came
    assert all(cache.peek(f"s{n}", SH) is not None for n in (1, 2, 3))
