"""Reading stored JSON that may be damaged, and writing it compactly (shared by the stores).

Nothing here raises on bad input: a store turns what it cannot read into the defaults the
interface promises (no session; a game with an empty record).
"""

from __future__ import annotations

import json
from typing import Any


def json_or_none(text: Any) -> Any:
    """The value ``text`` holds, or ``None`` when it is not JSON (a damaged row or key).

    >>> json_or_none('{"a": 1}'), json_or_none("{a"), json_or_none(None)
    ({'a': 1}, None, None)
    """
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


def json_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object (already parsed), else ``{}``."""
    return value if isinstance(value, dict) else {}


def dict_from_json(text: Any) -> dict[str, Any]:
    """The JSON object ``text`` holds, or ``{}`` when it holds anything else."""
    return json_dict(json_or_none(text))


def int_or_zero(value: Any) -> int:
    """An integer as stored; anything else (text, a fraction, ``true``) counts as 0.

    >>> int_or_zero(7), int_or_zero("7"), int_or_zero(1.5), int_or_zero(True)
    (7, 0, 0, 0)
    """
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def dumps(value: Any) -> str:
    """Compact JSON, non-ASCII kept as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
