"""Page context: what every page's header shows — the player's session (token, settings), the
language and its switch, the path to come back to — built once for all pages
(:class:`PageBase`, ``app.web.edge.dependencies.PageDep``); and a game page's own context
(the screen, the info bar, the live region)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from fastapi import Request
from starlette.requests import HTTPConnection

from app.clock import now_ms
from app.engine.game import AWAY_MS
from app.engine.games import AnyGame
from app.i18n import LANGUAGES, choose_language, translations
from app.store import SessionData
from app.store.life import deal_of
from app.web.rendering.infobar import InfoView
from app.web.rendering.notices import QUESTIONS, sentence
from app.web.rendering.screen import AnyScreen

_DEFAULT_LOOK: Final = SessionData("")


def look(session: SessionData | None) -> dict[str, str]:
    """The player's preferences as ``<html>``'s ``data-*`` values (issue 27): CSS draws the
    rest, so the first paint already has the player's look (no script runs first)."""
    s = session or _DEFAULT_LOOK
    return {
        "zen": "on" if s.zen else "off",
        "deck": s.deck,
        "hand": s.hand,
        "theme": s.theme,
        "sound": "on" if s.sound else "off",
        "winnable": s.winnable,
    }


def language(request: HTTPConnection, session: SessionData | None) -> str:
    """The session's chosen language, else the browser's best, else English."""
    return choose_language(
        session.lang if session else None, request.headers.get("accept-language")
    )


@dataclass(frozen=True, slots=True)
class PageBase:
    """The base of every page's template context. ``session`` is ``None`` only on an error
    page whose store just failed (the page then offers no form)."""

    session: SessionData | None
    lang: str
    here: str
    """Where the language switch and the settings come back to."""

    @classmethod
    def of(cls, request: HTTPConnection, session: SessionData | None, here: str = "") -> PageBase:
        return cls(session, language(request, session), here or request.url.path)

    @property
    def t(self) -> NullTranslations:
        return translations(self.lang)

    def context(self, **page: Any) -> dict[str, Any]:
        """The template context: the base, then the page's own values."""
        return {
            "lang": self.lang,
            "languages": LANGUAGES,
            "token": self.session.token if self.session is not None else "",
            "session": self.session,
            "look": look(self.session),
            "here": self.here,
            **page,
        }


def origin(request: Request) -> str:
    """Where players reach this site: ``SOLITAIRE_ORIGIN`` when set (:func:`public_origin`),
    else ``http://host:port`` of this request, without building a URL object."""
    config = getattr(request.app.state, "config", None)
    if config is not None and config.origin:
        return str(config.origin)
    scope = request.scope
    host = request.headers.get("host")
    if host is None:
        server = scope.get("server") or ("localhost", 80)
        host = f"{server[0]}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}"


def page_context(
    request: Request,
    screen: AnyScreen,
    game: AnyGame,
    session: SessionData,
    lang: str,
    *,
    message: str | None = None,
    spoken: str | None = None,
    asking: str | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """``message`` is shown and announced; ``spoken`` only announced (the board shows it already:
    the end of the game, a question); ``asking`` names a question of :data:`QUESTIONS`;
    ``key``: the game's store key when it is not its deal code (a practice's, issue 43)."""
    code = key or str(game.code)
    return PageBase(session, lang, request.url.path).context(
        screen=screen.view(lang, game),
        info=info_view(request, screen, game, code, game.score, session.zen),
        message=sentence(message, lang) if message else message,
        spoken=spoken,
        asking=asked(asking, game),
        oob=False,
        howto=howto_shown(request, screen, game, session),
    )


def howto_shown(request: Request, screen: AnyScreen, game: AnyGame, session: SessionData) -> bool:
    """Whether the game page shows its how-to-play (issue 35): asked for (``?howto``, from the
    help under "?"), or a fresh deal of a game whose how-to-play this player never dismissed
    (``learned``: kept by ``POST /settings``; a GET writes nothing, so it shows until then)."""
    if "howto" in request.query_params:
        return True
    fresh = game.move_count == 0 and not game.can_redo()
    return fresh and screen.slug not in session.learned and game.status().value == "playing"


def asked(asking: str | None, game: AnyGame) -> str | None:
    """The question the board asks, if it is one and there is something to lose: moves of a
    game still going on (an ended game's moves are kept in its replay)."""
    return asking if asking in QUESTIONS and may_lose_moves(game) else None


def may_lose_moves(game: AnyGame) -> bool:
    """Whether Restart would throw moves away: a game with moves that has not ended."""
    return game.move_count > 0 and not game.is_over()


def info_view(
    request: Request, screen: AnyScreen, game: AnyGame, code: str, score: int, zen: bool = False
) -> InfoView:
    now = now_ms()
    clock = game.clock
    since = clock.running_since
    return InfoView(
        elapsed_ms=clock.elapsed(now),
        running=clock.is_running,
        away_left_ms=0 if since is None else max(0, AWAY_MS - max(0, now - since)),
        score=score,
        moves=game.move_count,
        code=code,
        url=origin(request) + screen.url(deal_of(code)[0]),  # a practice's: its deal's
        can_undo=game.can_undo(),
        can_redo=game.can_redo(),
        can_restart=game.move_count > 0 or game.can_redo(),
        zen=zen,
    )
