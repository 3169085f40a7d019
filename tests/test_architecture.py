"""The layers (docs/architecture.md), read from the code's own imports: every import of every
module of ``app/`` — at the top, inside a function, under ``TYPE_CHECKING`` — goes down the
layers or stays in its own, never up or across:

    wiring (app/main.py) → web (app/web/) → services (app/services/) → engine (app/engine/)
                                                                    ↘ store (app/store/)

The engine and the store are side by side: neither imports the other, and neither imports
the services or the web. ``app/i18n.py`` (catalogs, card names) serves the web and reads the
engine's cards; ``app/clock.py``, ``app/config.py``, ``app/lru.py``, ``app/metrics.py`` and
``app/server.py`` import nothing of the application.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import itertools
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"

MAY_IMPORT: dict[str, frozenset[str]] = {
    "wiring": frozenset({"wiring", "web", "services", "engine", "store", "i18n", "base"}),
    "web": frozenset({"web", "services", "engine", "store", "i18n", "base"}),
    "services": frozenset({"services", "engine", "store", "base"}),
    "i18n": frozenset({"i18n", "engine", "base"}),
    "engine": frozenset({"engine", "base"}),
    "store": frozenset({"store", "base"}),
    "base": frozenset({"base"}),
}
"""What each layer may import (the browser's layer, templates and scripts, is not Python)."""

BASE = frozenset(
    {"app", "app.clock", "app.config", "app.lru", "app.metrics", "app.server", "app.status"}
)


def layer(module: str) -> str:
    """The layer of a module of the application, by its dotted name."""
    if module == "app.main":
        return "wiring"
    if module == "app.i18n":
        return "i18n"
    if module in BASE:
        return "base"
    top = module.split(".")[1]
    if top in ("web", "services", "engine", "store"):
        return top
    raise AssertionError(f"{module} is in no layer: place it in docs/architecture.md and here")


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module of the application ``path`` imports, with the line it does it on."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from app.web import halfmoon`` imports the module app.web.halfmoon;
            # ``from app.store import Store``, a name of the package app.store
            known = modules()
            found += [
                (node.lineno, f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
                for alias in node.names
            ]
    return [(line, name) for line, name in found if name == "app" or name.startswith("app.")]


@functools.cache
def modules() -> frozenset[str]:
    return frozenset(module_name(path) for path in APP.rglob("*.py"))


def arrows() -> list[str]:
    """Every import against the layers, as ``file:line: module (layer) → module (layer)``."""
    known = modules()
    wrong = []
    for path in sorted(APP.rglob("*.py")):
        source = module_name(path)
        for line, target in imports(path):
            if target not in known:
                continue  # a name imported from a module, not a module
            if layer(target) not in MAY_IMPORT[layer(source)]:
                where = path.relative_to(APP.parent)
                wrong.append(
                    f"{where}:{line}: {source} ({layer(source)}) → {target} ({layer(target)})"
                )
    return wrong


def import_graph() -> dict[str, dict[str, int]]:
    """Each module of the application → the modules it imports (anywhere in it: at the top,
    in a function, under ``TYPE_CHECKING``) → the line of the first such import."""
    known = modules()
    graph: dict[str, dict[str, int]] = {}
    for path in sorted(APP.rglob("*.py")):
        source = module_name(path)
        edges = graph.setdefault(source, {})
        for line, target in imports(path):
            if target in known and target != source:
                edges.setdefault(target, line)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import circles of ``graph``: one for each group of modules that reach each other
    (Tarjan's strongly connected components), as the path of one circle through it, each
    module named with the line of its import of the next."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while (popped := stack.pop()) != module:
                group.add(popped)
            group.add(module)
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    found = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:  # walk inside the group until a module comes round again
            here = path[-1]
            step = min(t for t in graph[here] if t in group)
            if step in seen:
                path = [*path[path.index(step) :], step]
                break
            path.append(step)
            seen.add(step)
        found.append([*(f"{a}:{graph[a][b]}" for a, b in itertools.pairwise(path)), path[-1]])
    return found


def test_no_import_circles_in_the_application():
    """Issue 47: no module of ``app/`` reaches itself through its imports — counting the
    imports inside functions and under ``TYPE_CHECKING``, so no deferred import hides one.
    Each circle is named as ``module:line`` of each import round it."""
    assert circles(import_graph()) == []


def test_a_circle_is_found_and_named():
    graph = {"a": {"b": 3}, "b": {"c": 5}, "c": {"a": 7, "d": 1}, "d": {}}
    assert circles(graph) == [["a:3", "b:5", "c:7", "a"]]
    assert circles({"a": {"b": 1}, "b": {}}) == []


def test_every_module_is_in_a_layer():
    for module in modules():
        assert layer(module) in MAY_IMPORT


def test_no_import_runs_against_the_layers():
    assert arrows() == []


@pytest.mark.parametrize(
    ("source", "target", "allowed"),
    [
        ("app.web.play.actions", "app.services.proofs", True),
        ("app.services.daily", "app.web.rendering.board_values", False),
        ("app.engine.game", "app.store.base", False),
        ("app.store.counting", "app.engine.codes", False),
        ("app.engine.codes", "app.services.daily", False),
        ("app.web.pages.home", "app.main", False),
        ("app.i18n", "app.web.rendering.board_values", False),
    ],
)
def test_the_rule_itself(source, target, allowed):
    assert (layer(target) in MAY_IMPORT[layer(source)]) is allowed


def _game_names():
    spec = importlib.util.spec_from_file_location(
        "game_names", APP.parent / "scripts/game_names.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ALLOWED_TO_NAME_GAMES = {
    "app/engine/games.py",  # the table of games: their packages
    "app/web/games.py",  # every game's web package; the site's sentences that name them all
}
"""The two registries, and nothing else: the wiring (``app/main.py``) takes the routers from
the web's table, and the statistics (``app/store/counting.py``) are told each game's kind by the
web layer (``StoredGame.kind``)."""


def test_outside_its_own_packages_a_game_is_named_only_by_the_two_registries():
    """Issue 25: a game is its two packages, found through one table (``scripts/game_names.py``
    prints the modules and what in them names a game)."""
    hits = _game_names().count(APP.parent)
    assert set(hits) <= ALLOWED_TO_NAME_GAMES, hits
    assert len(hits) <= 2, hits


def test_every_game_is_its_two_packages_found_through_the_table():
    from app.engine import games
    from app.web import games as web_games

    assert games.PACKAGES == ("halfmoon", "seahaven")
    for name in games.PACKAGES:
        game = importlib.import_module(f"app.engine.{name}").GAME
        screen = importlib.import_module(f"app.web.{name}").SCREEN
        assert games.GAMES[game.slug] is game and web_games.SCREENS[game.slug] is screen
        assert screen.game is game and games.game_by_id(game.game_id) is game
    assert len({g.game_id for g in games.GAMES.values()}) == len(games.GAMES)
    assert len(web_games.ROUTERS) == len(games.PACKAGES)


def test_a_package_that_is_no_game_is_refused_by_name():
    from app.engine import games
    from app.web import games as web_games

    with pytest.raises(ImportError, match=r"app\.engine\.cards has no GAME"):
        games._game_of("cards")
    with pytest.raises(ImportError, match=r"app\.web\.rendering needs SCREEN"):
        web_games._router_of("rendering")


@pytest.mark.parametrize("layer", ["web", "store"])
def test_no_module_of_the_web_or_the_store_is_over_400_lines(layer):
    """One concern a module (issue 36): the web layer's and the store's modules stay short
    enough to read whole."""
    long = {
        str(path.relative_to(APP)): lines
        for path in sorted((APP / layer).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}


def test_the_type_check_covers_all_of_the_application():
    """``mypy --strict`` on ``app/`` as a whole, not only the engine (issue 36): what
    ``scripts/test`` runs (a bare ``mypy``) reads its files and strictness from here."""
    import tomllib

    config = tomllib.loads((APP.parent / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["app"]
    assert ".venv/bin/mypy\n" in (APP.parent / "scripts/test").read_text("utf-8")


MAX_FUNCTION_LINES = 60


def long_functions() -> dict[str, int]:
    """Every function of ``app/`` over :data:`MAX_FUNCTION_LINES` lines, counted from its
    ``def`` to the end of its body (its docstring and comments too), as ``file:line name``."""
    long = {}
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(APP.parent)}:{node.lineno} {node.name}"] = lines
    return long


def test_no_function_of_the_application_is_over_60_lines():
    """Issue 47: a function reads whole on a screen; a longer one is split into named steps."""
    assert long_functions() == {}
