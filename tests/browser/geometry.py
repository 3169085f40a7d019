"""Where things are on the page: boxes of elements, and whether they run into each other."""

from __future__ import annotations

import colorsys
import re
from typing import Any

from playwright.sync_api import Page

from tests.web.png import read_png

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


def pixel(page: Page, x: float, y: float) -> tuple[int, int, int]:
    """The colour the page shows at the CSS point (x, y) of the viewport."""
    data = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, scale="css")
    r, g, b, _ = read_png(data).rgba(0, 0)
    return r, g, b


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG's relative luminance of an sRGB colour (channels 0–255)."""

    def channel(c: float) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG's contrast ratio of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def hue(rgb: tuple[int, int, int]) -> float:
    """The hue angle in degrees (0 red, 60 yellow, 120 green, 240 blue)."""
    h, _, _ = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return h * 360


def css_colour(text: str) -> tuple[int, int, int]:
    """``rgb(1, 2, 3)`` or ``rgba(1, 2, 3, 1)`` as computed styles give it."""
    r, g, b = (int(float(v)) for v in re.findall(r"[\d.]+", text)[:3])
    return r, g, b
