"""The analysis of an ended game as a service: in a pool of processes, bounded, stored with the
replay so a second viewer (another instance, a restart) reads it at once."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import limits

from app.clock import now_ms
from app.engine.analysis import Analysis
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon
from app.services import analyses
from app.services.analyses import Analyst, Progress, line_digest
from app.store import MemoryStore
from app.store.base import StoredGame
from app.store.buckets import BucketLimiter
from app.store.marks import Marks
from app.store.ratelimit import Limits
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
    monkeypatch.setattr(analyses, "QUEUE_SIZE", 0)
    answer = run(Analyst(pool=ThreadPoolExecutor(1)).answer(store.store, replay))
    assert answer.progress is Progress.BUSY
    assert store.analysis(RID) is None


# --- a fair queue (issue 44 item 1) ------------------------------------------------------------


class Held:
    """``analyse_line`` in the pool's thread: each analysis waits until the test lets it end,
    and says how long it ran (``seconds``)."""

    def __init__(self, seconds: float = 0.1) -> None:
        self.order: list[str] = []
        self.budgets: list[float] = []
        self.go = threading.Event()
        self.seconds = seconds

    def __call__(self, code: str, line: str, seconds: float) -> dict:
        self.order.append(line)
        self.budgets.append(seconds)
        self.go.wait(10)
        return {"version": 1, "kind": "undecided", "k": None, "line": "", "seconds": self.seconds}


def replay_of(ident: str, line: str = "ae") -> StoredReplay:
    return StoredReplay(ident.ljust(22, "A"), HM, "stuck", 1000, 1, 10, 1, line)


def test_one_address_with_eight_games_waits_behind_another_players_game(monkeypatch):
    """Before: eight sessions of one address filled every slot, and another player's cheap
    analysis answered "busy" (nothing queued) until they ended."""
    held = Held()
    monkeypatch.setattr(analyses, "analyse_line", held)
    store = MemoryStore()

    async def scenario():
        with ThreadPoolExecutor(1) as pool:
            analyst = Analyst(pool=pool)
            flood = [
                await analyst.answer(
                    store, replay_of(f"flood{n}", f"f{n}"), player=f"a{n}", client="198.51.100.7"
                )
                for n in range(8)
            ]
            mine = await analyst.answer(store, replay_of("mine", "m"), player="b", client="b")
            figures = (analyst.running, analyst.queued, analyst.refused_total)
            held.go.set()
            await analyst.wait(replay_of("mine").id)
            await analyst.close()
            return flood, mine, figures

    flood, mine, figures = run(scenario())
    assert [a.progress for a in flood] == [Progress.RUNNING] + [Progress.QUEUED] * 2 + [
        Progress.BUSY
    ] * 5
    assert [a.ahead for a in flood[1:3]] == [1, 2]
    assert (mine.progress, mine.ahead) == (Progress.QUEUED, 1)  # behind the one running only
    assert figures == (1, 3, 5)
    assert held.order[:2] == ["f0", "m"]  # the other player's game came next


def test_one_player_runs_one_analysis_at_a_time_and_a_new_line_takes_the_waiting_place(
    monkeypatch,
):
    held = Held()
    monkeypatch.setattr(analyses, "analyse_line", held)
    store = MemoryStore()

    async def scenario():
        with ThreadPoolExecutor(2) as pool:
            analyst = Analyst(pool=pool, workers=2)
            first = await analyst.answer(store, replay_of("one", "l1"), player="p", client="x")
            second = await analyst.answer(store, replay_of("two", "l2"), player="p", client="y")
            again = await analyst.answer(store, replay_of("two", "l3"), player="p", client="y")
            queued = analyst.queued
            held.go.set()
            await analyst.wait(replay_of("one").id)
            await analyst.wait(replay_of("two").id)
            await analyst.close()
            return first, second, again, queued

    first, second, again, queued = run(scenario())
    assert first.progress is Progress.RUNNING  # two processes, but one player: one runs
    assert (second.progress, second.ahead, again.progress, queued) == (
        Progress.QUEUED,
        1,
        Progress.QUEUED,
        1,
    )
    assert held.order == ["l1", "l3"]  # the second line replaced the first: one analysis


def test_an_address_past_its_hour_of_analysis_is_told_when_it_may_ask_again(monkeypatch):
    held = Held(seconds=5.5)
    held.go.set()
    monkeypatch.setattr(analyses, "analyse_line", held)
    store = MemoryStore()
    limiter = BucketLimiter(Limits(None, None, analysis=limits.parse("6/hour")))

    async def scenario():
        with ThreadPoolExecutor(1) as pool:
            analyst = Analyst(pool=pool, limiter=limiter)
            first = await analyst.answer(store, replay_of("one"), player="p", client="x")
            await analyst.wait(replay_of("one").id)
            second = await analyst.answer(store, replay_of("two"), player="p", client="x")
            other = await analyst.answer(store, replay_of("three"), player="q", client="y")
            await analyst.close()
            return first, second, other, analyst.seconds_total

    first, second, other, total = run(scenario())
    assert first.progress is Progress.RUNNING
    assert second.progress is Progress.SPENT  # 6 of 6 seconds used (5.5, whole seconds)
    assert 0 < second.retry_after <= 3600
    assert other.progress is Progress.RUNNING  # another address has its own hour
    assert total == 5.5


def test_an_undecided_finding_is_analysed_again_with_twice_the_time_at_most_once_an_hour(
    monkeypatch,
):
    """Issue 43 item 6: before, "undecided" was stored for ever and never asked again."""
    store = SyncStore(MemoryStore())
    replay = ended(store, stuck_line())
    undecided = {"version": 1, "kind": "undecided", "k": None, "line": "", "seconds": 20}
    held = Held()
    held.go.set()
    monkeypatch.setattr(analyses, "analyse_line", held)

    async def ask():
        with ThreadPoolExecutor(1) as pool:
            analyst = Analyst(pool=pool, seconds=20)
            answer = await analyst.answer(store.store, replay, player="p", client="x")
            await analyst.wait(RID)
            return answer

    recent = {**undecided, "for": line_digest(replay), "budget": 20.0, "at_ms": now_ms()}
    store.save_analysis(RID, recent)
    assert run(ask()).progress is Progress.DONE  # asked within the hour: as it is
    old = {**recent, "at_ms": now_ms() - 3601 * 1000}
    store.save_analysis(RID, old)
    assert run(ask()).progress is Progress.RUNNING
    assert held.budgets == [40.0]
    assert store.analysis(RID)["budget"] == 40.0
    at_most = {**old, "budget": 80.0}  # four times the configured time: not again
    store.save_analysis(RID, at_most)
    assert run(ask()).progress is Progress.DONE
