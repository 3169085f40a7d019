"""Replays over HTTP (issue 26): every finished game's replay from its end box, each step's
board and move in words, the text form and a pasted text, the links from the home page and
/stats, deleting a replay, privacy, and where a finished game stands on its deal."""

from __future__ import annotations

import base64
import copy
import re
import warnings
from urllib.parse import urlencode

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import app.web.play.actions
from app.clock import now_ms
from app.config import Config
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES
from app.engine.halfmoon import HalfMoon, deal, place_name, position_from_data
from app.engine.halfmoon.solver import solve
from app.engine.replay import Line
from app.engine.seahaven import Position as SeahavenPosition
from app.engine.seahaven import Seahaven, home_line
from app.engine.seahaven.solver import solve_code
from app.i18n import place_title, translations
from app.main import create_app
from app.services import daily
from app.store import StoredGame
from app.store.marks import Marks
from app.store.sync import SyncStore
from app.web.halfmoon.replay import REMOVED
from app.web.players.sessions import form_token
from app.web.review.replay_pages import PASTED_MAX_BODY
from app.web.seahaven import SCREEN
from tests.store.test_replays import housekeep
from tests.web.conftest import HTMX, Player, deal_as, forget_cached_games, sid_of, token_of
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
SH_CODE = "SH1-C4-AAAAAJ2"
TINY = {"piles": [["6D", "5S"], ["6C"], ["5H"]] + [[]] * 9, "reserve": [None] * 8}
"""A table of four cards: 5♠+6♣ then 6♦+5♥ wins; 5♥+6♣ first leaves 5♠ on 6♦ (stuck)."""
WIN = (("pile-1", "pile-2"), ("pile-1", "pile-3"))
LOSE = (("pile-3", "pile-2"),)
REPLAY_LINK = re.compile(r"/replay/([A-Za-z0-9_-]{22})")


@pytest.fixture
def tiny(monkeypatch, app):
    """CODE deals the four-card table (a deal code's cards never change outside tests)."""
    deal_as(monkeypatch, HalfMoon, CODE, position_from_data(TINY), app)


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, moved on by hand from now (the sweep of each app start deletes
    what is older than the games' expiry)."""
    now = [now_ms()]
    monkeypatch.setattr(app.web.play.actions, "now_ms", lambda: now[0])

    def tick(ms: int = 3_000) -> None:
        now[0] += ms

    return tick


def play(p, removals, tick=None, step_ms: int = 3_000) -> None:
    for removal in removals:
        for place in removal:
            if tick is not None:
                tick(step_ms)
            p.tap(place)


def replay_url(p) -> str:
    """The end box's link to the game's replay."""
    link = p.board.by_id("ending-replay")
    assert link.tag == "a"
    return link.attrs["href"]


def board_of(doc):
    """Each place's count and shown cards, as the page draws them."""
    board = doc.by_id("board")
    return {
        place.attrs["data-place"]: (
            place.attrs["data-count"],
            [c.attrs["data-card"] for c in place.find_all(data_card=True)],
        )
        for place in board.find_all(data_place=True)
    }


def win_half_moon(player, code: str = CODE, htmx: bool = True):
    p = player(code, htmx=htmx)
    for removal in solve(deal(DealCode.parse(code))).line:
        for place in removal:
            p.tap(place_name(place))
    assert p.board.attrs["data-state"] == "won"
    return p


# --- 1. a replay for every finished game -------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_end_box_of_a_won_game_links_its_replay_by_an_unguessable_id(player, tiny, htmx):
    p = player(CODE, htmx=htmx)
    play(p, WIN)
    assert p.board.attrs["data-state"] == "won"
    url = replay_url(p)
    ident = REPLAY_LINK.fullmatch(url)
    assert ident is not None
    assert len(base64.urlsafe_b64decode(ident.group(1) + "==")) == 16  # 128 random bits
    assert p.board.by_id("summary").find("a", id="ending-replay").text == "Watch the replay"


def test_a_stuck_game_links_its_replay_too_and_each_game_of_the_deal_has_its_own(
    player, tiny, store
):
    p = player(CODE)
    play(p, LOSE)
    assert p.board.attrs["data-state"] == "stuck"
    stuck = replay_url(p)
    p.post("undo")
    assert p.board.by_id("ending").children == []
    p.tap("pile-3")
    p.tap("pile-2")  # the game ends again: the same replay
    assert replay_url(p) == stuck
    p.post("restart", confirm="yes")  # another game of the deal: another replay
    play(p, WIN)
    assert replay_url(p) != stuck
    assert p.client.get(stuck).status_code == 200
    assert len(store.player_replays(sid_of(p.client))) == 2


def test_a_game_that_ends_again_after_undo_keeps_its_replay_as_it_ended_last(
    player, tiny, store, client
):
    """An Undo after the end and another last move: the same replay, now that ending — so
    replays grow no faster than the moves that make them."""
    p = player(CODE)
    p.tap("pile-1")
    p.tap("pile-2")  # 5♠ + 6♣
    p.tap("pile-1")
    p.tap("pile-3")  # 6♦ + 5♥: won
    url = replay_url(p)
    assert parse(client.get(url).text).by_id("replay-outcome").text == "Won"
    p.post("undo")
    p.post("undo")
    play(p, LOSE)  # 5♥ + 6♣ instead: stuck
    assert replay_url(p) == url
    shown = parse(client.get(url).text)
    assert shown.by_id("replay-outcome").text == "Lost" and shown.by_id("replay-moves").text == "1"
    assert len(store.player_replays(sid_of(client))) == 1


@pytest.mark.slow
def test_a_lost_seahaven_game_links_its_replay(proof_pool, store):
    """SH1-C1-AAAAAAC is lost at the deal; its one move is proved lost off the request path."""
    import dataclasses

    config = dataclasses.replace(Config(), proof_seconds=120.0, proof_wait=120.0)
    with TestClient(create_app(config, store.store, proof_pool), follow_redirects=False) as client:
        url = "/seahaven/SH1-C1-AAAAAAC"
        page = parse(client.get(url).text)
        client.post(
            f"{url}/move",
            data={"from": "column-2", "card": "QS", "to": "column-9", "token": token_of(page)},
        )
        page = parse(client.get(url).text)
        assert page.by_id("board").attrs["data-state"] == "lost"
        link = page.by_id("ending-replay").attrs["href"]
        replay = parse(client.get(link + "?step=1").text)
        assert replay.by_id("narration").text == (
            "Move 1: Queen of spades from column 2 to column 9. The game is lost: it cannot be"
            " won any more."
        )
        assert replay.by_id("replay-outcome").text == "Lost"
        assert replay.by_id("board").attrs["data-state"] == "lost"


def test_each_step_shows_the_board_its_moves_reach_read_only(player, client):
    p = win_half_moon(player)
    url = replay_url(p)
    line = solve(deal(DealCode.parse(CODE))).line
    game = HalfMoon(DealCode.parse(CODE))
    for step in range(len(line) + 1):
        if step:
            game.play(line[step - 1], now=0)
        if step not in (0, 1, 2, 24, 47, 48):
            continue
        page = parse(client.get(f"{url}?step={step}").text)
        board = page.by_id("board")
        assert (board.attrs["data-moves"], board.attrs["data-score"]) == (
            str(step),
            str(game.score),
        )
        assert board.attrs["data-state"] == ("won" if step == 48 else "playing")
        expected = {
            place_name(i): (
                str(game.position.count(i)),
                [str(c)] if (c := game.position.top(i)) else [],
            )
            for i in range(20)
        }
        assert board_of(page) == expected
        labels = [s.text for s in board.find_all(class_="label")]
        assert len(labels) == 20 and labels[0].startswith("pile 1")
        assert board.find_all("form") == [] and board.find_all("button") == []
        assert page.find_all("form", action=re.compile("^/half-moon/")) == []  # no game action
        pager = {
            a.attrs["id"]: a.attrs.get("href")
            for a in page.by_id("replay").find("nav").children
            if a.tag in ("a", "span")
        }
        assert pager["step-first"] == (f"{url}?step=0" if step else None)
        assert pager["step-prev"] == (f"{url}?step={step - 1}" if step else None)
        assert pager["step-next"] == (f"{url}?step={step + 1}" if step < 48 else None)
        assert pager["step-last"] == (f"{url}?step=48" if step < 48 else None)
        assert page.by_id("step-count").text == f"Step {step} of 48"
    result = page.by_id("replay-result")
    assert [dd.text for dd in result.find_all("dd")] == [
        "Won",
        result.by_id("replay-time").text,
        "48",
        "520",
    ]


def test_the_move_is_told_in_words_in_every_language(player, client, tiny):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    said = {}
    for lang in ("en", "tr", "bg"):
        page = parse(client.get(f"{url}?step=1", headers={"Accept-Language": lang}).text)
        said[lang] = page.by_id("narration").text
    # each card with its place (issue 45: two decks hold two of each card)
    assert said["en"] == "Move 1: Five of spades from pile 1 and six of clubs from pile 2 removed."
    for lang, spades, clubs in (("tr", "maça", "sinek"), ("bg", "пика", "спатия")):
        t = translations(lang)
        assert t.gettext(REMOVED) != REMOVED  # translated, not the English text
        prefix = t.gettext("Move %(step)s: %(move)s") % {"step": 1, "move": ""}
        assert said[lang].startswith(prefix.strip()) and prefix.strip() != "Move 1:"
        assert spades in said[lang].lower() and clubs in said[lang].lower()
        for place in (place_title("pile", 1, t), place_title("pile", 2, t)):
            assert place in said[lang].lower(), said[lang]


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
def test_the_results_labels_are_distinct_in_every_language(player, client, tiny, lang):
    """The results line reads as four figures, not "Резултат Спечелена … Резултат 520": each
    label its own word, in the replay page, the end box and the info bar alike."""
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    headers = {"Accept-Language": lang}
    page = parse(client.get(url, headers=headers).text)
    labels = [dt.text for dt in page.by_id("replay-result").find_all("dt")]
    assert len(labels) == 4 and len(set(labels)) == 4, labels
    game = parse(client.get(p.url, headers=headers).text)
    ended = [dt.text for dt in game.by_id("summary").find_all("dt")]
    bar = [dt.text for dt in game.by_id("stats").find_all("dt")]
    assert len(ended) == 3 and set(ended) <= set(labels), (ended, labels)
    assert len(set(bar)) == 4 and set(labels) - set(bar) == {labels[0]}, (bar, labels)
    if lang == "bg":
        assert labels == ["Резултат", "Време", "Ходове", "Точки"]


def test_a_seahaven_move_is_told_by_its_card_and_where_it_went() -> None:
    from app.i18n import card_name
    from app.web.seahaven import SCREEN

    line = Line.from_text("SH1-C4-AAAAAJ2\nkm\n")
    card = line.position(0).cells[0]
    assert card is not None
    name = card_name(card, translations("en"))
    said = SCREEN.describe_move(line.position(0), line.move(1), "en")
    assert said == f"{name[0].upper()}{name[1:]} from cell 1 to cell 3."


def test_a_seahaven_replay_steps_through_send_all_home_card_by_card_and_a_run_at_once(
    client, store
):
    """SH1-C4-AAAAAAB by its solver's line up to where only foundation moves are left, then
    *Send all home* (one action of 14 moves): a step is a move of the game's Moves counter —
    each card sent home its own step, named; a run moved as one (the line's ``ge2``, the
    king of diamonds with the queen on it) one step. The steps, the .txt and the pasted .txt
    all reach the game's final board."""
    from tests.web.test_send_home import CODE as HOME
    from tests.web.test_send_home import FIRST, LINE
    from tests.web.test_send_home import play as sh_play

    p = Player(client, f"/seahaven/{HOME}")
    p.open()
    mirror = sh_play(p, LINE[:FIRST])
    home = home_line(mirror.position)
    assert home is not None and len(home) == 14
    p.post("home")
    assert p.board.attrs["data-state"] == "won"
    moves = FIRST + len(home)
    assert p.board.attrs["data-moves"] == str(moves)
    record = store.load(sid_of(client), str(HOME))[1].record
    assert record["moves"].endswith("+".join(map(str, home)))  # one action in the record
    url = replay_url(p)
    last = parse(client.get(f"{url}?step={moves}").text)
    assert last.by_id("step-count").text == f"Step {moves} of {moves}"
    assert board_of(last) == board_of(parse(client.get(p.url).text))
    names = []
    for step, move in enumerate(home, FIRST + 1):
        names.append(SCREEN.describe_move(mirror.position, move, "en"))
        mirror.play(move, now=0)
        said = parse(client.get(f"{url}?step={step}").text).by_id("narration").text
        assert said.startswith(f"Move {step}: {names[-1]}")
    assert names[:3] == [
        "Ten of clubs from column 2 to foundation ♣.",
        "Five of spades from column 2 to foundation ♠.",
        "Six of spades from column 4 to foundation ♠.",
    ]
    assert len(set(names)) == 14  # each card named once
    run = parse(client.get(f"{url}?step=20").text)
    assert str(LINE[19]) == "ge2"
    assert run.by_id("narration").text == (
        "Move 20: King of diamonds and 1 card on it from column 7 to column 5."
    )
    text = client.get(f"{url}.txt").text
    assert text.splitlines()[1:] == [str(m) for m in [*LINE[:FIRST], *home]]
    assert Line.from_text(text).position(moves) == mirror.position
    token = token_of(p.doc)
    pasted = parse(
        client.post("/replay", data={"text": text, "step": str(moves), "token": token}).text
    )
    assert board_of(pasted) == board_of(last)
    assert pasted.by_id("replay-outcome").text == "Won"


def test_a_run_moved_as_one_is_told_in_every_language_whatever_the_cards_gender() -> None:
    """Bulgarian said "върху нея" (on her) of any card, a king (поп, masculine) too: the run
    is now "with N cards on top", which fits every card."""
    from tests.web.test_send_home import CODE as HOME
    from tests.web.test_send_home import LINE

    line = Line(Seahaven, HOME, LINE[:20])
    said = {
        lang: SCREEN.describe_move(line.position(19), line.move(20), lang)
        for lang in ("en", "tr", "bg")
    }
    assert said == {
        "en": "King of diamonds and 1 card on it from column 7 to column 5.",
        "tr": "Sütun 7 üzerindeki karo papaz ve üstündeki 1 kart, sütun 5 üzerine taşındı.",
        "bg": "Поп каро с 1 карта отгоре от колона 7 към колона 5.",
    }


BAD_STEPS = ["-1", "49", "abc", "1e3", "٣", "0x1", "+1", " 1", "1" * 17, "9" * 5000]
"""Steps that are not 0 … 48, those past 16 characters too (a generic message before)."""


@pytest.mark.parametrize("step", BAD_STEPS, ids=lambda s: s[:20])
def test_a_bad_step_is_a_page_that_says_what_is_accepted(player, client, step):
    url = replay_url(win_half_moon(player))
    response = client.get(url, params={"step": step})
    assert response.status_code == 422
    said = parse(response.text).text
    assert f"“{step[:8]}” is not a step: accepted are the whole numbers 0 to 48." in said


@pytest.mark.parametrize("step", ["49", "1" * 17, "9" * 5000], ids=lambda s: s[:20])
def test_a_bad_step_of_a_pasted_game_says_what_is_accepted(player, client, step):
    text = client.get(replay_url(win_half_moon(player)) + ".txt").text
    token = token_of(parse(client.get("/replay").text))
    response = client.post("/replay", data={"text": text, "step": step, "token": token})
    assert response.status_code == 422
    said = parse(response.text).text
    assert f"“{step[:8]}” is not a step: accepted are the whole numbers 0 to 48." in said


@pytest.mark.parametrize("ident", ["A" * 22, "short", "A" * 23, "%2E%2E", "AAAAAAAAAAAAAAAAAAAAA!"])
def test_an_unknown_replay_answers_404_with_a_page(client, ident):
    for suffix in ("", ".txt"):
        response = client.get(f"/replay/{ident}{suffix}")
        assert response.status_code == 404
        assert "There is no replay at this address" in response.text


def test_a_replay_opened_without_a_cookie_writes_nothing(app, store, player, tiny):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    before = copy.deepcopy(
        {k: v for k, v in vars(store.store).items() if not k.startswith("_lock")}
    )
    with TestClient(app, follow_redirects=False) as stranger:
        for path in (url, f"{url}?step=1", f"{url}.txt", "/replay"):
            assert stranger.get(path).status_code == 200, path
    after = {k: v for k, v in vars(store.store).items() if not k.startswith("_lock")}
    assert after == before


def test_a_replay_shows_nothing_else_of_its_player(app, player, tiny, client):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    other = player("HM1-N-AAAAAAC")
    other.tap("pile-1")  # another game of theirs, in play
    sid = sid_of(client)
    with TestClient(app, follow_redirects=False) as stranger:
        pages = [stranger.get(f"{url}?step={n}").text for n in (0, 1, 2)]
        pages.append(stranger.get(f"{url}.txt").text)
    for text in pages:
        assert sid not in text and form_token(sid) not in text and p.token not in text
        assert "HM1-N-AAAAAAC" not in text


def test_the_replay_page_previews_well_when_shared(player, tiny, clock):
    p = player(CODE)
    play(p, WIN, clock, step_ms=63_000)  # 3 more taps after the first: 3:09
    page = parse(p.client.get(replay_url(p)).text)
    meta = {m.attrs["property"]: m.attrs["content"] for m in page.find_all("meta", property=True)}
    assert meta["og:title"] == f"Half Moon {CODE} — won in 3:09"
    assert (
        meta["og:description"] == "A replay of a Half Moon game, move by move: 2 moves, 20 points."
    )
    assert meta["og:url"] == f"http://testserver{replay_url(p)}"
    assert page.find("title").text == f"Half Moon {CODE} — won in 3:09 · Patience"


# --- 2. the text form ----------------------------------------------------------------------------


def test_the_text_form_is_plain_text_that_replays_to_the_final_position(player, client):
    p = win_half_moon(player)
    response = client.get(replay_url(p) + ".txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    rows = response.text.splitlines()
    assert rows[0] == CODE and len(rows) == 49
    game = HalfMoon(DealCode.parse(CODE))
    for row in rows[1:]:
        game.play(HalfMoon.parse_move(row), now=0)  # Move.parse ↔ str(move)
        assert str(HalfMoon.parse_move(row)) == row
    _, stored = SyncStore(client.app.state.store).load(sid_of(client), CODE)
    assert game.position == HalfMoon.from_record(stored.record).position and game.is_won()


def test_a_pasted_text_shows_its_replay_and_stores_nothing(player, client, store):
    p = win_half_moon(player)
    text = client.get(replay_url(p) + ".txt").text
    form = parse(client.get("/replay").text)
    token = token_of(form)
    before = copy.deepcopy(
        {k: v for k, v in vars(store.store).items() if not k.startswith("_lock")}
    )
    shown = client.post("/replay", data={"text": text, "token": token, "step": "5"})
    assert shown.status_code == 200
    page = parse(shown.text)
    assert page.by_id("board").attrs["data-moves"] == "5"
    assert page.by_id("step-count").text == "Step 5 of 48"
    stored = parse(client.get(replay_url(p) + "?step=5").text)
    assert board_of(page) == board_of(stored)
    assert page.by_id("narration").text == stored.by_id("narration").text
    nexts = page.by_id("step-next")
    assert (nexts.tag, nexts.attrs["name"], nexts.attrs["value"]) == ("button", "step", "6")
    pager = page.by_id("replay").find("form")
    assert pager.attrs["action"] == "/replay" and pager.attrs["method"] == "post"
    (carried,) = pager.find_all("input", name="text")
    assert carried.attrs["value"].splitlines() == text.splitlines()
    assert page.by_id("replay-outcome").text == "Won" and page.by_id("replay-time").text == "–"
    after = {k: v for k, v in vars(store.store).items() if not k.startswith("_lock")}
    assert after == before


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "The text is empty"),
        ("HM1-N-AAAAAAB\nae\nzz\n", "Line 3: “zz” is not a move. A Half Moon move is the letters"),
        (
            "HM1-N-AAAAAAB\n\nae\nae\n",
            "Line 4: the rules do not allow the move “ae” there (The sum must be 11.).",
        ),
        ("NOT A CODE\nae", "Line 1: “NOT A CODE” is not a deal code"),
        ("SH1-C4-AAAAAJ2\nkm\nmk\nmk", "Line 4: the rules do not allow the move “mk” there"),
        ("SH1-C4-AAAAAJ2\nxx", "A Seahaven move is the letter of the place it takes from"),
    ],
)
def test_a_pasted_text_with_a_bad_line_names_the_line_and_what_is_accepted(client, text, said):
    token = token_of(parse(client.get("/replay").text))
    response = client.post("/replay", data={"text": text, "token": token})
    assert response.status_code == 422
    page = parse(response.text)
    assert said in page.by_id("replay-problem").text
    assert page.by_id("replay-text-field").text == " ".join(text.split())  # kept to mend


def test_the_text_form_is_rate_limited_like_any_post(store):
    app = create_app(Config(rate_writes="2/minute"), store=store.store)
    with TestClient(app, follow_redirects=False) as client:
        token = token_of(parse(client.get("/replay").text))
        codes = [
            client.post("/replay", data={"text": "HM1-N-AAAAAAB\nae", "token": token}).status_code
            for _ in range(3)
        ]
    assert codes == [200, 200, 429]


def test_a_text_over_the_body_limit_gets_a_413_page(client):
    """A move more than a game may have, each of the notation's longest, is read and refused
    in words; a text well past the longest a game can have is the 413 page."""
    token = token_of(parse(client.get("/replay").text))
    text = "SH1-C4-AAAAAJ2\r\n" + "ab13\r\n" * (MAX_RECORD_MOVES + 1)
    response = client.post("/replay", data={"text": text, "token": token})
    assert response.status_code == 422
    assert parse(response.text).by_id("replay-problem").text == (
        "A game has at most 5000 moves: line 5002 is one too many."
    )
    text += "ab13\r\n" * 200
    response = client.post("/replay", data={"text": text, "token": token})
    assert response.status_code == 413
    page = parse(response.text)
    assert page.find("h1").text == "Request too large"
    assert f"at most {PASTED_MAX_BODY} bytes" in page.text


def _longest_game(store, sid: str) -> str:
    """A won Seahaven game as long as a record allows (5,000 moves: a card moved round the
    empty cells, then the solver's line), its replay written by the store's own change; the
    replay's link."""
    code = DealCode.parse(SH_CODE)
    line = list(solve_code(code).line)
    shuttle = ["km", "mn", "nk"] + ["km", "mk"] * ((MAX_RECORD_MOVES - len(line) - 3) // 2)
    game = Seahaven(code)
    for i, move in enumerate([*map(Seahaven.parse_move, shuttle), *line]):
        game.play(move, now=1_000 + i)
    assert game.is_won() and game.move_count == MAX_RECORD_MOVES
    ident = "L" * 22
    row = StoredGame(
        SH_CODE, game.to_record(), "won", game.score, game.move_count, now_ms(),
        Marks(replay=ident),
    )  # fmt: skip
    store.change_game(sid, SH_CODE, lambda _s, _g: (row, None))
    return f"/replay/{ident}"


def test_the_text_of_a_game_at_the_move_limit_pastes_back(client, store):
    """The site's longest text, sent as a browser sends a form (line breaks as CR LF,
    percent-encoded: about 40 kB), is accepted by POST /replay and replays; its steps carry
    the same text."""
    token = token_of(parse(client.get("/replay").text))
    url = _longest_game(store, sid_of(client))
    text = client.get(f"{url}.txt").text
    assert len(text.splitlines()) == MAX_RECORD_MOVES + 1
    body = urlencode({"text": text.replace("\n", "\r\n"), "step": "4999", "token": token})
    assert len(body) > 2 * Config().max_body
    headers = {"content-type": "application/x-www-form-urlencoded"}
    shown = client.post("/replay", content=body, headers=headers)
    assert shown.status_code == 200, shown.text[:300]
    page = parse(shown.text)
    assert page.by_id("step-count").text == f"Step 4999 of {MAX_RECORD_MOVES}"
    stored = parse(client.get(f"{url}?step=4999").text)
    assert board_of(page) == board_of(stored)
    carried = page.by_id("replay").find("form").find("input", name="text").attrs["value"]
    body = urlencode({"text": carried.replace("\n", "\r\n"), "step": "5000", "token": token})
    last = parse(client.post("/replay", content=body, headers=headers).text)
    assert last.by_id("board").attrs["data-state"] == "won"
    assert last.by_id("replay-outcome").text == "Won"


def test_a_pasted_game_at_the_move_limit_answers_a_page_of_its_move_list(client, store):
    """Issue 44: a pasted 5,000-move game answered the whole game, every move in words
    (676 KB). Now the step asked for and the hundred moves around it, with buttons to the
    hundred before and after; the stored replay's page the same, with links."""
    token = token_of(parse(client.get("/replay").text))
    url = _longest_game(store, sid_of(client))
    text = client.get(f"{url}.txt").text
    shown = client.post("/replay", data={"text": text, "step": "2550", "token": token})
    assert shown.status_code == 200
    assert len(shown.content) < 80_000  # the text twice (it is the steps' state), a page of words
    page = parse(shown.text)
    items = page.by_id("move-list").find_all("li")
    assert [li.attrs["data-step"] for li in (items[0], items[-1])] == ["2500", "2599"]
    assert page.by_id("move-list").attrs["start"] == "2500"
    stored_page = parse(client.get(f"{url}?step=2550").text)
    stored = stored_page.by_id("move-list").find_all("li")
    assert [li.text for li in items] == [li.text for li in stored]  # the same hundred
    assert stored_page.by_id("moves-earlier").attrs["href"] == f"{url}?step=2499#move-list"
    assert stored_page.by_id("moves-later").attrs["href"] == f"{url}?step=2600#move-list"
    (current,) = [li for li in items if li.attrs.get("aria-current") == "step"]
    assert current.attrs["data-step"] == "2550"
    earlier, later = page.by_id("moves-earlier"), page.by_id("moves-later")
    assert (earlier.attrs["value"], later.attrs["value"]) == ("2499", "2600")
    assert earlier.attrs["form"] == later.attrs["form"] == "moves-form"
    form = page.by_id("moves-form")
    assert (form.attrs["method"], form.attrs["action"]) == ("post", "/replay")
    assert "hx-post" not in form.attrs  # without htmx: the whole page, its list with it
    first = parse(client.post("/replay", data={"text": text, "step": "0", "token": token}).text)
    listed = first.by_id("move-list").find_all("li")
    assert (listed[0].text.strip(), len(listed)) == ("The deal", 100)
    assert first.find_all(id="moves-earlier") == [] and first.by_id("moves-later")
    end = parse(client.post("/replay", data={"text": text, "step": "5000", "token": token}).text)
    assert end.by_id("move-list").find_all("li")[-1].attrs["data-step"] == "5000"
    assert end.find_all(id="moves-later") == [] and end.by_id("moves-earlier")


def test_only_the_text_form_takes_bodies_past_the_general_limit(client):
    token = token_of(parse(client.get("/replay").text))
    headers = {"content-type": "application/x-www-form-urlencoded"}
    fits = "token=" + token + "&text=" + "x" * (PASTED_MAX_BODY - 12 - len(token))
    assert len(fits) == PASTED_MAX_BODY
    response = client.post("/replay", content=fits, headers=headers)
    assert response.status_code == 422  # read, and not a game's text
    assert "is not a deal code" in parse(response.text).by_id("replay-problem").text
    response = client.post("/replay", content=fits + "x", headers=headers)
    assert response.status_code == 413
    assert f"at most {PASTED_MAX_BODY} bytes" in parse(response.text).text
    over = "token=" + token + "&x=" + "y" * Config().max_body
    response = client.post(f"/replay/{'A' * 22}/delete", content=over, headers=headers)
    assert response.status_code == 413
    assert f"at most {Config().max_body} bytes" in response.text


def test_starting_a_finished_deal_again_counts_as_a_new_game(store, monkeypatch):
    """Each replay is a game's: a new game, or the deal started again after its game ended
    (Restart, Play this deal again), and both count against the new-games limit — else one
    client made a new replay every two POSTs (a move that ends, then Restart) for ever more
    sessions. A restart of a game that never ended is no new game."""
    position = position_from_data(TINY)
    deal_as(monkeypatch, HalfMoon, CODE, position)
    app = create_app(Config(rate_new="3/hour", rate_writes="off"), store=store.store)
    with TestClient(app, follow_redirects=False) as client:
        p = Player(client, f"/half-moon/{CODE}")
        p.open()
        p.tap("pile-1")  # a new game: 1
        p.post("restart", confirm="yes")  # it never ended: no new game
        replays = []
        for _ in range(3):
            play(p, LOSE)
            assert p.board.attrs["data-state"] == "stuck"
            replays.append(replay_url(p))
            if len(replays) < 3:
                p.post("restart", confirm="yes")  # 2, 3
        refused = client.post(
            f"/half-moon/{CODE}/restart", data={"token": p.token, "confirm": "yes"}, headers=HTMX
        )
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) > 60
        assert len(set(replays)) == 3 and len(store.player_replays(sid_of(client))) == 3
        _, row = store.load(sid_of(client), CODE)
        assert row is not None and row.state == "stuck"  # nothing was written
        p.post("undo")  # the game goes on
        assert p.board.attrs["data-moves"] == "0"


def test_the_text_form_checks_its_token(client):
    client.get("/replay")
    response = client.post("/replay", data={"text": "HM1-N-AAAAAAB\nae", "token": "x" * 32})
    assert response.status_code == 403


# --- 3. your games link to their replays ---------------------------------------------------------


def test_stats_and_the_home_page_link_finished_games_to_their_replays(player, client, tiny):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    stats = parse(client.get("/stats").text)
    row = stats.by_id("recent").find("tr", data_code=CODE)
    assert row.find("a", class_="replay-link").attrs["href"] == url
    listed = stats.by_id("replay-list").find("tr", data_code=CODE)
    assert listed.find("a").attrs["href"] == url
    home = parse(client.get("/").text)
    line = home.find(class_="continue finished").find("li", data_code=CODE)
    assert line.find("a", class_="replay-link").attrs["href"] == url


def test_play_again_after_a_win_then_a_loss_lists_both_results_and_both_replays(
    player, client, tiny
):
    p = player(CODE)
    play(p, WIN)
    won = replay_url(p)
    p.post("restart", confirm="yes")  # Play this deal again
    play(p, LOSE)
    lost = replay_url(p)
    assert won != lost
    home = parse(client.get("/").text)
    lines = home.find(class_="continue finished").find_all("li", data_code=CODE)
    assert [
        (li.attrs["data-result"], li.find("a", class_="replay-link").attrs["href"]) for li in lines
    ] == [
        ("stuck", lost),
        ("won", won),
    ]
    assert [li.find_all("span")[0].text for li in lines] == ["Lost", "Won"]
    for url, outcome in ((won, "Won"), (lost, "Lost")):
        assert parse(client.get(url).text).by_id("replay-outcome").text == outcome


# --- 4. where you stand on this deal -------------------------------------------------------------


def test_a_win_says_how_many_players_it_beat_on_this_deal(app, tiny, clock):
    """Four players win the deal in 3, 15, 15 and 30 s; a fifth in 9 s beats the two of 15 s
    and the one of 30 s: 3 of the 4 others, 75 %."""
    times = (1_000, 5_000, 5_000, 10_000, 3_000)  # between taps: 3 intervals a game
    last = None
    for ms in times:
        with TestClient(app, follow_redirects=False) as client:
            p = Player(client, f"/half-moon/{CODE}")
            p.open()
            play(p, WIN, clock, step_ms=ms)
            last = p
    assert last is not None
    standing = last.board.by_id("standing")
    assert (
        standing.text == "Won in 0:09 — faster than 75 % of the 4 other players who won this deal."
    )
    assert "75\u00a0%" in "".join(standing.parts)  # the number and its sign never part
    assert last.board.by_id("deal-figures").text.startswith(
        "This deal for everyone: 5 players finished it, 5 won"
    )


SH_TINY = SH_CODE.replace("AAAAAJ2", "AAAAAAB")
SH_LEFT = {
    "columns": [["KC", "QC"], ["KS"]] + [[]] * 8,
    "cells": [None] * 4,
    "foundations": {"S": 12, "H": 13, "D": 13, "C": 11},
}
"""Three cards left: ♣Q on ♣K in column 1, ♠K in column 2; won in 3 moves (each home), or in
more by a detour of the ♣Q through the cells."""
SH_WINS = {
    3: (("column-1", "QC", "foundation-C"),),
    4: (("column-1", "QC", "cell-1"), ("cell-1", "QC", "foundation-C")),
    5: (
        ("column-1", "QC", "cell-1"),
        ("cell-1", "QC", "cell-2"),
        ("cell-2", "QC", "foundation-C"),
    ),
}
SH_HOME = (("column-1", "KC", "foundation-C"), ("column-2", "KS", "foundation-S"))


def test_seahaven_ranks_wins_by_fewer_moves_then_less_time(app, monkeypatch, clock):
    """Four players won the deal: in 3 moves and 1:30, 5 moves and 0:03, 5 and 0:04, 4 and
    1:30. A fifth, in 4 moves and 1:00, beats the two of 5 moves though they were faster, and
    the one of 4 moves that took longer, not the one of 3 moves that took longer still: 3 of
    4, 75 % (by time alone it would be 2 of 4, 50 %)."""

    position = SeahavenPosition.from_dict(SH_LEFT)
    deal_as(monkeypatch, Seahaven, SH_TINY, position)
    forget_cached_games(app)
    games = ((3, 45_000), (5, 750), (5, 1_000), (4, 30_000), (4, 20_000))  # moves, ms between
    for moves, step_ms in games:
        with TestClient(app, follow_redirects=False) as client:
            p = Player(client, f"/seahaven/{SH_TINY}")
            p.open()
            for index, (source, card, target) in enumerate(SH_WINS[moves] + SH_HOME):
                if index:
                    clock(step_ms)
                p.post("move", **{"from": source, "card": card, "to": target})
            assert p.board.attrs["data-state"] == "won"
            assert p.board.attrs["data-moves"] == str(moves)
    assert p.board.by_id("standing").text == (
        "Won in 4 moves and 1:00 — better than 75 % of the 4 other players who won this deal"
        " (fewer moves first, then less time)."
    )


def test_a_loss_says_how_many_players_won_the_deal(app, player, tiny):
    with TestClient(app, follow_redirects=False) as winner:
        w = Player(winner, f"/half-moon/{CODE}")
        w.open()
        play(w, WIN)
    p = player(CODE)
    play(p, LOSE)
    assert p.board.by_id("standing").text == "1 player has won this deal."


def test_nothing_says_where_a_game_stands_while_it_is_played(player, tiny):
    p = player(CODE)
    p.tap("pile-1")
    p.tap("pile-2")
    assert p.doc.find_all(id="standing") == [] and p.doc.find_all(id="ending-replay") == []
    assert "won this deal" not in p.client.get(p.url).text


def test_playing_a_deal_again_never_counts_twice(app, store, player, tiny, clock):
    p = player(CODE)
    play(p, WIN, clock, step_ms=5_000)
    p.post("restart", confirm="yes")
    play(p, WIN, clock, step_ms=1_000)  # faster the second time: not counted again
    figures = store.deal_stats(CODE)
    assert (figures["players"], figures["wins"], sum(figures["cells"].values())) == (1, 1, 1)
    assert p.board.by_id("standing").text == "Won in 0:03: nobody else has won this deal yet."


def test_a_daily_deals_page_shows_the_days_figures_once_the_game_has_ended(app, monkeypatch, clock):
    """Today's Half Moon deal (reached by /daily/half-moon) deals the four-card table: one
    player wins it, and another's page of it says nothing while the game goes on, then, once
    it is lost, how many players won the day's deal; the winner's says where the win stands."""

    today = str(daily.codes_of(daily.today())["HM"])
    deal_as(monkeypatch, HalfMoon, today, position_from_data(TINY), app)
    pages = []
    for line in (WIN, LOSE):
        with TestClient(app, follow_redirects=False) as client:
            assert client.get("/daily/half-moon").headers["location"] == f"/half-moon/{today}"
            p = Player(client, f"/half-moon/{today}")
            p.open()
            p.tap(line[0][0])
            assert p.doc.find_all(id="standing") == []  # nothing while the game goes on
            p.tap(line[0][1])
            play(p, line[1:], clock)
            pages.append(p)
    winner, loser = pages
    assert winner.board.attrs["data-state"] == "won" and loser.board.attrs["data-state"] == "stuck"
    assert winner.board.by_id("standing").text.startswith("Won in ")
    assert loser.board.by_id("standing").text == "1 player has won this deal."
    # the wins said once (issue 45): by the standing line, not again by the deal's figures
    assert loser.board.by_id("deal-figures").text == (
        "This deal for everyone: 2 players finished it; best time 0:06, fewest moves 2."
    )


@pytest.mark.all_stores
def test_a_replay_past_the_games_expiry_answers_404_and_leaves_the_lists(
    player, client, tiny, store
):
    """The player's game of the deal, won again more than 90 days ago (the games' expiry; the
    store's own change writes its replay as it ended): once the hourly sweep ran (Redis:
    at once, by its age), that replay's link answers 404 and /stats and the home page name only
    the recent one."""
    p = player(CODE)
    play(p, WIN)
    recent = replay_url(p)
    sid = sid_of(client)
    _, row = store.load(sid, CODE)
    assert row is not None and row.state == "won"
    ago = now_ms() - int(Config().expire_days * 24 * 3600 * 1000) - 60_000
    aged = StoredGame(CODE, row.record, "won", row.score, row.moves, ago, Marks(replay="O" * 22))
    store.change_game(sid, CODE, lambda _s, _g: (aged, None))
    written = store.replay("O" * 22)  # Redis reads it as gone at once
    assert written is None or (written.line, written.ended_ms) == (row.record["moves"], ago)
    housekeep(store)
    assert client.get("/replay/" + "O" * 22).status_code == 404
    assert client.get(f"/replay/{'O' * 22}.txt").status_code == 404
    assert client.get(recent).status_code == 200
    listed = parse(client.get("/stats").text).by_id("replay-list")
    assert [a.attrs["href"] for a in listed.find_all("a")] == [recent]
    assert "O" * 22 not in client.get("/").text


def test_a_replay_deleted_from_stats_answers_404_and_leaves_the_lists(player, client, tiny, app):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    ident = url.rsplit("/", 1)[1]
    stats = parse(client.get("/stats").text)
    form = stats.by_id("replay-list").find("tr", data_code=CODE).find("form")
    assert form.attrs["action"] == f"{url}/delete" and form.attrs["method"] == "post"
    with TestClient(app, follow_redirects=False) as other:  # another player: never deleted
        token = token_of(parse(other.get("/stats").text))
        denied = other.post(f"{url}/delete", data={"token": token})
        assert denied.status_code == 404
    assert client.get(url).status_code == 200
    done = client.post(f"{url}/delete", data={"token": p.token})
    assert done.status_code == 303 and done.headers["location"].startswith("/stats")
    gone = client.get(url)
    assert gone.status_code == 404 and client.get(f"{url}.txt").status_code == 404
    assert ident not in client.get("/stats").text and ident not in client.get("/").text


@pytest.mark.parametrize(
    ("lang", "described"),
    [
        ("tr", "Bir Half Moon oyununun hamle hamle tekrarı: 2 hamle."),
        ("bg", "Запис на игра „Half Moon“ ход по ход: 2 хода."),
    ],
)
def test_a_zen_replays_description_leaves_out_the_points_in_every_language(
    player, client, tiny, lang, described
):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    client.post("/settings", data={"zen": "on", "lang": lang, "token": p.token, "next": url})
    page = parse(client.get(url).text)
    assert page.find("meta", property="og:description").attrs["content"] == described
    assert page.find("meta", name="description").attrs["content"] == described


def test_a_viewer_in_zen_sees_no_clock_and_no_score_on_a_replay(player, client, tiny):
    p = player(CODE)
    play(p, WIN)
    url = replay_url(p)
    response = client.post("/settings", data={"zen": "on", "token": p.token, "next": url})
    assert response.status_code == 303
    page = parse(client.get(url + "?step=1").text)
    assert page.find_all(id="replay-time") == [] and page.find_all(id="replay-score") == []
    assert page.by_id("replay-moves").text == "2"
    assert "data-score" not in page.by_id("board").attrs
    assert page.find("title").text == f"Half Moon {CODE} — won · Patience"
    meta = {m.attrs["property"]: m.attrs["content"] for m in page.find_all("meta", property=True)}
    described = "A replay of a Half Moon game, move by move: 2 moves."
    assert page.find("meta", name="description").attrs["content"] == described
    assert meta["og:description"] == described
    ended = parse(client.get(p.url).text)
    assert ended.by_id("standing").text == "Nobody else has won this deal yet."


REFUSED = "Line %s: the rules do not allow the move “%s” there (%s)."


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        # moves 5,000 and 4,999 (lines 5001, 5000): a card from a cell the shuffle emptied
        (["km", "mk"] * 2499 + ["km", "km"], REFUSED % (5001, "km", "There is no card there.")),
        (["km", "mk"] * 2499 + ["mk"], REFUSED % (5000, "mk", "There is no card there.")),
        (["km", "mk", "ak"], REFUSED % (4, "ak", "A cell holds one card.")),
        (["km", "mk"] * 2500 + ["km"], "A game has at most 5000 moves: line 5002 is one too many."),
    ],
)
def test_a_pasted_5000_move_text_refused_at_any_move_says_which_and_why(client, moves, said):
    """Issue 44: every move of a paste is proved legal before anything is shown, however long
    the text; the refused move is named by the text's own line, with the rules' reason."""
    token = token_of(parse(client.get("/replay").text))
    text = "\n".join([SH_CODE, *moves]) + "\n"
    response = client.post("/replay", data={"text": text, "token": token, "step": "1"})
    assert response.status_code == 422
    assert parse(response.text).by_id("replay-problem").text == said


def test_nothing_of_a_pasted_page_is_made_on_the_event_loop(client, monkeypatch):
    """Issue 44: the rules' check of the text, the step, the move list's words, the text the
    steps carry and the page's render all run in a worker thread (one hand-over), never on
    the event loop that answers everyone else."""
    import asyncio

    import app.web.review.replay_pages as replays

    on_loop = []

    def watched(name, real):
        def call(*args, **kwargs):
            try:
                asyncio.get_running_loop()
                on_loop.append(name)
            except RuntimeError:  # no loop in this thread: a worker's
                pass
            return real(*args, **kwargs)

        return call

    for name in ("told_window", "view", "screen_for"):
        monkeypatch.setattr(replays, name, watched(name, getattr(replays, name)))
    monkeypatch.setattr(Line, "from_text", staticmethod(watched("from_text", Line.from_text)))
    monkeypatch.setattr(Line, "text", watched("text", Line.text))
    token = token_of(parse(client.get("/replay").text))
    text = "\n".join([SH_CODE, *(["km", "mk"] * 50)]) + "\n"
    for _ in range(2):  # a new text, then the same text (its line kept)
        shown = client.post("/replay", data={"text": text, "token": token, "step": "7"})
        assert shown.status_code == 200
    assert on_loop == []
