"""Deal codes: the text that names one deal forever (SPEC §1).

Grammar: ``game version "-" variant "-" number`` with game ``HM`` or ``SH``, version ``1``,
variant ``N`` (Half Moon) or ``C4``/``C2``/``C1`` (Seahaven cells), and number 7 characters of
RFC 4648 base32, big-endian::

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
from typing import Final, Literal, NamedTuple

from app.engine.texts import N_

GameId = Literal["HM", "SH"]

NUMBER_LENGTH: Final = 7
NUMBER_BITS: Final = 5 * NUMBER_LENGTH
MAX_NUMBER: Final = (1 << NUMBER_BITS) - 1
"""Largest deal number: 2^35 − 1."""

CURRENT_VERSION: Final = 1
"""The dealing algorithm new codes use. Older versions must keep dealing as they did."""

VARIANTS: Final[dict[GameId, tuple[str, ...]]] = {"HM": ("N",), "SH": ("C4", "C2", "C1")}
DEFAULT_VARIANT: Final[dict[GameId, str]] = {"HM": "N", "SH": "C4"}

_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_VALUE: Final[dict[str, int]] = {ch: i for i, ch in enumerate(_ALPHABET)}
_LOOKALIKES: Final = str.maketrans({"0": "O", "1": "I", "8": "B"})

FORMAT_HELP: Final = N_(
    "A deal code looks like HM1-N-AAAAAAB (Half Moon) or SH1-C4-AAAAAJ2 (Seahaven Towers, "
    "C4, C2 or C1 cells): the game, the version 1, the variant, then 7 characters A–Z or 2–7."
)
"""Said after every code error, and on the web's "no such deal" page in the player's language."""


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
            f"the deal number {text!r} must have exactly {NUMBER_LENGTH} characters. {FORMAT_HELP}"
        )
    number = 0
    for ch in cleaned:
        value = _VALUE.get(ch)
        if value is None:
            raise DealCodeError(
                f"the deal number {text!r} may only hold the letters A–Z and digits 2–7. "
                + FORMAT_HELP
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
            raise DealCodeError(FORMAT_HELP)
        parts = text.strip().upper().split("-")
        if len(parts) != 3:
            raise DealCodeError(f"{text.strip()!r} is not a deal code. {FORMAT_HELP}")
        head, variant, number_text = (part.strip() for part in parts)
        game_text, version_text = head[:2], head[2:]
        if game_text not in VARIANTS:
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code: it must start with HM or SH. {FORMAT_HELP}"
            )
        game: GameId = "HM" if game_text == "HM" else "SH"
        if version_text != str(CURRENT_VERSION):
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code this site knows: the version after "
                f"{game} must be {CURRENT_VERSION}. {FORMAT_HELP}"
            )
        if variant not in VARIANTS[game]:
            allowed = " or ".join(VARIANTS[game])
            raise DealCodeError(
                f"{text.strip()!r} is not a deal code: the variant of {game} must be {allowed}. "
                + FORMAT_HELP
            )
        return cls(game, CURRENT_VERSION, variant, decode_number(number_text))

    @classmethod
    def random(cls, game: GameId, variant: str | None = None) -> DealCode:
        """A fresh deal from the operating system's randomness (``secrets``)."""
        chosen = DEFAULT_VARIANT[game] if variant is None else variant
        if chosen not in VARIANTS[game]:
            raise DealCodeError(f"unknown variant {chosen!r} for {game}. {FORMAT_HELP}")
        return cls(game, CURRENT_VERSION, chosen, secrets.randbelow(MAX_NUMBER + 1))

    @property
    def cells(self) -> int:
        """Seahaven's number of cells (4, 2 or 1); 0 for Half Moon."""
        return int(self.variant[1:]) if self.game == "SH" else 0

    def with_variant(self, variant: str) -> DealCode:
        """The same shuffle under another variant (Seahaven's cell count does not change it)."""
        if variant not in VARIANTS[self.game]:
            raise DealCodeError(f"unknown variant {variant!r} for {self.game}. {FORMAT_HELP}")
        return self._replace(variant=variant)

    def __str__(self) -> str:
        return f"{self.game}{self.version}-{self.variant}-{encode_number(self.number)}"

    def __repr__(self) -> str:
        return f"DealCode.parse({str(self)!r})"
