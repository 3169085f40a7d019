"""The history both games share: bounded undo, redo, restart, clock, records."""

import pytest

from app.engine.codes import DealCode
from app.engine.game import (
    AWAY_MS,
    UNDO_LIMIT,
    Clock,
    Game,
    IllegalMoveError,
    MoveParseError,
    RecordError,
    Refusal,
    Status,
)
from app.engine.seahaven import Reason


class Counter(Game[int, int]):
    """A toy game: the position is a number, a move adds 1 or 2; 300 ends it."""

    game_id = "HM"
    slug = "counter"
    title = "Counter"

    @classmethod
    def deal(cls, code):
        return 0

    @classmethod
    def check(cls, position, move):
        return None if move in (1, 2) else Refusal(Reason.NOT_MOVABLE)

    @classmethod
    def result(cls, position, move):
        return position + move

    @classmethod
    def generate(cls, position):
        yield from (1, 2)

    @classmethod
    def parse_move(cls, text):
        if text not in ("1", "2"):
            raise MoveParseError(f"bad move {text!r}")
        return int(text)

    def status(self):
        return Status.WON if self.position >= 300 else Status.PLAYING

    @property
    def score(self):
        return self.position

    def _copy_state(self, clone):
        """No fields of its own."""


CODE = DealCode.parse("HM1-N-AAAAAAB")


def test_undo_reaches_back_exactly_the_last_hundred_actions():
    game = Counter(CODE)
    game.replay([1] * 150, now=0)
    undone = 0
    while game.undo(now=0):
        undone += 1
    assert undone == UNDO_LIMIT == 100
    assert game.position == 50 and game.move_count == 50
    game.play(2, now=0)  # a new branch: the floor stays where it was
    assert game.undo(now=0) and not game.undo(now=0)
    assert game.position == 50


def test_redo_after_undo_and_redo_stack_cleared_by_a_new_move():
    game = Counter(CODE)
    game.replay([1, 2, 2], now=0)
    game.undo(now=0)
    game.undo(now=0)
    assert game.redo_stack == [2, 2]
    assert game.redo(now=0) and game.position == 3 and game.redo_stack == [2]
    game.play(1, now=0)
    assert game.redo_stack == [] and not game.redo(now=0)


def test_an_illegal_move_changes_nothing():
    game = Counter(CODE)
    game.play(1, now=0)
    with pytest.raises(IllegalMoveError):
        game.play(5, now=0)
    assert (game.position, game.moves) == (1, [1])


def test_record_round_trip_keeps_moves_redo_floor_and_clock():
    game = Counter(CODE)
    game.replay([1] * 120 + [2], now=1_000)
    game.undo(now=4_000)
    record = game.to_record()
    assert record == {
        "v": 1,
        "code": "HM1-N-AAAAAAB",
        "moves": ".".join(["1"] * 120),
        "redo": "2",
        "floor": 21,
        "sel": "",
        "clock": [3_000, 4_000],  # played from 1 s to 4 s; the last action at 4 s
    }
    again = Counter.from_record(record)
    assert again.to_record() == record
    assert again.position == 120 and again.redo_stack == [2] and again.undo_floor == 21


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"v": 2}, "unknown record version"),
        ({"code": "HM1-N-AAAAAAZ9"}, "bad deal code"),
        ({"code": "hm1-n-aaaaaab"}, "not a canonical"),
        ({"code": "SH1-C4-AAAAAAB"}, "not a canonical Counter code"),
        ({"moves": "1.3"}, "bad move"),
        ({"moves": 12}, "moves must be text"),
        ({"floor": 5}, "undo floor 5 is impossible"),
        ({"floor": -1}, "undo floor"),
        ({"sel": "x"}, "keeps no selection"),
        ({"clock": [1]}, "the clock must be"),
        ({"clock": [-5, None]}, "the clock must be"),
        ({"extra": 1}, "exactly the fields"),
    ],
)
def test_a_tampered_record_is_refused_clearly(change, says):
    game = Counter(CODE)
    game.replay([1, 1], now=0)
    record = game.to_record() | change
    with pytest.raises(RecordError, match=says):
        Counter.from_record(record)


def test_a_record_must_be_an_object_and_bounded():
    with pytest.raises(RecordError):
        Counter.from_record([1, 2])
    game = Counter(CODE)
    record = game.to_record() | {"moves": ".".join(["1"] * 6000)}
    with pytest.raises(RecordError, match="at most 5000 moves"):
        Counter.from_record(record)


def test_games_from_a_custom_start_have_no_record():
    game = Counter.starting_from(CODE, 10)
    assert game.position == 10
    with pytest.raises(RecordError):
        game.to_record()


def test_clock_runs_while_open_and_stops_at_the_end():
    game = Counter(CODE)
    game.play(1, now=1_000)
    game.replay([2] * 149, now=1_500)
    assert game.position == 299 and game.clock.is_running
    game.play(1, now=3_000)
    assert game.is_over() and not game.clock.is_running
    assert game.clock.elapsed(10_000) == 2_000
    game.undo(now=5_000)  # play resumes
    assert game.clock.elapsed(6_000) == 3_000


def test_clock_list_round_trip():
    clock = Clock(1234, None)
    assert Clock.from_list(clock.to_list()) == clock


def test_time_away_counts_as_at_most_the_away_limit():
    """Issue 13: a player who leaves for an hour does not come back to an extra hour."""
    assert AWAY_MS == 5 * 60_000
    game = Counter(CODE)
    game.play(1, now=0)
    game.play(1, now=30_000)  # half a minute of play
    assert game.clock.elapsed(30_000) == 30_000
    assert game.clock.elapsed(30_000 + 3_600_000) == 30_000 + AWAY_MS  # an hour away
    game.play(1, now=30_000 + 3_600_000)
    assert game.clock.elapsed(30_000 + 3_600_000) == 30_000 + AWAY_MS
    game.play(1, now=30_000 + 3_600_000 + 10_000)
    assert game.clock.elapsed(30_000 + 3_600_000 + 10_000) == 40_000 + AWAY_MS


def test_a_copy_is_independent_and_rebuilds_the_same_record():
    """``Game.copy`` (issue 23): a page works on a copy of a cached game, never on the cached
    game itself, without replaying the record."""
    from app.engine.seahaven import Move, Seahaven

    game = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    for i in range(6):
        game.play(Move(10, 1, 12) if i % 2 == 0 else Move(12, 1, 10), 1000 + i)
    game.undo(2000)
    game.note_verdict(False)
    copy = game.copy()
    assert copy.to_record() == game.to_record()
    copy.play(Move(12, 1, 10), 3000)
    copy.note_verdict(True)
    assert game.move_count == 5 and game.can_redo() and copy.move_count == 6
    assert game.verdict() is False and copy.verdict() is True
    assert game.clock.to_list() != copy.clock.to_list()


def test_playing_on_a_copy_leaves_the_original_and_its_record_as_they_were():
    """A copy (the worker's game cache hands them out) owns its history: a move on it, an
    Undo, a Redo change nothing of the original, whose record still rebuilds the same game."""
    game = Counter(CODE)
    game.replay([1, 2, 1, 1, 2], now=1_000)
    game.undo(now=2_000)
    record = game.to_record()
    clone = game.copy()
    clone.play(1, now=3_000)  # a new branch on the copy: its redo stack goes
    clone.undo(now=3_000)
    clone.undo(now=3_000)
    assert game.to_record() == record == Counter.from_record(record).to_record()
    assert (game.position, game.move_count, game.moves, game.redo_stack) == (
        5,
        4,
        [1, 2, 1, 1],
        [2],
    )
    assert game.can_undo() and game.redo(now=4_000) and game.position == 7
    assert (clone.position, clone.move_count, clone.redo_stack) == (4, 3, [1, 1])


@pytest.mark.parametrize("slug", ["half-moon", "seahaven"])
def test_a_copy_names_every_field_of_its_game(slug):
    """``copy()`` sets each field itself (python-chess's ``copy``): a field a game adds and
    ``copy()`` forgets would be shared, or missing, on the copy."""
    from app.engine.games import GAMES

    game_class = GAMES[slug]
    code = DealCode(game_class.game_id, 1, game_class.variants[0].code, 5)
    game = game_class(code)
    move = next(iter(game.legal_moves()))
    game.play(move, now=0)
    clone = game.copy()
    assert set(vars(clone)) == set(vars(game))
    for name, value in vars(game).items():
        if isinstance(value, (list, dict, set, Clock)):
            assert getattr(clone, name) is not value, f"{name} is shared with the copy"
    assert clone.to_record() == game.to_record()


def test_a_record_whose_undo_floor_reaches_back_past_the_limit_is_refused():
    """150 moves with floor 0 would let Undo take back all 150: the record is refused, and
    the same record with the floor the game itself wrote (50) loads and undoes 100."""
    game = Counter(CODE)
    game.replay([1] * 150, now=0)
    record = game.to_record()
    assert record["floor"] == 50
    with pytest.raises(RecordError, match="undo floor 0 is impossible after 150 moves"):
        Counter.from_record(record | {"floor": 0})
    again = Counter.from_record(record)
    undone = 0
    while again.undo(now=0):
        undone += 1
    assert (undone, again.move_count) == (UNDO_LIMIT, 50)
