"""Where things are on the page: boxes of elements, and whether they run into each other."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

Box = dict[str, float]

_BOXES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect();
  const place = e.closest('[data-place]');
  const name = e.dataset.place || e.id || `${e.className} of ${place && place.dataset.place}`;
  return {name, x: r.x, y: r.y + scrollY,
          right: r.right, bottom: r.bottom + scrollY};
})"""


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(_BOXES, selector)
    return found


def overlap(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["right"]
        and b["x"] < a["right"]
        and a["y"] < b["bottom"]
        and b["y"] < a["bottom"]
    )


def assert_apart(page: Page, selector: str, others: str | None = None) -> None:
    """No two boxes of ``selector`` overlap (or none of them overlaps one of ``others``)."""
    mine = boxes(page, selector)
    theirs = mine if others is None else boxes(page, others)
    clashes = [
        (a["name"], b["name"])
        for i, a in enumerate(mine)
        for j, b in enumerate(theirs)
        if (others is not None or i < j) and overlap(a, b)
    ]
    assert clashes == [], (page.viewport_size, clashes)


def assert_labels_clear_of_cards(page: Page) -> None:
    assert_apart(page, "#board .label", "#board .card")
    assert_apart(page, "#board .label")
