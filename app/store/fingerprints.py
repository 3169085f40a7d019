"""What a player's statistics document keeps of the deals it counted (issues 23 and 34):
each deal's fingerprint (``seen``), so a deal counts once even after its row is gone, and the
cell of each of the player's wins its deal's figures took (``ranked``), so the player's own
win is never among "the other players". Plain bytes as base64 text, bounded."""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any, Final

from app.store import histogram

SEEN: Final = 2048
"""Deals whose fingerprints the document keeps (the most recently counted): replaying a deal
counts nothing as long as fewer than this many other deals were played since — at the
default limit of 60 new games an hour, more than 34 hours of nothing but new games. 4 bytes a
deal: 8 KiB, 11 KiB as the document's base64 text."""

FINGERPRINT: Final = 4
"""Bytes of SHA-256 kept per deal: a new deal is mistaken for a counted one once in about
two million (2048 / 2^32)."""

RANKED: Final = SEEN
"""Won deals whose cell in the deal's figures the document keeps (``ranked``: the deal's
fingerprint, then its moves bucket and time bucket, a byte each — 6 bytes a win, at most 12
KiB), so that the player's own win is never among "the other players" (issue 34), after any
number of later games and across a reset."""


def fingerprint(code: str) -> bytes:
    """What ``seen`` keeps of a deal code.

    >>> fingerprint("HM1-N-AAAAAAB").hex()
    '2f8f10c6'
    """
    return hashlib.sha256(b"counted deal\x00" + code.encode()).digest()[:FINGERPRINT]


def seen_text(value: Any) -> str:
    """``seen`` as stored, or ``""`` when it is not base64 of whole fingerprints."""
    raw = _seen(value) if isinstance(value, str) else b""
    return base64.b64encode(raw[-SEEN * FINGERPRINT :]).decode()


def _seen(text: str) -> bytes:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return b""
    return raw if len(raw) % FINGERPRINT == 0 else b""


def was_counted(doc: dict[str, Any], code: str) -> bool:
    """Whether ``code`` is among the deals the document (:func:`normal`) counted."""
    raw, mark = _seen(doc["seen"]), fingerprint(code)
    return any(raw[i : i + FINGERPRINT] == mark for i in range(0, len(raw), FINGERPRINT))


def remember(doc: dict[str, Any], code: str) -> None:
    """Add ``code`` to ``seen``, forgetting the oldest past :data:`SEEN`."""
    raw = _seen(doc["seen"]) + fingerprint(code)
    doc["seen"] = base64.b64encode(raw[-SEEN * FINGERPRINT :]).decode()


def ranked_text(value: Any) -> str:
    """``ranked`` as stored, or ``""`` when it is not base64 of whole entries."""
    raw = _entries(value, RANK_ENTRY) if isinstance(value, str) else b""
    return base64.b64encode(raw[-RANKED * RANK_ENTRY :]).decode()


RANK_ENTRY: Final = FINGERPRINT + 2


def _entries(text: str, size: int) -> bytes:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return b""
    return raw if len(raw) % size == 0 else b""


def ranked_cell(doc: dict[str, Any], code: str) -> tuple[int, int] | None:
    """The cell of the player's own win of ``code`` that its deal's figures hold (a
    :func:`normal` document), ``None`` when they hold none of the player's."""
    raw, mark = _entries(doc["ranked"], RANK_ENTRY), fingerprint(code)
    for i in range(len(raw) - RANK_ENTRY, -1, -RANK_ENTRY):
        if raw[i : i + FINGERPRINT] == mark:
            return raw[i + FINGERPRINT], raw[i + FINGERPRINT + 1]
    return None


def rank(doc: dict[str, Any], code: str, moves: int, ms: int) -> None:
    """Remember the cell of the player's win of ``code`` the deal's figures took."""
    m, t = histogram.cell(moves, ms)
    raw = _entries(doc["ranked"], RANK_ENTRY) + fingerprint(code) + bytes((m, t))
    doc["ranked"] = base64.b64encode(raw[-RANKED * RANK_ENTRY :]).decode()
