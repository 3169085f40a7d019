"""The session cookie: an opaque random id, nothing else; all state lives in the store.

**A GET never writes.** A page is rendered for any well-formed id, stored or not: its form
token is derived from the id (:func:`form_token`), so the player's first action (a tap, a
setting) can be checked and is what writes — the game, or the session with the settings. A
missing or malformed cookie gets a new random id (nothing is stored for it either).

**Sliding expiry.** The cookie is sent again, with a fresh ``Max-Age``, on every page and
every action (:class:`app.web.middleware.SessionCookie` does it for every request that used
the player), so a player who comes back daily never loses their games.

**HTTPS.** Under HTTPS (the request's scheme, or a configured ``https://`` origin) the cookie
is named ``__Host-sid``: browsers then accept it only when Secure, for path ``/`` and without a
``Domain`` — no other site, subdomain or plain-HTTP page can plant or overwrite it. A player
arriving with the old plain ``sid`` keeps their id, moved to the new name.
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
from typing import Final

from starlette.requests import HTTPConnection

from app.store import SessionData
from app.web.errors import PlayerError

COOKIE: Final = "sid"
SECURE_COOKIE: Final = "__Host-sid"
MAX_AGE: Final = 90 * 24 * 3600
"""Renewed on every visit; a year would outlive the store's expiry of abandoned games (90 days)."""
_SID: Final = re.compile(r"[A-Za-z0-9_-]{32}")
_TOKEN_CONTEXT: Final = b"solitaire form token v1\x00"


def new_sid() -> str:
    """192 random bits from the operating system (``secrets``), URL-safe."""
    return secrets.token_urlsafe(24)


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
    """No valid cookie came with the request: a new id was drawn."""
    moved: bool = False
    """The id came in the plain ``sid`` cookie where ``__Host-sid`` is due (HTTPS)."""

    @classmethod
    def from_request(cls, connection: HTTPConnection) -> Player:
        """The request's player, made once per request (kept in ``request.state``) so the
        cookie middleware sends exactly the id the handler used."""
        known = getattr(connection.state, "player", None)
        if isinstance(known, Player):
            return known
        name = cookie_name(connection)
        player = None
        for candidate in dict.fromkeys((name, COOKIE)):
            sid = connection.cookies.get(candidate, "")
            if _SID.fullmatch(sid):
                player = cls(sid, fresh=False, moved=candidate != name)
                break
        if player is None:  # random bits only for a request that brought no valid id
            player = cls(new_sid(), fresh=True)
        connection.state.player = player
        return player


def cookie_headers(player: Player, https: bool) -> list[bytes]:
    """``Set-Cookie`` values: the id with a fresh ``Max-Age`` (sliding expiry), HttpOnly,
    SameSite=Lax, Path=/; Secure and ``__Host-`` under HTTPS (and the old plain cookie
    expired when the id moved to the new name)."""
    name = SECURE_COOKIE if https else COOKIE
    values = [_cookie(name, player.sid, MAX_AGE, https)]
    if player.moved:
        values.append(_cookie(COOKIE, "", 0, https))
    return values


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
