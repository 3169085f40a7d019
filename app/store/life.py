"""A game's life as one typed value (issue 43): what the game is, where it stands, and which
ending was the one counted — read from its row (:func:`life_of`), changed by the transitions
below, and asked by every reader (statistics, streaks, standings, the deal's figures, replays,
the end box, the home page's lists, ``/stats``) through the questions at the end.

The table these functions implement is ``docs/statistics.md`` (*The life of a game*); a test
runs every transition against every reader (``tests/store/test_life.py``).

What a game is (:class:`Nature`):

- ``counted``: the player's own game of a deal: its first ending counts (statistics, streak,
  the deal's figures, standings) and it has a replay;
- ``practice``: *Try from move k* — a row of its own beside the player's game
  (:func:`practice_key`), counted nowhere, never replayed, never ranked;
- ``assisted``: a game played with hints (a hint was shown in it: issue 45,
  :mod:`app.web.play.hints`): counted as played, won or lost and in the streak, but in no personal
  best, deal figure or standing, and replayed like any other.

Where it stands (:class:`Stand`) and the ending counted: ``playing``, ``won``, ``lost``
(Seahaven's "no useful move", Half Moon's stuck) or ``abandoned`` (another deal of its kind
started while it was unfinished, counted as lost). The ending counted is written in the row's
marks by the statistics when they count it (``Marks.result``); a row stored before issue 43
has none, and reads as counting its present ending (the only one it could have shown).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Protocol

from app.status import Status
from app.store.marks import RESULT_COUNTED, Marks

PRACTICE: Final = "practice"
"""The last part of a practice game's key and URL: ``/half-moon/CODE/practice``."""


def practice_key(code: str) -> str:
    """The store key of the player's practice game of deal ``code`` (one per deal: a new
    *Try* replaces it), beside the player's own game, keyed ``code``.

    >>> practice_key("HM1-N-AAAAAAB")
    'HM1-N-AAAAAAB/practice'
    """
    return f"{code}/{PRACTICE}"


def deal_of(key: str) -> tuple[str, bool]:
    """The deal code a game's key names, and whether it is a practice game's key.

    >>> deal_of("HM1-N-AAAAAAB/practice"), deal_of("HM1-N-AAAAAAB")
    (('HM1-N-AAAAAAB', True), ('HM1-N-AAAAAAB', False))
    """
    code, _, tail = key.partition("/")
    return code, tail == PRACTICE


class Nature(StrEnum):
    """What a game is."""

    COUNTED = "counted"
    PRACTICE = "practice"
    ASSISTED = "assisted"


class Stand(StrEnum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"

    @property
    def ended(self) -> bool:
        return self is not Stand.PLAYING


_STANDS: Final = {
    Status.PLAYING: Stand.PLAYING,
    Status.WON: Stand.WON,
    Status.LOST: Stand.LOST,
    Status.STUCK: Stand.LOST,
}
_RESULTS: Final = {"won": Stand.WON, "lost": Stand.LOST, "abandoned": Stand.ABANDONED}


@dataclass(frozen=True, slots=True)
class Life:
    """A game's life: what it is, where it stands, its moves, and the ending counted."""

    nature: Nature = Nature.COUNTED
    stands: Stand = Stand.PLAYING
    moves: int = 0
    counted: Stand | None = None
    """The ending the statistics counted (``None``: none yet): won, lost or abandoned."""
    first: bool = True
    """The player's first game of this deal: its ending enters the deal's figures (a deal
    started again after it ended counts for the player alone, issue 34)."""


class Row(Protocol):
    """What a life is read from: a saved game (:class:`~app.store.values.StoredGame`) or its
    line in a list (:class:`~app.store.values.GameSummary`)."""

    @property
    def state(self) -> Status: ...
    @property
    def moves(self) -> int: ...
    @property
    def marks(self) -> Marks: ...


def life_of(row: Row | None) -> Life:
    """The life a stored row holds (``None``: a deal only opened)."""
    if row is None:
        return Life()
    marks = row.marks
    nature = (
        Nature.PRACTICE if marks.practice else Nature.ASSISTED if marks.assisted else Nature.COUNTED
    )
    stands = _STANDS[row.state]
    counted: Stand | None = None
    if nature is not Nature.PRACTICE and marks.counted in RESULT_COUNTED:
        counted = _RESULTS.get(marks.result) or (stands if stands.ended else Stand.LOST)
    first = marks.counted not in ("again", "new", "aside")
    return Life(nature, stands, row.moves, counted, first)


def result_mark(won: bool) -> str:
    """What ``Marks.result`` holds for an ending counted now."""
    return "won" if won else "lost"


def with_result(marks: Marks, won: bool) -> Marks:
    return marks._replace(result=result_mark(won))


# --- transitions: each a function of the life --------------------------------------------------


def first_move(life: Life) -> Life:
    """The game's first move: it is played (a counted one counts as played)."""
    return replace(life, moves=max(life.moves, 1))


def end(life: Life, won: bool) -> Life:
    """The game ends: the first ending of a game that counts is the one counted."""
    stands = Stand.WON if won else Stand.LOST
    counted = life.counted
    if counted is None and life.nature is not Nature.PRACTICE:
        counted = stands
    return replace(life, stands=stands, counted=counted)


def undo_after_end(life: Life) -> Life:
    """Undo after the end: the game goes on; the ending counted stays the one counted."""
    return replace(life, stands=Stand.PLAYING)


def restart(life: Life) -> Life:
    """Restart (or *Play this deal again*): a game that had ended is a new game of the deal,
    for the player alone; a practice goes back to its move *k* and stays a practice."""
    if life.nature is Nature.PRACTICE:
        return replace(life, stands=Stand.PLAYING)
    if life.counted is not None:
        return Life(life.nature, Stand.PLAYING, 0, None, first=False)
    return replace(life, stands=Stand.PLAYING, moves=0)


def abandon(life: Life) -> Life:
    """Another deal of its kind started while this one is unfinished (the player said so):
    an unfinished counted game is counted as lost; anything else is untouched."""
    if life.nature is Nature.PRACTICE or life.stands.ended or life.moves == 0:
        return life
    counted = life.counted or Stand.ABANDONED
    return replace(life, stands=Stand.ABANDONED, counted=counted)


def try_from(life: Life) -> tuple[Life, Life]:
    """*Try from move k*: the player's game is left as it is, and a practice begins beside it."""
    return life, Life(Nature.PRACTICE, Stand.PLAYING, 0, None, first=False)


# --- readers: what each part of the site asks of a life ----------------------------------------


def in_statistics(life: Life) -> bool:
    """The player's statistics (played, won, lost) and streaks count this game."""
    return life.nature is not Nature.PRACTICE


def in_records(life: Life) -> bool:
    """The game may set a personal best (time, moves, score) or a first win."""
    return life.nature is Nature.COUNTED


def in_deal_figures(life: Life) -> bool:
    """The deal's figures for everyone take this game's ending (its first game's only)."""
    return life.nature is Nature.COUNTED and life.first


def ranked(life: Life) -> bool:
    """The game may stand among its deal's wins (the end box's "faster than …")."""
    return life.nature is Nature.COUNTED


def replayed(life: Life) -> bool:
    """The game's ending writes a replay."""
    return life.nature is not Nature.PRACTICE


def shows_result(life: Life) -> bool:
    """The end box adds the statistics' lines (bests, standing, the deal's figures): a game
    that counts, once it has ended."""
    return life.nature is not Nature.PRACTICE and life.stands.ended


def label(life: Life) -> str:
    """What a list says of the game beside its result: ``practice``, ``assisted`` or ``""``."""
    return "" if life.nature is Nature.COUNTED else life.nature.value


def entry_marks(life: Life) -> dict[str, bool]:
    """What the statistics' entry of a recent game adds for it: ``{"a": true}`` for an
    assisted one (issue 45: ``/stats`` lists it as assisted), else nothing."""
    return {"a": True} if life.nature is Nature.ASSISTED else {}
