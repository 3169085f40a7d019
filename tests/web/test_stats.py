"""Statistics over HTTP (issue 16): counting rules through real moves, the end box, /stats,
reset, the device link, the daily deals — against every store."""

from __future__ import annotations

import re

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import deal, place_name
from app.engine.halfmoon.solver import solve
from app.services import daily
from app.web.pages.stats import digest_of
from app.web.rendering.screen import SCREENS
from tests.web.conftest import HTMX, sid_of, token_of
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
OTHER = "HM1-N-AAAAAAC"


def win(player, code: str = CODE, htmx: bool = True):
    line = solve(deal(DealCode.parse(code))).line
    p = player(code, htmx=htmx)
    for removal in line:
        for place in removal:
            p.tap(place_name(place))
    assert p.board.attrs["data-state"] == "won"
    return p


def stats_row(client, kind: str = "HM") -> dict[str, str]:
    page = parse(client.get("/stats").text)
    row = page.find("tr", data_kind=kind)
    return {td.attrs["data-field"]: td.text.strip() for td in row.find_all("td")}


def test_a_page_opened_is_not_played_and_the_first_move_is(client, player):
    p = player(CODE)
    assert stats_row(client)["played"] == "0"
    p.tap("pile-1")  # a selection is not a move
    assert stats_row(client)["played"] == "0"
    p.tap("pile-1")  # deselected
    line = solve(deal(DealCode.parse(CODE))).line
    for place in line[0]:
        p.tap(place_name(place))
    row = stats_row(client)
    assert (row["played"], row["won"], row["lost"], row["rate"]) == ("1", "0", "0", "–")
    page = parse(client.get("/stats").text)
    recent = page.by_id("recent").find("tr", data_code=CODE)
    assert recent.attrs["data-result"] == "playing"
    assert len(recent.find_all("a", href=f"/half-moon/{CODE}")) == 2  # the code, "Resume"


@pytest.mark.slow
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_won_game_counts_once_and_the_end_box_shows_bests_and_the_deal(
    client, player, store, htmx
):
    p = win(player, htmx=htmx)
    ending = p.board.by_id("summary")  # the won end box is the summary (issue 16)
    assert [li.text for li in ending.by_id("bests").find_all("li")] == [
        "Your first win at Half Moon!"
    ]
    figures = ending.by_id("deal-figures").text
    assert "This deal for everyone: 1 player finished it, 1 won; best time" in figures
    assert "fewest moves 48" in figures
    # the finishing tap again (a retry after a timeout): refused as stale, nothing counted
    p.post("undo")
    p.post("redo")
    row = stats_row(client)
    assert (row["played"], row["won"], row["lost"], row["streak"], row["fewest"]) == (
        "1",
        "1",
        "0",
        "1",
        "48",
    )
    assert row["best_score"] == "520" and row["rate"] == "100 %"
    assert store.deal_stats(CODE)["players"] == 1


@pytest.mark.slow
def test_two_tabs_finishing_one_game_count_it_once(client, player, store):
    line = solve(deal(DealCode.parse(CODE))).line
    tab1, tab2 = player(CODE), player(CODE)
    for removal in line[:-1]:
        for place in removal:
            tab1.tap(place_name(place))
    tab2.open()
    last = line[-1]
    for place in last:  # both tabs make the same last removal
        tab1.tap(place_name(place))
    for place in last:
        tab2.client.post(
            f"/half-moon/{CODE}/tap",
            data={"place": place_name(place), "card": "", "token": tab2.token},
            headers=HTMX,
        )
    assert stats_row(client)["won"] == "1"
    assert store.deal_stats(CODE)["players"] == 1


def test_a_new_deal_of_the_same_game_abandons_the_open_one(client, player):
    p = player(CODE)
    line = solve(deal(DealCode.parse(CODE))).line
    for place in line[0]:
        p.tap(place_name(place))
    q = player(OTHER)
    for place in solve(deal(DealCode.parse(OTHER))).line[0]:
        q.tap(place_name(place))
    row = stats_row(client)
    assert (row["played"], row["won"], row["lost"], row["streak"]) == ("2", "0", "1", "0")
    page = parse(client.get("/stats").text)
    assert page.by_id("recent").find("tr", data_code=CODE).attrs["data-result"] == "abandoned"


@pytest.mark.slow
def test_the_deal_figures_are_never_shown_before_the_game_is_over(client, player):
    win(player)
    p = player(CODE)  # the same client: the game is over
    assert p.board.by_id("deal-figures") is not None
    p.post("restart", confirm="yes")  # playing again: the end box and its figures go
    assert p.board.find_all(class_="ending") == []
    assert "This deal for everyone" not in p.client.get(f"/half-moon/{CODE}").text


def test_the_stats_page_states_the_counting_rules_and_links_everywhere(client):
    page = parse(client.get("/stats").text)
    rules = page.by_id("counting-rules").text
    assert "A game counts as played from its first move" in rules
    assert "abandoned" in rules
    assert page.by_id("no-games") is not None
    for url in ("/", "/half-moon/HM1-N-AAAAAAB", "/faq", "/stats"):
        assert parse(client.get(url).text).find_all("a", href="/stats") != []


@pytest.mark.slow
def test_charts_come_with_their_numbers_in_tables(client, player):
    win(player)
    page = parse(client.get("/stats").text)
    rate = page.by_id("chart-rate-half-moon")
    assert rate.find("svg").attrs["role"] == "img"
    assert [td.text for td in rate.by_id("chart-rate-half-moon-table").find_all("td")] == ["100 %"]
    time_table = page.by_id("chart-time-half-moon-table")
    assert re.fullmatch(r"\d+:\d\d", time_table.find_all("td")[0].text)
    # one chart per game: no Seahaven game was played, so no Seahaven chart
    assert page.find_all(id="chart-rate-seahaven") == page.find_all(id="chart-time-seahaven") == []
    names = [t.text for t in rate.find_all("text", class_="axis-name")]
    assert names == ["Win rate", "Your last games, oldest first"]


@pytest.mark.slow
def test_reset_asks_first_then_forgets(client, player, store):
    win(player)
    token = token_of(parse(client.get("/stats").text))
    asked = client.post("/stats/reset", data={"token": token})
    assert (asked.status_code, asked.headers["location"]) == (303, "/stats?ask=reset")
    question = parse(client.get("/stats?ask=reset").text)
    assert question.by_id("confirm-reset") is not None
    assert stats_row(client)["won"] == "1"  # asking changed nothing
    done = client.post("/stats/reset", data={"token": token, "confirm": "yes"})
    assert done.headers["location"].startswith("/stats?n=reset&t=")
    page = parse(client.get(done.headers["location"]).text)
    assert page.by_id("stats-notice").text == "Your statistics were reset."
    assert stats_row(client)["won"] == "0"
    assert store.deal_stats(CODE)["players"] == 1  # everyone's figures stay


@pytest.mark.slow
def test_reset_with_a_forged_token_is_refused(client, player):
    win(player)
    response = client.post("/stats/reset", data={"token": "x" * 32, "confirm": "yes"})
    assert response.status_code == 403
    assert stats_row(client)["won"] == "1"


@pytest.mark.slow
def test_a_device_link_moves_the_player_and_revoking_it_gives_a_clear_404(app, client, player):
    from fastapi.testclient import TestClient

    win(player)
    token = token_of(parse(client.get("/stats").text))
    made = client.post("/stats/link", data={"token": token})
    assert made.status_code == 200
    link = parse(made.text).by_id("device-link").attrs["value"]
    secret = link.rsplit("/", 1)[1]
    assert len(secret) >= 32  # 192 bits
    assert secret not in client.get("/stats").text  # shown once
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as other:
        question = other.get(f"/link/{secret}")
        assert question.status_code == 200
        assert question.headers["referrer-policy"] == "same-origin"
        used = other.post(f"/link/{secret}", data={"token": token_of(parse(question.text))})
        assert used.status_code == 303
        assert used.headers["location"].startswith("/stats?n=linked&t=")
        assert sid_of(other) == sid_of(client)  # the signature carries its own time
        assert stats_row(other)["won"] == "1"
        client.post("/stats/link/revoke", data={"token": token})
        question = other.get(f"/link/{secret}")  # the question: the POST tells
        gone = other.post(f"/link/{secret}", data={"token": token_of(parse(question.text))})
        assert gone.status_code == 404
        assert "This device link does not work" in gone.text


def test_unknown_links_are_rate_limited(client):
    token = token_of(parse(client.get("/").text))
    statuses = [
        client.post(f"/link/{'A' * 32}{i:02d}", data={"token": token}).status_code
        for i in range(21)
    ]
    assert statuses[:20] == [404] * 20
    assert statuses[20] == 429


def test_the_link_secret_is_stored_only_as_its_hash(client, store):
    token = token_of(parse(client.get("/stats").text))
    client.post(
        "/half-moon/HM1-N-AAAAAAB/tap", data={"place": "pile-1", "card": "", "token": token}
    )
    made = client.post("/stats/link", data={"token": token})
    secret = parse(made.text).by_id("device-link").attrs["value"].rsplit("/", 1)[1]
    assert store.link_owner(secret) is None
    assert store.link_owner(digest_of(secret)) == sid_of(client)


def test_the_daily_routes_lead_to_todays_deals(client):
    codes = daily.codes_of(daily.today())
    assert client.get("/daily/half-moon").headers["location"] == f"/half-moon/{codes['HM']}"
    for cells in ("4", "2", "1"):
        response = client.get(f"/daily/seahaven?cells={cells}")
        assert response.headers["location"] == f"/seahaven/{codes['SH-C' + cells]}"
    bad = client.get("/daily/seahaven?cells=3")
    assert bad.status_code == 422 and "Accepted: 4, 2 or 1 cells." in bad.text


def test_a_game_without_a_daily_deal_answers_a_404_page_that_says_so(client, monkeypatch):
    """A game may deal no daily variant (``Variant.daily`` false for all): ``/daily/<slug>``
    is then a 404 page saying so, never a 500."""
    screen = SCREENS["half-moon"]
    (only,) = screen.game.variants
    monkeypatch.setattr(screen.game, "variants", (only._replace(daily=False),))
    response = client.get("/daily/half-moon")
    assert response.status_code == 404
    page = parse(response.text)
    assert page.find("h1").text == "No daily deal"
    assert "Half Moon has no daily deal." in response.text


@pytest.mark.slow
def test_the_home_page_shows_todays_deals_with_the_players_own_result(client, player, fixed_day):
    codes = daily.codes_of(daily.today())
    page = parse(client.get("/").text)
    rows = page.by_id("daily").find_all("li")
    assert [li.attrs["data-code"] for li in rows] == [str(c) for c in codes.values()]
    assert {li.attrs["data-result"] for li in rows} == {"none"}
    win(player, str(codes["HM"]))
    page = parse(client.get("/").text)
    mine = page.by_id("daily").find("li", data_code=str(codes["HM"]))
    assert mine.attrs["data-result"] == "won"
    assert "won in" in mine.text
    assert page.by_id("home-daily-streak").text.startswith("Daily streak: 1 day")


@pytest.mark.slow
def test_two_app_instances_on_one_redis_count_a_finished_game_once(
    redis_url, redis_client, proof_pool
):
    """Two application objects (two machines) on one real redis-server; the same player's
    last removal arrives at both at once: one win, one player in the deal's figures."""
    import threading

    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.store.redis import RedisStore
    from app.store.sync import SyncStore
    from tests.web.conftest import Player

    stores = [RedisStore(redis_url), RedisStore(redis_url)]
    apps = [create_app(store=s, proof_pool=proof_pool) for s in stores]
    line = solve(deal(DealCode.parse(CODE))).line
    with (
        TestClient(apps[0], base_url="http://testserver", follow_redirects=False) as one,
        TestClient(apps[1], base_url="http://testserver", follow_redirects=False) as two,
    ):
        p = Player(one, f"/half-moon/{CODE}")
        p.open()
        for removal in line[:-1]:
            for place in removal:
                p.tap(place_name(place))
        for place in line[-1][:-1]:  # select all but the last card of the last removal
            p.tap(place_name(place))
        two.cookies.set("sid", one.cookies["sid"])
        last = place_name(line[-1][-1])
        card = p.top(last)
        start = threading.Barrier(2)
        statuses: list[int] = []

        def finish(client) -> None:
            start.wait()
            response = client.post(
                f"/half-moon/{CODE}/tap",
                data={"place": last, "card": card, "token": p.token},
                headers=HTMX,
            )
            statuses.append(response.status_code)

        threads = [threading.Thread(target=finish, args=(c,)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert statuses == [200, 200]
        doc = SyncStore(stores[0]).player_stats(sid_of(one))
        assert doc is not None
        assert (doc["k"]["HM"]["played"], doc["k"]["HM"]["won"]) == (1, 1)
        assert SyncStore(stores[1]).deal_stats(CODE)["players"] == 1


@pytest.mark.all_stores
def test_stats_lists_games_in_progress_with_their_true_move_count(client, player):
    """Issue 34, finding 9: a game in progress was listed with "Moves 1" (its first move's
    count, kept in the statistics) when it had 4 and 9 moves."""
    for code, removals in ((CODE, 4), (OTHER, 9)):
        p = player(code)
        for removal in solve(deal(DealCode.parse(code))).line[:removals]:
            for place in removal:
                p.tap(place_name(place))
        assert p.board.attrs["data-moves"] == str(removals)
    page = parse(client.get("/stats").text)
    for code, moves in ((CODE, "4"), (OTHER, "9")):
        row = page.by_id("recent").find("tr", data_code=code)
        assert row.find("td", data_label="Moves").text == moves
