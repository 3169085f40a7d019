"""Deal codes in URLs: parsed once, canonical or redirected, the other game's sent there."""

from __future__ import annotations

from app.engine.codes import DealCode, DealCodeError
from app.engine.games import game_for_code
from app.web.edge.errors import PlayerError
from app.web.rendering.screen import SCREENS, AnyScreen


def parse_code(screen: AnyScreen, text: str, *, action: bool = False) -> DealCode:
    """The code in a URL, or a 404 page that says what a code looks like.

    A page of the other game's code redirects there (308); an action posted to it is a 404
    that names the right game — a 308 would make the browser post it again, to an address
    that accepts only GET."""
    try:
        code = DealCode.parse(text)
    except DealCodeError:
        raise PlayerError.invalid_code(text, f"/{screen.slug}") from None
    if code.game != screen.game.game_id:
        other = SCREENS.get(game_for_code(code).slug)  # the engine's table of games
        if other is None:
            raise PlayerError.invalid_code(text, f"/{screen.slug}")
        if action:
            raise PlayerError.other_game(str(code), other.name, other.url(code))
        raise Redirect(other.url(code), 308)
    return code


class Redirect(Exception):  # noqa: N818  (control flow, not an error)
    """Answer with a redirect from deep inside a helper."""

    def __init__(self, url: str, status: int) -> None:
        self.url, self.status = url, status
