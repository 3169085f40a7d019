"""Helpers for tests with real processes: reading the HTML they answer."""

from __future__ import annotations

import re

HTMX = {"HX-Request": "true"}


def token_of(html: str) -> str:
    match = re.search(r'name="token" value="([^"]+)"', html)
    assert match, html[:500]
    return match.group(1)


def board_of(html: str) -> dict[str, str]:
    match = re.search(r'<div id="board"([^>]*)>', html)
    assert match, html[:500]
    return dict(re.findall(r'(data-[a-z]+)="([^"]*)"', match.group(1)))


def status_of(html: str) -> str:
    match = re.search(r'<p id="status"[^>]*>([^<]*)</p>', html)
    assert match, html[:500]
    return match.group(1)
