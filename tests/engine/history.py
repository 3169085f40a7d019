"""What every game's record must carry back (both games' property tests)."""

from __future__ import annotations

from typing import Any


def assert_rebuilt(again: Any, game: Any) -> None:
    """``again``, rebuilt from ``game``'s record, has the same history, selection, Undo floor
    and clock, and writes the same record."""
    assert again.positions == game.positions
    assert again.moves == game.moves
    assert again.redo_stack == game.redo_stack
    assert again.selection == game.selection
    assert again.undo_floor == game.undo_floor
    assert again.clock == game.clock
    assert again.to_record() == game.to_record()
