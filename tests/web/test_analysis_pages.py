"""Where the win slipped away, on the page (issue 33 items 1–3): the end box and the replay page
say what the analysis of an ended game found, the winning line is a replay of its own, and
nothing of it shows while the game is played."""

from __future__ import annotations

import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.engine.halfmoon import HalfMoon, place_name, position_from_data
from app.engine.replay import Line
from app.main import create_app
from tests.web.conftest import HTMX, Player, deal_as, sid_of
from tests.web.html import parse
from tests.web.test_replays import REPLAY_LINK, replay_url

CODE = "HM1-N-AAAAAAB"
SLIPS = {"piles": [["6D", "5S"], ["6C"], ["5H"], ["AH"], ["10C"]] + [[]] * 7, "reserve": [None] * 8}
"""A+10 first (still winnable), then 5♥+6♣ leaves 5♠ on 6♦: the win slipped at move 2."""
DEAD = {"piles": [["6D", "5S"], ["AH"], ["10C"]] + [[]] * 9, "reserve": [None] * 8}
"""The 5♠ lies on the only 6: lost from the deal."""
PLAY_SLIPS = (("pile-4", "pile-5"), ("pile-3", "pile-2"))


@pytest.fixture
def app(store, proof_pool):
    """The application with the analyses in a thread (the monkeypatched deals hold there)."""
    with ThreadPoolExecutor(1) as pool:
        yield create_app(store=store.store, proof_pool=proof_pool, analysis_pool=pool)


@pytest.fixture
def slips(monkeypatch, app):
    deal_as(monkeypatch, HalfMoon, CODE, position_from_data(SLIPS), app)


@pytest.fixture
def dead(monkeypatch, app):
    deal_as(monkeypatch, HalfMoon, CODE, position_from_data(DEAD), app)


def play(p, removals) -> None:
    for removal in removals:
        for place in removal:
            p.tap(place)


def fragment(client: TestClient, ident: str, until_done: bool = True):
    """``#analysis`` as htmx asks for it; ``until_done``: again until it stops asking."""
    for _ in range(200):
        response = client.get(f"/replay/{ident}/analysis", headers=HTMX)
        assert response.status_code == 200, response.text
        found = parse(response.text).by_id("analysis")
        if not until_done or "hx-trigger" not in found.attrs:
            return found
        time.sleep(0.02)
    raise AssertionError("the analysis never ended")


def stuck(player, removals=PLAY_SLIPS, htmx: bool = True):
    p = player(CODE, htmx=htmx)
    play(p, removals)
    assert p.board.attrs["data-state"] == "stuck"
    match = REPLAY_LINK.fullmatch(replay_url(p))
    assert match is not None
    return p, match.group(1)


def test_the_end_box_loads_where_the_win_slipped_away(player, slips):
    p, ident = stuck(player)
    slot = p.board.by_id("analysis")
    assert slot.attrs["hx-get"] == f"/replay/{ident}/analysis"
    assert slot.attrs["hx-trigger"] == "load"
    assert slot.find("a").attrs["href"] == f"/replay/{ident}#analysis"  # without JavaScript
    first = fragment(p.client, ident, until_done=False)
    assert first.find("p").text == "Looking for where it slipped away…"
    assert first.attrs["hx-trigger"] == "every 2s"
    assert first.attrs["hx-get"] == f"/replay/{ident}/analysis"
    done = fragment(p.client, ident)
    assert done.attrs["class"] == "analysis slipped"
    assert done.by_id("analysis-text").text == (
        "You could still have won until move 1. Move 2 lost it:"
        " Six of clubs from pile 2 and five of hearts from pile 3 removed."
    )
    # the line opens where it leaves the game (issue 45)
    assert done.by_id("analysis-win").attrs["href"] == f"/replay/{ident}/win?step=1"
    assert done.by_id("analysis-win").text == "See a win from move 1"


def test_see_a_win_steps_through_the_games_first_moves_then_a_winning_line(player, slips, client):
    p, ident = stuck(player)
    fragment(p.client, ident)
    answer = client.get(f"/replay/{ident}/win?step=3")
    assert answer.status_code == 200, answer.text[-3000:]
    page = parse(answer.text)
    assert page.by_id("replay-outcome").text == "Won"
    assert page.by_id("step-count").text == "Step 3 of 3"
    assert page.by_id("win-from").find("a").attrs["href"] == f"/replay/{ident}"
    words = [li.text for li in page.by_id("move-list").find_all("li")]
    assert words[:2] == [  # as played, each card with its place (issue 45)
        "The deal",
        "Ace of hearts from pile 4 and ten of clubs from pile 5 removed.",
    ]
    assert len(words) == 4
    text = client.get(f"/replay/{ident}/win.txt")
    assert text.headers["content-type"] == "text/plain; charset=utf-8"
    line = Line.from_text(text.text)
    assert line.game.deal(line.code) == position_from_data(SLIPS)
    assert line.position(len(line)).is_won()  # every move checked by the rules
    pasted = client.post("/replay", data={"text": text.text, "token": p.token, "step": "3"})
    assert parse(pasted.text).by_id("replay-outcome").text == "Won"


def test_see_a_win_opens_at_move_k_with_the_next_moves_cards_marked(player, slips, client):
    """Issue 45: without a step the winning line opens at move *k* (where it leaves the game),
    the next move's cards raised and ringed and told; ``?step=0`` is still the deal."""
    p, ident = stuck(player)
    fragment(p.client, ident)
    page = parse(client.get(f"/replay/{ident}/win").text)
    assert page.by_id("replay").attrs["data-step"] == "1"
    assert page.by_id("step-count").text == "Step 1 of 3"
    assert page.by_id("step-first").attrs["href"] == f"/replay/{ident}/win?step=0"
    line = Line.from_text(client.get(f"/replay/{ident}/win.txt").text)
    coming = line.move(2)
    marked = [
        place.attrs["data-place"]
        for place in page.by_id("board").find_all(data_place=True)
        if place.find_all(data_selected=True)
    ]
    assert sorted(marked) == sorted(place_name(place) for place in coming)
    said = page.by_id("next-move").text
    assert said.startswith("Next move: ") and said.endswith(" removed.")
    assert all(f"from {place_name(place).replace('-', ' ')}" in said for place in coming), said
    deal_page = parse(client.get(f"/replay/{ident}/win?step=0").text)
    assert deal_page.by_id("replay").attrs["data-step"] == "0"
    last = parse(client.get(f"/replay/{ident}/win?step=3").text)
    assert last.find_all(id="next-move") == []
    assert last.by_id("board").find_all(data_selected=True) == []


def test_a_deal_lost_from_the_start_says_so(player, dead):
    p, ident = stuck(player, (("pile-2", "pile-3"),))
    done = fragment(p.client, ident)
    assert done.by_id("analysis-text").text == (
        "This deal cannot be won: no sequence of moves wins it."
    )
    assert done.find_all(id="analysis-win") == []
    assert p.client.get(f"/replay/{ident}/win").status_code == 404


def test_without_javascript_the_replay_page_draws_the_finding_and_a_link_while_it_runs(
    player, slips
):
    p, ident = stuck(player, htmx=False)
    link = p.board.by_id("analysis-link")
    assert link.attrs["href"] == f"/replay/{ident}#analysis"
    page = parse(p.client.get(f"/replay/{ident}").text)
    running = page.by_id("analysis")  # this request started it: under way
    assert running.by_id("analysis-text").text == "Looking for where it slipped away…"
    assert running.attrs["hx-trigger"] == "every 2s"
    again = running.find("noscript").find("a")  # a link that reloads the page
    assert again.attrs["href"] == f"/replay/{ident}#analysis"
    assert again.text == "Look again"
    fragment(p.client, ident)
    page = parse(p.client.get(f"/replay/{ident}").text)
    assert page.by_id("analysis-text").text.startswith("You could still have won until move 1.")
    plain = p.client.get(f"/replay/{ident}/analysis")  # a plain GET: the page that draws it
    assert (plain.status_code, plain.headers["location"]) == (303, f"/replay/{ident}#analysis")


def test_a_viewer_without_a_cookie_starts_nothing_and_reads_a_stored_finding(
    player, slips, app, store
):
    p, ident = stuck(player)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as stranger:

        def get(path: str):
            stranger.cookies.clear()  # every request without a cookie
            return stranger.get(path, headers=HTMX if path.endswith("/analysis") else {})

        before = parse(get(f"/replay/{ident}").text).by_id("analysis")
        assert before.attrs.get("hidden") is not None
        assert parse(get(f"/replay/{ident}/analysis").text).by_id("analysis").text.strip() == ""
        assert get(f"/replay/{ident}/win").status_code == 404
        assert app.state.analyst.started == 0 and store.analysis(ident) is None
        fragment(p.client, ident)  # the player's own browser asks: analysed once
        after = parse(get(f"/replay/{ident}").text)
        assert after.by_id("analysis-text").text.startswith("You could still have won")
        assert get(f"/replay/{ident}/win").status_code == 200
    assert app.state.analyst.started == 1


def test_nothing_shows_while_the_game_is_played_on_after_an_undo(player, slips):
    p, ident = stuck(player)
    fragment(p.client, ident)
    p.post("undo")
    assert p.board.attrs["data-state"] == "playing"
    assert p.board.find_all(id="analysis") == []
    hidden = fragment(p.client, ident)
    assert hidden.attrs.get("hidden") is not None and hidden.text.strip() == ""
    assert parse(p.client.get(f"/replay/{ident}").text).by_id("analysis").text.strip() == ""
    assert p.client.get(f"/replay/{ident}/win").status_code == 404
    assert p.client.get(f"/replay/{ident}/win.txt").status_code == 404
    p.tap("pile-3")
    p.tap("pile-2")  # ended again, the same way: the finding shows again
    assert fragment(p.client, ident).by_id("analysis-text").text.startswith("You could still")


def test_a_won_game_has_no_analysis(player, slips):
    p = player(CODE)
    play(p, (("pile-4", "pile-5"), ("pile-1", "pile-2"), ("pile-1", "pile-3")))
    assert p.board.attrs["data-state"] == "won"
    ident = REPLAY_LINK.fullmatch(replay_url(p)).group(1)
    assert p.board.find_all(id="analysis") == []
    assert parse(p.client.get(f"/replay/{ident}").text).find_all(id="analysis") == []
    assert p.client.get(f"/replay/{ident}/win").status_code == 404


@pytest.mark.parametrize("path", ["analysis", "win", "win.txt"])
def test_an_unknown_replay_answers_404(client, path):
    response = client.get(f"/replay/{'Z' * 22}/{path}", headers=HTMX)
    assert response.status_code == 404
    assert "There is no replay at this address" in response.text


@pytest.mark.parametrize("lang", ["tr", "bg"])
def test_the_finding_is_told_in_every_language(player, slips, lang):
    p, ident = stuck(player)
    response = p.client.get(f"/replay/{ident}", headers={"Accept-Language": lang})
    fragment(p.client, ident)
    page = parse(p.client.get(f"/replay/{ident}", headers={"Accept-Language": lang}).text)
    assert response.status_code == 200
    text = page.by_id("analysis-text").text
    assert text and "You could" not in text and "Six of clubs" not in text


# --- Try from move k: a practice game ----------------------------------------------------------


def try_from(p, ident: str):
    return p.client.post(f"/replay/{ident}/try", data={"token": p.token})


def test_try_from_move_k_opens_a_practice_game_at_that_board_counted_nowhere(player, slips, store):
    p, ident = stuck(player)
    done = fragment(p.client, ident)
    button = done.by_id("analysis-try")
    assert button.text == "Try from move 1"
    form = done.find("form")
    assert form.attrs["action"] == f"/replay/{ident}/try"
    sid = sid_of(p.client)
    stats, replays = store.player_stats(sid), store.player_replays(sid)
    figures = store.deal_stats(CODE)
    answer = try_from(p, ident)
    assert (answer.status_code, answer.headers["location"]) == (303, f"/half-moon/{CODE}/practice")
    p.url = f"/half-moon/{CODE}/practice"
    p.open()
    note = p.doc.by_id("practice-note")
    assert note.find("span").text == "Practice"
    assert "From move 1 of your game: this practice counts in no statistics, streak or" in note.text
    assert p.doc.by_id("practice-back").attrs["href"] == f"/half-moon/{CODE}"
    assert (p.board.attrs["data-moves"], p.board.attrs["data-state"]) == ("1", "playing")
    assert p.doc.by_id("control-undo").attrs.get("disabled") is not None  # it starts there
    assert p.top("pile-4") == "" and p.top("pile-5") == ""  # A+10 gone, as in the game
    play(p, (("pile-1", "pile-2"), ("pile-1", "pile-3")))  # the win the line shows
    assert p.board.attrs["data-state"] == "won"
    assert store.player_stats(sid) == stats  # no statistics, streak or standing
    assert store.deal_stats(CODE) == figures
    assert store.player_replays(sid) == replays  # no replay, the game's own unchanged
    assert p.client.get(f"/replay/{ident}").status_code == 200
    assert p.board.find_all(id="ending-replay") == []
    # issue 43: the deal's page keeps the player's own game, lost, its end box and its replay
    own = parse(p.client.get(f"/half-moon/{CODE}").text)
    board = own.by_id("board")
    assert (board.attrs["data-state"], board.attrs["data-moves"]) == ("stuck", "2")
    assert own.by_id("ending-replay").attrs["href"] == f"/replay/{ident}"
    assert own.find_all(id="practice-note") == []


def test_try_never_takes_the_place_of_a_game_going_on(player, slips, app):
    """Another player's game of the deal going on stays as it is: the practice has its own row."""
    p, ident = stuck(player)
    fragment(p.client, ident)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as other:
        q = Player(other, f"/half-moon/{CODE}")
        q.open()
        q.tap("pile-4")
        q.tap("pile-5")  # a game of the deal going on, one move in
        made = try_from(q, ident)
        assert (made.status_code, made.headers["location"]) == (303, f"/half-moon/{CODE}/practice")
        q.open()
        assert q.board.attrs["data-moves"] == "1"
        assert q.doc.find_all(id="practice-note") == []


def test_try_is_refused_without_a_winning_line_or_a_token(player, dead, client):
    p, ident = stuck(player, (("pile-2", "pile-3"),))
    fragment(p.client, ident)
    assert try_from(p, ident).status_code == 404  # cannot be won: nothing to try
    assert try_from(p, "Z" * 22).status_code == 404
    forged = p.client.post(f"/replay/{ident}/try", data={"token": "forged"})
    assert forged.status_code in (400, 403)


def test_no_route_tells_anything_of_the_analysis_while_the_game_is_played(player, slips, app):
    """Every GET route (``tests/web/anonymous.py``'s samples, this replay and deal among them),
    with htmx and without, asked by the player whose game goes on after an Undo: no finding."""
    from tests.web.anonymous import Made, anonymous_gets

    p, ident = stuck(player)
    fragment(p.client, ident)  # analysed and stored: there is something to leak
    p.post("undo")
    told = ("analysis-text", "analysis-win", "analysis-try", "slipped away", "could still have")
    paths = [*anonymous_gets(app, 0, Made(ident, "L" * 32)), f"/half-moon/{CODE}", "/stats", "/"]
    for path in paths:
        for headers in ({}, HTMX):
            response = p.client.get(path, headers=headers)
            kind = response.headers.get("content-type", "")  # pages and texts, not the CSS
            text = response.text if kind.startswith(("text/html", "text/plain")) else ""
            assert not [word for word in told if word in text], (path, headers)
            said = {k: v for k, v in response.headers.items() if k != "location"}
            assert "analysis" not in str(said).lower(), path  # (a plain GET's 303 names it)


@pytest.mark.parametrize(
    "damage",
    [{"k": 7}, {"line": "zz"}, {"line": "ab"}, {"kind": "maybe"}, {"version": 0}],
    ids=["k-past-the-end", "not-moves", "illegal-line", "unknown-kind", "old-version"],
)
def test_a_damaged_stored_finding_reads_as_none_never_a_500(player, slips, store, damage):
    p, ident = stuck(player)
    stored = fragment(p.client, ident)
    assert stored.by_id("analysis-text").text.startswith("You could still")
    store.save_analysis(ident, {**store.analysis(ident), **damage})
    page = p.client.get(f"/replay/{ident}")
    assert page.status_code == 200
    assert parse(page.text).by_id("analysis").text.strip() in (
        "",
        "Looking for where it slipped away…",
    )
    for path in ("win", "win.txt"):
        assert p.client.get(f"/replay/{ident}/{path}").status_code == 404
    assert try_from(p, ident).status_code in (303, 404)


def test_a_stranger_sees_nothing_of_the_finding_while_its_owner_plays_on(player, slips, app):
    """Issue 43 item 6: the owner's row decides, not the asker's. Before, a cookie-less
    ``GET /replay/ID/win.txt`` answered 200 with the line while the owner played on after an
    Undo; another player's browser saw the finding too."""
    p, ident = stuck(player)
    fragment(p.client, ident)
    with (
        TestClient(app, follow_redirects=False) as stranger,
        TestClient(app, follow_redirects=False) as other,
    ):
        assert stranger.get(f"/replay/{ident}/win.txt").status_code == 200  # ended: shown
        other.get("/half-moon/HM1-N-AAAAAAC")
        assert other.cookies.get("sid")  # a player with an id of their own
        p.post("undo")
        for asker in (stranger, other):
            for path in ("win", "win.txt"):
                assert asker.get(f"/replay/{ident}/{path}").status_code == 404, path
            page = parse(asker.get(f"/replay/{ident}").text)
            assert page.by_id("analysis").text.strip() == ""
        play(p, (PLAY_SLIPS[1],))  # the owner's game ends again, as it did: shown again
        assert stranger.get(f"/replay/{ident}/win.txt").status_code == 200
        assert other.get(f"/replay/{ident}/win.txt").status_code == 200


def test_a_game_waiting_its_turn_says_how_many_come_before_it(player, slips, app, monkeypatch):
    """Issue 44 item 1: a true position in the queue, not "busy: this one is next"."""
    import threading

    from app.services import analyses

    go, calls = threading.Event(), []
    real = analyses.analyse_line

    def held(code, line, seconds):
        calls.append(line)
        if len(calls) == 1:  # the first game's analysis runs until the test lets it end
            go.wait(10)
        return real(code, line, seconds)

    monkeypatch.setattr(analyses, "analyse_line", held)
    with TestClient(app, follow_redirects=False) as first_client:
        first = Player(first_client, f"/half-moon/{CODE}", True)
        first.open()
        play(first, PLAY_SLIPS)
        first_ident = REPLAY_LINK.fullmatch(replay_url(first)).group(1)
        try:
            assert fragment(first_client, first_ident, until_done=False).attrs["hx-trigger"]
            p, ident = stuck(player)
            waiting = fragment(p.client, ident, until_done=False)
            text = "Waiting for its turn: 1 game before this one."
            assert waiting.by_id("analysis-text").text == text
            assert waiting.attrs["hx-trigger"] == "every 2s"
            page = parse(p.client.get(f"/replay/{ident}").text)  # without JavaScript: the same
            assert page.by_id("analysis-text").text == text
            assert page.by_id("analysis-again").attrs["href"] == f"/replay/{ident}#analysis"
        finally:
            go.set()
        assert fragment(p.client, ident).attrs["class"] == "analysis slipped"


def test_a_daily_deals_winning_line_stays_private_while_its_standings_are_open(
    player, slips, client, monkeypatch
):
    """Issue 44 item 4: a script followed a lost daily game's public win.txt at a human pace
    (0.35 s a move) into the day's standings. While a win of the deal may still be ranked
    (its day and the next) the finding says where the win slipped, not the line."""
    from app.services import daily

    monkeypatch.setitem(daily._TEXTS, daily.today(), frozenset({CODE}))
    monkeypatch.setitem(daily._TEXTS, daily.yesterday_of(daily.today()), frozenset())
    p, ident = stuck(player)
    done = fragment(p.client, ident)
    assert done.by_id("analysis-text").text == (
        "You could still have won until move 1. Move 2 lost it:"
        " Six of clubs from pile 2 and five of hearts from pile 3 removed. A daily deal's"
        " winning line is shown once its standings close, at the end of the next UTC day."
    )
    assert done.find_all(id="analysis-win") == [] and done.find_all(id="analysis-try") == []
    for path in ("win", "win.txt", "win?step=2"):
        answer = client.get(f"/replay/{ident}/{path}")
        assert answer.status_code == 404
        assert "Not yet: this is a daily deal" in answer.text
    assert try_from(p, ident).status_code == 404
    monkeypatch.setitem(daily._TEXTS, daily.today(), frozenset())  # the day has closed
    assert client.get(f"/replay/{ident}/win.txt").status_code == 200
    assert fragment(p.client, ident).by_id("analysis-win").text == "See a win from move 1"
