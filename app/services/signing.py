"""The server's secret and what it signs: session ids only this site issued (issue 23).

**The secret** is ``SOLITAIRE_SECRET`` from the environment (at least 32 characters, checked
by :class:`app.config.Config`; every instance of one site must have the same). Unset, the
store keeps one beside its data, made on first use (:meth:`~app.store.base.Store.kept_secret`):
a SQLite file's ``PATH.secret`` (mode 0600), a Redis key, a memory store's own random bytes.
So a fresh machine needs no configuration, and every worker and instance that opens the same
store signs alike (``docs/deployment.md``).

**A signature** is the first 128 bits of HMAC-SHA-256 over a context and the signed text,
URL-safe base64 (22 characters): a client cannot make one for text the server never signed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Final

from app.store import Store

TAG_LENGTH: Final = 22
"""Characters of a signature: 16 bytes of HMAC-SHA-256, URL-safe base64 without padding."""


async def server_secret(configured: str, store: Store) -> bytes:
    """The configured secret, else the one the store keeps (made on first use)."""
    if configured:
        return configured.encode()
    return await store.kept_secret()


class Signer:
    """Signs and checks short texts in named contexts (a signature of one context never
    passes in another).

    >>> signer = Signer(b"k" * 32)
    >>> tag = signer.sign("sid", "abc")
    >>> len(tag), signer.verify(tag, "sid", "abc"), signer.verify(tag, "sid", "abd")
    (22, True, False)
    >>> signer.verify(tag, "__Host-sid", "abc")
    False
    """

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"solitaire signing v1\x00" + secret).digest()

    def sign(self, context: str, text: str) -> str:
        message = context.encode() + b"\x00" + text.encode()
        digest = hmac.new(self._key, message, hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def verify(self, tag: str, context: str, text: str) -> bool:
        return hmac.compare_digest(self.sign(context, text).encode(), tag.encode())
