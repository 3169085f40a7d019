"""Configuration from the environment, read once at start-up.

- ``SOLITAIRE_STORE`` (default ``var/solitaire.db``): ``memory:``, a SQLite file path or
  ``sqlite:///PATH``.
- ``SOLITAIRE_MAX_BODY`` (default ``16384``): the largest request body accepted, in bytes
  (``POST /replay`` takes at least :data:`app.web.review.replay_pages.PASTED_MAX_BODY`).
- ``SOLITAIRE_EXPIRE_DAYS`` (default ``90``): games untouched this long are deleted.
- ``SOLITAIRE_SWEEP_SECONDS`` (default ``3600``): how often the expiry sweep runs.
- ``SOLITAIRE_ORIGIN`` (default: none): the public origin players use, ``https://host[:port]``.
  POSTs must come from it, and share links name it. Unset, the request's own ``Host`` is used
  (fine for a server reached directly, wrong behind a proxy that rewrites ``Host``).
- ``SOLITAIRE_RATE_WRITES`` (default ``240/minute``): POSTs one client address may make.
- ``SOLITAIRE_RATE_NEW`` (default ``60/hour``): new games (and new sessions) one client
  address may start. Both take the ``limits`` notation (``N/second|minute|hour|day``, also
  ``N per 10 minutes``) or ``off``.
- ``SOLITAIRE_STORE_TIMEOUT`` (default ``1``): seconds one Redis command or connection may
  take before the store counts as unreachable (taps answer 503, ``/health`` says so).
- ``SOLITAIRE_PROOF_WORKERS`` (default ``1``): processes per app process that prove Seahaven
  positions lost ("no useful move left"), at a lower CPU priority than the web workers.
- ``SOLITAIRE_PROOF_SECONDS`` (default ``10``): the most time one proof may take (a second
  on a quiet machine; the bound is for a machine under load, where the proof process, at a
  lower priority, gets little CPU).
- ``SOLITAIRE_PROOF_WAIT`` (default ``5``): how long a request waits for a pending proof
  (without holding up anyone else) before it answers without the verdict.
- ``SOLITAIRE_ANALYSIS_SECONDS`` (default ``20``): the most time the analysis of one ended
  game ("where the win slipped away") may take, in its own process below the web workers'
  priority; past it the finding is "undecided".
- ``SOLITAIRE_RATE_ANALYSIS`` (default ``300/hour``): the seconds of analysis one client
  address may use (a limit's notation, or ``off``); past them its next analysis waits.
- ``SOLITAIRE_SECRET`` (default: none): the secret session ids are signed with, at least 32
  characters, the same for every instance of a site. Unset, the store keeps one beside its
  data, made on first use (:mod:`app.services.signing`).
- ``SOLITAIRE_METRICS_FROM`` (default ``127.0.0.0/8,::1``): the addresses (or networks) that
  may read ``GET /metrics``; anyone else gets 404 (:mod:`app.web.edge.metrics`).
- ``SOLITAIRE_LOG_FORMAT`` (default ``text``): ``json`` writes one JSON object a line, one per
  request (:mod:`app.web.edge.logs`).
- ``SOLITAIRE_METRICS`` (default ``on``): ``off`` records no metrics (:mod:`app.metrics`).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

DEFAULT_STORE: Final = "var/solitaire.db"
DEFAULT_MAX_BODY: Final = 16 * 1024
DEFAULT_RATE_WRITES: Final = "240/minute"
DEFAULT_RATE_NEW: Final = "60/hour"
DEFAULT_RATE_RANKED: Final = "30/day"
DEFAULT_METRICS_FROM: Final = "127.0.0.0/8,::1"
LOG_FORMATS: Final = ("text", "json")
DEFAULT_ANALYSIS: Final = "300/hour"
MIN_SECRET: Final = 32
"""Characters ``SOLITAIRE_SECRET`` must have at least."""


class ConfigError(ValueError):
    """A setting that cannot be used: the application refuses to start rather than guess."""


@dataclass(frozen=True, slots=True)
class Config:
    store: str = DEFAULT_STORE
    max_body: int = DEFAULT_MAX_BODY
    expire_days: float = 90.0
    sweep_seconds: float = 3600.0
    origin: str = ""
    """The public origin (``https://cards.example``), or ``""``: each request's own."""
    rate_writes: str = DEFAULT_RATE_WRITES
    rate_new: str = DEFAULT_RATE_NEW
    rate_ranked: str = DEFAULT_RATE_RANKED
    """Wins per client address that enter the deals' standings (issue 34)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "origin", normal_origin(self.origin))
        if self.secret and len(self.secret) < MIN_SECRET:
            raise ConfigError(
                f"SOLITAIRE_SECRET has {len(self.secret)} characters: give it at least"
                f" {MIN_SECRET} (for example the output of `openssl rand -base64 32`)"
            )

    @property
    def https(self) -> bool:
        """The public origin is HTTPS (whatever scheme the proxy speaks to us)."""
        return self.origin.startswith("https://")

    store_timeout: float = 1.0
    proof_workers: int = 1
    proof_seconds: float = 10.0
    proof_wait: float = 5.0
    analysis_seconds: float = 20.0
    rate_analysis: str = DEFAULT_ANALYSIS
    secret: str = field(default="", repr=False)
    """``SOLITAIRE_SECRET``, or ``""``: the store keeps one (never printed)."""
    metrics_from: tuple[IPNetwork, ...] = field(default_factory=lambda: networks(""))
    """The scrapers' addresses: ``GET /metrics`` answers them only."""
    log_format: str = "text"
    """``text`` (uvicorn's lines) or ``json`` (one object a line, :mod:`app.web.edge.logs`)."""

    @classmethod
    def from_env(cls) -> Config:
        max_body = os.environ.get("SOLITAIRE_MAX_BODY", "")
        return cls(
            store=os.environ.get("SOLITAIRE_STORE", DEFAULT_STORE),
            max_body=int(max_body) if max_body.isdigit() else DEFAULT_MAX_BODY,
            expire_days=env_number("SOLITAIRE_EXPIRE_DAYS", 90.0),
            sweep_seconds=env_number("SOLITAIRE_SWEEP_SECONDS", 3600.0),
            origin=os.environ.get("SOLITAIRE_ORIGIN", ""),
            rate_writes=os.environ.get("SOLITAIRE_RATE_WRITES", "") or DEFAULT_RATE_WRITES,
            rate_new=os.environ.get("SOLITAIRE_RATE_NEW", "") or DEFAULT_RATE_NEW,
            rate_ranked=os.environ.get("SOLITAIRE_RATE_RANKED", "") or DEFAULT_RATE_RANKED,
            store_timeout=env_number("SOLITAIRE_STORE_TIMEOUT", 1.0),
            proof_workers=max(1, int(env_number("SOLITAIRE_PROOF_WORKERS", 1))),
            proof_seconds=env_number("SOLITAIRE_PROOF_SECONDS", 10.0),
            proof_wait=env_number("SOLITAIRE_PROOF_WAIT", 5.0),
            analysis_seconds=env_number("SOLITAIRE_ANALYSIS_SECONDS", 20.0),
            rate_analysis=os.environ.get("SOLITAIRE_RATE_ANALYSIS", "") or DEFAULT_ANALYSIS,
            secret=os.environ.get("SOLITAIRE_SECRET", "").strip(),
            metrics_from=networks(os.environ.get("SOLITAIRE_METRICS_FROM", "")),
            log_format=log_format(os.environ.get("SOLITAIRE_LOG_FORMAT", "")),
        )


def normal_origin(text: str) -> str:
    """``scheme://host[:port]`` in lower case without a trailing slash, or ``""`` for none.

    >>> normal_origin("https://Cards.Example/"), normal_origin("http://h:8080"), normal_origin("")
    ('https://cards.example', 'http://h:8080', '')

    :raises ConfigError: for anything that is not an origin (a path, a missing host).
    """
    text = text.strip()
    if not text:
        return ""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"SOLITAIRE_ORIGIN {text!r} is not an origin: {exc}") from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise ConfigError(
            f"SOLITAIRE_ORIGIN {text!r} is not an origin: write scheme://host[:port], "
            "e.g. https://cards.example"
        )
    host = parts.hostname.lower()
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[IPNetwork, ...]:
    """Addresses and networks, comma-separated (``""``: :data:`DEFAULT_METRICS_FROM`).

    >>> [str(n) for n in networks("10.0.0.7, 192.168.1.0/24")]
    ['10.0.0.7/32', '192.168.1.0/24']

    :raises ConfigError: for anything that is not an address or a network.
    """
    items = [part.strip() for part in (text.strip() or DEFAULT_METRICS_FROM).split(",")]
    try:
        return tuple(ipaddress.ip_network(item, strict=False) for item in items if item)
    except ValueError as exc:
        raise ConfigError(
            f"SOLITAIRE_METRICS_FROM {text!r}: {exc}; write addresses or networks separated"
            " by commas, e.g. 127.0.0.1,10.0.0.0/8"
        ) from None


def log_format(text: str) -> str:
    """``text`` or ``json`` (``""``: ``text``).

    :raises ConfigError: for any other value.
    """
    value = text.strip().lower() or "text"
    if value not in LOG_FORMATS:
        raise ConfigError(f"SOLITAIRE_LOG_FORMAT {text!r}: use text or json")
    return value


def env_number(name: str, default: float) -> float:
    """A positive number from the environment variable ``name``; anything else (unset, empty,
    not a number, zero or less) keeps the default.

    >>> env_number("SOLITAIRE_NO_SUCH_SETTING", 1.5)
    1.5
    """
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default
