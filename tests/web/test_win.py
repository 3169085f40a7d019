"""The win moment through HTTP (issue 16): the summary's figures, Play this deal again, and a
finished game staying on the home page."""

from __future__ import annotations

import pytest

import app.web.play.actions
from app.engine.codes import DealCode
from app.engine.halfmoon import deal, place_name
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import Seahaven
from app.engine.seahaven import place_name as sh_place
from app.engine.seahaven.solver import solve_code
from app.store import SessionData
from app.store.marks import Win
from app.store.sync import SyncStore
from app.web.rendering.board_values import GameResult, fill
from app.web.rendering.ending import with_result
from app.web.rendering.infobar import clock_text
from app.web.rendering.screen import SCREENS
from tests.browser.play import moving_card
from tests.web.conftest import sid_of
from tests.web.html import parse
from tests.web.test_seahaven_play import SeahavenPlayer

HM = "HM1-N-AAAAAAB"
SH = "SH1-C4-AAAAAJ2"
STEP_MS = 3_000
"""Every action of these tests happens this long after the one before."""


@pytest.fixture
def clock(monkeypatch):
    """The server's clock, moved on by hand: the summary's time is then exact."""
    now = [1_700_000_000_000]
    monkeypatch.setattr(app.web.play.actions, "now_ms", lambda: now[0])

    def tick() -> None:
        now[0] += STEP_MS

    return tick


def _win_half_moon(p, tick) -> int:
    """Play HM's solution tap by tap, each STEP_MS after the last; the number of taps."""
    taps = 0
    for removal in solve(deal(DealCode.parse(HM))).line:
        for place in removal:
            tick()
            p.tap(place_name(place))
            taps += 1
    return taps


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_won_half_moon_game_shows_a_summary_with_its_exact_time_moves_and_score(
    player, clock, htmx
):
    p = player(HM, htmx=htmx)
    taps = _win_half_moon(p, clock)
    summary = p.board.by_id("summary")
    assert summary.tag == "section"
    assert summary.attrs["aria-labelledby"] == "summary-title"
    title = p.board.by_id("summary-title")
    assert (title.tag, title.text, title.attrs["tabindex"]) == ("h2", "You won!", "-1")
    assert "autofocus" in title.attrs  # focus moves to the summary, with or without script
    elapsed = (taps - 1) * STEP_MS  # the clock starts with the first tap, stops with the last
    assert taps == 104 and elapsed == 309_000
    assert p.board.by_id("summary-time").text == "5:09"
    assert p.board.by_id("summary-moves").text == "48"
    assert p.board.by_id("summary-score").text == "520"
    assert [dt.text for dt in summary.find_all("dt")] == ["Time", "Moves", "Score"]
    assert p.board.by_id("ending-again").text == "Play this deal again"
    form = next(f for f in summary.find_all("form") if f.find_all(id="ending-again"))
    assert form.attrs["action"] == f"/half-moon/{HM}/restart"
    assert [(i.attrs["name"], i.attrs["value"]) for i in form.find_all("input")] == [
        ("token", p.token),
        ("confirm", "yes"),
    ]
    assert p.board.by_id("ending-new").attrs["href"] == "/half-moon"
    cascade = p.board.find(class_="cascade")
    assert cascade.attrs["aria-hidden"] == "true"
    assert [c.attrs["class"].split()[0] for c in cascade.children] == ["falling"] * 12
    # the statistics' lines: the first win at Half Moon (one list, in the summary)
    assert [li.text for li in p.board.by_id("bests").find_all("li")] == [
        "Your first win at Half Moon!"
    ]
    assert p.board.find_all(class_="bests") == [p.board.by_id("bests")]
    if htmx:
        assert p.status == (
            "Removed three of hearts and eight of spades: 10 points. You won! 520 points in 5:09."
        )
    # the page drawn afresh says the same
    p.open()
    assert p.board.by_id("summary-time").text == "5:09"
    assert p.board.by_id("summary-moves").text == "48"


def test_the_summary_lists_the_bests_statistics_give_it(player, clock):
    p = player(HM)
    _win_half_moon(p, clock)
    screen = SCREENS["half-moon"]
    _, stored = SyncStore(p.client.app.state.store).load(sid_of(p.client), HM)
    game = screen.game.from_record(stored.record)
    facts = screen.facts(game, SessionData("tok"))
    assert with_result(facts, None) == facts
    result = GameResult((("best_time", 309_000), ("streak", 3)), None)
    board = parse(fill(screen.board_html(with_result(facts, result), "en", "tok"), "tok", HM))
    summary = board.by_id("summary")
    assert [li.text for li in summary.find_all("li")] == [
        "New best time: 5:09.",
        "3 wins in a row.",
    ]
    assert board.by_id("summary-moves").text == "48"
    assert board.by_id("summary-time").text == "5:09"
    plain = parse(fill(screen.board_html(facts, "en", "tok"), "tok", HM))
    assert plain.find_all(id="bests") == []


def test_play_this_deal_again_starts_the_deal_afresh_and_keeps_the_win(player, client, clock):
    p = player(HM)
    _win_half_moon(p, clock)
    replay = p.board.by_id("ending-replay").attrs["href"].removeprefix("/replay/")
    clock()
    p.post("restart", confirm="yes")
    assert p.board.attrs["data-state"] == "playing"
    assert p.board.attrs["data-moves"] == "0"
    assert p.board.find_all(id="summary") == []
    assert len(p.board.find_all(data_card=True)) == 20
    assert p.status == "The deal starts again from the beginning."
    _, stored = SyncStore(client.app.state.store).load(sid_of(client), HM)
    win = Win(309_000, 48, 520, replay)
    assert stored.marks.won == win  # with the won game's replay (issue 26)
    assert stored.marks.replay is None  # the game played again gets its own when it ends
    # the earlier win survives the next moves too, and the home page says it
    clock()
    p.tap("pile-1")
    _, stored = SyncStore(client.app.state.store).load(sid_of(client), HM)
    assert stored.marks.won == win
    home = parse(client.get("/").text)
    line = home.find(class_="continue").find("li")
    assert f"Half Moon {HM}" in line.text
    meta = line.find(class_="meta")
    assert meta.text.startswith("0 moves, 0 points; won before in 5:09")
    assert meta.find("a").attrs["href"] == f"/replay/{win.replay}"  # the win's replay


def test_a_won_game_stays_on_the_home_page_under_recently_finished(player, client, clock):
    p = player(HM)
    _win_half_moon(p, clock)
    other = player("HM1-N-AAAAAAC")
    clock()
    other.tap("pile-1")
    home = parse(client.get("/").text)
    headings = [h.text for h in home.find_all("h2")]
    # the unfinished games first (issue 43), then the new deals, today's, the finished ones
    assert headings[0] == "Continue playing" and "Recently finished" in headings
    playing, finished = home.find("ul", class_="continue"), home.find(class_="continue finished")
    assert [a.find("code").text for a in playing.find_all("a")] == ["HM1-N-AAAAAAC"]
    (line,) = finished.find_all("li")
    assert line.find_all("a")[0].attrs["href"] == f"/half-moon/{HM}"
    assert line.find(class_="result won").text == "Won"
    assert line.find(class_="meta").text == "5:09, 48 moves, 520 points"


def test_a_won_seahaven_game_shows_its_summary(client, clock):
    code = DealCode.parse(SH)
    p = SeahavenPlayer(client, f"/seahaven/{SH}", True)
    p.open()
    mirror = Seahaven(code)
    line = solve_code(code).line
    for move in line:
        source, _, target = move
        card = moving_card(mirror, move)
        clock()
        p.post("move", **{"from": sh_place(source), "card": str(card), "to": sh_place(target)})
        mirror.play(move, now=0)
    assert p.board.attrs["data-state"] == "won"
    assert p.board.by_id("summary-moves").text == str(len(line))
    assert p.board.by_id("summary-score").text == "520"
    assert p.board.by_id("summary-time").text == _clock((len(line) - 1) * STEP_MS)
    assert p.board.by_id("ending-new").attrs["href"] == "/seahaven?cells=4"
    again = next(f for f in p.board.find_all("form") if f.find_all(id="ending-again"))
    assert again.attrs["hx-post"] == f"/seahaven/{SH}/restart"


def _clock(ms: int) -> str:
    return clock_text(ms)


def test_the_summary_speaks_turkish_and_bulgarian(player, client, clock):
    p = player(HM)
    _win_half_moon(p, clock)
    for lang, title, again in (
        ("tr", "Kazandınız!", "Bu dağıtımı yeniden oyna"),
        ("bg", "Победа!", "Изиграйте това раздаване отново"),
    ):
        page = parse(client.get(p.url, headers={"Accept-Language": lang}).text)
        assert page.by_id("summary-title").text == title
        assert page.by_id("ending-again").text == again
        assert page.by_id("summary-score").text == "520"


def test_an_htmx_win_answers_the_summary_in_the_board_fragment(player, client, clock):
    p = player(HM)
    line = solve(deal(DealCode.parse(HM))).line
    for removal in line[:-1]:
        for place in removal:
            clock()
            p.tap(place_name(place))
    *first, last = line[-1]
    for place in first:
        clock()
        p.tap(place_name(place))
    clock()
    response = p.tap(place_name(last))  # with the page's board version: a partial answer
    fragment = parse(response.text)
    ending = fragment.by_id("ending")  # the answer's end box: swapped out of band, by id
    assert ending.attrs["hx-swap-oob"] == "true"
    assert ending.by_id("summary-score").text == "520"
    assert ending.by_id("summary-moves").text == "48"
    assert ending.find(class_="cascade").attrs["aria-hidden"] == "true"
    assert fragment.by_id("board").attrs["data-state"] == "won"
