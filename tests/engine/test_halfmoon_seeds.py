"""Replay every worked example in seeds/half-moon/: exact boards, selections, scores, messages."""

import json
from pathlib import Path

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, parse_place, place_name, position_from_data

SEEDS = sorted((Path(__file__).parents[2] / "seeds" / "half-moon").glob("*.json"))


def test_there_are_seeds():
    assert SEEDS


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.stem)
def test_seed_replays_exactly(path):
    seed = json.loads(path.read_text(encoding="utf-8"))
    start = position_from_data(seed["start"])
    game = HalfMoon.starting_from(DealCode.parse("HM1-N-AAAAAAB"), start)
    for number, step in enumerate(seed["steps"], 1):
        where = f"step {number}: {step.get('say', '')}"
        result = None
        if "tap" in step:
            place, card = step["tap"]
            result = game.tap(place, Card.parse(card), now=number * 1000)
        expect = step["expect"]
        if "outcome" in expect:
            assert result is not None and result.outcome.value == expect["outcome"], where
        if "removed" in expect:
            assert [str(c) for c in result.cards] == expect["removed"], where
        if "refusal" in expect:
            assert result.refusal is not None and result.refusal.value == expect["refusal"], where
        if "selection" in expect:
            assert [place_name(p) for p in game.selection] == expect["selection"], where
        if "score" in expect:
            assert game.score == expect["score"], where
        if "moves" in expect:
            assert game.move_count == expect["moves"], where
        if "dimmed" in expect:
            assert sorted(game.dimmed()) == sorted(map(parse_place, expect["dimmed"])), where
        if "board" in expect:
            tops = [game.position.top(p) for p in range(20)]
            counts = [game.position.count(p) for p in range(20)]
            assert [None if c is None else str(c) for c in tops] == expect["board"]["tops"], where
            assert counts == expect["board"]["counts"], where
