"""Standings that are earned and figures a player can trust (issue 34, findings 4, 5 and 8):
only other players' wins within human reach are ranked, one address enters a bounded number
of wins a day, and a deal started again after it ended is a new game for its player."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.config import Config
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, deal, place_name, position_from_data
from app.engine.halfmoon.solver import solve
from app.main import create_app
from app.store.counting import FLOOR_MS_PER_MOVE
from tests.web.conftest import Player, deal_as, forget_cached_games
from tests.web.test_replays import CODE, LOSE, TINY, WIN, clock, play, tiny  # noqa: F401
from tests.web.test_stats import stats_row

URL = f"/half-moon/{CODE}"


def standing(p) -> str:
    return p.board.by_id("standing").text


def new_player(app) -> tuple[TestClient, Player]:
    client = TestClient(app, follow_redirects=False)
    p = Player(client, URL)
    p.open()
    return client, p


def honest_win(p, clock) -> None:  # noqa: F811
    play(p, WIN, clock, step_ms=3_000)  # 4 taps, 9 s: at a human's pace
    assert p.board.attrs["data-state"] == "won"


# --- 5. one's own earlier wins are never among the "other players" ----------------------------


@pytest.mark.all_stores
def test_a_lone_winner_is_no_other_player_after_a_statistics_reset(app, player, tiny, clock):  # noqa: F811
    """Before: "faster than 50 % of the 1 other player who won this deal" — the player's own
    win, no longer in the reset statistics' recent games."""
    p = player(CODE)
    honest_win(p, clock)
    assert standing(p) == "Won in 0:09: nobody else has won this deal yet."
    p.client.post("/stats/reset", data={"token": p.token, "confirm": "yes"})
    p.post("restart", confirm="yes")
    honest_win(p, clock)
    assert standing(p) == "Won in 0:09: nobody else has won this deal yet."
    p.open()
    assert standing(p) == "Won in 0:09: nobody else has won this deal yet."


@pytest.mark.all_stores
def test_a_lone_winner_is_no_other_player_after_twenty_more_games(app, player, tiny, clock):  # noqa: F811
    p = player(CODE)
    honest_win(p, clock)
    played, number = 0, 2
    while played < 20:  # 20 more games, each a first move of another deal
        code = DealCode("HM", 1, "N", number)
        number += 1
        line = solve(deal(code)).line
        if not line:
            continue
        other = player(str(code))
        for place in line[0]:
            other.tap(place_name(place))
        assert other.board.attrs["data-moves"] == "1"
        played += 1
    p.open()
    assert standing(p) == "Won in 0:09: nobody else has won this deal yet."


# --- 8. a restart of an ended game is a new game for its player ---------------------------------


@pytest.mark.all_stores
def test_a_win_after_restarting_a_lost_game_counts_and_the_end_box_says_whose_figures(
    app,
    client,
    player,
    tiny,  # noqa: F811
    clock,  # noqa: F811
):
    """Before: stuck, restarted, won: /stats said Won 0, and the end box "You won! … This deal
    for everyone: 1 player finished it, 0 won"."""
    p = player(CODE)
    play(p, LOSE, clock)
    assert p.board.attrs["data-state"] == "stuck"
    p.post("restart", confirm="yes")
    honest_win(p, clock)
    row = stats_row(client)
    assert (row["played"], row["won"], row["lost"]) == ("2", "1", "1")
    assert p.board.by_id("deal-figures").text == (
        "This deal for everyone, not counting this game: 1 player finished it, 0 won."
    )
    p.post("restart", confirm="yes")
    honest_win(p, clock)  # and again: a third game
    row = stats_row(client)
    assert (row["played"], row["won"], row["lost"]) == ("3", "2", "1")


@pytest.mark.all_stores
def test_the_deals_figures_take_each_players_first_result_only(app, store, player, tiny, clock):  # noqa: F811
    p = player(CODE)
    honest_win(p, clock)
    assert p.board.by_id("deal-figures").text.startswith(
        "This deal for everyone: 1 player finished it, 1 won"
    )
    p.post("restart", confirm="yes")
    play(p, LOSE, clock)
    figures = store.deal_stats(CODE)
    assert (figures["players"], figures["wins"], sum(figures["cells"].values())) == (1, 1, 1)
    assert p.board.by_id("deal-figures").text.startswith(
        "This deal for everyone, not counting this game: 1 player finished it; best time"
    )
    assert p.board.by_id("standing").text == "1 player has won this deal."


# --- 4. standings count only wins a human can make, and a bounded number per address ------------


@pytest.mark.human_floor
@pytest.mark.all_stores
def test_a_win_faster_than_a_human_can_play_is_not_ranked(app, store, tiny, clock):  # noqa: F811
    """Two moves at the floor's pace take 2 × FLOOR_MS_PER_MOVE: a script's 4 taps 100 ms
    apart (0.3 s) are faster; a player's 3 s apart are not. Before: both were ranked, and the
    honest win read "faster than 0 % of the 1 other player"."""
    assert 3 * 100 < 2 * FLOOR_MS_PER_MOVE <= 3 * 3_000
    started = TestClient(app)
    started.__enter__()  # the application's start: its store and limiter
    _, script = new_player(app)
    play(script, WIN, clock, step_ms=100)
    assert script.board.attrs["data-state"] == "won"
    assert store.deal_stats(CODE) is None  # not ranked, not among the deal's figures
    assert script.board.find_all(id="standing") == []  # no figures: nothing to stand among
    _, honest = new_player(app)
    honest_win(honest, clock)
    assert standing(honest) == "Won in 0:09: nobody else has won this deal yet."
    assert honest.board.by_id("deal-figures").text.startswith(
        "This deal for everyone: 1 player finished it, 1 won"
    )
    row = stats_row(script.client)  # the script's own statistics still count its win
    assert (row["played"], row["won"]) == ("1", "1")
    started.__exit__(None, None, None)


@pytest.mark.all_stores
def test_one_address_enters_at_most_its_ranked_wins_a_day(store, monkeypatch, clock):  # noqa: F811
    """Three browsers of one address win the deal with 2 ranked wins a day: the third win
    counts for its player, not in the deal's figures (before: all three)."""
    app = create_app(Config(rate_ranked="2/day"), store=store.store)
    position = position_from_data(TINY)
    deal_as(monkeypatch, HalfMoon, CODE, position)
    forget_cached_games(app)
    pages = []
    with TestClient(app):  # the application started once: one limiter
        for _ in range(3):
            _, p = new_player(app)
            honest_win(p, clock)
            pages.append(p)
    figures = store.deal_stats(CODE)
    assert (figures["players"], figures["wins"]) == (2, 2)
    assert standing(pages[2]) == (
        "Won in 0:09 — faster than 50 % of the 2 other players who won this deal."
    )
    assert (
        pages[2]
        .board.by_id("deal-figures")
        .text.startswith(
            "This deal for everyone, not counting this game: 2 players finished it, 2 won"
        )
    )
    assert stats_row(pages[2].client)["won"] == "1"


@pytest.mark.all_stores
def test_only_a_winning_action_holds_a_ranked_win(store, monkeypatch, clock):  # noqa: F811
    """The ranked-win limit is asked only by the action that wins — and by the first action on
    a game this worker has not cached, which it cannot foresee: of four taps, the first and the
    winning one (before: every tap held one and gave it back — limiter work, two Redis round
    trips, on every tap for the rare winning one)."""
    import app.web.play.commit as commit_step

    app = create_app(Config(rate_ranked="2/day"), store=store.store)
    deal_as(monkeypatch, HalfMoon, CODE, position_from_data(TINY))
    forget_cached_games(app)
    held: list[str] = []
    real = commit_step.may_rank

    async def counted(request):
        held.append(request.url.path)
        return await real(request)

    monkeypatch.setattr(commit_step, "may_rank", counted)
    with TestClient(app):
        _, p = new_player(app)
        honest_win(p, clock)
    assert held == [f"{URL}/tap"] * 2
    assert store.deal_stats(CODE)["wins"] == 1
