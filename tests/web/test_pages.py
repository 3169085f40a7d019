"""The reading pages: rules with diagrams, examples, FAQ and winnability, in three languages.

The diagrams and the example steps are checked against the engine, worked out here
independently of the pages' own replay code: a diagram shows what the engine deals, a step
shows the engine's position after the moves before it, and the group-size case is the
engine's own verdict.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.engine import halfmoon
from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import PILES, deal, parse_place
from app.engine.seahaven import Move as SeahavenMove
from app.engine.seahaven import (
    Reason,
    apply_move,
    check_move,
    deal_position,
    max_group,
)
from app.i18n import card_letters, card_name, place_label, translations
from app.main import create_app
from app.store.memory import MemoryStore
from app.web.halfmoon.examples import HALF_MOON_DEAL, HALF_MOON_LINE
from app.web.seahaven.examples import (
    SEAHAVEN_ALLOWED,
    SEAHAVEN_DEAL,
    SEAHAVEN_LINE,
    SEAHAVEN_REFUSED,
)
from tests.web.html import Element, parse

ROOT = Path(__file__).parents[2]
LANGS = ("en", "tr", "bg")
READING = (
    "/rules/half-moon",
    "/rules/seahaven",
    "/examples",
    "/examples/half-moon",
    "/examples/seahaven",
    "/faq",
    "/winnability",
)
NAV = ["/rules/half-moon", "/rules/seahaven", "/examples", "/faq", "/winnability", "/stats"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(store=MemoryStore()), follow_redirects=False) as client:
        yield client


def get(client, url: str, lang: str = "en") -> Element:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200, response.text
    return parse(response.text)


def board_of(element: Element) -> Element:
    (board,) = [e for e in element.iter() if "board" in e.classes()]
    return board


def with_class(element: Element, name: str) -> list[Element]:
    return [e for e in element.iter() if name in e.classes()]


def meta(doc: Element, name: str) -> str:
    found = doc.find_all("meta", name=name) or doc.find_all("meta", property=name)
    return found[0].attrs["content"]


# --- every page, every language ----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("url", READING)
def test_every_reading_page_in_every_language_with_title_description_and_navigation(
    client, url, lang
):
    doc = get(client, url, lang)
    assert doc.find("html").attrs["lang"] == lang
    title = doc.find("title").text
    h1 = doc.find("h1").text
    assert title.startswith(h1), (title, h1)
    description = meta(doc, "description")
    assert len(description) > 40
    assert meta(doc, "og:description") == description
    assert meta(doc, "og:title") == doc.find("title").text.rsplit(" · ", 1)[0]
    nav = doc.find("nav", class_="site-nav")
    assert [a.attrs["href"] for a in nav.find_all("a")] == NAV
    current = [a.attrs["href"] for a in nav.find_all("a", aria_current="page")]
    assert current == [u for u in NAV if url == u or (u == "/examples" and "/examples" in url)]


@pytest.mark.parametrize(
    "url", ["/", "/half-moon/HM1-N-AAAAAAB", "/seahaven/SH1-C4-AAAAAJ2", "/seahaven", "/nowhere"]
)
def test_the_navigation_reaches_every_reading_page_from_every_other_page(client, url):
    doc = parse(client.get(url).text)
    assert [a.attrs["href"] for a in doc.find("nav", class_="site-nav").find_all("a")] == NAV
    assert doc.find("a", class_="brand").attrs["href"] == "/"


def _sentences(doc: Element) -> list[str]:
    article = doc.find("article")
    return [
        e.text
        for e in article.iter()
        if e.tag in ("p", "li", "h1", "h2", "figcaption", "caption", "th") and len(e.text) > 30
    ]


@pytest.mark.parametrize("lang", ["tr", "bg"])
@pytest.mark.parametrize("url", READING)
def test_no_english_sentence_is_left_in_the_translated_pages(client, url, lang):
    """The untranslated-text check for prose kept in per-language partials (the catalog test
    covers the gettext texts): no paragraph, item, heading or caption reads as in English."""
    english = set(_sentences(get(client, url, "en")))
    translated = _sentences(get(client, url, lang))
    assert len(translated) >= len(english) > 0
    assert [s for s in translated if s in english] == []


PROSE = sorted(
    [f"templates/prose/{{lang}}/{p.name}" for p in (ROOT / "templates/prose/en").glob("*.html")]
    + [
        f"templates/games/{p.parent.parent.name}/rules/{{lang}}.html"
        for p in (ROOT / "templates/games").glob("*/rules/en.html")
    ]
)
"""Every prose partial kept per language (the FAQ, winnability; each game's rules in its folder),
its path with ``{lang}`` in place of the language."""


def _outline(html: str) -> list[str]:
    """What must match across languages: sections, headings, figures, includes, links."""
    return re.findall(
        r'<section id="[^"]+">|<h[12]>|<figure|_diagram\(|\{% include [^%]+%\}|<a href="[^"]+"'
        r"|<li>|<p",
        html,
    )


@pytest.mark.parametrize("name", PROSE)
def test_every_prose_partial_exists_in_every_language_with_the_same_outline(name):
    outline = _outline((ROOT / name.format(lang="en")).read_text("utf-8"))
    assert len(PROSE) == 6 and outline
    for lang in ("tr", "bg"):
        assert _outline((ROOT / name.format(lang=lang)).read_text("utf-8")) == outline


# --- diagrams ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_half_moon_diagram_is_the_engines_layout_of_its_deal(client, lang):
    t = translations(lang)
    figure = get(client, "/rules/half-moon", lang).by_id("diagram-half-moon")
    board = board_of(figure)
    assert board.attrs["data-code"] == str(HALF_MOON_DEAL)
    position = deal(HALF_MOON_DEAL)
    places = board.find_all(data_place=True)
    assert len(places) == 20
    for element in places:
        index = parse_place(element.attrs["data-place"])
        count = position.count(index)
        kind, number = ("pile", index + 1) if index < PILES else ("reserve", index - PILES + 1)
        label = place_label(kind, number, count, t)
        top = position.top(index)
        assert element.attrs["data-count"] == str(count) == label.split(", ")[1].split()[0]
        assert element.find(class_="label").text.replace(" ,", ",") == label
        assert element.find_all(data_card=True)[0].attrs["data-card"] == str(top)
        assert (
            element.find(data_card=str(top)).attrs["aria-label"] == f"{card_name(top, t)}, {label}"
        )
    # a drawing, not a game: no forms, buttons or tab stops
    assert board.find_all("form") == board.find_all("button") == []
    assert board.find_all(tabindex=True) == []
    assert board.attrs["role"] == "group"
    assert board.attrs["aria-labelledby"] == "diagram-half-moon-caption"
    assert len(figure.by_id("diagram-half-moon-caption").text) > 40


@pytest.mark.parametrize("lang", LANGS)
def test_the_seahaven_diagrams_are_the_engines_layouts_for_4_2_and_1_cells(client, lang):
    t = translations(lang)
    doc = get(client, "/rules/seahaven", lang)
    for number, cells in enumerate((4, 2, 1), 1):
        code = DealCode("SH", 1, f"C{cells}", 0)
        position = deal_position(code)
        board = board_of(doc.by_id(f"diagram-seahaven-{number}"))
        assert board.attrs["data-code"] == str(code)
        columns = with_class(board, "column")
        assert [c.attrs["data-count"] for c in columns] == [str(len(c)) for c in position.columns]
        for column, cards in zip(columns, position.columns, strict=True):
            assert [c.attrs["data-card"] for c in column.find_all(data_card=True)] == list(
                map(str, cards)
            )
        shown_cells = with_class(board, "cell")
        assert len(shown_cells) == cells
        for cell, card in zip(shown_cells, position.cells, strict=True):
            found = cell.find_all(data_card=True)
            assert [c.attrs["data-card"] for c in found] == ([str(card)] if card else [])
            assert cell.attrs["data-count"] == ("1" if card else "0")
        assert [f.attrs["data-count"] for f in with_class(board, "foundation")] == ["0"] * 4
        assert (
            columns[1]
            .find(class_="label")
            .text.endswith(
                t.ngettext("%(count)s card", "%(count)s cards", len(position.columns[1]))
                % {"count": len(position.columns[1])}
            )
            or str(len(position.columns[1])) in columns[1].find(class_="label").text
        )
        assert board.find_all("form") == board.find_all("button") == []


# --- the examples ------------------------------------------------------------------------------


def _hm_position(moves: int):
    """The engine's position after the example's first ``moves`` removals, replayed here."""
    position = deal(HALF_MOON_DEAL)
    for line in HALF_MOON_LINE[:moves]:
        position = halfmoon.apply_move(position, tuple(parse_place(p) for p in line.split()))
    return position


def _place_words(name: str, t) -> str:
    kind, _, number = name.partition("-")
    return t.gettext("pile %(number)s") % {"number": number} if kind == "pile" else f"R{number}"


def test_the_half_moon_example_is_a_won_game_of_48_moves_and_520_points(client):
    assert len(HALF_MOON_LINE) == 48
    assert _hm_position(48).is_won()
    last = get(client, "/examples/half-moon?step=48")
    assert "won in 48 moves with 520 points" in last.find(class_="won").text
    assert "Score: 520. Cards left: 0." in last.find(class_="tally").text
    assert last.by_id("step-next").attrs["aria-disabled"] == "true"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("step", [0, 1, 2, 3, 17, 30, 47, 48])
def test_each_half_moon_step_is_the_engines_position_and_the_narration_names_the_move(
    client, step, lang
):
    t = translations(lang)
    doc = get(client, f"/examples/half-moon?step={step}", lang)
    position = _hm_position(step)
    board = board_of(doc.by_id("replay-board"))
    for element in board.find_all(data_place=True):
        index = parse_place(element.attrs["data-place"])
        assert element.attrs["data-count"] == str(position.count(index))
        cards = element.find_all(data_card=True)
        assert [c.attrs["data-card"] for c in cards] == (
            [str(position.top(index))] if position.top(index) else []
        )
    marked = sorted(e.attrs["data-card"] for e in board.find_all(data_selected=True))
    upcoming = HALF_MOON_LINE[step].split() if step < 48 else []
    assert marked == sorted(str(position.top(parse_place(p))) for p in upcoming)
    narration = doc.by_id("narration").text
    if step:
        before = _hm_position(step - 1)
        for name in HALF_MOON_LINE[step - 1].split():
            card = card_letters(before.top(parse_place(name)), t)
            assert f"{card}" in narration and _place_words(name, t) in narration
    points = sum(10 if len(m.split()) == 2 else 15 for m in HALF_MOON_LINE[:step])
    assert doc.find(class_="tally").text.split()[1].rstrip(".") == str(points)


def test_every_half_moon_step_page_answers_with_its_own_board(client):
    for step in range(49):
        doc = get(client, f"/examples/half-moon?step={step}")
        assert doc.by_id("replay").attrs["data-step"] == str(step)
        left = sum(int(e.attrs["data-count"]) for e in doc.find_all(data_place=True))
        assert left == _hm_position(step).cards_left


def test_the_opening_is_told_the_way_the_documents_tell_theirs(client):
    lead = get(client, "/examples/half-moon").find("article").find_all("p")[1].text
    assert lead == (
        "It begins like this: the first move removes 9♠ from pile 2 with 2♣ from pile 11 "
        "(9 + 2 = 11). That uncovers J♣ on pile 2, which the second move removes with K♦ from "
        "pile 1 and Q♥ from pile 9."
    )
    tr = get(client, "/examples/half-moon", "tr").find("article").find_all("p")[1].text
    assert "V♣" in tr and "R♦" in tr and "D♥" in tr and "yığın 11" in tr


def _sh_position(moves: int):
    position = deal_position(SEAHAVEN_DEAL)
    for text in SEAHAVEN_LINE[:moves]:
        position = apply_move(position, SeahavenMove.parse(text))
    return position


CASE = len(SEAHAVEN_LINE)


@pytest.mark.parametrize("step", [0, 1, 13, 22, CASE])
def test_each_seahaven_step_is_the_engines_position_and_names_the_move(client, step):
    doc = get(client, f"/examples/seahaven?step={step}")
    position = _sh_position(step)
    board = board_of(doc.by_id("replay-board"))
    for column, cards in zip(with_class(board, "column"), position.columns, strict=True):
        assert [c.attrs["data-card"] for c in column.find_all(data_card=True)] == list(
            map(str, cards)
        )
    assert [c.attrs["data-count"] for c in with_class(board, "foundation")] == list(
        map(str, position.foundations)
    )
    if step:
        move = SeahavenMove.parse(SEAHAVEN_LINE[step - 1])
        before = _sh_position(step - 1)
        said = doc.find(class_="said").text
        moved = (
            before.columns[move.source][-move.count :]
            if move.source < 10
            else (before.top(move.source),)
        )
        assert (
            f"Move {step}: " + " ".join(card_letters(c, translations("en")) for c in moved) in said
        )


def test_the_group_size_case_is_the_engines_own_verdict(client):
    position = _sh_position(CASE)
    assert (position.free_cells, position.empty_columns) == (1, 2)
    assert (max_group(position, False), max_group(position, True)) == (8, 4)
    refused_source, refused_card, _refused_target = SEAHAVEN_REFUSED
    column = position.columns[int(refused_source.split("-")[1]) - 1]
    size = len(column) - column.index(Card.parse(refused_card))
    assert column[-size].rank == 13 and 4 < size <= 8  # king-led, more than 4, no more than 8
    refusal = check_move(position, SeahavenMove(2, size, 4))
    assert refusal is not None and (refusal.reason, refusal.limit) == (Reason.GROUP_TOO_LARGE, 4)
    allowed = SeahavenMove(1, 5, 7)
    assert position.columns[1][-5] == Card.parse(SEAHAVEN_ALLOWED[1])
    assert check_move(position, allowed) is None
    doc = get(client, f"/examples/seahaven?step={CASE}")
    case = doc.find(class_="case")
    ringed = {e.attrs["data-card"] for e in doc.by_id("replay-board").find_all(data_selected=True)}
    runs = [*position.columns[2][-size:], *position.columns[1][-5:]]
    assert ringed == set(map(str, runs))
    assert "the 7-card run from K♥ on column 3 into the empty column 5" in case.text
    assert "“That group needs more free cells: at most 4 cards can move now.”" in case.text
    assert "the 5-card run from 8♠ on column 2 onto column 8: 5 is at most 8" in case.text
    after = get(client, f"/examples/seahaven?step={CASE + 1}").by_id("replay-board")
    column_8 = after.find(data_place="column-8").find_all(data_card=True)
    assert [c.attrs["data-card"] for c in column_8] == list(
        map(str, apply_move(position, allowed).columns[7])
    )
    bg = get(client, f"/examples/seahaven?step={CASE}", "bg").find(class_="case").text
    assert "най-много 4 карти" in bg


@pytest.mark.parametrize(
    "step", ["49", "-1", "x", "1.5", "999999999", "1" * 17, "9" * 5000], ids=lambda s: s[:20]
)
def test_a_step_that_does_not_exist_is_a_clear_422(client, step):
    """A number past Python's 4,300 digits to int() was a 500."""
    response = client.get(f"/examples/half-moon?step={step}")
    assert response.status_code == 422
    assert "accepted are the whole numbers 0 to 48" in response.text


def test_step_links_are_plain_links_htmx_enhances(client):
    doc = get(client, "/examples/half-moon?step=5")
    links = {a.attrs["id"]: a for a in doc.find("nav", class_="pager").find_all("a")}
    assert {k: a.attrs["href"] for k, a in links.items()} == {
        "step-first": "/examples/half-moon?step=0#replay",
        "step-prev": "/examples/half-moon?step=4#replay",
        "step-next": "/examples/half-moon?step=6#replay",
        "step-last": "/examples/half-moon?step=48#replay",
    }
    for a in links.values():
        # without JavaScript the page opens at the replay; htmx swaps it in place
        assert a.attrs["hx-get"] + "#replay" == a.attrs["href"]
        assert (a.attrs["hx-target"], a.attrs["hx-select"]) == ("#replay", "#replay")
        assert a.attrs["hx-push-url"] == "true"
    first = get(client, "/examples/half-moon").find("nav", class_="pager")
    assert [s.attrs["id"] for s in first.find_all("span", aria_disabled="true")] == [
        "step-first",
        "step-prev",
    ]


# --- winnability -------------------------------------------------------------------------------


def test_the_winnability_figures_are_the_data_files(client):
    data = json.loads((ROOT / "app/data/winnability.json").read_text("utf-8"))
    doc = get(client, "/winnability")
    rows = doc.by_id("shares").find("tbody").find_all("tr")
    assert len(rows) == len(data["variants"]) >= 4
    for row, variant in zip(rows, data["variants"], strict=True):
        n = variant["deals"]
        assert row.find(data_deals=True).attrs["data-deals"] == str(n)
        for verdict in ("won", "no win", "undecided"):
            cell = row.find(data_verdict=verdict)
            count = variant["counts"][verdict]
            low, high = variant["intervals"][verdict]
            assert cell.attrs["data-count"] == str(count)
            assert cell.find(class_="share").text == f"{100 * count / n:.1f}%"
            assert cell.find(class_="interval").text == f"({100 * low:.1f}% – {100 * high:.1f}%)"
    race = doc.by_id("race").find("tbody").find_all("tr")
    assert [r.attrs["data-cells"] for r in race] == [str(r["cells"]) for r in data["race"]]
    for row, r in zip(race, data["race"], strict=True):
        numbers = [int(td.text) for td in row.find_all("td")]
        strict, relaxed = r["tables"]["strict"], r["tables"]["relaxed"]
        assert numbers == [
            r["deals"],
            sum(line[0] for line in strict),
            strict[1][0],
            sum(line[1] for line in relaxed),
            relaxed[0][1],
            sum(strict[0]),
        ]
        assert strict[1][0] == relaxed[0][1] == 0  # the cross-check holds


def test_the_moves_in_wins_chart_and_its_table_match_the_data_file(client):
    data = json.loads((ROOT / "app/data/winnability.json").read_text("utf-8"))
    doc = get(client, "/winnability")
    for variant in data["variants"]:
        if variant["game"] != "SH":
            continue
        key = f"seahaven-{variant['cells']}"
        figure = doc.by_id(f"chart-{key}")
        bars = [int(b.attrs["data-count"]) for b in with_class(figure, "bar")]
        table = [int(r.find_all("td")[0].text) for r in figure.find("tbody").find_all("tr")]
        by_tens = dict(variant["moves_in_wins"]["by_tens"])
        expected = [by_tens.get(s, 0) for s in range(60, 200, 10)]
        expected.append(sum(c for s, c in by_tens.items() if s >= 200))
        assert bars == table == expected
        assert sum(bars) == variant["counts"]["won"]
        svg = figure.find("svg")
        assert svg.attrs["aria-describedby"] == f"chart-{key}-table"


# --- links between the games and their rules -------------------------------------------------


@pytest.mark.parametrize(
    ("game_url", "rules", "new_game", "tap"),
    [
        ("/half-moon/HM1-N-AAAAAAI", "/rules/half-moon", "/half-moon", ("pile-2", "9S")),
        ("/seahaven/SH1-C4-AAAAAAA", "/rules/seahaven", "/seahaven", ("column-10", None)),
    ],
)
def test_each_game_links_to_its_rules_and_the_rules_lead_back_to_the_players_deal(
    game_url, rules, new_game, tap
):
    with TestClient(create_app(store=MemoryStore()), follow_redirects=False) as client:
        doc = get(client, rules)
        assert {a.attrs["href"] for a in with_class(doc, "back-to-game")} == {new_game}
        page = get(client, game_url)
        assert page.by_id("control-rules").attrs["href"] == rules
        token = page.find_all("input", name="token")[0].attrs["value"]
        place, card = tap
        if card is None:
            card = page.find(data_place=place).find_all(data_card=True)[-1].attrs["data-card"]
        response = client.post(
            f"{game_url}/tap", data={"place": place, "card": card, "token": token}
        )
        assert response.status_code == 303
        doc = get(client, rules)
        backs = with_class(doc, "back-to-game")
        assert {a.attrs["href"] for a in backs} == {game_url}
        assert backs[0].text == "Back to your game"
