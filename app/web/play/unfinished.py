"""Nothing counted without the player's say (issue 43 item 3): starting another deal of a game
and level while one is unfinished asks first — keep playing it, or start the new one and count
the unfinished one as lost (the statistics' *abandoned*: ``app/store/counting.py``).

- ``GET /half-moon``, ``GET /seahaven?cells=N`` (the home page's tiles, New game, the dialog)
  answer the question as a page when the player has an unfinished counted game of that kind:
  *Keep playing it* links the game, *Start a new deal* is the same URL with ``start=new``,
  which deals. Plain links: the same with JavaScript and without; a GET writes nothing.
- A deal's page reached another way (a shared link, a typed code) says it above the board:
  the first move there counts the unfinished game as lost, with a link back to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fastapi import Request
from fastapi.responses import Response

from app.engine.codes import DealCode, GameId
from app.engine.games import kind_of
from app.i18n import N_
from app.store import Store
from app.store.counting import normal
from app.store.life import Nature, Stand, life_of
from app.web.edge.dependencies import get_page
from app.web.edge.errors import PlayerError, invalid_field
from app.web.edge.htmx import NO_STORE, html_answer
from app.web.players.figures import KIND_NAMES
from app.web.players.sessions import Player
from app.web.rendering.screen import screen_for
from app.web.rendering.templates import Renderer

START: Final = "start"
"""The query field of the player's say: ``start=new`` deals even though a game is unfinished."""
START_HELP: Final = N_("Accepted: new.")


@dataclass(frozen=True, slots=True)
class Unfinished:
    """The player's unfinished counted game of a kind: its code, URL, moves and kind's name."""

    code: str
    url: str
    moves: int
    name: str


async def unfinished_of(store: Store, player: Player, kind: str) -> Unfinished | None:
    """The player's game of ``kind`` that a first move on another deal of the kind would count
    as lost (abandoned): the statistics' open game of the kind, still unfinished in its row;
    ``None`` for a player without cookie, or without one."""
    if player.fresh:
        return None
    doc = await store.player_stats(player.sid)
    code = normal(doc)["open"].get(kind)
    if code is None:
        return None
    _, row = await store.load(player.sid, code)
    life = life_of(row)
    if row is None or life.nature is Nature.PRACTICE or life.stands is not Stand.PLAYING:
        return None
    if life.moves == 0:
        return None
    deal = DealCode.parse(code)
    return Unfinished(code, screen_for(deal).url(code), row.moves, KIND_NAMES.get(kind, ""))


def said_start(request: Request) -> bool:
    """Whether the query carries the player's say (``start=new``, once); anything else in
    ``start`` is the 422 page that says what is accepted."""
    values = request.query_params.getlist(START)
    if not values:
        return False
    if values != ["new"]:
        raise PlayerError.bad_input([invalid_field(START, START_HELP)])
    return True


async def ask_first(
    request: Request,
    renderer: Renderer,
    store: Store,
    player: Player,
    game_id: GameId,
    variant: str,
) -> Response | None:
    """The question page when a new deal of ``game_id``'s ``variant`` would count an
    unfinished game as lost and the player has not said to start anyway; ``None``: deal."""
    if said_start(request):
        return None
    kind = kind_of(DealCode(game_id, 1, variant, 0))
    found = await unfinished_of(store, player, kind)
    if found is None:
        return None
    page = await get_page(request, store, player)
    start = str(request.url.include_query_params(start="new"))
    start = start[len(str(request.base_url)) - 1 :]
    context = page.context(unfinished=found, start_url=start)
    return html_answer(renderer.page("pages/unfinished.html", context, page.t), headers=NO_STORE)


async def first_move_notice(
    store: Store, player: Player, code: DealCode, has_row: bool
) -> Unfinished | None:
    """For a deal's page not played yet: the unfinished game of its kind its first move would
    count as lost (said above the board), else ``None``."""
    if has_row:
        return None
    found = await unfinished_of(store, player, kind_of(code))
    return None if found is None or found.code == str(code) else found
