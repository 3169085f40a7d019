"""A worker warms up before it accepts players (issue 48 item 2): by the time the lifespan has
run, every template is compiled, every catalog read and the proof processes answer — the first
game page pays for none of it (``bench/bench_cold.py`` measures it)."""

from __future__ import annotations

from app.i18n import translations
from app.main import create_app
from app.store import MemoryStore
from app.web.edge.warmup import compile_everything
from app.web.rendering.board_markup import ENV as MARKUP_ENV
from tests.web.conftest import TestClient


def test_the_lifespan_compiles_every_template_before_the_first_request(proof_pool):
    app = create_app(store=MemoryStore(), proof_pool=proof_pool)
    env = app.state.renderer.env
    names = env.list_templates(extensions=["html"])
    assert len(names) > 30
    with TestClient(app):
        compiled = {template.name for template in env.cache.values()}  # type: ignore[union-attr]
        assert set(names) <= compiled
        board = {t.name for t in MARKUP_ENV.cache.values()}  # type: ignore[union-attr]
        assert {"board/ending.html", "games/seahaven/board.html", "partials/analysis.html"} <= board
        assert translations.cache_info().currsize >= 2  # type: ignore[attr-defined]


def test_a_second_application_loads_the_compiled_templates_instead_of_compiling(monkeypatch):
    """Compiled once a process (a test client per test pays it once): the second environment
    finds every template's code in the shared cache."""
    first = create_app(store=MemoryStore()).state.renderer.env
    compile_everything(first)
    compiles = []
    second = create_app(store=MemoryStore()).state.renderer.env
    original = second.compile
    monkeypatch.setattr(second, "compile", lambda *a, **k: compiles.append(a) or original(*a, **k))
    compile_everything(second)
    assert compiles == []
