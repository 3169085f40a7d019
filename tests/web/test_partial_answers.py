"""Partial answers: applied to the board a page shows, they give exactly a full render.

Random games of both games (hypothesis): after every htmx action, the answer's out-of-band
elements are applied to the previous page by id, and ``#board`` must equal the board of a
fresh page load of the new position, markup for markup. A second tab of the same player acts
now and then, so the first tab's page falls behind: its next answer must be the whole board.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.config import Config
from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.halfmoon import place_name as hm_place
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import COLUMNS, Move, Seahaven, place_name
from app.engine.seahaven.solver import solve_code
from app.main import create_app
from app.store.memory import MemoryStore
from app.web.halfmoon import place_html as hm_place_html
from app.web.rendering.board_values import STATIC, Place
from app.web.seahaven import column_html
from tests.web.conftest import HTMX, Player, apply_oob, board_version
from tests.web.html import VOID, Element, parse

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def markup(element: Element) -> str:
    """An element as normalised markup: attributes in order, whitespace collapsed."""
    attrs = "".join(f' {name}="{value}"' for name, value in element.attrs.items())
    if element.tag in VOID:
        return f"<{element.tag}{attrs}>"
    text = " ".join("".join(element.parts).split())
    inner = "".join(markup(child) for child in element.children)
    return f"<{element.tag}{attrs}>{text}{inner}</{element.tag}>"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # whole games from one client: more moves than the write limit allows a minute
    app = create_app(Config(rate_writes="off"), store=MemoryStore())
    with TestClient(app, follow_redirects=False) as client:
        yield client


def _full_board(client: TestClient, url: str) -> str:
    return markup(parse(client.get(url).text).by_id("board"))


def _act(tab: Player, verb: str, fields: dict[str, str]) -> Element:
    """POST from this tab's page like htmx does; the parsed answer, applied to the page."""
    assert tab.doc is not None
    headers = {**HTMX, **board_version(tab.board)}
    response = tab.client.post(
        f"{tab.url}/{verb}", data={**fields, "token": tab.token}, headers=headers
    )
    assert response.status_code == 200, response.text
    answer = parse(response.text)
    assert answer.by_id("status").attrs["hx-swap-oob"] == "true"
    apply_oob(tab.doc, parse(response.text))
    return answer


def _half_moon_choice(rng: random.Random, board: Element) -> tuple[str, dict[str, str]]:
    roll = rng.random()
    if roll < 0.05:
        verb = rng.choice(["undo", "redo", "restart"])
        return verb, {"confirm": "yes"} if verb == "restart" else {}
    cards = [
        (place.attrs["data-place"], button.attrs["data-card"])
        for place in board.find_all(data_place=True)
        for button in place.find_all("button", data_card=True)
    ]
    if not cards:
        return "undo", {}
    place, card = rng.choice(cards)
    return "tap", {"place": place, "card": card}


def _seahaven_choice(rng: random.Random, board: Element) -> tuple[str, dict[str, str]]:
    roll = rng.random()
    if roll < 0.05:
        verb = rng.choice(["undo", "redo", "restart"])
        return verb, {"confirm": "yes"} if verb == "restart" else {}
    places = board.find_all(data_place=True)
    choices = [
        (place.attrs["data-place"], button.attrs.get("value", ""))
        for place in places
        for button in place.find_all("button", name="card")
    ]
    place, card = rng.choice(choices)
    if roll < 0.45:
        return "tap", {"place": place, "card": card}
    if roll < 0.7:
        return "auto", {"place": place, "card": card}
    if not card:
        return "tap", {"place": place, "card": card}
    target = rng.choice(places).attrs["data-place"]
    return "move", {"from": place, "card": card, "to": target}


GAMES = {"half-moon": _half_moon_choice, "seahaven": _seahaven_choice}


def _code(game: str, number: int, cells: str) -> str:
    if game == "half-moon":
        return str(DealCode("HM", 1, "N", number))
    return str(DealCode("SH", 1, cells, number))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    game=st.sampled_from(sorted(GAMES)),
    number=st.integers(0, 5000),
    cells=st.sampled_from(["C4", "C2", "C1"]),
    help_on=st.booleans(),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 25),
)
@example(game="seahaven", number=35, cells="C1", help_on=False, seed=967386986, steps=10)
def test_partial_answers_applied_to_the_page_equal_a_full_render(
    client, game, number, cells, help_on, seed, steps
):
    rng = random.Random(seed)
    client.cookies.clear()
    url = f"/{game}/{_code(game, number, cells)}"
    first = Player(client, url)
    first.open()
    if help_on:
        response = client.post(
            "/settings",
            data={"placement_help": "on", "move_errors": "on", "token": first.token, "next": url},
        )
        assert response.status_code == 303
        first.open()
    second = Player(client, url)
    second.open()
    choose = GAMES[game]
    partial = whole = 0
    for _ in range(steps):
        tab = second if rng.random() < 0.15 else first
        # behind: the page shows another board than the server's; the history attributes
        # (data-line, data-redo, data-floor) are not the board shown and every answer, partial
        # or whole, sets them (a tab opened before an Undo shows no Redo until its next answer)
        behind = _shown(markup(tab.board)) != _shown(_full_board(client, url))
        verb, fields = choose(rng, tab.board)
        answer = _act(tab, verb, fields)
        board = answer.by_id("board")
        if board.children:
            whole += 1
        else:
            partial += 1
            assert not behind, "a page behind the server got a partial answer"
        assert markup(tab.board) == _full_board(client, url), (verb, fields)
    assert partial + whole == steps


def _shown(board: str) -> str:
    """A board's markup without the history the page's rules replay (not part of the board
    version: :meth:`app.web.rendering.screen.Screen.board_version`)."""
    return re.sub(r' data-(line|redo|floor)="[^"]*"', "", board)


def test_a_partial_answer_sets_the_history_of_a_page_opened_before_an_undo(client):
    """Found by the random games (Seahaven 35, C1): tab B opened before A's move and Undo
    shows the same board with no Redo; B's next action is answered in part (its board is the
    server's) and the answer carries the history, so B's page then equals a fresh render."""
    client.cookies.clear()
    url = "/half-moon/HM1-N-AAAAAAB"
    a, b = Player(client, url), Player(client, url)
    b.open()
    a.open()
    for place in solve(deal(DealCode.parse("HM1-N-AAAAAAB"))).line[0]:
        a.tap(hm_place(place))
    a.post("undo")
    assert 'data-redo=""' not in _full_board(client, url)
    assert 'data-redo=""' in markup(b.board)
    answer = _act(b, "tap", {"place": "pile-1", "card": b.top("pile-1")})
    assert answer.by_id("board").children == []
    assert markup(b.board) == _full_board(client, url)


def test_a_page_behind_another_tab_gets_the_whole_board(client):
    """Tab A removes a pair; tab B, still showing the old board, taps a card that is still
    there: B's answer is the whole board, so B shows what the server has."""
    client.cookies.clear()
    url = "/half-moon/HM1-N-AAAAAAB"
    a, b = Player(client, url), Player(client, url)
    a.open()
    b.open()
    # a selects pile 1: b's page is now behind (it does not show the selection)
    answer = _act(a, "tap", {"place": "pile-1", "card": a.top("pile-1")})
    assert answer.by_id("board").children == []
    answer = _act(b, "tap", {"place": "pile-2", "card": b.top("pile-2")})
    assert len(answer.by_id("board").find_all(data_place=True)) == 20
    assert answer.by_id("board").attrs["hx-swap-oob"] == "true"
    assert markup(b.board) == _full_board(client, url)


def _timeless(info: Element) -> str:
    """The info bar's markup without the clock's readings (two renders, two moments)."""
    text = re.sub(r'data-(elapsed|away-left)="\d+"', "", markup(info))
    return re.sub(r">[\d:]+</time>", "></time>", text)


class CheckedPlayer(Player):
    """A page that, after every htmx answer, compares its board with a fresh page load."""

    answers: list[str]

    def post(self, verb: str, **fields: str):
        response = super().post(verb, **fields)
        self.answers.append(response.text)
        asked = "?ask=restart" if 'id="confirm-restart"' in response.text else ""
        page = parse(self.client.get(self.url + asked).text)
        assert markup(self.board) == markup(page.by_id("board")), (verb, fields)
        assert self.doc is not None
        assert _timeless(self.doc.by_id("info")) == _timeless(page.by_id("info")), (verb, fields)
        return response


def test_a_won_half_moon_game_undone_and_redone_through_partial_answers(client):
    client.cookies.clear()
    code = "HM1-N-AAAAAAB"
    p = CheckedPlayer(client, f"/half-moon/{code}")
    p.answers = []
    p.open()
    for removal in solve(deal(DealCode.parse(code))).line:
        for place in removal:
            p.tap(hm_place(place))
    assert p.board.by_id("ending").by_id("summary-title").text == "You won!"
    assert p.board.by_id("summary-score").text == "520"
    assert 'id="ending"' in p.answers[-1]  # the ending arrived with the last removal
    assert all('id="ending"' not in answer for answer in p.answers[:-1])
    p.post("undo")
    assert p.board.by_id("ending").children == []
    p.post("redo")
    assert p.board.by_id("ending").find(class_="ending won summary")
    p.post("undo")  # a won game restarts at once (issue 35): the question needs moves to lose
    p.post("restart")  # asks first: the question is on the board, as on a page load ?ask=restart
    assert p.board.by_id("confirm-restart")
    p.post("restart", confirm="yes")
    assert p.board.attrs["data-moves"] == "0"
    # every answer changed only places, except the one after the question: the page showed a
    # board the server does not keep (the question), so it got the whole board
    assert all('id="board" hx-swap-oob="outerMorph"' in answer for answer in p.answers[:-1])
    assert 'id="board" hx-swap-oob="true"' in p.answers[-1]


def test_a_won_seahaven_game_through_partial_answers(client):
    client.cookies.clear()
    code = DealCode.parse("SH1-C4-AAAAAJ2")
    p = CheckedPlayer(client, f"/seahaven/{code}")
    p.answers = []
    p.open()
    mirror = Seahaven(code)
    for source, count, target in solve_code(code).line:
        position = mirror.position
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        p.post("move", **{"from": place_name(source), "card": str(card), "to": place_name(target)})
        mirror.play(Move(source, count, target))
    assert p.board.attrs["data-state"] == "won"
    assert p.board.by_id("ending").find(class_="ending won summary")
    p.post("undo")
    assert p.board.attrs["data-state"] == "playing"
    assert all('id="board" hx-swap-oob="outerMorph"' in answer for answer in p.answers)


def test_the_answer_names_the_new_board_version_in_a_header_and_on_the_board(client):
    client.cookies.clear()
    p = Player(client, "/half-moon/HM1-N-AAAAAAB")
    p.open()
    response = p.tap("pile-1")
    assert response.headers["X-Board-Version"] == board_version(p.board)["X-Board-Version"]
    assert board_version(p.board) == board_version(parse(client.get(p.url).text).by_id("board"))


def test_static_places_draw_the_same_cards_without_forms_or_buttons():
    """The mode a rules page's diagrams use: same cards, labels and flags, nothing to press."""
    card = Card.parse("QH")
    pile = Place("pile", 8, 3, (card,), selected_from=0)
    shown = parse(hm_place_html("en", pile, STATIC))
    place = shown.find(data_place="pile-8")
    assert place.attrs["data-count"] == "3"
    assert place.find(data_card="QH").attrs["aria-label"] == "queen of hearts, pile 8, 3 cards"
    assert "data-selected" in place.find(data_card="QH").attrs
    assert shown.find_all("form") == shown.find_all("button") == shown.find_all("input") == []
    assert "id" not in place.attrs
    fan = Place("column", 4, 2, (Card.parse("5S"), card), movable_from=1)
    column = parse(column_html("tr", fan, interactive=STATIC))
    assert [c.attrs["data-card"] for c in column.find_all(data_card=True)] == ["5S", "QH"]
    assert column.find_all("form") == column.find_all("button") == []
    interactive = parse(hm_place_html("en", pile))
    assert interactive.find("button").attrs["aria-pressed"] == "true"
    assert interactive.find(data_place="pile-8").attrs["id"] == "place-pile-8"
