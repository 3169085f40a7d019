"""Deal codes: the text that names one deal forever (SPEC §1).

Grammar: ``game version "-" variant "-" number`` with a game's two letters (:attr:`Game.game_id
<app.engine.game.Game.game_id>`), version ``1``, one of the game's variants (:class:`Variant`)
and number 7 characters of RFC 4648 base32, big-endian; the games and their variants are the
table of games' (:mod:`app.engine.games`)::

    >>> DealCode.parse("HM1-N-AAAAAAB")
    DealCode.parse('HM1-N-AAAAAAB')
    >>> DealCode.parse(" sh1-c4-aaaaaj2 ").number
    314
    >>> str(DealCode.parse("hm1-n-aaaaa0l"))  # 0 is read as O
    'HM1-N-AAAAAOL'
"""

from __future__ import annotations

import functools
import secrets
from typing import Final, NamedTuple

GameId = str
"""A game's two capital letters, the start of its deal codes (``HM``)."""

NUMBER_LENGTH: Final = 7
NUMBER_BITS: Final = 5 * NUMBER_LENGTH
MAX_NUMBER: Final = (1 << NUMBER_BITS) - 1
"""Largest deal number: 2^35 − 1."""

CURRENT_VERSION: Final = 1
"""The dealing algorithm new codes use. Older versions must keep dealing as they did."""

_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_VALUE: Final[dict[str, int]] = {ch: i for i, ch in enumerate(_ALPHABET)}
_LOOKALIKES: Final = str.maketrans({"0": "O", "1": "I", "8": "B"})


class Variant(NamedTuple):
    """One way a game is dealt, named by the middle part of its deal codes: a game declares
    its variants (:attr:`Game.variants <app.engine.game.Game.variants>`), the first the one a
    new deal gets when none is chosen."""

    code: str
    """``N``, ``C4``: what a deal code writes."""
    name: str
    """The game and variant for players, a catalog text (statistics, the daily deals)."""
    short_name: str
    """The same, shorter (the winnability tables)."""
    daily: bool = True
    """Whether each day has a daily deal of this variant."""
    mostly_lost: bool = False
    """Whether most of its deals cannot be won (``/winnability``): *Winnable deals only* is
    on by default for it (:mod:`app.services.winnable`)."""


_VARIANTS: dict[GameId, tuple[str, ...]] = {}
"""Each game's variant codes (its default first), as the table of games gives them."""
_HELP: list[str] = [""]
"""What a deal code looks like (in English), as the table of games gives it."""


def know_games(variants: dict[GameId, tuple[str, ...]], help_text: str) -> None:
    """Take the games' letters and variants, and the sentence that says what a code looks
    like, from the table of games (:mod:`app.engine.games`, which the engine's package loads
    first: a deal code is never read before the table is)."""
    _VARIANTS.clear()
    _VARIANTS.update(variants)
    _HELP[0] = help_text


def _variants(game: str) -> tuple[str, ...] | None:
    """The variant codes of the game ``game`` names (the default first), ``None`` for none."""
    return _VARIANTS.get(game)


def _help() -> str:
    """What a deal code looks like, said after every code error (in English)."""
    return _HELP[0]


class DealCodeError(ValueError):
    """Text that is not a deal code; the message shows the expected format."""


@functools.lru_cache(maxsize=4096)
def encode_number(number: int) -> str:
    """Seven base32 characters, big-endian (cached: every answer prints its deal's code).

    >>> encode_number(314)
    'AAAAAJ2'
    """
    if not 0 <= number <= MAX_NUMBER:
        raise DealCodeError(f"deal number {number} is outside 0 … {MAX_NUMBER}")
    chars = []
    for _ in range(NUMBER_LENGTH):
        chars.append(_ALPHABET[number & 31])
        number >>= 5
    return "".join(reversed(chars))


def decode_number(text: str) -> int:
    """The number a seven-character base32 text stands for (look-alike digits accepted).

    :raises DealCodeError: on a wrong length or a character outside the alphabet.
    """
    cleaned = text.strip().upper().translate(_LOOKALIKES)
    if len(cleaned) != NUMBER_LENGTH:
        raise DealCodeError(
            f"the deal number {text!r} must have exactly {NUMBER_LENGTH} characters. {_help()}"
        )
    number = 0
    for ch in cleaned:
        value = _VALUE.get(ch)
        if value is None:
            raise DealCodeError(
                f"the deal number {text!r} may only hold the letters A–Z and digits 2–7. " + _help()
            )
        number = number << 5 | value
    return number


class DealCode(NamedTuple):
    """One deal: game, dealing version, variant and number."""

    game: GameId
    version: int
    variant: str
    number: int

    @classmethod
    def parse(cls, text: str) -> DealCode:
        """Read a code forgivingly: any case, surrounding spaces, ``0``/``1``/``8`` in the number.

        :raises DealCodeError: for anything else, with a message that shows the format.
        """
        if not isinstance(text, str) or len(text) > 64:
            raise DealCodeError(_help())
        parts = text.strip().upper().split("-")
        if len(parts) != 3:
            raise DealCodeError(f"{text.strip()!r} is not a deal code. {_help()}")
        head, variant, number_text = (part.strip() for part in parts)
        game, version_text = head[:2], head[2:]
        variants = _variants(game)
        if variants is None:
            starts = " or ".join(_VARIANTS)
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code: it must start with {starts}. {_help()}"
            )
        if version_text != str(CURRENT_VERSION):
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code this site knows: the version after "
                f"{game} must be {CURRENT_VERSION}. {_help()}"
            )
        if variant not in variants:
            allowed = " or ".join(variants)
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code: the variant of {game} must be {allowed}. "
                + _help()
            )
        return cls(game, CURRENT_VERSION, variant, decode_number(number_text))

    @classmethod
    def random(cls, game: GameId, variant: str | None = None) -> DealCode:
        """A fresh deal from the operating system's randomness (``secrets``)."""
        variants = _variants(game) or ()
        chosen = variant if variant is not None else variants[0] if variants else ""
        if chosen not in variants:
            raise DealCodeError(f"unknown variant {chosen!r} for {game}. {_help()}")
        return cls(game, CURRENT_VERSION, chosen, secrets.randbelow(MAX_NUMBER + 1))

    def with_variant(self, variant: str) -> DealCode:
        """The same shuffle under another variant (Seahaven's cell count does not change it)."""
        if variant not in (_variants(self.game) or ()):
            raise DealCodeError(f"unknown variant {variant!r} for {self.game}. {_help()}")
        return self._replace(variant=variant)

    def __str__(self) -> str:
        return f"{self.game}{self.version}-{self.variant}-{encode_number(self.number)}"

    def __repr__(self) -> str:
        return f"DealCode.parse({str(self)!r})"
