"""Every POST route of the app's route table is held to the origin check and the write limit
(``app.web.edge.dependencies.guard_write``): a cross-site POST with a valid form token is refused
(403) and writes nothing; past the client's write limit, every POST is refused (429). Built
from FastAPI's own table, as ``tests/web/anonymous.py`` does for GETs: a route added tomorrow
is checked tomorrow, and one whose sample path is missing fails."""

from __future__ import annotations

import pytest
from fastapi import routing

from app.config import Config
from app.main import create_app
from app.store import MemoryStore
from tests.store.helpers import footprint
from tests.web.conftest import TestClient, token_of
from tests.web.html import parse

SAMPLES = {
    "code": {"half-moon": "HM1-N-AAAAAAB", "seahaven": "SH1-C4-AAAAAAB"},
    "secret": "A" * 32,
    "ident": "A" * 22,
}
"""A value for each path parameter of a POST route (a deal code by the route's game)."""


def post_routes(app) -> list[str]:
    """The path (as declared: ``/half-moon/{code}/tap``) of every route that answers POST."""
    return sorted(
        {
            context.path
            for context in routing.iter_route_contexts(app.routes)
            if context.path is not None and "POST" in (context.methods or ())
        }
    )


def sample(path: str) -> str:
    game = path.strip("/").split("/")[0]
    filled = path
    for name, value in SAMPLES.items():
        if f"{{{name}}}" in filled:
            filled = filled.replace(
                f"{{{name}}}", value[game] if isinstance(value, dict) else value
            )
    assert "{" not in filled, f"no sample for {path}: add one to SAMPLES"
    return filled


ROUTES = post_routes(create_app())


def test_the_route_table_has_the_posts_players_make():
    assert {"/settings", "/half-moon/{code}/tap", "/seahaven/{code}/move", "/replay"} <= set(ROUTES)
    assert len(ROUTES) >= 18


def opened(client) -> str:
    """A session of the client's own (a setting saved), and its form token."""
    token = token_of(parse(client.get("/").text))
    assert client.post("/settings", data={"lang": "en", "token": token}).status_code == 303
    return token


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}],
    ids=["origin", "fetch-site"],
)
def test_a_cross_site_post_with_a_valid_token_is_refused_and_writes_nothing(
    path, headers, proof_pool
):
    store = MemoryStore()
    app = create_app(store=store, proof_pool=proof_pool)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        token = opened(client)
        before = footprint(store)
        response = client.post(sample(path), data={"token": token, "lang": "tr"}, headers=headers)
        assert response.status_code == 403, response.text[:300]
        assert "this site’s own pages" in response.text
        assert footprint(store) == before


@pytest.mark.parametrize("path", ROUTES)
def test_past_the_write_limit_every_post_is_refused(path, proof_pool):
    """Two POSTs a minute: the session's setting and one POST to the route pass the limit
    (whatever that route then answers); the route's next is a 429."""
    app = create_app(Config(rate_writes="2/minute"), store=MemoryStore(), proof_pool=proof_pool)
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        token = opened(client)
        first = client.post(sample(path), data={"token": token})
        assert first.status_code != 429, first.text[:300]
        refused = client.post(sample(path), data={"token": token})
        assert refused.status_code == 429, refused.text[:300]
        assert int(refused.headers["Retry-After"]) >= 1
