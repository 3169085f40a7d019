"""One game's pages (:class:`Screen`): its engine class, template, board markup and ending;
:data:`SCREENS` finds a game's screen by slug."""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from babel.support import NullTranslations
from fastapi import Request
from fastapi.responses import Response

from app.engine.codes import DealCode
from app.engine.games import AnyGame, game_for_code, kind_of
from app.i18n import N_, translations
from app.status import Status
from app.store import SessionData, Store, StoredGame
from app.web.edge.errors import Text
from app.web.players.sessions import Player
from app.web.rendering.board_markup import board_html
from app.web.rendering.board_values import CODE, BoardFacts, Ending, Place, value_text
from app.web.rendering.board_values import version as board_version
from app.web.rendering.diagrams import Diagram
from app.web.rendering.ending import ending_box_html, ending_slot
from app.web.rendering.infobar import (
    ScreenView,
    clock_text,
)
from app.web.rendering.notices import COMMON_NOTICES, NOTICES
from app.web.rendering.templates import Renderer

if TYPE_CHECKING:
    from app.web.play.forms import ActionForm as ActionFormLike

G = TypeVar("G", bound=AnyGame)
"""The game a screen shows (its engine class's instances)."""


class Screen(ABC, Generic[G]):
    """One game's pages: its engine class, template and board view."""

    game: ClassVar[type[AnyGame]]
    slug: ClassVar[str]
    name: ClassVar[str]
    """The game's name, a catalog text."""
    template: ClassVar[str]

    rules_title: ClassVar[str]
    """The rules page's title, a catalog text."""
    rules_description: ClassVar[str]
    """The rules page's description for sharing, a catalog text."""
    rules_template: ClassVar[str]
    diagram_deals: ClassVar[tuple[DealCode, ...]]
    """The deals whose starting boards the rules page draws."""
    example_deal: ClassVar[DealCode]
    """The deal of the Examples page's replay."""
    example_template: ClassVar[str]
    tap_form: ClassVar[type[ActionFormLike]]
    """The form of a tap (the HTTP bench's floor reads it as a tap does)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The engine's game names its screen: the slug, the name and the pages' templates.
        Every game's screen is ``pages/game.html``, which takes the game's styles and scripts
        from ``games/{slug}/``; its rules and example pages are there too."""
        super().__init_subclass__(**kwargs)
        cls.slug, cls.name = cls.game.slug, cls.game.title
        cls.template = "pages/game.html"
        cls.rules_template = f"games/{cls.slug}/rules.html"
        cls.example_template = f"games/{cls.slug}/example.html"

    # --- the reading pages -------------------------------------------------------------------

    @abstractmethod
    def diagram(self, game: G, lang: str, ringed: Collection[str] = ()) -> Diagram:
        """A board drawn for reading (no forms); ``ringed`` names what to ring (the game's
        choice: Half Moon's places, Seahaven's cards)."""

    @abstractmethod
    def example_steps(self) -> int:
        """How many steps the Examples page's replay has after the deal (a first replay:
        call it off the event loop)."""

    @abstractmethod
    def example_view(self, number: int, lang: str) -> dict[str, Any]:
        """One step of the replay, in a language: the example page's own context values."""

    def examples_index(self) -> dict[str, Any]:
        """What the Examples page shows of this game's example (its own context values)."""
        return {}

    # --- replays (issue 26) ------------------------------------------------------------------

    ranks_wins_by_moves: ClassVar[bool] = False
    """How a win stands among the deal's wins: by time alone (``False``), or by fewer moves
    first, then less time."""

    @abstractmethod
    def describe_move(self, position: Any, move: Any, lang: str) -> str:
        """A move in words, a sentence in ``lang`` ("Five of spades and six of diamonds
        removed."); ``position`` is the one it was made in."""

    def hint_words(self, position: Any, move: Any, lang: str) -> str:
        """A hint's move in words (issue 45): :meth:`describe_move` unless the game says it
        as advice."""
        return self.describe_move(position, move, lang)

    def hint_marks(self, position: Any, move: Any) -> tuple[str, ...]:
        """The ids of the board's cards a hint of ``move`` marks (issue 45)."""
        return ()

    def move_ringed(self, position: Any, move: Any) -> Collection[str]:
        """What a diagram rings to show ``move`` about to be made in ``position`` (its
        :meth:`diagram`'s ``ringed``): Half Moon's places, Seahaven's cards of the run; a game
        that says nothing here rings nothing (a third game plugs in without it)."""
        return ()

    def replay_board(
        self, code: DealCode, position: Any, lang: str, ringed: Collection[str] = ()
    ) -> str:
        """A position's places as a replay shows them: the board of a diagram (no forms),
        ``ringed`` (the next move's cards, issue 45) raised and ringed."""
        game: Any = self.game.starting_from(code, position)
        return str(self.diagram(game, lang, ringed).html)

    # --- the daily deal ----------------------------------------------------------------------

    def daily_variant(self, request: Request) -> str | None:
        """Which of the day's deals ``GET /daily/{game}`` opens (Seahaven: ``?cells=``);
        ``None`` for a game that deals no daily variant."""
        return next((v.code for v in self.game.variants if v.daily), None)

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
        refusal = game.refusal_of(key)
        if refusal is not None and game.may_refuse(refusal):
            return refusal.explain
        return None

    def facts(
        self,
        game: G,
        session: SessionData,
        state: Status | None = None,
        asking: str | None = None,
    ) -> BoardFacts:
        """Everything the board shows, as plain data; ``state`` when already known; ``asking``
        a question the board shows (``restart``)."""
        state = state or game.status()
        helping, score = session.placement_help, game.score
        return BoardFacts(
            state=state,
            score=score,
            moves=game.move_count,
            places=self.places(game, helping),
            ending=self.ending_facts(game, state, score, asking, session.zen),
            classes="with-help" if helping else "",
            zen=session.zen,
            history=game.history_text(),
        )

    @abstractmethod
    def places(self, game: G, helping: bool) -> tuple[Place, ...]:
        """Every place of the board, in board order, as the player sees it; ``helping``:
        *Placement help* is on."""

    @abstractmethod
    def place_html(self, lang: str, place: Place) -> str:
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
    end_actions: ClassVar[tuple[str, ...]] = ("undo", "restart")
    """What the end message offers besides New game (and the replay): the same for every
    game (issue 35), each only when it would do something (:meth:`end_actions_for`)."""

    def ending(
        self, game: G, t: NullTranslations, state: Status | None = None, zen: bool = False
    ) -> str | None:
        """The announcement of a game that has ended, or ``None`` while it goes on."""
        state = state or game.status()
        return self.ending_text(self.ending_facts(game, state, game.score, zen=zen), t)

    def ending_text(self, ending: Ending | None, t: NullTranslations) -> str | None:
        if ending is None or ending.state == Status.PLAYING:
            return None
        if ending.state == Status.WON and ending.score is None:  # Zen: no score, no time
            return t.gettext(N_("You won!"))
        if ending.state == Status.WON:
            return t.gettext(N_("You won! %(score)s points in %(time)s.")) % {
                "score": ending.score,
                "time": clock_text(ending.elapsed_ms or 0),
            }
        if self.defeat_at_deal and ending.at_deal:
            return t.gettext(self.defeat_at_deal)
        return t.gettext(self.defeat)

    @property
    def new_game_url(self) -> str:
        """The game's own address: a fresh deal (Half Moon), or a dialog first (Seahaven's
        cells); *New game* from a game leads to :meth:`new_game_link` (issue 45: a fresh deal
        of the same game and level, in one tap)."""
        return f"/{self.slug}"

    def new_deals(self, t: NullTranslations) -> list[tuple[str, str, str]]:
        """The home page's one-tap new deals (issue 35), one per level: the variant's code, the
        URL that deals it, and the level in words (empty for a game of one level)."""
        return [(self.game.variants[0].code, self.new_game_url, "")]

    def new_game_link(self, game: G) -> str:
        """*New game* from this game (issue 45): one tap to a fresh deal of the same game and
        level — a GET that only redirects to a new deal's code (or asks first while a counted
        game of the kind is unfinished: :mod:`app.web.play.unfinished`)."""
        return self.new_game_url

    other_deal_label: ClassVar[str] = N_("Other level or code…")
    """The end box's small link beside *New game* to the New game dialog (issue 45)."""

    def other_deal_link(self, game: G) -> str:
        """The New game dialog, for another level, *Winnable deals only* or a code."""
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
    ) -> Response | None:
        """``GET /{game}``: a page of the game's own before a deal (Seahaven's New game
        dialog), or ``None``: a fresh random deal (:func:`app.web.play.deals.fresh_deal`)."""
        return None

    deal_fields: ClassVar[dict[str, tuple[tuple[str, ...], str]]] = {}
    """The New game dialog's fields besides ``winnable`` (``POST /{game}``): each name's
    accepted values and the help text that says them (:data:`app.web.play.deals.DealFields`)."""

    def ending_facts(
        self, game: G, state: Status, score: int, asking: str | None = None, zen: bool = False
    ) -> Ending | None:
        """What the ending box depends on (``None`` while the game goes on and nothing is
        asked); the statistics' additions come later
        (:func:`app.web.rendering.ending.with_result`). In
        *Zen* the score and the time are ``None``: the box names neither."""
        if state == Status.PLAYING and asking is None:
            return None
        won = state == Status.WON
        return Ending(
            state=state,
            score=None if zen else score,
            elapsed_ms=None if zen else game.clock.elapsed_ms if won else 0,
            asking=asking,
            new_game_link=self.new_game_link(game),
            other_link=self.other_deal_link(game),
            at_deal=game.move_count == 0 and not game.can_redo(),
            actions=self.end_actions_for(game),
            moves=game.move_count if won else 0,
        )

    def ending_html(self, facts: BoardFacts, lang: str) -> str:
        if facts.ending is None:
            return ending_slot("")
        return ending_box_html(self, lang, facts.ending)

    def board_parts(self, facts: BoardFacts, lang: str) -> list[str]:
        """Each place's cached markup, in board order."""
        return [self.place_html(lang, place) for place in facts.places]

    def board_version(self, facts: BoardFacts, parts: list[str], lang: str, token: str) -> str:
        """The one definition of the board's version (issue 43): the page sends it with every
        action, the kept-action check and the answer compare it. What the statistics add to
        the end box (:attr:`Ending.result`, read after the game) and a practice's words are
        not part of it: an action's check, made on the game alone, sees the page's board."""
        ending = _ending_text(_game_ending(facts.ending))
        head = (
            f"{lang}|{facts.state}|{facts.score}|{facts.moves}|{facts.classes}|{ending}|{facts.zen}"
        )
        return board_version((head, *parts), token)

    def board_html(self, facts: BoardFacts, lang: str, token: str, oob: str | None = None) -> str:
        """The whole board (token and code still placeholders)."""
        parts = self.board_parts(facts, lang)
        version = self.board_version(facts, parts, lang, token)
        inner = self.layout(parts) + self.ending_html(facts, lang)
        return board_html(self.slug, CODE, facts, version, oob, inner)

    def view(self, lang: str, game: G) -> ScreenView:
        t = translations(lang)
        name = t.gettext(self.name)
        return ScreenView(self.slug, name, self.new_game_link(game), self.end_actions)

    def url(self, code: DealCode | str) -> str:
        return f"/{self.slug}/{code}"

    def stored(
        self, game: G, record: dict[str, Any], now: int, state: Status | None = None
    ) -> StoredGame:
        """What the store keeps: the record, and the facts lists and verdicts need; its
        kind (the game registry's) for the statistics, which name no game themselves."""
        return StoredGame(
            record["code"],
            record,
            Status(state or game.status()),
            game.score,
            game.move_count,
            now,
            kind=kind_of(game.code),
        )


@functools.lru_cache(maxsize=1024)
def _game_ending(ending: Ending | None) -> Ending | None:
    if ending is None or (ending.result is None and ending.practice is None):
        return ending
    return dataclasses.replace(ending, result=None, practice=None)


def _ending_text(ending: Ending | None) -> str:
    return value_text(ending)


AnyScreen = Screen[Any]
"""A screen of either game (routes shared by both games hold one)."""

SCREENS: dict[str, AnyScreen] = {}
"""Each game's screen under its slug (:func:`app.web.play.game_routes.game_router` registers it;
:mod:`app.web.games` loads every game's package): the same keys as the engine's ``GAMES``
table."""


def screen_for(code: DealCode) -> AnyScreen:
    """The screen of the game a deal code belongs to."""
    return SCREENS[game_for_code(code).slug]
