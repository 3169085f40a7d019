"""A secret kept in a file beside a store's data: made once, read by every process after.

The first process to need it writes 32 random bytes (URL-safe base64) to a temporary file and
links it into place (``os.link`` fails when the file exists), so processes starting together
never see half a file and all end up with the first one's secret.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from app.store.base import StoreError


def kept_secret(path: Path) -> bytes:
    """The secret in ``path``, made (mode 0600) when there is none yet.

    :raises StoreError: when it can neither be read nor made.
    """
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise StoreError(f"cannot read the secret {str(path)!r}: {exc}") from exc
    temporary = path.with_name(f"{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_urlsafe(32).encode() + b"\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process was first: its secret
            os.link(temporary, path)
        return _read(path)
    except OSError as exc:
        raise StoreError(f"cannot make the secret {str(path)!r}: {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def _read(path: Path) -> bytes:
    value = path.read_bytes().strip()
    if len(value) < 32:
        raise StoreError(f"the secret in {str(path)!r} is too short: delete it to make a new one")
    return value
