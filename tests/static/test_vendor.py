"""Vendored htmx: the exact file we reviewed, its version and its licence."""

import base64
import hashlib
from pathlib import Path

VENDOR = Path(__file__).parents[2] / "static" / "vendor"
HTMX = VENDOR / "htmx-4.0.1.min.js"
HTMX_SHA384 = "Qp9rdC8H7EqOoX+nR0P3RPG2Noji+qdwJlGpfzwQJsfOpp3sGwIdSP9xO3+UlEhn"


def test_htmx_checksum_is_the_pinned_release():
    digest = base64.b64encode(hashlib.sha384(HTMX.read_bytes()).digest()).decode()
    assert digest == HTMX_SHA384


def test_htmx_file_is_version_4_0_1():
    assert 'this.version="4.0.1"' in HTMX.read_text(encoding="utf-8")


def test_htmx_licence_is_kept_beside_it():
    licence = (VENDOR / "htmx-4.0.1.LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("Zero-Clause BSD")
    assert HTMX_SHA384 in (VENDOR / "README.md").read_text(encoding="utf-8")
