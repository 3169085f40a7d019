"""What every page's header shows — the player's session (token, settings), the language and
its switch, the path to come back to — built once for all pages (:data:`PageDep`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.support import NullTranslations
from starlette.requests import HTTPConnection

from app.i18n import LANGUAGES, choose_language, translations
from app.store import SessionData


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
            "here": self.here,
            **page,
        }
