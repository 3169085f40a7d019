"""The docs are references: `docs/decisions.md` stays short enough to read, every file the README
and the docs name in backticks is a file (or folder) of the repository, and nothing in the
repository reaches outside it (a clone with nothing beside it passes)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# A backticked span that starts at one of the repository's top folders names a file.
TOP = ("app/", "templates/", "static/", "tests/", "bench/", "scripts/", "docs/", "seeds/")
SPAN = re.compile(r"`([^`\n]+)`")
# Placeholders and patterns name no one file: `app/engine/<name>/`, `rules/{en,tr,bg}.html`.
PATTERN = re.compile(r"[<{*…]")


def named_paths(text: str) -> list[str]:
    """The repository paths a Markdown text names in backticks (a test id's `::…` and a
    symbol's `:name` dropped)."""
    paths = []
    for span in SPAN.findall(text):
        span = span.strip()
        if not span.startswith(TOP) or PATTERN.search(span) or " " in span:
            continue
        paths.append(span.split(":")[0])
    return paths


def test_named_paths_are_read_from_backticks_and_skip_patterns() -> None:
    text = (
        "`app/web/rendering/board_values.py`, `tests/test_docs.py::test_x`, `app/clock.py:now_ms`, not `app/engine/<name>/`, "
        "`templates/prose/{en,tr,bg}/*.html`, `/half-moon` or `app.web.rendering.board_values`"
    )
    assert named_paths(text) == [
        "app/web/rendering/board_values.py",
        "tests/test_docs.py",
        "app/clock.py",
    ]


def test_decisions_stay_a_reference_of_at_most_550_lines() -> None:
    lines = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 550, f"docs/decisions.md has {len(lines)} lines: keep decisions, not logs"


def test_every_file_the_docs_name_exists() -> None:
    missing = [
        f"{doc.name}: {path}"
        for doc in DOCS
        for path in named_paths(doc.read_text(encoding="utf-8"))
        if not (ROOT / path).exists()
    ]
    assert missing == []


OUTSIDE = re.compile(r"\.\./shared|parent\s*/\s*[\"']shared[\"']|parents\[\d\]\s*/\s*[\"']shared")


def test_nothing_in_the_repository_reaches_outside_it() -> None:
    """Issue 47: the README and ``tests/web/test_languages.py`` read the folder beside the checkout, so a clone
    with nothing beside it failed; the facts the tests need live in ``seeds/``. Every tracked
    text file is read for a path out of the repository."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    reaching = []
    for name in filter(None, tracked):
        path = ROOT / name.decode()
        if "vendor" in path.parts or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        reaching += [f"{name.decode()}: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    assert reaching == []
