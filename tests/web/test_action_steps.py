"""The three steps of a game action, each alone (``app.web.play.actions.act`` runs them in turn):
decide — the engine's call, no I/O; commit — the store's one transaction; answer — the htmx
fragment or the 303."""

from __future__ import annotations

import dataclasses

import pytest
from starlette.requests import Request

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, deal
from app.engine.halfmoon.solver import solve
from app.i18n import card_name, translations
from app.status import Status
from app.store import MemoryStore, SessionData, StoredGame
from app.store.ratelimit import ALLOWED, Verdict
from app.store.sync import SyncStore
from app.web.edge.errors import PlayerError
from app.web.halfmoon import SCREEN, said_for
from app.web.play.answers import answer
from app.web.play.commit import commit
from app.web.play.decide import Acted, Turn, decide
from app.web.players.sessions import Player, form_token
from app.web.rendering.notices import Said
from tests.web.conftest import TestClient
from tests.web.html import parse

CODE = DealCode.parse("HM1-N-AAAAAAB")
TOP = deal(CODE).top(0)
"""The card on pile 1."""
SESSION = SessionData("token-1")
EN = translations("en")
TOP_NAME = card_name(TOP, EN)


def tap_pile_1(game: HalfMoon, session: SessionData, now: int) -> Said:
    return said_for(game.tap(0, TOP, now), TOP, session)


def nothing(game: HalfMoon, session: SessionData, now: int) -> Said:
    return Said()


def turn(action=tap_pile_1, **fields) -> Turn:
    return Turn(SCREEN, CODE, action, **{"now": 5_000, "creating": ALLOWED, **fields})


# --- decide ----------------------------------------------------------------------------------


def test_decide_a_first_tap_writes_a_new_game_marked_for_its_day_and_its_retry_key():
    saved, acted = decide(
        turn(daily_day="2026-01-01", retry="key-1"), SESSION, None, HalfMoon(CODE), False
    )
    assert saved is not None and acted.row is saved
    assert (saved.record["moves"], saved.record["sel"], saved.moves) == ("", "a", 0)
    assert (saved.marks.daily, saved.marks.retry, saved.updated_ms) == (
        "2026-01-01",
        "key-1",
        5_000,
    )
    assert (acted.state, acted.ended, acted.created) == (Status.PLAYING, False, True)
    assert acted.before is not None and not acted.before.places[0].selected
    assert acted.said.message is not None and acted.said.message(EN) == f"{TOP_NAME} selected."


def test_decide_an_action_that_changes_nothing_writes_nothing():
    stored = SCREEN.stored(HalfMoon(CODE), HalfMoon(CODE).to_record(), 1_000)
    saved, acted = decide(turn(nothing), SESSION, stored, HalfMoon(CODE), False)
    assert saved is None and acted.row is stored
    assert (acted.created, acted.ended, acted.said) == (False, False, Said())


def test_decide_refuses_a_new_game_past_the_limit_and_writes_nothing():
    with pytest.raises(PlayerError) as refused:
        decide(turn(creating=Verdict(False, 30)), SESSION, None, HalfMoon(CODE), False)
    assert refused.value.status == 429 and refused.value.headers["Retry-After"] == "30"


def test_decide_answers_an_action_made_already_without_making_it_again():
    game = HalfMoon(CODE)
    stored, _ = decide(turn(retry="key-1"), SESSION, None, game, False)
    assert stored is not None

    def never(game, session, now):
        raise AssertionError("applied twice")

    saved, acted = decide(turn(never, retry="key-1"), SESSION, stored, game, False)
    assert saved is None and acted.before is None and acted.row is stored


def test_decide_the_last_removal_ends_the_game_won():
    line = list(solve(deal(CODE)).line or ())
    game = HalfMoon(CODE)
    game.replay(line[:-1], now=0)
    stored = SCREEN.stored(game, game.to_record(), 1_000)

    def last(game, session, now):
        game.play(line[-1], now)
        return Said()

    saved, acted = decide(turn(last), SESSION, stored, game, False)
    assert saved is not None and (saved.state, saved.moves) == ("won", 48)
    assert (acted.state, acted.ended, acted.created) == (Status.WON, True, False)


# --- commit and answer, on an app whose lifespan runs ----------------------------------------


@pytest.fixture
def app_client(proof_pool):
    from app.main import create_app

    store = MemoryStore()
    app = create_app(store=store, proof_pool=proof_pool)
    with TestClient(app, base_url="http://testserver") as client:
        yield app, SyncStore(store), client


def request_for(app, sid: str, **headers: str) -> Request:
    """A request of the player ``sid`` to the app (no HTTP: the step is called directly)."""
    scope = {
        "type": "http",
        "app": app,
        "method": "POST",
        "path": f"{SCREEN.url(CODE)}/tap",
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "server": ("testserver", 80),
        "scheme": "http",
        "state": {"player": Player(sid, fresh=False)},
    }
    return Request(scope)


def test_commit_checks_the_token_then_writes_the_decided_row(app_client):
    app, store, client = app_client
    sid = "s" * 43
    with pytest.raises(PlayerError) as expired:
        client.portal.call(commit, request_for(app, sid), turn(), "not-the-token")
    assert expired.value.status == 403 and store.load(sid, str(CODE))[1] is None
    acted = client.portal.call(commit, request_for(app, sid), turn(), form_token(sid))
    row = store.load(sid, str(CODE))[1]
    assert row is not None and row == acted.row and row.record["sel"] == "a"


def test_answer_without_htmx_is_a_303_back_to_the_page(app_client):
    app, _, client = app_client
    _, acted = decide(turn(), SESSION, None, HalfMoon(CODE), False)
    response = client.portal.call(answer, request_for(app, "s" * 43), turn(), acted)
    assert (response.status_code, response.headers["location"]) == (303, SCREEN.url(CODE))
    assert response.headers["vary"] == "HX-Request"


def test_answer_with_htmx_sends_only_the_changed_place_from_the_board_the_page_shows(app_client):
    app, _, client = app_client
    _, acted = decide(turn(), SESSION, None, HalfMoon(CODE), False)
    before = acted.before
    assert before is not None
    parts = SCREEN.board_parts(before, "en")
    seen = SCREEN.board_version(before, parts, "en", SESSION.token)
    request = request_for(app, "s" * 43, **{"HX-Request": "true", "X-Board-Version": seen})
    response = client.portal.call(answer, request, turn(), acted)
    swapped = [e.attrs["id"] for e in parse(response.body.decode()).children if e.attrs.get("id")]
    assert swapped[:3] == ["board", "place-pile-1", "stats"] and swapped[-1] == "status"
    assert not [
        ident for ident in swapped if ident.startswith("place-") and ident != "place-pile-1"
    ]
    status = parse(response.body.decode()).by_id("status").text
    assert status == f"{TOP_NAME.capitalize()} selected."


def test_answer_with_htmx_to_another_board_sends_the_whole_board(app_client):
    app, _, client = app_client
    _, acted = decide(turn(), SESSION, None, HalfMoon(CODE), False)
    request = request_for(app, "s" * 43, **{"HX-Request": "true", "X-Board-Version": "0"})
    board = parse(client.portal.call(answer, request, turn(), acted).body.decode()).by_id("board")
    assert board.attrs["hx-swap-oob"] == "true"
    assert len(board.find_all(data_place=True)) == 20


def test_an_acted_value_is_frozen():
    _, acted = decide(turn(), SESSION, None, HalfMoon(CODE), False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        acted.state = Status.WON  # type: ignore[misc]
    assert isinstance(acted, Acted) and isinstance(acted.row, StoredGame)
