"""Words a player reads (issue 35, item 8): the rules pages explain the cards' letters in
Turkish and Bulgarian; a reserve place is named in a word no card uses (not ``R3``, a king's
letter there); Bulgarian speaks in one register, the formal "Вие", on every button and box;
``/stats`` writes its moments with their zone (for the page's script to show them in the
player's own) and labels every figure of the replays' list; ``/winnability`` names no command."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from app.i18n import LOCALES_DIR
from tests.web.html import parse

HM = "HM1-N-AAAAAAB"

INFORMAL_BG = re.compile(
    r"(?<![\w])(Играй|Гледай|Отмени|Повтори|Започни|Продължи|Изтрий|Запази|Копирай|Отвори|"
    r"Покажи|Нулирай|Раздай|Опитай|Избери|Натисни|Докосни|Виж|Махни|Върни|Създай|Пусни|Спри|"
    r"Затвори|Скрий|Премахни|Изпрати)(?![\w])"
)
"""The second person singular's imperatives (the informal "ти"): "Играй", not "Играйте"."""


def test_every_bulgarian_text_speaks_in_the_formal_register():
    with (LOCALES_DIR / "bg" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale="bg")
    informal = []
    for message in catalog:
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        informal += [text for text in texts if text and INFORMAL_BG.search(text)]
    assert informal == []


@pytest.mark.parametrize(
    ("state_url", "expected"),
    [(f"/half-moon/{HM}", ["Отменете", "Повторете", "Започнете отначало", "Нова игра"])],
)
def test_the_bulgarian_game_screen_and_its_controls_are_formal(client, state_url, expected):
    page = parse(client.get(state_url, headers={"Accept-Language": "bg"}).text)
    said = [page.by_id(f"control-{verb}").attrs["title"] for verb in ("undo", "redo", "restart")]
    assert said == expected[:3]
    assert not INFORMAL_BG.search(page.text)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("tr", ["V", "vale", "D", "kız", "R", "papaz"]),
        ("bg", ["V", "вале", "D", "дама", "R", "поп"]),
    ],
)
@pytest.mark.parametrize("slug", ["half-moon", "seahaven"])
def test_the_rules_explain_the_cards_letters(client, lang, words, slug):
    page = parse(client.get(f"/rules/{slug}", headers={"Accept-Language": lang}).text)
    letters = page.by_id("letters")
    text = letters.text
    assert all(word in text for word in words[1::2]), text  # each letter's card, named
    assert [s.text for s in letters.find_all("strong")] == ["A", "V", "D", "R"]


@pytest.mark.parametrize(
    ("lang", "name"), [("en", "reserve 3"), ("tr", "rezerv 3"), ("bg", "резерв 3")]
)
def test_no_place_is_named_like_a_card(client, lang, name):
    page = parse(client.get(f"/half-moon/{HM}", headers={"Accept-Language": lang}).text)
    board = page.by_id("board")
    titles = [e.text.rstrip(",") for e in board.find_all("span", class_="label-place")]
    assert name in titles
    faces = {e.text for e in board.find_all("span", class_="rank")}
    assert faces & {"R", "K"}  # (the deal's top cards include a king)
    for title in titles:
        assert not re.fullmatch(r"[AJQKVDR]\d+", title), title


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
def test_the_winnability_page_names_no_command(client, lang):
    text = parse(client.get("/winnability", headers={"Accept-Language": lang}).text).text
    assert "python" not in text and "bench." not in text


def test_stats_moments_say_their_zone_and_every_replay_figure_is_named(client, player):
    p = player(HM)
    p.tap("pile-1")
    p.tap("pile-5")  # a game counted (its first move)
    page = parse(client.get("/stats").text)
    times = page.by_id("recent").find_all("time")
    assert len(times) == 1
    moment = times[0]
    assert "data-local" in moment.attrs
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z", moment.attrs["datetime"])
    assert moment.text.endswith(" UTC")
    assert moment.attrs["datetime"][:10] == moment.text[:10]
    headings = [th.text for th in page.by_id("recent").find("thead").find_all("th")]
    assert headings[-1] == "Date"


def test_the_replays_list_names_every_figure(client, player):
    from app.engine.codes import DealCode
    from app.engine.halfmoon import deal, place_name
    from app.engine.halfmoon.solver import solve

    p = player(HM)
    for removal in solve(deal(DealCode.parse(HM))).line:
        for place in removal:
            p.tap(place_name(place))
    page = parse(client.get("/stats").text)
    row = page.by_id("replay-list").find("tbody").find("tr")
    labels = [td.attrs.get("data-label") for td in row.find_all("td", class_="number")]
    assert labels == ["Time", "Moves"]
    date = row.find("td", class_="date")
    assert date.attrs["data-label"] == "Date" and date.find("time").attrs["data-local"] == ""
