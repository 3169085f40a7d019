"""A client against the ASGI app with a memory store, and helpers that play like a browser.

Web tests run on the memory store: ``tests/store`` proves every store behaves the same. The
few marked ``all_stores`` — whole games, the documents' examples, sessions, saved games and
verdicts end to end — run on all three stores the application ships (on SQLite and Redis
they count as ``slow``: the fast loop runs them on memory).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.main import create_app
from app.store.sync import SyncStore
from tests.store.conftest import make_store
from tests.web.html import Element, parse

HTMX = {"HX-Request": "true"}


STORES = ("memory", "sqlite", "redis")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``store`` is the memory store, or each store for a test marked ``all_stores``."""
    if "store" in metafunc.fixturenames:
        every = metafunc.definition.get_closest_marker("all_stores") is not None
        kinds = [
            pytest.param(kind, marks=[pytest.mark.slow] if kind != "memory" else [])
            for kind in (STORES if every else STORES[:1])
        ]
        metafunc.parametrize("store", kinds, indirect=True)


@pytest.fixture
def store(request, tmp_path):
    """The store, called synchronously as tests do (:class:`app.store.sync.SyncStore`);
    ``store.store`` is the store itself, which the application is given."""
    made = SyncStore(make_store(request.param, request, tmp_path))
    yield made
    made.close()


@pytest.fixture
def app(store, proof_pool):
    return create_app(store=store.store, proof_pool=proof_pool)


@pytest.fixture
def client(app):
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        yield client


def sid_of(client: TestClient, name: str = "sid") -> str:
    """The session id the client's cookie holds (the cookie is ``ID.SIGNATURE``)."""
    return client.cookies[name].partition(".")[0]


def plant(client: TestClient, value: str, name: str = "sid") -> None:
    """Set the cookie ``name`` as the server's own answers would (same domain), replacing it."""
    host = client.base_url.host
    client.cookies.delete(name)
    client.cookies.set(name, value, domain=host if "." in host else f"{host}.local")


def cookie_for(app, sid: str, name: str = "sid", joined: bool = False) -> str:
    """The cookie value this app would give the session id ``sid`` (signed; ``joined``: to a
    browser that holds it through a device link), sent today."""
    from app.web.players.sessions import cookie_value, signer_of, today

    return cookie_value(signer_of(app), name, sid, joined, today())


def varies(response) -> list[str]:
    return [part.strip() for part in response.headers.get("vary", "").split(",")]


def token_of(doc: Element) -> str:
    return doc.find_all("input", name="token")[0].attrs["value"]


@dataclass
class Player:
    """A browser on one game page: it keeps the token and the last board it saw."""

    client: TestClient
    url: str
    htmx: bool = True
    doc: Element | None = None
    token: str = ""

    def open(self, url: str | None = None, **headers: str):
        response = self.client.get(url or self.url, headers=headers)
        assert response.status_code == 200, response.text
        self.doc = parse(response.text)
        self.token = token_of(self.doc)
        return response

    @property
    def board(self) -> Element:
        assert self.doc is not None
        return self.doc.by_id("board")

    def top(self, place: str) -> str:
        """The card shown at a place ("" when empty)."""
        cards = self.board.find(data_place=place).find_all(data_card=True)
        return cards[0].attrs["data-card"] if cards else ""

    def post(self, verb: str, **fields: str):
        """POST like the page's form; with htmx the fragment replaces what we saw."""
        data = {**fields, "token": self.token}
        headers = {**HTMX, **board_version(self.board)} if self.htmx else {}
        response = self.client.post(f"{self.url}/{verb}", data=data, headers=headers)
        if self.htmx:
            assert response.status_code == 200, response.text
            assert self.doc is not None
            apply_oob(self.doc, parse(response.text))
        else:
            assert response.status_code == 303, response.text
            self.open(response.headers["location"])
        return response

    def tap(self, place: str, card: str | None = None):
        return self.post("tap", place=place, card=card if card is not None else self.top(place))

    @property
    def status(self) -> str:
        assert self.doc is not None
        return self.doc.by_id("status").text


def board_version(board: Element) -> dict[str, str]:
    """The headers htmx sends from ``#board``'s ``hx-headers:inherited`` (the board version)."""
    return json.loads(board.attrs["hx-headers:inherited"])


def apply_oob(doc: Element, fragment: Element) -> None:
    """Apply an answer of out-of-band swaps as htmx 4 does: each element replaces the one with
    its id (``true``), or gives it its attributes and keeps its children (``outerMorph`` of
    ``#board``, whose children the page's htmx config never morphs)."""
    for new in fragment.children:
        if new.tag == "#root" or not new.attrs.get("id"):
            continue
        swap = new.attrs.pop("hx-swap-oob", None)
        assert swap in ("true", "outerMorph"), f"#{new.attrs['id']} is not out of band: {swap}"
        _replace(doc, new.attrs["id"], new, morph=swap == "outerMorph")


def _replace(doc: Element, ident: str, new: Element, morph: bool = False) -> None:
    for element in doc.iter():
        for i, child in enumerate(element.children):
            if child.attrs.get("id") == ident:
                if morph:
                    assert not new.children, "a morphed #board brings no children"
                    child.attrs = dict(new.attrs)
                else:
                    element.children[i] = new
                return
    raise AssertionError(f"no #{ident} on the page to swap")


@pytest.fixture
def player(client):
    def make(code: str = "HM1-N-AAAAAAB", htmx: bool = True) -> Player:
        p = Player(client, f"/half-moon/{code}", htmx)
        p.open()
        return p

    return make


WHOLE_ANSWER = ["board", "stats", "control-undo", "control-redo", "control-restart", "status"]
"""The ids of an htmx answer that sends the whole board (each an out-of-band swap), in order."""


def deal_as(monkeypatch, game: type, code: str, position: object, app=None) -> None:
    """Make one deal code of ``game`` deal ``position`` (every other code deals as it does);
    with ``app``, forget its cached games — a deal code's cards never change outside tests,
    so the worker's cache keys games by their records."""
    original = game.deal.__func__  # type: ignore[attr-defined]

    def fake(cls, dealt):
        return position if str(dealt) == code else original(cls, dealt)

    monkeypatch.setattr(game, "deal", classmethod(fake))
    if app is not None:
        forget_cached_games(app)


def forget_cached_games(app) -> None:
    """Empty the worker's game cache (``app.web.play.gamecache.GameCache``): for tests that make one
    deal code deal other cards, which never happens outside tests."""
    cache = getattr(app.state, "game_cache", None)
    if cache is not None:
        cache.clear()


FIXED_DAY = "2026-12-02"
"""A day whose daily Half Moon deal, and the day before's, the solver wins within its budget:
tests that win "today's" deal must not depend on the day they run."""


@pytest.fixture
def fixed_day(monkeypatch) -> str:
    """``daily.today()`` (every caller asks through the module) is :data:`FIXED_DAY` unless
    given a time of its own."""
    from app.services import daily

    real = daily.today
    monkeypatch.setattr(daily, "today", lambda now=None: real(now) if now else FIXED_DAY)
    return FIXED_DAY
