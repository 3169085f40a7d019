"""The session cookie: an opaque random id, nothing else; all state lives in the store.

**A GET never writes.** A page is rendered for any well-formed id, stored or not: its form
token is derived from the id (:func:`form_token`), so the player's first action (a tap, a
setting) can be checked and is what writes — the game, or the session with the settings. A
missing or malformed cookie gets a new random id (nothing is stored for it either).

**Sent only when it changes** (issue 44). The cookie is sent when the id is issued (a
request that brought none of ours), when it changes hands (a device link revoked, used or
left: the handler puts a new :class:`Player`), and, for sliding expiry, at most once a day:
the cookie says the day it was last sent (``ID.DAY.TAG``, the day signed with the id), and
the first answer of a later day sends it again with a fresh ``Max-Age``, once the store says
the id has not moved (:meth:`app.store.base.Store.moved_to`). So no answer to a request sent
with an old cookie can put back an id that a revocation emptied: it sends no cookie. A
cookie of the form before (``ID.TAG``) is read as last sent long ago.

**HTTPS.** Under HTTPS (the request's scheme, or a configured ``https://`` origin) the cookie
is named ``__Host-sid``: browsers then accept it only when Secure, for path ``/`` and without a
``Domain`` — no other site, subdomain or plain-HTTP page can plant or overwrite it. A
planted plain ``sid`` is never adopted: under HTTPS only ``__Host-sid`` is read.

**Only ids this site issued** (issue 23). The cookie holds the id and its signature
(``ID.TAG``, :class:`app.services.signing.Signer`, the cookie's name in the signed context):
an id a client made up, or one of ours planted under the other name, is answered with a
fresh id, as a missing cookie is. Ids issued before ids were signed (32 characters, no tag;
new ids have 43) are honoured when the store holds something for them, under the name they
were issued with, and the answer gives them their signed form: existing players keep their
games across the change (:func:`vouch_for_legacy`, run by the cookie middleware before the
application).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any, Final

from starlette.requests import HTTPConnection
from starlette.types import Scope

from app.clock import now_ms
from app.services.signing import TAG_LENGTH, Signer, server_secret
from app.store import SessionData, Store
from app.store.sync import portal
from app.web.edge.errors import PlayerError

COOKIE: Final = "sid"
SECURE_COOKIE: Final = "__Host-sid"
MAX_AGE: Final = 90 * 24 * 3600
"""Renewed on every visit; a year would outlive the store's expiry of abandoned games (90 days)."""
_SIGNED: Final = re.compile(
    rf"([A-Za-z0-9_-]{{43}}|[A-Za-z0-9_-]{{32}})(?:\.([0-9]{{1,7}}))?\.([A-Za-z0-9_-]{{{TAG_LENGTH}}})"
)
"""A cookie's value: the id (256 random bits; 192 for an id from before signing), the day it
was sent (days since 1970, UTC; none before issue 44) and the signature of both."""
DAY_MS: Final = 24 * 3600 * 1000
_LEGACY: Final = re.compile(r"[A-Za-z0-9_-]{32}")
"""An id from before ids were signed (192 random bits, no signature)."""
_TOKEN_CONTEXT: Final = b"solitaire form token v1\x00"
_VOUCHED: Final = "legacy_sid"
"""Key of the request's state: the unsigned id of an earlier version the store knows."""


def new_sid() -> str:
    """256 random bits from the operating system (``secrets``), URL-safe: 43 characters."""
    return secrets.token_urlsafe(32)


def signer_of(app: Any) -> Signer:
    """The application's :class:`Signer`, made on first use from ``SOLITAIRE_SECRET`` or the
    secret the store keeps."""
    state = app.state
    signer: Signer | None = getattr(state, "signer", None)
    if signer is None:
        config = getattr(state, "config", None)
        store: Store = state.store
        secret = portal().call(server_secret, getattr(config, "secret", ""), store)
        signer = state.signer = Signer(secret)
    return signer


def _context(name: str, joined: bool) -> str:
    """What a cookie's signature signs besides the id: its name, and whether the browser
    holds the id through a device link."""
    return f"{name} through a link" if joined else name


def today() -> int:
    """Days since 1970-01-01, UTC: the day a cookie was sent."""
    return now_ms() // DAY_MS


def cookie_value(
    signer: Signer, name: str, sid: str, joined: bool = False, day: int | None = None
) -> str:
    """What the cookie ``name`` holds for ``sid``: the id, the day it is sent and their
    signature (``ID.DAY.TAG``), which also says whether the browser holds the id through a
    device link (``joined``). ``day`` ``None``: the form before issue 44 (``ID.TAG``)."""
    if day is None:
        return f"{sid}.{signer.sign(_context(name, joined), sid)}"
    return f"{sid}.{day}.{signer.sign(_context(name, joined), f'{sid}.{day}')}"


@dataclass(frozen=True, slots=True)
class Came:
    """What a request's cookie held: the id, whether through a device link, the day it was
    sent (``None``: a cookie of the form before issue 44)."""

    sid: str
    joined: bool
    day: int | None


def signed_cookie(signer: Signer, name: str, value: str) -> Came | None:
    """What a cookie ``name`` holds, when its signature is this site's for that name."""
    match = _SIGNED.fullmatch(value)
    if match is None:
        return None
    sid, day, tag = match.group(1), match.group(2), match.group(3)
    signed = sid if day is None else f"{sid}.{day}"
    when = None if day is None else int(day)
    if signer.verify(tag, name, signed):
        return Came(sid, False, when)
    if signer.verify(tag, _context(name, True), signed):
        return Came(sid, True, when)
    return None


def signed_sid(signer: Signer, name: str, value: str) -> tuple[str, bool] | None:
    """The id a cookie ``name`` holds, when its signature is this site's for that name, and
    whether the browser holds it through a device link."""
    came = signed_cookie(signer, name, value)
    return None if came is None else (came.sid, came.joined)


async def vouch_for_legacy(scope: Scope) -> None:
    """Before the application: a request whose cookie holds an unsigned id of an earlier
    version is vouched for (its player keeps the id) when the store holds something for it.
    One read per such request, and only until the answer's cookie gives the signed form."""
    connection = HTTPConnection(scope)
    value = connection.cookies.get(cookie_name(connection), "")
    if not _LEGACY.fullmatch(value):
        return
    store: Store | None = getattr(connection.app.state, "store", None)
    try:
        known = store is not None and await store.knows(value)
    except Exception:  # a failing store: the page answers as for a fresh id, nothing kept
        known = False
    if known:
        scope.setdefault("state", {})[_VOUCHED] = value


def new_token() -> str:
    return secrets.token_urlsafe(24)


@functools.lru_cache(maxsize=4096)
def form_token(sid: str) -> str:
    """The form token of a session that has none stored yet: SHA-256 of the id (in a context
    of its own), 192 bits, URL-safe.

    A page can hand it out without writing anything, and the first POST checks it without
    reading anything. A cross-site attacker who does not know the id cannot compute it, and
    the token (which is in the page) does not reveal the id (which is only in the HttpOnly
    cookie): the hash cannot be reversed.

    >>> len(form_token("A" * 32)), form_token("A" * 32) == form_token("B" * 32)
    (32, False)
    """
    digest = hashlib.sha256(_TOKEN_CONTEXT + sid.encode()).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def is_https(connection: HTTPConnection) -> bool:
    """Served over HTTPS: the scheme uvicorn saw (``--proxy-headers`` from a trusted proxy
    gives the client's), or a configured ``https://`` public origin."""
    if connection.scope.get("scheme") in ("https", "wss"):  # no URL object built
        return True
    config = getattr(connection.app.state, "config", None)
    return bool(getattr(config, "https", False))


def cookie_name(connection: HTTPConnection) -> str:
    return SECURE_COOKIE if is_https(connection) else COOKIE


@dataclass(slots=True)
class Player:
    """Who is asking: the session id, and how it came."""

    sid: str
    fresh: bool
    """No id of ours came with the request: a new one was drawn."""
    joined: bool = False
    """The browser holds the id through a device link (another browser's id: it may play,
    and leave; only a browser that holds the id as its own may make or revoke the link)."""
    came: Came | None = None
    """What the request's cookie held (``None``: no cookie of ours); the answer sends the
    cookie only when the player differs from it, or it is a day old (:func:`to_send`)."""

    @classmethod
    def from_request(cls, connection: HTTPConnection) -> Player:
        """The request's player, made once per request (kept in ``request.state``) so the
        cookie middleware sends exactly the id the handler used."""
        known = getattr(connection.state, "player", None)
        if isinstance(known, Player):
            return known
        name = cookie_name(connection)
        came = signed_cookie(signer_of(connection.app), name, connection.cookies.get(name, ""))
        vouched = getattr(connection.state, _VOUCHED, None)
        # random bits only for a request that brought no id of ours
        if came is not None:
            player = cls(came.sid, False, came.joined, came)
        elif vouched is not None:
            player = cls(vouched, False)
        else:
            player = cls(new_sid(), fresh=True)
        connection.state.player = player
        return player


def to_send(player: Player) -> str:
    """Whether an answer sends the player's cookie: ``"changed"`` (issued, or another id or
    link state than the request's cookie held), ``"refresh"`` (the same, sent a day ago or
    more: sliding expiry, once the id is known not to have moved) or ``""`` (nothing)."""
    came = player.came
    if came is None or (came.sid, came.joined) != (player.sid, player.joined):
        return "changed"
    if came.day is None or today() - came.day >= 1:
        return "refresh"
    return ""


def cookie_headers(player: Player, https: bool, signer: Signer) -> list[bytes]:
    """``Set-Cookie`` values: the signed id and today with a fresh ``Max-Age`` (sliding
    expiry), HttpOnly, SameSite=Lax, Path=/; Secure and ``__Host-`` under HTTPS."""
    name = SECURE_COOKIE if https else COOKIE
    value = cookie_value(signer, name, player.sid, player.joined, today())
    return [_cookie(name, value, MAX_AGE, https)]


@functools.lru_cache(maxsize=4096)
def _cookie(name: str, value: str, max_age: int, secure: bool) -> bytes:
    """One ``Set-Cookie`` value (cached: a player's every answer sends the same one)."""
    cookie: SimpleCookie = SimpleCookie()
    cookie[name] = value
    morsel = cookie[name]
    morsel["max-age"] = max_age
    morsel["path"] = "/"
    morsel["httponly"] = True
    morsel["samesite"] = "lax"
    if secure:
        morsel["secure"] = True
    return morsel.OutputString().encode("latin-1")


def page_session(player: Player, session: SessionData | None) -> SessionData:
    """The player's stored session, or — nothing is written for a page — the default one
    with the token derived from the id, which the first action accepts."""
    return session if session is not None else SessionData(form_token(player.sid))


def check_token(
    player: Player, session: SessionData | None, token: str, page_url: str
) -> SessionData:
    """The session a POST acts for, when its form token is the session's (the stored one's,
    or the derived one of an id with nothing stored yet); else "this page has expired"."""
    expected = session.token if session is not None else form_token(player.sid)
    if player.fresh or not hmac.compare_digest(expected.encode(), token.encode()):
        raise PlayerError.expired_form(page_url)
    return page_session(player, session)
