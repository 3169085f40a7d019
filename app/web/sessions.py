"""The session cookie: an opaque random id, nothing else; all state lives in the store.

A cookie that is missing, malformed or unknown to the store simply starts a new session.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

COOKIE: Final = "sid"
MAX_AGE: Final = 90 * 24 * 3600
"""A year would outlive the store's expiry of abandoned games (90 days)."""
_SID: Final = re.compile(r"[A-Za-z0-9_-]{32}")


def new_sid() -> str:
    """192 random bits from the operating system (``secrets``), URL-safe."""
    return secrets.token_urlsafe(24)


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(slots=True)
class Player:
    """Who is asking: the session id and whether the cookie must be (re)sent."""

    sid: str
    fresh: bool
    """No valid cookie came with the request: a new id was drawn."""

    @classmethod
    def from_request(cls, request: Request) -> Player:
        sid = request.cookies.get(COOKIE, "")
        if _SID.fullmatch(sid):
            return cls(sid, fresh=False)
        return cls(new_sid(), fresh=True)

    def renew(self) -> None:
        """The store does not know this id: draw a new one rather than adopt a forged id."""
        self.sid = new_sid()
        self.fresh = True


def set_cookie(response: Response, player: Player, request: Request) -> None:
    """HttpOnly, SameSite=Lax, Secure when served over HTTPS; sent only when new."""
    if player.fresh:
        response.set_cookie(
            COOKIE,
            player.sid,
            max_age=MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
