"""Where a finished game stands on its deal (issue 26): among the other players' wins, from
the deal's figures for everyone (their wins as cells of moves and time, :mod:`app.store.histogram`),
told in the end box only once the player's own game has ended."""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations

from app.i18n import N_
from app.status import Status
from app.store import StoredGame, histogram
from app.store.base import ENDED, clock_elapsed
from app.store.counting import normal
from app.store.fingerprints import ranked_cell
from app.web.rendering.board_values import Standing
from app.web.rendering.infobar import clock_text

Ended = tuple[Status, int, int]
"""How a game ended: its state, its clock's time and its moves."""


def ended_as(row: StoredGame | None) -> Ended | None:
    """How the game ``row`` ended, ``None`` while it goes on."""
    if row is None or row.state not in ENDED:
        return None
    return (Status(row.state), clock_elapsed(row.record), row.moves)


def standing_values(
    figures: dict[str, Any] | None,
    ending: Ended | None,
    code: str,
    doc: Any,
    by_moves: bool,
    aside: bool = False,
) -> Standing | None:
    """Where the player's game of ``code`` stands on its deal (issue 26), as it ended
    (``ending``), among the other players' wins: the deal's figures for everyone hold them as
    cells (:mod:`app.store.histogram`), the player's own counted win (their statistics' entry
    for the deal) left out. ``None`` when the game has not ended, or when the figures predate
    the cells."""
    if ending is None or not figures:
        return None
    cells = figures.get("cells")
    wins = sum(histogram.cells_of(cells).values())
    if wins < int(figures.get("wins") or 0):
        return None  # wins counted before the deal's figures had cells
    state, ms, moves = ending
    if state != Status.WON:
        return Standing(Status.LOST, ms=0, moves=0, share=0, players=wins, by_moves=by_moves)
    data = normal(doc)
    own = ranked_cell(data, code)  # the player's own win, after any later games or a reset
    entry = next((e for e in data["recent"] if e.get("code") == code), None)
    mine = None
    if own is None and not aside and entry is not None and entry.get("r") == "won":  # before 34
        mine = (int(entry.get("moves") or 0), int(entry.get("ms") or 0))
    beaten, others = histogram.standing(
        cells, moves, ms, by_moves=by_moves, mine=mine, mine_cell=own
    )
    share = round(100 * beaten / others) if others else 0
    return Standing(Status.WON, ms=ms, moves=moves, share=share, players=others, by_moves=by_moves)


def standing_line(standing: Standing, t: NullTranslations, zen: bool = False) -> str:
    """ "Won in 4:12 — faster than 73 % of the 41 other players who won this deal.", or for a
    loss how many players won the deal. In *Zen* no time is named."""
    state, ms, moves, share = standing.state, standing.ms, standing.moves, standing.share
    count, by_moves = standing.players, standing.by_moves
    if state != Status.WON:
        if not count:
            return t.gettext(N_("Nobody has won this deal yet."))
        return t.ngettext(
            "%(num)s player has won this deal.", "%(num)s players have won this deal.", count
        ) % {"num": count}
    values = {"time": clock_text(ms), "moves": moves, "percent": f"{share}\u00a0%", "num": count}
    if not count:
        if zen:
            return t.gettext(N_("Nobody else has won this deal yet."))
        return t.gettext(N_("Won in %(time)s: nobody else has won this deal yet.")) % values
    if by_moves and zen:
        return (
            t.ngettext(
                "Won in %(moves)s moves — better than %(percent)s of the %(num)s other player who"
                " won this deal (fewer moves first, then less time).",
                "Won in %(moves)s moves — better than %(percent)s of the %(num)s other players who"
                " won this deal (fewer moves first, then less time).",
                count,
            )
            % values
        )
    if by_moves:
        return (
            t.ngettext(
                "Won in %(moves)s moves and %(time)s — better than %(percent)s of the %(num)s"
                " other player who won this deal (fewer moves first, then less time).",
                "Won in %(moves)s moves and %(time)s — better than %(percent)s of the %(num)s"
                " other players who won this deal (fewer moves first, then less time).",
                count,
            )
            % values
        )
    if zen:
        return (
            t.ngettext(
                "Faster than %(percent)s of the %(num)s other player who won this deal.",
                "Faster than %(percent)s of the %(num)s other players who won this deal.",
                count,
            )
            % values
        )
    return (
        t.ngettext(
            "Won in %(time)s — faster than %(percent)s of the %(num)s other player who won this"
            " deal.",
            "Won in %(time)s — faster than %(percent)s of the %(num)s other players who won this"
            " deal.",
            count,
        )
        % values
    )
