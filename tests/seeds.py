"""The one seed format and its one replayer, for both games (``seeds/<game>/*.json``).

A seed is a worked example from the rule documents, as data::

    {"title": …, "source": …, "game": "half-moon" | "seahaven",
     "code": "HM1-N-AAAAAAB",          (the deal; optional when "position" is given)
     "position": {…},                  (optional: the game starts from this board instead)
     "actions": [{"do": "tap", "place": "pile-1", "card": "5S", "say": …, "expect": {…}}, …],
     "expect": {…}}                    (optional: checked after the last action)

``do`` is one of :data:`ACTIONS` and every ``expect`` key one of :data:`EXPECTATIONS`: anything
else fails the replay (:class:`SeedError`), so a misspelt action can never pass by being skipped.
The engine replays every seed (``tests/engine/test_seeds.py``); the web tests walk the same
actions through HTTP with :func:`actions`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import ActionResult, UnknownPlaceError
from app.engine.games import AnyGame, find_game
from app.engine.halfmoon import HalfMoon, parse_place, place_name, position_from_data
from app.engine.seahaven import Seahaven, max_group
from app.engine.seahaven import parse_place as seahaven_place

SEEDS_DIR = Path(__file__).resolve().parents[1] / "seeds"

ACTIONS = frozenset({"tap", "auto", "move", "undo", "check", "max_group"})
"""``check`` acts on nothing: its ``expect`` is checked against the game as it stands."""

EXPECTATIONS = frozenset(
    {
        # what the action did
        "outcome",
        "reason",
        "limit",
        "message",
        "move",
        "removed",
        "value",
        "error",
        # the game after it
        "selection",
        "score",
        "moves",
        "won",
        "lost",
        "legal",
        "places",
        "cells",
        "max_group",
        "board",
        "dimmed",
    }
)

ERRORS = {"UnknownPlaceError": UnknownPlaceError}


class SeedError(AssertionError):
    """A seed that does not follow the format: an unknown action, expectation or game."""


def seed_files(game: str | None = None) -> list[Path]:
    """Every seed file, or those of one game (by slug)."""
    folders = [SEEDS_DIR / game] if game else sorted(p for p in SEEDS_DIR.iterdir() if p.is_dir())
    return sorted(path for folder in folders for path in folder.glob("*.json"))


def load(game: str, name: str) -> dict[str, Any]:
    return json.loads((SEEDS_DIR / game / f"{name}.json").read_text(encoding="utf-8"))


def actions(seed: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each action as ``(do, action, expect)``, checked against the format first.

    :raises SeedError: on an action or an expectation the format does not have.
    """
    for number, action in enumerate(seed["actions"], 1):
        do, expect = action.get("do"), action.get("expect", {})
        if do not in ACTIONS:
            raise SeedError(f"action {number}: unknown action {do!r} (known: {sorted(ACTIONS)})")
        unknown = set(expect) - EXPECTATIONS
        if unknown:
            raise SeedError(f"action {number}: unknown expectations {sorted(unknown)}")
        yield do, action, expect


def start(seed: dict[str, Any]) -> AnyGame:
    """The game a seed starts from: its deal, or its position."""
    game = find_game(seed["game"])
    if "position" not in seed:
        return game(DealCode.parse(seed["code"]))
    if game is HalfMoon:
        return HalfMoon.starting_from(
            DealCode.parse(seed["code"]), position_from_data(seed["position"])
        )
    if game is Seahaven:
        return Seahaven.from_position(seed["position"])
    raise SeedError(f"no seed positions for {seed['game']!r}")


def selection(game: AnyGame) -> list[str]:
    """The selection as seeds write it: Half Moon's places, Seahaven's ``place:card``."""
    if isinstance(game, HalfMoon):
        return [place_name(p) for p in game.selection]
    text = game.selection_text()
    return [text] if text else []


def _card(text: str | None) -> Card | None:
    return None if text is None or text == "" else Card.parse(text)


def act(game: AnyGame, do: str, action: dict[str, Any], now: int) -> Any:
    """Play one action on the engine; what it answered (an action's result, a number)."""
    if do == "tap":
        return game.tap(action["place"], _card(action["card"]), now=now)
    if do == "auto":
        return game.auto(action["place"], _card(action["card"]), now=now)
    if do == "move":
        return game.move(action["source"], _card(action["card"]), action["target"], now=now)
    if do == "undo":
        return game.undo(now=now)
    if do == "max_group":
        return max_group(game.position, action["target_is_empty_column"])
    if do == "check":
        return None
    raise SeedError(f"unknown action {do!r}")


def check(game: AnyGame, result: Any, expect: dict[str, Any], where: str) -> None:
    """Every expectation of one action (or of the whole seed) against the engine."""
    if isinstance(result, ActionResult):
        assert result.outcome.value == expect.get("outcome", result.outcome.value), where
        if "outcome" in expect and expect["outcome"] != "refused":
            assert result.reason is None, where
        if "reason" in expect:
            assert result.reason is not None and result.reason.name == expect["reason"], where
        assert result.limit == expect.get("limit", result.limit), where
        if "message" in expect:
            assert result.message == expect["message"], where
        if "move" in expect:
            assert result.move is not None and str(result.move) == expect["move"], where
        if "removed" in expect:
            assert [str(c) for c in result.cards] == expect["removed"], where
    elif "outcome" in expect:
        raise SeedError(f"{where}: an outcome is expected of an action that has none")
    if "value" in expect:
        assert result == expect["value"], where
    position = game.position
    for name, cards in expect.get("places", {}).items():
        assert _place_text(game, name) == cards, f"{where}: {name}"
    if "cells" in expect:
        assert [None if c is None else str(c) for c in position.cells] == expect["cells"], where
    if "score" in expect:
        assert game.score == expect["score"], where
    if "moves" in expect:
        assert game.move_count == expect["moves"], where
    if "selection" in expect:
        assert selection(game) == expect["selection"], where
    if "max_group" in expect:
        assert game.max_group() == expect["max_group"], where
    if "lost" in expect:
        assert game.is_lost() is expect["lost"], where
    if "won" in expect:
        assert game.is_won() is expect["won"], where
    if "legal" in expect:
        assert sorted(str(m) for m in game.legal_moves()) == expect["legal"], where
    if "dimmed" in expect:
        assert sorted(game.dimmed()) == sorted(map(parse_place, expect["dimmed"])), where
    if "board" in expect:
        tops = [position.top(p) for p in range(20)]
        assert [None if c is None else str(c) for c in tops] == expect["board"]["tops"], where
        assert [position.count(p) for p in range(20)] == expect["board"]["counts"], where


def _place_text(game: AnyGame, name: str) -> str:
    """Seahaven: a column's cards bottom to top, or the top card of a cell or foundation."""
    assert isinstance(game, Seahaven), "places are Seahaven's expectation"
    place = seahaven_place(name, game.cell_count)
    if name.startswith("column-"):
        return " ".join(str(card) for card in game.position.columns[place])
    top = game.position.top(place)
    return "" if top is None else str(top)


def replay(seed: dict[str, Any]) -> AnyGame:
    """Play a whole seed on the engine, checking every expectation; the game at the end."""
    game = start(seed)
    for number, (do, action, expect) in enumerate(actions(seed), 1):
        where = f"action {number}: {action.get('say', json.dumps(action))}"
        if "error" in expect:
            before = (game.position, game.selection_text(), game.move_count)
            try:
                act(game, do, action, now=number * 1000)
            except ERRORS[expect["error"]]:
                pass
            else:
                raise AssertionError(f"{where}: expected {expect['error']}")
            assert (game.position, game.selection_text(), game.move_count) == before, where
            continue
        check(game, act(game, do, action, now=number * 1000), expect, where)
    check(game, None, seed.get("expect", {}), "the end")
    return game
