"""Revoking a device link (issue 34, findings 2, 3 and 7's revoke): safe to send again and to
race — the answer always names the id that holds the player's data — and a browser that
joined through a leaked link cannot turn it against its owner: it may play, and leave, but
only the browser that holds the id as its own makes or revokes the link."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import httpx
import pytest

from tests.web.conftest import plant, sid_of, token_of
from tests.web.html import parse
from tests.web.test_attacks import browser, joined, make_link, use_link
from tests.web.test_stats import stats_row, win

pytestmark = pytest.mark.all_stores

REVOKED = (
    "The device link was revoked: it opens nothing any more, and the browsers that used it"
    " no longer see your games and statistics. This browser keeps them."
)


def _revoke(client: Any, token: str) -> Any:
    return client.post("/stats/link/revoke", data={"token": token})


def _notice(client: Any, answer: Any) -> str | None:
    found = parse(client.get(answer.headers["location"]).text).find_all(id="stats-notice")
    return str(found[0].text) if found else None


def test_a_revoke_sent_again_after_its_answer_was_lost_ends_on_the_id_that_holds_the_data(
    client, player, store
):
    """Before: the browser, still on the old id, ended on the emptied id while the notice
    said "This browser keeps them"."""
    win(player)
    make_link(client)
    before, token = client.cookies["sid"], token_of(parse(client.get("/stats").text))
    first = _revoke(client, token)
    holder = sid_of(client)
    plant(client, before)  # the answer never arrived: the browser holds the old id
    again = _revoke(client, token)
    assert again.status_code == 303
    assert sid_of(client) == holder != before.partition(".")[0]
    assert _notice(client, again) == REVOKED
    assert stats_row(client)["won"] == "1"
    assert first.headers["location"].startswith("/stats?n=revoked&t=")


def _revoke_ten(app: Any, cookie: str, token: str) -> list[str]:
    """Ten Revokes sent at once from one browser (a double click, a retry): each answer's id."""

    async def main() -> list[str]:
        transport = httpx.ASGITransport(app=app)
        clients = [
            httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(10)
        ]
        for c in clients:
            c.cookies.set("sid", cookie)
        answers = await asyncio.gather(
            *(c.post("/stats/link/revoke", data={"token": token}) for c in clients)
        )
        for c in clients:
            await c.aclose()
        return [a.cookies["sid"].partition(".")[0] for a in answers]

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def test_ten_revokes_at_once_all_end_on_the_id_that_holds_the_data(app, client, player, store):
    """Before: one answer of ten carried the id that holds the data."""
    win(player)
    make_link(client)
    token = token_of(parse(client.get("/stats").text))
    ids = _revoke_ten(app, client.cookies["sid"], token)
    assert len(set(ids)) == 1 and ids[0] != sid_of(client)
    assert store.player_stats(ids[0])["k"]["HM"]["won"] == 1
    assert store.player_stats(sid_of(client)) is None


def test_a_browser_that_joined_through_the_link_cannot_revoke_it(app, client, player, store):
    """Before: whoever held a leaked link could revoke first, take the owner's games to an id
    only that browser got, and leave the owner with nothing for good."""
    with joined(app, client, player) as (_, owner, thief):
        assert sid_of(thief) == owner and stats_row(thief)["won"] == "1"
        page = parse(thief.get("/stats").text)
        assert page.find_all(id="revoke-link") == page.find_all(id="make-link") == []
        assert page.by_id("joined-help").text.startswith("This browser plays through a device")
        refused = _revoke(thief, token_of(page))
        assert refused.status_code == 403
        assert "Only the browser that made the link" in refused.text
        made = thief.post("/stats/link", data={"token": token_of(page)})
        assert made.status_code == 403  # nor make a link of its own to revoke then
        assert sid_of(thief) == owner
    assert store.has_link(owner) and stats_row(client)["won"] == "1"
    revoked = _revoke(client, token_of(parse(client.get("/stats").text)))
    assert _notice(client, revoked) == REVOKED  # the owner's revoke: true
    assert stats_row(client)["won"] == "1"


def test_a_browser_that_joined_through_the_link_may_leave(app, client, player, store):
    with joined(app, client, player) as (_, owner, guest):
        left = guest.post(
            "/stats/link/leave", data={"token": token_of(parse(guest.get("/stats").text))}
        )
        assert left.status_code == 303
        assert sid_of(guest) != owner and stats_row(guest)["won"] == "0"
        assert _notice(guest, left) == (
            "This browser no longer plays through the device link: it starts afresh. The"
            " link's games stay with the browser that made it."
        )
        page = parse(guest.get("/stats").text)
        assert len(page.find_all(id="make-link")) == 1  # its own id now
    assert store.has_link(owner) and stats_row(client)["won"] == "1"


def test_the_owner_opening_its_own_link_stays_its_owner(client, player, store):
    win(player)
    secret = make_link(client)
    use_link(client, secret)
    page = parse(client.get("/stats").text)
    assert len(page.find_all(id="revoke-link")) == 1
    revoked = _revoke(client, token_of(page))
    assert _notice(client, revoked) == REVOKED


def test_a_revoke_without_a_link_says_nothing_and_moves_nothing(client, player, store):
    """Before: "The device link was revoked …" for an id that never had one."""
    win(player)
    sid = sid_of(client)
    answer = _revoke(client, token_of(parse(client.get("/stats").text)))
    assert answer.headers["location"] == "/stats"
    assert _notice(client, answer) is None
    assert sid_of(client) == sid and stats_row(client)["won"] == "1"


def test_a_browser_that_still_holds_its_emptied_id_is_told_and_offered_the_way_back(
    app, client, player, store
):
    """Issue 44: a late answer put the emptied id back (before, every answer sent the cookie):
    the page offered no way back. Its owner's browser is told and brings the data back; a
    browser that held the id through the link is told the link was revoked, never given the
    owner's new id."""
    win(player)
    secret = make_link(client)
    old = client.cookies["sid"]
    with browser(app) as joined:
        use_link(joined, secret)
        token = token_of(parse(client.get("/stats").text))
        _revoke(client, token)
        holder = sid_of(client)
        plant(client, old)  # the answer that crossed the revocation
        page = parse(client.get("/stats").text)
        assert (
            page.by_id("emptied")
            .find("p")
            .text.startswith("This browser's games and statistics moved to a new id")
        )
        back = client.post("/stats/link/return", data={"token": token_of(page)})
        assert back.status_code == 303
        assert sid_of(client) == holder
        assert _notice(client, back) == "This browser has its games and statistics back."
        assert stats_row(client)["won"] == "1"
        told = parse(joined.get("/stats").text)
        assert told.by_id("emptied").text.startswith("The device link this browser played")
        refused = joined.post("/stats/link/return", data={"token": token_of(told)})
        assert refused.status_code == 403
        assert sid_of(joined) != holder and "set-cookie" not in refused.headers
