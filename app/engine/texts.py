"""Texts the engine gives players (refusals, the deal code format), marked for the catalogs.

The engine never translates: it marks its sentences with :func:`N_` so ``make messages``
extracts them, and explains a refusal through any object with gettext's two methods
(:class:`Translator`), so the web layer passes its catalog and tests pass :data:`ENGLISH`.
"""

from __future__ import annotations

from typing import Final, Protocol


def N_(message: str) -> str:  # noqa: N802  (the conventional gettext marker name)
    """Mark a text for extraction where it is defined; it is translated where it is shown."""
    return message


class Translator(Protocol):
    """What the engine needs of a catalog (``gettext.NullTranslations`` has both)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class _English:
    """The source texts themselves: English, with English plurals."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH: Final[Translator] = _English()
