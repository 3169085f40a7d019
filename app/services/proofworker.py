"""What runs in the proof processes: kept apart so a new process imports only the engine.

:class:`app.services.proofs.Prover` starts these processes (``spawn``: nothing of the
server's threads, sockets or event loop is copied into them) and sends them positions to prove.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

from app.engine.games import game_for_position


def start_worker(niceness: int) -> None:
    """Run below the web workers' priority, leave Ctrl-C to the server that owns us, and end
    when that server is gone (killed, or ended by a signal before it could stop us)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(niceness)
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), name="end-with-server", daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)  # our server is gone: nobody will ever read an answer


def prove_lost(position: object, budget: int | None, seconds: float) -> tuple[bool | None, bool]:
    """The lost verdict on ``position`` (its game's :meth:`~app.engine.game.Game.prove_lost`,
    within ``budget`` positions: the game's own when ``None``) and whether time ran out.

    ``(None, True)``: the proof hit its time bound, which says nothing about the position
    (do not remember it); ``(None, False)``: the position budget ran out, which is the same
    answer every time (remember it: nothing is announced for that position).
    """
    deadline = time.monotonic() + seconds
    verdict = game_for_position(position).prove_lost(position, budget, deadline)
    return verdict, verdict is None and time.monotonic() > deadline


def ready() -> bool:
    """A task that only proves the process has started (warming the pool up)."""
    return True


def analyse_line(code: str, line: str, seconds: float) -> dict[str, object]:
    """Where the win slipped away along a replay's line (its record's ``moves``: undone moves
    are not in it), within ``seconds``: :meth:`app.engine.analysis.Analysis.to_data`.

    :raises ValueError: when the code or the line is not a game of it (a replay's never is).
    """
    from app.engine.analysis import analyse
    from app.engine.codes import DealCode
    from app.engine.games import game_for_code

    deal = DealCode.parse(code)
    game = game_for_code(deal)
    moves = game.record_moves(line)
    finding = analyse(game, game.deal(deal), moves, None, time.monotonic() + seconds)
    return finding.to_data()


def find_hint(position: object, budget: int | None, seconds: float) -> tuple[str, str]:
    """A hint on ``position`` (issue 45): ``("move", text)`` — the first move of a winning line
    the solver found, in the game's notation —, ``("lost", "")`` when no move keeps the deal
    winnable (the search ran to its end), ``("late", "")`` when ``budget`` positions or
    ``seconds`` ran out first."""
    from app.engine.solutions import Verdict

    game = game_for_position(position)
    try:
        result = game.solve_position(position, budget, time.monotonic() + seconds)
    finally:
        game.forget_searches()
    if result.verdict is Verdict.WON and result.line:
        return "move", str(result.line[0])
    if result.verdict is Verdict.NO_WIN:
        return "lost", ""
    return "late", ""
