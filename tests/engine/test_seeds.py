"""Replay every worked example in ``seeds/`` on the engine: exact boards, selections, scores,
messages, in one format for both games (:mod:`tests.seeds`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import seeds

SEED_FILES = seeds.seed_files()


def test_the_seed_folders_hold_the_required_examples():
    names = {(path.parent.name, path.stem) for path in SEED_FILES}
    assert {
        ("half-moon", "documents-worked-example"),
        ("seahaven", "group_size_example"),
        ("seahaven", "one_cell_deal"),
        ("seahaven", "empty_column_takes_only_a_king"),
        ("seahaven", "take_back_from_foundation"),
        ("seahaven", "lost_at_the_deal"),
    } <= names


@pytest.mark.parametrize("path", SEED_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_seed_replays_as_written(path: Path):
    seed = json.loads(path.read_text(encoding="utf-8"))
    assert seed["game"] == path.parent.name
    seeds.replay(seed)


def _seed(*actions: dict) -> dict:
    return {"game": "half-moon", "code": "HM1-N-AAAAAAB", "actions": list(actions)}


def test_an_unknown_action_fails_the_replay():
    with pytest.raises(seeds.SeedError, match="unknown action 'jump'"):
        seeds.replay(_seed({"do": "check", "expect": {"score": 0}}, {"do": "jump"}))


def test_an_unknown_expectation_fails_the_replay():
    with pytest.raises(seeds.SeedError, match="unknown expectations"):
        seeds.replay(_seed({"do": "check", "expect": {"scroe": 0}}))


def test_a_wrong_expectation_fails_the_replay():
    with pytest.raises(AssertionError):
        seeds.replay(_seed({"do": "check", "expect": {"score": 10}}))
