"""``POST /settings``: Move errors, Placement help, the language and the player's own look
(zen, deck, hand, theme, sound: issue 27), and the games whose how-to-play the player
dismissed (``learned``, issue 35), remembered per player."""

from __future__ import annotations

import dataclasses
from typing import Final

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.engine.games import GAMES
from app.i18n import LANGUAGES, N_
from app.store.base import CHOICES, SWITCHES
from app.web.edge.dependencies import PlayerDep, SameOrigin, StoreDep, limit
from app.web.edge.errors import PlayerError, Text, invalid_field, token_or_refuse, unknown_field
from app.web.edge.htmx import NO_STORE, is_htmx, vary_on_htmx
from app.web.players.sessions import check_token

router = APIRouter()

_ON: Final = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}
FIELDS: Final = {*SWITCHES, *CHOICES, "lang", "learned", "token", "next"}
SWITCH_HELP = N_("Accepted: on or off.")
LANG_HELP = N_("Accepted: en, tr or bg.")
CHOICE_HELP: Final = {
    "deck": N_("Accepted: classic or four-colour."),
    "hand": N_("Accepted: right or left."),
    "theme": N_("Accepted: auto, light or dark."),
    "winnable": N_("Accepted: auto, on or off."),
}
LEARNED_HELP = N_("Accepted: a game's name as its address writes it (%(names)s).")


@router.post("/settings", dependencies=[SameOrigin])
async def save_settings(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """Apply the fields present; a checkbox after a hidden ``off`` sends both — the last wins.

    Without a field the setting stays as it was, so the language buttons can post ``lang``
    alone. Then 303 back to ``next`` (a path on this site) or home; to ``static/js/settings.js``
    (``HX-Request: true``), which applies a change on the page at once, 204.
    """
    form = await request.form()
    problems: list[Text] = [unknown_field(name) for name in form if name not in FIELDS]
    changes: dict[str, object] = {}
    for name in SWITCHES:
        values = form.getlist(name)
        if values:
            value = _ON.get(str(values[-1]).strip().lower())
            if value is None:
                problems.append(invalid_field(name, SWITCH_HELP))
            changes[name] = value
    for name, accepted in CHOICES.items():
        values = form.getlist(name)
        if values:
            choice = str(values[-1]).strip().lower()
            if choice not in accepted:
                problems.append(invalid_field(name, CHOICE_HELP[name]))
            changes[name] = choice
    if "lang" in form:
        lang = str(form["lang"]).strip().lower()
        if lang not in LANGUAGES:
            problems.append(invalid_field("lang", LANG_HELP))
        changes["lang"] = lang
    learned = [str(slug).strip().lower() for slug in form.getlist("learned")]
    if any(slug not in GAMES for slug in learned):  # a how-to-play dismissed (issue 35)
        problems.append(_not_a_game)
    if learned:  # kept for good: added to those dismissed before
        changes["learned"] = learned
    token = token_or_refuse(form, problems)
    back = _local_path(form.get("next"))
    stored, _ = await store.load(player.sid)
    session = check_token(player, stored, token, back)
    if stored is None:  # the first thing this player keeps: a new session row
        verdict = await limit(request, "new")
        if not verdict.allowed:
            raise PlayerError.rate_limited(verdict.retry_after)
    if learned:
        changes["learned"] = tuple(sorted({*session.learned, *learned}))
    await store.save_session(player.sid, dataclasses.replace(session, **changes))  # type: ignore[arg-type]
    if is_htmx(request):  # static/js/settings.js: the page applies the look itself (issue 35)
        return vary_on_htmx(Response(status_code=204, headers=dict(NO_STORE)))
    return vary_on_htmx(RedirectResponse(back, 303, headers=dict(NO_STORE)))


def _not_a_game(t: NullTranslations) -> str:
    """``learned`` names no game: say which names are (the table's slugs)."""
    accepted = t.gettext(LEARNED_HELP) % {"names": ", ".join(GAMES)}
    return invalid_field("learned", None)(t) + " " + accepted


def _local_path(value: object) -> str:
    """Only a path on this site: never ``//evil.example`` or a full URL (open redirect)."""
    if (
        isinstance(value, str)
        and value.startswith("/")
        and not value.startswith(("//", "/\\"))
        and len(value) <= 200
        and value.isprintable()
    ):
        return value
    return "/"
