"""One game's pages (:class:`Screen`): its engine class, template, board markup and ending;
:data:`SCREENS` finds a game's screen by slug."""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Final, Generic, TypeVar

from babel.support import NullTranslations
from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import Refusal
from app.engine.games import AnyGame
from app.i18n import N_, rank_letter, translations
from app.stats import result_html
from app.store import SessionData, Store, StoredGame
from app.web.board import (
    CODE,
    BoardFacts,
    board_open,
    ending_box,
    ending_html,
    home_offer,
    restart_question,
    summary_box,
)
from app.web.board import version as board_version
from app.web.errors import Text
from app.web.htmx import NO_STORE
from app.web.notices import COMMON_NOTICES, NOTICES, QUESTIONS
from app.web.render import Renderer
from app.web.sessions import Player
from app.web.views import (
    ScreenView,
    clock_text,
)

G = TypeVar("G", bound=AnyGame)
"""The game a screen shows (its engine class's instances)."""


class Screen(ABC, Generic[G]):
    """One game's pages: its engine class, template and board view."""

    game: ClassVar[type[AnyGame]]
    slug: ClassVar[str]
    name: ClassVar[str]
    """The game's name, a catalog text."""
    template: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The engine's game names its screen: the slug and the name. Every game's screen is
        ``pages/game.html``, which takes the game's styles and scripts from ``games/{slug}/``."""
        super().__init_subclass__(**kwargs)
        cls.slug, cls.name = cls.game.slug, cls.game.title
        cls.template = "pages/game.html"

    own_notices: ClassVar[frozenset[str]] = frozenset()
    """The keys of :data:`NOTICES` only this game's pages show (a key a game's actions use
    must be here or in :data:`COMMON_NOTICES`, or its no-JavaScript redirect drops it)."""

    def notice(self, key: str, game: G) -> Text | None:
        """The text of ``?n=key`` on this game's page, or ``None`` when the key is not this
        game's or would say something untrue of ``game`` (a crafted link cannot mislead).
        A refusal's key (``sum``, ``king_only``, ``group-4``) is the engine's."""
        if (key == "no-undo" and game.can_undo()) or (key == "no-redo" and game.can_redo()):
            return None
        if key in COMMON_NOTICES or key in self.own_notices:
            return NOTICES.get(key)
        refusal = Refusal.from_key(key)
        if refusal is not None and game.may_refuse(refusal):
            return refusal.explain
        return None

    def facts(
        self,
        game: G,
        session: SessionData,
        state: str | None = None,
        asking: str | None = None,
    ) -> BoardFacts:
        """Everything the board shows, as plain data; ``state`` when already known; ``asking``
        a question the board shows (``restart``)."""
        state = state or game.status().value
        helping, score = session.placement_help, game.score
        return BoardFacts(
            state,
            score,
            game.move_count,
            self.places(game, helping),
            self.ending_facts(game, state, score, asking, session.zen),
            "with-help" if helping else "",
            session.zen,
        )

    @abstractmethod
    def places(self, game: G, helping: bool) -> tuple[tuple[Any, ...], ...]:
        """Each place's facts in board order, ``(index, count, ...)``: the arguments of
        :meth:`place_html`; ``helping``: *Placement help* is on."""

    @abstractmethod
    def place_html(self, lang: str, place: tuple[Any, ...]) -> str:
        """One place's interactive markup (cached; token and code are placeholders)."""

    def layout(self, places: list[str], interactive: bool = True) -> str:
        """The places' markup in the board's structure (Half Moon: a flat grid); a diagram
        (``interactive`` false) leaves out whatever only the game's forms need."""
        return "".join(places)

    defeat: ClassVar[str]
    """The message of a game that cannot be won any more (stuck, lost), a catalog text."""
    defeat_at_deal: ClassVar[str | None] = None
    """The message of a deal lost before any move (no Undo or Restart to suggest), when the
    game has one; otherwise :attr:`defeat`."""
    end_actions: ClassVar[tuple[str, ...]]
    """What the end message offers besides New game: ``undo``, ``restart``."""

    def ending(
        self, game: G, t: NullTranslations, state: str | None = None, zen: bool = False
    ) -> str | None:
        """The announcement of a game that has ended, or ``None`` while it goes on."""
        state = state or game.status().value
        return self.ending_text(self.ending_facts(game, state, game.score, zen=zen), t)

    def ending_text(self, ending: tuple[Any, ...], t: NullTranslations) -> str | None:
        if not ending or ending[0] == "playing":
            return None
        state, score, elapsed_ms = ending[:3]
        if state == "won" and score is None:  # Zen: no score, no time
            return t.gettext(N_("You won!"))
        if state == "won":
            return t.gettext(N_("You won! %(score)s points in %(time)s.")) % {
                "score": score,
                "time": clock_text(elapsed_ms),
            }
        if self.defeat_at_deal and ending[5]:
            return t.gettext(self.defeat_at_deal)
        return t.gettext(self.defeat)

    @property
    def new_game_url(self) -> str:
        """Where *New game* leads: a fresh deal, or a dialog first (Seahaven's cells)."""
        return f"/{self.slug}"

    def new_game_link(self, game: G) -> str:
        """*New game* from this game: the dialog may preselect what the player chose last."""
        return self.new_game_url

    def restored(self, game: G, stored: StoredGame) -> None:
        """Take facts kept with the saved game (verdicts) instead of working them out again."""

    # --- verdicts proved off the request path (Seahaven's "no useful move left") ---------------

    def prepare(self, game: G) -> None:
        """Called on every game the server builds: no search may run while it is changed."""

    def unproved(self, game: G) -> Any | None:
        """The position whose verdict the game still needs, or ``None`` when it needs none."""
        return None

    def note_verdict(self, game: G, lost: bool) -> None:
        """Tell the game the verdict on its current position, proved elsewhere."""

    def end_actions_for(self, game: G) -> tuple[str, ...]:
        """What the end message offers: only what would do something (no Undo at the deal)."""
        can = {"undo": game.can_undo(), "restart": game.move_count > 0 or game.can_redo()}
        return tuple(verb for verb in self.end_actions if can.get(verb, True))

    async def new_deal(
        self, request: Request, renderer: Renderer, store: Store, player: Player
    ) -> Response:
        """``GET /{game}``: 303 to a fresh random deal."""
        code = DealCode.random(self.game.game_id)
        return RedirectResponse(self.url(code), 303, headers=NO_STORE)

    def ending_facts(
        self, game: G, state: str, score: int, asking: str | None = None, zen: bool = False
    ) -> tuple[Any, ...]:
        """What the ending box depends on (``()`` while the game goes on and nothing is asked):
        state, score, play time, the question asked (``restart``), the New game link, whether
        the deal was lost before any move, the actions offered and a won game's moves (the
        end box's additions follow: :func:`app.web.actions.with_result`). In *Zen* the score
        and the time are ``None``: the box names neither."""
        if state == "playing" and asking is None:
            return ()
        won = state == "won"
        elapsed = game.clock.elapsed_ms if won else 0
        at_deal = game.move_count == 0 and not game.can_redo()
        actions = self.end_actions_for(game)
        moves = game.move_count if won else 0
        link = self.new_game_link(game)
        if zen:
            return (state, None, None, asking, link, at_deal, actions, moves)
        return (state, score, elapsed, asking, link, at_deal, actions, moves)

    def ending_html(self, facts: BoardFacts, lang: str) -> str:
        return _ending_html(self, lang, facts.ending) if facts.ending else ending_html("", None)

    def board_parts(self, facts: BoardFacts, lang: str) -> list[str]:
        """Each place's cached markup, in board order."""
        return [self.place_html(lang, place) for place in facts.places]

    def board_version(self, facts: BoardFacts, parts: list[str], lang: str, token: str) -> str:
        head = (
            f"{lang}|{facts.state}|{facts.score}|{facts.moves}|{facts.classes}|{facts.ending}"
            f"|{facts.zen}"
        )
        return board_version((head, *parts), token)

    def board_html(self, facts: BoardFacts, lang: str, token: str, oob: str | None = None) -> str:
        """The whole board (token and code still placeholders)."""
        parts = self.board_parts(facts, lang)
        head = board_open(
            self.slug, CODE, facts, self.board_version(facts, parts, lang, token), oob
        )
        return f"{head}{self.layout(parts)}{self.ending_html(facts, lang)}</div>"

    def view(self, lang: str, game: G) -> ScreenView:
        t = translations(lang)
        name = t.gettext(self.name)
        return ScreenView(self.slug, name, self.new_game_link(game), self.end_actions)

    def url(self, code: DealCode | str) -> str:
        return f"/{self.slug}/{code}"

    def stored(
        self, game: G, record: dict[str, Any], now: int, state: str | None = None
    ) -> StoredGame:
        """What the store keeps: the record, and the facts lists and verdicts need."""
        return StoredGame(
            record["code"],
            record,
            state or game.status().value,
            game.score,
            game.move_count,
            now,
        )


AnyScreen = Screen[Any]
"""A screen of either game (routes shared by both games hold one)."""

CASCADE: Final = tuple(
    Card.parse(c) for c in ("KH", "QS", "JD", "AC", "10H", "9S", "8D", "7C", "6H", "5S", "4D", "3C")
)
"""The cards of the win's cascade (decoration: hidden from screen readers)."""

SCREENS: dict[str, AnyScreen] = {}
"""Each game's screen under its slug: the same keys as the engine's ``GAMES`` table, so a deal
code finds its screen through :func:`app.engine.games.game_for_code`."""


@functools.lru_cache(maxsize=256)
def _ending_html(screen: AnyScreen, lang: str, ending: tuple[Any, ...]) -> str:
    """The end of a game, and Restart's question (``asking``), inside the board."""
    t = translations(lang)
    state, score, elapsed, asking, new_game_link, _at_deal, offered, moves = ending[:8]
    result = ending[8] if len(ending) > 8 else None  # issue 16: what the game set, the deal
    zen = score is None  # Zen: neither the time nor the score (:meth:`Screen.ending_facts`)
    parts = []
    if state == "won" and asking != "restart":
        moved = ("moves", t.gettext(N_("Moves")), str(moves))
        figures = (
            (moved,)
            if zen
            else (
                ("time", t.gettext(N_("Time")), clock_text(elapsed)),
                moved,
                ("score", t.gettext(N_("Score")), str(score)),
            )
        )
        parts.append(
            summary_box(
                t.gettext(N_("You won!")),
                figures,
                result_html(result, t, zen),
                ((card, rank_letter(card, t)) for card in CASCADE),
                (screen.slug, t.gettext(N_("Play this deal again"))),
                (new_game_link, t.gettext(N_("New game"))),
            )
        )
    elif state != "playing" and asking != "restart":
        labels = {"undo": t.gettext(N_("Undo")), "restart": t.gettext(N_("Restart"))}
        actions = [] if state == "won" else [(verb, labels[verb]) for verb in offered]
        text = screen.ending_text(ending, t) or ""
        parts.append(
            ending_box(
                screen.slug,
                state,
                text,
                actions,
                (new_game_link, t.gettext(N_("New game"))),
                result_html(result, t, zen),
            )
        )
    elif state == "playing" and "home" in offered and asking != "restart":
        parts.append(
            home_offer(
                screen.slug,
                t.gettext(N_("Only moves to the foundations are left.")),
                t.gettext(N_("Send all home")),
            )
        )
    if asking == "restart":
        parts.append(
            restart_question(
                screen.slug,
                t.gettext(QUESTIONS["restart"]),
                t.gettext(N_("Restart")),
                t.gettext(N_("Keep playing")),
            )
        )
    return ending_html("".join(parts), state)
