"""The player's own look over HTTP (issue 27): zen, deck, hand, theme and sound are kept per
player with the other settings, shown on ``<html>`` from the first byte, refused with a 422
page that says what is accepted; zen leaves the clock and the score out of every page and
every answer (statistics still count them)."""

from __future__ import annotations

import re

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.halfmoon import place_name as hm_place
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import COLUMNS, Move, Seahaven
from app.engine.seahaven import place_name as sh_place
from app.engine.seahaven.solver import solve_code
from app.store import SessionData
from tests.web.conftest import HTMX, Player, sid_of
from tests.web.html import Element, parse
from tests.web.test_partial_answers import CheckedPlayer, markup

HM = "HM1-N-AAAAAAB"
SH = "SH1-C4-AAAAAJ2"
DEFAULTS = {"zen": "off", "deck": "classic", "hand": "right", "theme": "auto", "sound": "off"}
CHOSEN = {"zen": "on", "deck": "four-colour", "hand": "left", "theme": "dark", "sound": "on"}


def html_data(client, url: str = "/") -> dict[str, str]:
    root = parse(client.get(url).text).find("html")
    return {name: root.attrs[f"data-{name}"] for name in DEFAULTS}


def save(client, token: str, status: int = 303, **fields: str):
    response = client.post("/settings", data={**fields, "token": token, "next": "/"})
    assert response.status_code == status, response.text
    return response


def test_a_new_player_has_the_default_look_on_html(client, player):
    p = player()
    root = p.doc.find("html")
    assert {name: root.attrs[f"data-{name}"] for name in DEFAULTS} == DEFAULTS
    assert p.doc.find("meta", name="color-scheme").attrs["content"] == "light dark"


@pytest.mark.parametrize("name", sorted(CHOSEN))
def test_each_preference_is_kept_and_shown_on_html_on_every_page(client, player, name):
    p = player()
    save(client, p.token, **{name: CHOSEN[name]})
    expected = {**DEFAULTS, name: CHOSEN[name]}
    for url in ("/", f"/half-moon/{HM}", f"/seahaven/{SH}", "/rules/seahaven", "/stats", "/faq"):
        assert html_data(client, url) == expected, url
    save(client, p.token, **{name: DEFAULTS[name]})
    assert html_data(client) == DEFAULTS


def test_a_subset_of_fields_keeps_the_others(client, player, store):
    p = player()
    save(client, p.token, move_errors="on", lang="tr", deck="four-colour")
    save(client, p.token, theme="light")
    save(client, p.token, zen="on", hand="left")
    session, _ = store.load(sid_of(client))
    assert session == SessionData(
        p.token,
        move_errors=True,
        lang="tr",
        zen=True,
        deck="four-colour",
        hand="left",
        theme="light",
    )
    assert html_data(client) == {**CHOSEN, "theme": "light", "sound": "off"}


def test_the_checkbox_after_its_hidden_off_wins_and_spelling_is_forgiven(client, player):
    p = player()
    client.post(
        "/settings", data={"zen": ["off", "on"], "sound": ["off"], "token": p.token, "next": "/"}
    )
    assert html_data(client)["zen"] == "on" and html_data(client)["sound"] == "off"
    save(client, p.token, deck=" Four-Colour ", theme="DARK")
    assert html_data(client)["deck"] == "four-colour" and html_data(client)["theme"] == "dark"


def test_a_forced_theme_sets_the_colour_scheme_the_browser_draws_controls_in(client, player):
    p = player()
    for theme, scheme in (("dark", "dark"), ("light", "light"), ("auto", "light dark")):
        save(client, p.token, theme=theme)
        page = parse(client.get("/").text)
        assert page.find("meta", name="color-scheme").attrs["content"] == scheme


@pytest.mark.parametrize(
    ("field", "value", "accepted"),
    [
        ("zen", "maybe", "Accepted: on or off."),
        ("sound", "loud", "Accepted: on or off."),
        ("deck", "five-colour", "Accepted: classic or four-colour."),
        ("hand", "both", "Accepted: right or left."),
        ("theme", "sepia", "Accepted: auto, light or dark."),
    ],
)
def test_a_bad_value_is_a_422_page_that_says_what_is_accepted_and_changes_nothing(
    client, player, store, field, value, accepted
):
    p = player()
    save(client, p.token, deck="four-colour")
    before = store.load(sid_of(client))
    good = {"hand": "left"} if field == "theme" else {"theme": "dark"}  # not kept either
    response = save(client, p.token, 422, **{field: value, **good})
    page = parse(response.text)
    assert f"The field “{field}” has a value that is not accepted. {accepted}" in page.text
    assert store.load(sid_of(client)) == before
    assert html_data(client) == {**DEFAULTS, "deck": "four-colour"}


@pytest.mark.parametrize(
    ("lang", "accepted"),
    [
        ("tr", "Geçerli değerler: classic veya four-colour."),
        ("bg", "Допустими стойности: classic или four-colour."),
    ],
)
def test_the_refusal_speaks_the_players_language(client, player, lang, accepted):
    p = player()
    save(client, p.token, lang=lang)
    response = save(client, p.token, 422, deck="rainbow")
    assert accepted in parse(response.text).text


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        ("en", ["Zen: no clock, no score", "Cards", "Hand", "Theme", "Sound"]),
        ("tr", ["Zen: saat ve puan yok", "Kartlar", "El", "Tema", "Ses"]),
        ("bg", ["Дзен: без часовник и точки", "Карти", "Ръка", "Тема", "Звук"]),
    ],
)
def test_the_settings_form_offers_every_preference_without_javascript(client, player, lang, labels):
    p = player()
    save(client, p.token, lang=lang, theme="dark")
    page = parse(client.get(f"/half-moon/{HM}").text)
    form = page.find("details", class_="settings").find("form")
    assert form.attrs["method"] == "post" and form.attrs["action"] == "/settings"
    text = form.text
    for label in labels:
        assert label in text
    fields = [(e.attrs["name"], e.attrs.get("value")) for e in form.find_all("input")]
    assert fields.index(("zen", "off")) + 1 == fields.index(("zen", "on"))  # hidden off first
    assert fields.index(("sound", "off")) + 1 == fields.index(("sound", "on"))
    for name, values in (
        ("deck", ["classic", "four-colour"]),
        ("hand", ["right", "left"]),
        ("theme", ["auto", "light", "dark"]),
    ):  # issue 35: one tap each, radio buttons (a segmented control), no dropdown
        radios = form.find_all("input", type="radio", name=name)
        assert [o.attrs["value"] for o in radios] == values
        chosen = [o.attrs["value"] for o in radios if "checked" in o.attrs]
        assert chosen == (["dark"] if name == "theme" else [values[0]])
    assert form.find_all("select") == []


# --- zen ---------------------------------------------------------------------------------------


def zen_player(client, url: str, htmx: bool = True, cls: type[Player] = Player) -> Player:
    p = cls(client, url, htmx)
    if cls is CheckedPlayer:
        p.answers = []  # type: ignore[attr-defined]
    p.open()
    save(client, p.token, zen="on")
    p.open()
    return p


def assert_no_clock_or_score(html: Element | str) -> None:
    text = html if isinstance(html, str) else markup(html)
    assert 'id="clock"' not in text and "<time" not in text
    assert 'id="score"' not in text and "data-score" not in text
    assert "data-elapsed" not in text and "summary-time" not in text
    assert "summary-score" not in text and "points" not in text


def test_zen_leaves_the_clock_and_the_score_out_of_the_info_bar(client):
    p = zen_player(client, f"/half-moon/{HM}")
    assert [dt.text for dt in p.doc.by_id("stats").find_all("dt")] == ["Moves", "Deal"]
    assert_no_clock_or_score(p.doc.by_id("main"))
    assert p.doc.by_id("moves").text == "0"
    save(client, p.token, zen="off")
    p.open()
    assert [dt.text for dt in p.doc.by_id("stats").find_all("dt")] == [
        "Time",
        "Score",
        "Moves",
        "Deal",
    ]
    assert p.board.attrs["data-score"] == "0"


@pytest.mark.parametrize("lang", ["tr", "bg"])
def test_zen_in_every_language(client, lang):
    p = zen_player(client, f"/half-moon/{HM}")
    save(client, p.token, lang=lang)
    p.open()
    assert len(p.doc.by_id("stats").find_all("dt")) == 2
    assert p.doc.find("html").attrs["lang"] == lang
    assert_no_clock_or_score(p.doc.by_id("main"))


def test_zen_half_moon_won_through_partial_answers_never_shows_a_score(client):
    """Every htmx answer in zen draws exactly what a full zen render draws (CheckedPlayer
    compares board and info bar after each answer), and none names a time or a score."""
    p = zen_player(client, f"/half-moon/{HM}", cls=CheckedPlayer)
    for removal in solve(deal(DealCode.parse(HM))).line:
        for place in removal:
            response = p.tap(hm_place(place))
            assert_no_clock_or_score(response.text)
    summary = p.board.by_id("summary")
    assert summary.by_id("summary-title").text == "You won!"
    assert [dt.text for dt in summary.find_all("dt")] == ["Moves"]
    assert p.board.by_id("summary-moves").text == "48"
    assert_no_clock_or_score(p.doc.by_id("main"))
    assert p.doc.by_id("status").text.endswith(". You won!")
    assert "best time" not in p.board.text and "New best score" not in p.board.text
    assert "fewest moves 48" in p.board.by_id("deal-figures").text
    # the statistics counted the time and the score all the same
    stats = parse(client.get("/stats").text).find("tr", data_kind="HM")
    row = {td.attrs["data-field"]: td.text.strip() for td in stats.find_all("td")}
    assert row["best_score"] == "520" and re.fullmatch(r"\d+:\d\d", row["best_time"])


def test_zen_seahaven_won_through_partial_answers_and_without_javascript(client):
    code = DealCode.parse(SH)
    for htmx in (True, False):
        client.cookies.clear()
        cls = CheckedPlayer if htmx else Player
        p = zen_player(client, f"/seahaven/{code}", htmx=htmx, cls=cls)
        mirror = Seahaven(code)
        for source, count, target in solve_code(code).line:
            position = mirror.position
            card = position.columns[source][-count] if source in COLUMNS else position.top(source)
            fields = {"from": sh_place(source), "card": str(card), "to": sh_place(target)}
            response = p.post("move", **fields)
            if htmx:
                assert_no_clock_or_score(response.text)
            mirror.play(Move(source, count, target))
        assert p.board.attrs["data-state"] == "won"
        assert [dt.text for dt in p.board.by_id("summary").find_all("dt")] == ["Moves"]
        assert_no_clock_or_score(p.doc.by_id("main"))


def test_zen_turned_on_in_another_tab_gives_the_old_page_the_whole_board(client):
    """The page's board (with data-score) is not the zen board: its next answer is whole."""
    p = Player(client, f"/half-moon/{HM}")
    p.open()
    save(client, p.token, zen="on")
    response = p.tap("pile-1")
    answer = parse(response.text)
    assert answer.by_id("board").attrs["hx-swap-oob"] == "true"
    assert "data-score" not in p.board.attrs
    assert_no_clock_or_score(response.text)


def test_zen_home_page_lists_games_without_points_or_times(client):
    p = zen_player(client, f"/half-moon/{HM}")
    line = solve(deal(DealCode.parse(HM))).line
    for place in line[0]:
        p.tap(hm_place(place))
    home = parse(client.get("/").text)
    assert "points" not in home.text and "1 move" in home.text
    save(client, p.token, zen="off")
    assert "10 points" in parse(client.get("/").text).text


def test_zen_removal_is_announced_without_points(client):
    p = zen_player(client, f"/half-moon/{HM}", htmx=True)
    line = solve(deal(DealCode.parse(HM))).line
    for place in line[0]:
        response = p.tap(hm_place(place))
    assert re.fullmatch(r"Removed .+\.", p.status) and "point" not in p.status
    assert HTMX and "points" not in response.text
