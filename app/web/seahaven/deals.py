"""Seahaven's deals: the New game dialog's levels and its query, and a random deal that is not
lost at the deal (issue 13), proved in the proof pool."""

from __future__ import annotations

import time
from typing import Final

from fastapi import Request

from app.engine.codes import DealCode
from app.engine.seahaven import Seahaven, deal_position
from app.i18n import N_
from app.services.proofs import Prover
from app.web.edge.errors import PlayerError, invalid_field, unknown_field

LEVELS: Final = (("4", N_("Easy")), ("2", N_("Medium")), ("1", N_("Hard")))
"""The New game dialog's choices: cells and their names (SPEC §3)."""
CELLS_HELP: Final = N_("Accepted: 4, 2 or 1 cells.")


def cells_query(
    request: Request, names: tuple[str, ...], also: tuple[str, ...] = ()
) -> dict[str, str]:
    """The query's cell counts (``4``, ``2`` or ``1``, once each) under ``names``, the only
    fields it may have besides ``also`` (checked elsewhere); anything else is the 422 page
    that says what is accepted."""
    query = request.query_params
    problems = [unknown_field(name) for name in query if name not in (*names, *also)]
    problems += [
        invalid_field(name, CELLS_HELP)
        for name in names
        if name in query and (query[name] not in ("4", "2", "1") or len(query.getlist(name)) > 1)
    ]
    if problems:
        raise PlayerError.bad_input(problems)
    return {name: query[name] for name in names if name in query}


DEAL_DRAWS: Final = 12
"""Most random deals :func:`playable_deal` proves before it deals one anyway (at one cell
about one deal in four is lost at the deal: twelve lost in a row happen once in 17 million)."""


async def playable_deal(request: Request, variant: str) -> DealCode:
    """A random deal the app cannot prove lost at the deal (issue 13): drawn again while the
    proof pool says the deal is lost, at most :data:`DEAL_DRAWS` times and within
    ``proof_wait`` seconds in all. A deal whose proof did not finish in time is dealt (the
    app cannot prove it lost); a shared code always opens exactly what it codes."""
    prover: Prover = request.app.state.prover
    deadline = time.monotonic() + request.app.state.config.proof_wait
    code = DealCode.random(Seahaven.game_id, variant)
    for _ in range(DEAL_DRAWS):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if await prover.verdict(deal_position(code), wait=left) is not True:
            break
        code = DealCode.random(Seahaven.game_id, variant)
    return code
