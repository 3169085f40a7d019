"""The end of a game on its board: the end box (a won game's summary, or the message of a game
that cannot be won any more) and Restart's question, drawn from an :class:`Ending`; and what
the statistics add to it once the game is over (:func:`game_result`, :func:`with_result`).

Markup is cached by the ending, which is hashable plain data
(:class:`~app.web.rendering.board_values.Ending`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import Final, Protocol

from babel.support import NullTranslations
from markupsafe import Markup

from app.engine.cards import Card
from app.i18n import N_, rank_letter, translations
from app.status import Status
from app.store import Store, StoreError
from app.store.life import Nature, deal_of, in_deal_figures, life_of, ranked
from app.store.replays import replay_id
from app.web.players.figures import deal_figures, ended_values, kind_of_code, result_lines
from app.web.players.standing import ended_as, standing_values
from app.web.rendering.board_markup import macro
from app.web.rendering.board_values import BoardFacts, Ending, GameResult
from app.web.rendering.infobar import clock_text
from app.web.rendering.notices import QUESTIONS


class EndingScreen(Protocol):
    """What the end box asks of a game's screen (:class:`app.web.rendering.screen.Screen`)."""

    @property
    def slug(self) -> str: ...

    @property
    def other_deal_label(self) -> str: ...

    def ending_text(self, ending: Ending | None, t: NullTranslations) -> str | None: ...


log = logging.getLogger(__name__)

CASCADE: Final = tuple(
    Card.parse(c) for c in ("KH", "QS", "JD", "AC", "10H", "9S", "8D", "7C", "6H", "5S", "4D", "3C")
)
"""The cards of the win's cascade (decoration: hidden from screen readers)."""


ENDING: Final = "board/ending.html"
PRACTICE_LINE: Final = N_("Practice: not counted in your statistics or the deal's standings.")
ANALYSIS: Final = "partials/analysis.html"


@functools.lru_cache(maxsize=256)
def ending_box_html(screen: EndingScreen, lang: str, ending: Ending) -> str:
    """The end of a game, and Restart's question (``asking``), inside the board
    (``templates/board/ending.html``)."""
    t = translations(lang)
    state, asking = ending.state, ending.asking
    other = t.gettext(screen.other_deal_label) if ending.other_link else ""
    new_game = (ending.new_game_link, t.gettext(N_("New game")), ending.other_link, other)
    ident = ending.result.replay if ending.result is not None else None  # issue 26
    replay = None if ident is None else (f"/replay/{ident}", t.gettext(N_("Watch the replay")))
    zen = ending.score is None  # Zen: neither the time nor the score (Screen.ending_facts)
    lines = result_lines(ending.result, t, zen)
    extra = macro(ENDING, "result")(lines.bests, lines.standing, lines.deal)
    if ending.practice is not None:  # issue 43: counted nowhere, said so
        extra = macro(ENDING, "practice")(t.gettext(PRACTICE_LINE))
    parts = []
    if state == Status.WON and asking != "restart":
        moved = ("moves", t.gettext(N_("Moves")), str(ending.moves))
        figures = (
            (moved,)
            if zen
            else (
                ("time", t.gettext(N_("Time")), clock_text(ending.elapsed_ms or 0)),
                moved,
                ("score", t.gettext(N_("Score")), str(ending.score)),
            )
        )
        cascade = [(card, rank_letter(card, t)) for card in CASCADE]
        again = t.gettext(N_("Play this deal again"))
        if ending.practice:
            again = t.gettext(N_("Start again from move %(k)s")) % {"k": ending.practice}
        title = t.gettext(N_("You won!"))
        summary = macro(ENDING, "summary")
        parts.append(summary(screen.slug, title, figures, extra, cascade, again, new_game, replay))
    elif state.is_over and asking != "restart":
        labels = {"undo": t.gettext(N_("Undo")), "restart": t.gettext(N_("Restart"))}
        actions = [] if state == Status.WON else [(verb, labels[verb]) for verb in ending.actions]
        text = screen.ending_text(ending, t) or ""
        box = macro(ENDING, "box")
        found = None  # where the win slipped away (issue 33): loaded into the box
        if ident is not None:
            label = t.gettext(N_("Where did the win slip away?"))
            found = macro(ANALYSIS, "placeholder")(ident, label)
        fold = (t.gettext(N_("Look at the board")), t.gettext(N_("Show what to do next")))
        parts.append(box(screen.slug, state, text, actions, new_game, extra, replay, found, fold))
    elif not state.is_over and "home" in ending.actions and asking != "restart":
        text = t.gettext(N_("Only moves to the foundations are left."))
        parts.append(macro(ENDING, "home_offer")(screen.slug, text, t.gettext(N_("Send all home"))))
    if asking == "restart":
        question = t.gettext(QUESTIONS["restart"])
        restart, keep = t.gettext(N_("Restart")), t.gettext(N_("Keep playing"))
        parts.append(macro(ENDING, "restart_question")(screen.slug, question, restart, keep))
    return ending_slot("".join(parts))


async def game_result(
    store: Store, sid: str, code: str, by_moves: bool = False
) -> GameResult | None:
    """What the end box adds once the player's game is over (the caller asks only then:
    no screen may say whether a deal can be won while it is played): the personal bests and
    streaks it set, how the deal went for everyone who finished it, where the game stands
    among the deal's wins (``by_moves``: the game ranks wins by fewer moves first, issue 26)
    and its replay's id."""
    deal, practice = deal_of(code)
    kind = kind_of_code(deal)
    if kind is None or practice:  # a practice adds nothing: it counts nowhere (issue 43)
        return None
    _, row = await store.load(sid, code)
    life = life_of(row)
    if life.nature is Nature.PRACTICE:
        return None
    doc = await store.player_stats(sid)
    figures = await store.deal_stats(code)
    ident = replay_id(row)
    ending = ended_as(row)
    if ending is None and ident is not None:  # undone since: the game as it ended
        replay = await store.replay(ident)
        ending = None if replay is None else (Status(replay.state), replay.ms, replay.moves)
    aside = not in_deal_figures(life)  # not in the figures (issue 34)
    if not ranked(life) or (
        life.counted is not None and life.stands.ended and (life.stands is not life.counted)
    ):
        ending = None  # only the ending counted stands among the deal's wins (issue 43)
    standing = standing_values(figures, ending, code, doc, by_moves, aside)
    return GameResult(
        records=ended_values(doc, code, kind),
        deal=deal_figures(figures, aside),
        standing=standing,
        replay=ident,
    )


async def result_or_none(
    store: Store, sid: str, code: str, by_moves: bool = False
) -> GameResult | None:
    """:func:`game_result`, or ``None`` when the store cannot read it: an end box without its
    statistics lines, never a failed answer (the game itself is read or written already;
    the next read shows them)."""
    try:
        return await game_result(store, sid, code, by_moves)
    except StoreError as error:
        log.warning("the end box's statistics were not read: %s", error)
        return None


def ending_slot(inner: str) -> str:
    """The slot of the end box and Restart's question, inside the board: always there (empty
    while the game goes on), so an answer can swap it by id."""
    return str(macro("board/common.html", "ending_slot")(Markup(inner)))


def as_practice(facts: BoardFacts, start: int) -> BoardFacts:
    """The board's facts of a practice game from move ``start`` (issue 43): its end box says
    it counts nowhere."""
    if facts.ending is None:
        return facts
    return dataclasses.replace(facts, ending=dataclasses.replace(facts.ending, practice=start))


def with_result(facts: BoardFacts, result: GameResult | None) -> BoardFacts:
    """The board's facts with the end box's additions (part of what the ending depends on,
    so a partial answer sends the box again when they change)."""
    if result is None or facts.ending is None or not facts.state.is_over:
        return facts
    return dataclasses.replace(facts, ending=dataclasses.replace(facts.ending, result=result))
