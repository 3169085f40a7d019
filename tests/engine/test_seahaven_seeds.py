"""Replay every worked example in ``seeds/seahaven/`` (positions and expectations as data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import UnknownPlaceError
from app.engine.seahaven import (
    ActionResult,
    Seahaven,
    encode_move,
    legal_moves,
    max_group,
    parse_place,
)

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "seahaven"
SEED_FILES = sorted(SEEDS.glob("*.json"))
ERRORS = {"UnknownPlaceError": UnknownPlaceError}


def test_the_seed_folder_holds_the_required_examples():
    names = {path.stem for path in SEED_FILES}
    assert {
        "group_size_example",
        "one_cell_deal",
        "empty_column_takes_only_a_king",
        "take_back_from_foundation",
        "lost_at_the_deal",
    } <= names


def _game(seed: dict[str, Any]) -> Seahaven:
    if "code" in seed:
        return Seahaven(DealCode.parse(seed["code"]))
    return Seahaven.from_position(seed["position"])


def _place_text(game: Seahaven, name: str) -> str:
    place = parse_place(name, game.cell_count)
    if name.startswith("column-"):
        return " ".join(str(card) for card in game.position.columns[place])
    top = game.position.top(place)
    return "" if top is None else str(top)


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def _act(game: Seahaven, action: dict[str, Any]) -> ActionResult | int | None:
    do = action["do"]
    if do == "tap":
        return game.tap(action["place"], _card(action["card"]), now=0)
    if do == "auto":
        return game.auto(action["place"], _card(action["card"]), now=0)
    if do == "move":
        return game.move(action["source"], _card(action["card"]), action["target"], now=0)
    if do == "undo":
        game.undo(now=0)
        return None
    if do == "max_group":
        return max_group(game.position, action["target_is_empty_column"])
    assert do == "check", f"unknown action {do!r}"
    return None


def _check(game: Seahaven, result: ActionResult | int | None, expect: dict[str, Any]) -> None:
    if isinstance(result, ActionResult):
        assert result.outcome.value == expect.get("outcome", result.outcome.value)
        if "outcome" in expect and expect["outcome"] != "refused":
            assert result.reason is None
        if "reason" in expect:
            assert result.reason is not None
            assert result.reason.name == expect["reason"]
        assert result.limit == expect.get("limit", result.limit)
        if "message" in expect:
            assert result.message == expect["message"]
        if "move" in expect:
            assert result.move is not None
            assert encode_move(result.move) == expect["move"]
    if "value" in expect:
        assert result == expect["value"]
    for name, cards in expect.get("places", {}).items():
        assert _place_text(game, name) == cards, name
    if "cells" in expect:
        assert [None if c is None else str(c) for c in game.position.cells] == expect["cells"]
    if "score" in expect:
        assert game.score == expect["score"]
    if "moves" in expect:
        assert game.move_count == expect["moves"]
    if "selection" in expect:
        assert game.selection_text() == expect["selection"]
    if "max_group" in expect:
        assert game.max_group() == expect["max_group"]
    if "lost" in expect:
        assert game.is_lost() is expect["lost"]
    if "won" in expect:
        assert game.is_won() is expect["won"]
    if "legal" in expect:
        assert sorted(encode_move(m) for m in legal_moves(game.position)) == expect["legal"]


@pytest.mark.parametrize("path", SEED_FILES, ids=lambda path: path.stem)
def test_seed_replays_as_written(path: Path):
    seed = json.loads(path.read_text(encoding="utf-8"))
    game = _game(seed)
    for action in seed["actions"]:
        expect = action.get("expect", {})
        if "error" in expect:
            before = (game.position, game.selection_text(), game.move_count)
            with pytest.raises(ERRORS[expect["error"]]):
                _act(game, action)
            assert (game.position, game.selection_text(), game.move_count) == before
            continue
        _check(game, _act(game, action), expect)
    _check(game, None, seed.get("expect", {}))
