"""Seahaven's analysis checked against Freecell Solver (``fc-solve``, Debian's freecell-solver).

The documents' group formula, ``(free cells + 1) × 2^(empty columns)``, lies between fc-solve's
``seahaven`` preset (runs of at most free cells + 1) and ``relaxed_seahaven`` (any run), both
with kings alone on empty columns and same-suit runs. So a position our solver proves lost must
not be solved under the strict preset, and a position it wins must not be proved unsolvable
under the relaxed one. The test command installs fc-solve (``scripts/setup.sh``).
"""

import shutil
import subprocess

import pytest

from app.engine.analysis import Finding, analyse, line_positions
from app.engine.seahaven import Seahaven
from app.engine.seahaven.rules import Position

from .ended_games import ended_games

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("fc-solve") is None, reason="needs fc-solve"),
]
POSITIONS = 50
FC_ITERATIONS = 500_000


def board_text(position: Position) -> str:
    """fc-solve's board: foundations, cells, then columns bottom → top (10 is T)."""

    def card(c: object) -> str:
        return str(c).replace("10", "T")

    s, h, d, c = position.foundations
    lines = [f"Founds: H-{h} C-{c} D-{d} S-{s}"]
    lines.append("FC: " + " ".join(card(x) if x else "-" for x in position.cells))
    lines += [" ".join(card(x) for x in column) for column in position.columns]
    return "\n".join(lines) + "\n"


def fc_solve(position: Position, preset: str) -> str:
    command = ["fc-solve", "-g", preset, "--freecells-num", str(len(position.cells))]
    out = subprocess.run(
        [*command, "-mi", str(FC_ITERATIONS)],
        input=board_text(position),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    if "This game is solveable" in out:
        return "won"
    if "Iterations count exceeded" in out:
        return "undecided"
    assert "I could not solve this game" in out, out[-500:]
    return "no win"


def _slipped_positions():
    """Positions k (winnable) and k + 1 (proved lost) of random ended games, 50 in all."""
    found = []
    for code, moves in ended_games(Seahaven, "C4", 100, 51):
        finding = analyse(Seahaven, Seahaven.deal(code), moves, 20_000)
        if finding.kind is Finding.SLIPPED:
            k = finding.last_winnable
            positions = line_positions(Seahaven, Seahaven.deal(code), moves)
            found += [(positions[k], "won"), (positions[k + 1], "no win")]
        if len(found) >= POSITIONS:
            break
    return found[:POSITIONS]


def test_our_verdicts_agree_with_fc_solve_on_fifty_analysed_positions():
    positions = _slipped_positions()
    assert len(positions) == POSITIONS
    for position, ours in positions:
        if ours == "no win":
            assert fc_solve(position, "seahaven") != "won", board_text(position)
        else:
            assert fc_solve(position, "relaxed_seahaven") != "no win", board_text(position)
    assert fc_solve(positions[0][0], "relaxed_seahaven") == "won"
