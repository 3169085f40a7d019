"""A practice lives beside the player's game, never in its place (issue 43 items 2 and 4):
*Try from move k* makes the player's practice of the deal — its own row and URL,
``/{game}/{CODE}/practice`` — through the action pipeline (the new-games limit, the same
answers); Restart returns to move *k*; nothing of it enters a figure or a ranking, and every
list that shows it says "practice". Then a whole counted game of the same deal."""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.config import Config
from app.engine.halfmoon import HalfMoon, position_from_data
from app.main import create_app
from tests.web import test_analysis_pages as analysis_pages
from tests.web.conftest import Player, deal_as, sid_of
from tests.web.html import parse
from tests.web.test_analysis_pages import CODE, SLIPS, fragment, play, stuck, try_from

PRACTICE = f"/half-moon/{CODE}/practice"
WIN_FROM_1 = (("pile-1", "pile-2"), ("pile-1", "pile-3"))
"""From move 1 (A+10 gone): 5♠+6♣, then 6♦+5♥."""
WHOLE_WIN = (("pile-4", "pile-5"), *WIN_FROM_1)


app = analysis_pages.app  # the application with the analyses in a thread
slips = analysis_pages.slips  # the deal whose win slips at move 2


def totals(client: TestClient) -> tuple[str, ...]:
    """``/stats``' Half Moon row: played, won, lost, streak, best time."""
    page = parse(client.get("/stats").text)
    row = page.find("tr", data_kind="HM")
    return tuple(
        row.find("td", data_field=field).text
        for field in ("played", "won", "lost", "streak", "best_time")
    )


def finished(client: TestClient) -> list[tuple[str, str, str]]:
    """The home page's "Recently finished": (code, result, kind) each."""
    page = parse(client.get("/").text)
    lines = page.find("ul", class_="continue finished").find_all("li")
    return [
        (li.attrs["data-code"], li.attrs["data-result"], li.attrs.get("data-kind", ""))
        for li in lines
    ]


def test_a_whole_practice_then_a_whole_counted_game_of_the_same_deal(player, slips, store):
    p, ident = stuck(player)  # the player's game: lost at move 2, the win slipped at move 1
    fragment(p.client, ident)
    lost_totals = totals(p.client)
    assert lost_totals == ("1", "0", "1", "0", "–")
    assert finished(p.client) == [(CODE, "stuck", "")]
    sid = sid_of(p.client)
    figures = store.deal_stats(CODE)

    # Try from move 1: the practice's own page, its actions on its own URLs
    made = try_from(p, ident)
    assert (made.status_code, made.headers["location"]) == (303, PRACTICE)
    q = Player(p.client, PRACTICE)
    q.open()
    assert (q.board.attrs["data-moves"], q.board.attrs["data-practice"]) == ("1", "1")
    assert q.board.attrs["data-code"] == CODE
    actions = {form.attrs["action"] for form in q.doc.find_all("form", method="post")}
    assert {f"{PRACTICE}/undo", f"{PRACTICE}/restart", f"{PRACTICE}/tap"} <= actions
    assert not [a for a in actions if a.startswith(f"/half-moon/{CODE}/") and "practice" not in a]
    assert totals(p.client) == lost_totals
    # the deal's page keeps the player's lost game, its end box and its replay
    own = parse(p.client.get(f"/half-moon/{CODE}").text)
    assert own.by_id("board").attrs["data-state"] == "stuck"
    assert own.by_id("ending-replay").attrs["href"] == f"/replay/{ident}"

    # the practice won: its end box says it counts nowhere, no standing, bests or figures
    play(q, WIN_FROM_1)
    assert q.board.attrs["data-state"] == "won"
    box = q.board.by_id("summary")
    assert box.by_id("ending-practice").text == (
        "Practice: not counted in your statistics or the deal's standings."
    )
    for absent in ("standing", "bests", "deal-figures", "ending-replay"):
        assert box.find_all(id=absent) == [], absent
    assert q.board.by_id("ending-again").text == "Start again from move 1"
    q.open()
    assert q.board.by_id("summary").find_all(id="standing") == []
    assert totals(p.client) == lost_totals
    assert store.deal_stats(CODE) == figures
    assert [r.id for r in store.player_replays(sid)] == [ident]
    # Recently finished says "Practice" beside its result
    home = parse(p.client.get("/").text)
    line = home.find("li", data_kind="practice")
    assert (line.attrs["data-code"], line.attrs["data-result"]) == (CODE, "won")
    assert line.find("span", class_="tag").text == "Practice"
    assert line.find("a").attrs["href"] == PRACTICE
    assert line.find_all(class_="replay-link") == []

    # Restart of the practice returns to move 1, still a practice
    q.post("restart", confirm="yes")
    assert (q.board.attrs["data-moves"], q.board.attrs["data-state"]) == ("1", "playing")
    assert q.doc.by_id("control-undo").attrs.get("disabled") is not None
    assert q.top("pile-4") == "" and q.top("pile-1") == "5S"
    assert totals(p.client) == lost_totals
    # the rules page leads back to the latest game going on of the kind: the practice
    rules = p.client.get("/rules/half-moon")
    assert rules.status_code == 200
    assert any(a.attrs.get("href") == PRACTICE for a in parse(rules.text).find_all("a"))

    # the counted game of the deal, played again from its start (Restart in its end box)
    p.open()
    p.post("restart", confirm="yes")
    assert p.board.attrs["data-moves"] == "0"
    play(p, WHOLE_WIN)
    assert p.board.attrs["data-state"] == "won"
    box = p.board.by_id("summary")
    assert box.find_all(id="ending-practice") == []
    assert [li.text for li in box.by_id("bests").find_all("li")] == [
        "Your first win at Half Moon!",
        "New best score: 30.",  # the practice's 30 points were never counted
    ]
    assert "not counting this game" in box.by_id("deal-figures").text  # a later game (issue 34)
    played, won, lost, streak, _ = totals(p.client)
    assert (played, won, lost, streak) == ("2", "1", "1", "1")
    assert finished(p.client) == [(CODE, "won", "")]  # the practice is going on again
    home = parse(p.client.get("/").text)
    going_on = home.find("ul", class_="continue").find("li", class_="practice")
    assert going_on.find("a").attrs["href"] == PRACTICE
    assert going_on.find("span", class_="tag").text == "Practice"
    # the practice stays what it was: its page, its row
    q.open()
    assert q.board.attrs["data-moves"] == "1" and q.doc.find_all(id="practice-note") != []


def test_a_practice_restart_without_javascript_returns_to_move_k(player, slips):
    p, ident = stuck(player, htmx=False)
    fragment(p.client, ident)
    try_from(p, ident)
    q = Player(p.client, PRACTICE, htmx=False)
    q.open()
    q.tap("pile-1")
    q.tap("pile-2")
    assert q.board.attrs["data-moves"] == "2"
    q.post("restart", confirm="yes")
    assert (q.board.attrs["data-moves"], q.board.attrs["data-state"]) == ("1", "playing")


def test_a_practice_page_without_a_practice_goes_to_the_deal(client):
    answer = client.get(PRACTICE)
    assert (answer.status_code, answer.headers["location"]) == (303, f"/half-moon/{CODE}")


def test_a_try_is_a_new_game_to_the_limits(store, proof_pool, monkeypatch):
    """Issue 43 item 4: each Try that makes a practice spends one of the client's new games
    (``SOLITAIRE_RATE_NEW``); past the limit it is refused (429) and nothing is written."""
    with ThreadPoolExecutor(1) as pool:
        app = create_app(
            Config(rate_new="3/hour", rate_writes="off"),
            store=store.store,
            proof_pool=proof_pool,
            analysis_pool=pool,
        )
        deal_as(monkeypatch, HalfMoon, CODE, position_from_data(SLIPS), app)
        with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
            p = Player(client, f"/half-moon/{CODE}")
            p.open()
            play(p, (("pile-4", "pile-5"), ("pile-3", "pile-2")))  # new game 1
            ident = p.board.by_id("ending-replay").attrs["href"].rsplit("/", 1)[1]
            fragment(client, ident)
            q = Player(client, PRACTICE)
            for _ in range(2):  # new games 2 and 3
                assert try_from(p, ident).status_code == 303
                q.open()
                q.tap("pile-1")  # a move: the next Try makes the practice again
            refused = try_from(p, ident)
            assert refused.status_code == 429
            assert "retry-after" in refused.headers
            q.open()
            assert q.board.attrs["data-moves"] == "1"  # not begun again
            pressed = q.board.find(data_place="pile-1").find_all(data_card=True)[0]
            assert pressed.attrs["aria-pressed"] == "true"


def test_a_win_after_an_undo_from_a_counted_loss_is_not_ranked(player, slips):
    """Issue 43 item 1: the end box ranks only the ending that was counted — the loss here —
    never a win made after an Undo from it (it said "Won in 0:00 — faster than …")."""
    p, _ = stuck(player)
    assert p.board.by_id("ending").find_all(id="standing") != []  # the loss's line
    lost_totals = totals(p.client)
    p.post("undo")
    play(p, WIN_FROM_1)
    assert p.board.attrs["data-state"] == "won"
    box = p.board.by_id("summary")
    assert box.find_all(id="standing") == []
    assert box.find_all(id="bests") == []  # nothing set: the game counted as lost
    p.open()
    assert p.board.by_id("summary").find_all(id="standing") == []
    assert totals(p.client) == lost_totals


def test_a_practice_stored_in_the_deals_row_before_issue_43_reads_and_restarts_counted(
    player, store
):
    """A practice written over the player's game by the version before (its marks in the
    deal's own row) still loads as a practice; Restart makes the row the player's game again,
    and its first move counts (it stayed uncounted for ever)."""
    import dataclasses

    from app.store.marks import Marks

    p = player()
    p.tap("pile-1")
    sid = sid_of(p.client)
    row = store.load(sid, CODE)[1]
    assert row is not None
    old = dataclasses.replace(row, marks=Marks(practice=True))
    store.change_game(sid, CODE, lambda _s, _g: (old, None))
    p.open()
    assert p.doc.find_all(id="practice-note") != []
    assert p.doc.find_all(id="practice-back") == []
    p.post("restart", confirm="yes")
    p.open()
    assert p.doc.find_all(id="practice-note") == []
    tops = {place: p.top(place) for place in [f"pile-{i}" for i in range(1, 13)]}
    worth = {"A": 1}
    pair = next(
        (a, b)
        for a, ca in tops.items()
        for b, cb in tops.items()
        if a < b
        and ca[:-1] not in "JQK"
        and cb[:-1] not in "JQK"
        and (worth.get(ca[:-1]) or int(ca[:-1])) + (worth.get(cb[:-1]) or int(cb[:-1])) == 11
    )
    play(p, (pair,))
    written = store.load(sid, CODE)[1]
    assert written is not None and not written.marks.practice
    assert totals(p.client)[0] == "1"
