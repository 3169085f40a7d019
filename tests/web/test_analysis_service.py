"""The analysis of an ended game as a service: in a pool of processes, bounded, stored with the
replay so a second viewer (another instance, a restart) reads it at once."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from app.engine.analysis import Analysis
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon
from app.services import analyses
from app.services.analyses import Analyst, Progress, line_digest
from app.store import MemoryStore
from app.store.base import StoredGame
from app.store.marks import Marks
from app.store.replays import StoredReplay
from app.store.sync import SyncStore
from tests.loops import run_apart

HM = "HM1-N-AAAAAAB"
RID = "Q" * 21 + "A"


def run(coroutine):
    return run_apart(coroutine)


def ended(store: SyncStore, line: str, state: str = "stuck") -> StoredReplay:
    record = {"code": HM, "moves": line, "clock": [4000, None]}
    moves = line.count(".") + 1
    row = StoredGame(HM, record, state, 10 * moves, moves, 1, Marks(replay=RID), kind="HM")
    store.change_game("p", HM, lambda _s, _g: (row, None))
    replay = store.replay(RID)
    assert replay is not None
    return replay


def stuck_line() -> str:
    """A random Half Moon game of the deal played to stuck (seeded)."""
    rng = random.Random(4)
    position, moves = HalfMoon.deal(DealCode.parse(HM)), []
    while True:
        legal = list(HalfMoon.generate(position))
        if not legal:
            break
        move = rng.choice(legal)
        position = HalfMoon.result(position, move)
        moves.append(move)
    assert not position.is_won()
    return ".".join(str(m) for m in moves)


def test_an_ended_game_is_analysed_in_the_pool_once_and_then_read_from_the_store():
    store = SyncStore(MemoryStore())
    replay = ended(store, stuck_line())

    async def scenario():
        with ThreadPoolExecutor(1) as pool:  # stands in for the processes
            analyst = Analyst(pool=pool, seconds=30)
            first = await analyst.answer(store.store, replay)
            again = await analyst.answer(store.store, replay)  # under way: not started twice
            await analyst.wait(RID)
            # another instance (a new analyst), or after a restart: the stored finding
            later = await Analyst(pool=pool).answer(store.store, replay)
            await analyst.close()
            return first, again, later, analyst.started

    first, again, later, started = run(scenario())
    assert (first.progress, again.progress, started) == (Progress.RUNNING, Progress.RUNNING, 1)
    assert later.progress is Progress.DONE
    assert later.finding["for"] == line_digest(replay)
    finding = Analysis.from_data(later.finding, HalfMoon.parse_move)
    assert finding is not None and finding.kind.value in ("slipped", "cannot_win")


def test_a_won_game_has_nothing_to_analyse_and_a_new_line_is_analysed_again():
    store = SyncStore(MemoryStore())
    won = ended(store, "ae", state="won")
    assert (
        run(Analyst(pool=ThreadPoolExecutor(1)).answer(store.store, won)).progress is Progress.NONE
    )
    store = SyncStore(MemoryStore())
    replay = ended(store, stuck_line())
    store.save_analysis(RID, {"version": 1, "kind": "cannot_win", "for": "another line"})

    async def ask():
        analyst = Analyst(pool=ThreadPoolExecutor(1))
        answer = await analyst.answer(store.store, replay)
        await analyst.wait(RID)
        return answer

    assert run(ask()).progress is Progress.RUNNING
    assert store.analysis(RID)["for"] == line_digest(replay)


def test_past_the_bound_a_new_analysis_is_not_started(monkeypatch):
    store = SyncStore(MemoryStore())
    replay = ended(store, stuck_line())
    monkeypatch.setattr(analyses, "MAX_PENDING", 0)
    answer = run(Analyst(pool=ThreadPoolExecutor(1)).answer(store.store, replay))
    assert answer.progress is Progress.BUSY
    assert store.analysis(RID) is None
