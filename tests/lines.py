"""Lines of play from the engine alone, shared by the web and the browser tests (no Playwright
here: the web tests import it)."""

from __future__ import annotations

import random

from app.engine.codes import DealCode
from app.engine.halfmoon import Removal, apply_move, deal, legal_moves


def hm_random_line(code: str, seed: int) -> tuple[list[Removal], bool]:
    """Random legal removals of ``code`` (seeded) until it is won or stuck; True when stuck."""
    rng = random.Random(seed)
    position, line = deal(DealCode.parse(code)), []
    while not position.is_won() and not position.is_stuck():
        removal = rng.choice(sorted(legal_moves(position)))
        line.append(removal)
        position = apply_move(position, removal)
    return line, position.is_stuck()
