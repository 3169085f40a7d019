#!/usr/bin/env python3
"""Which modules of ``app/``, outside each game's own packages, name a game (issue 25).

Usage: ``.venv/bin/python scripts/game_names.py [CHECKOUT]`` (default: this checkout) prints
one line a module — its path and what in it names a game — then the count.

A module *names a game* when its code (docstrings and comments do not count) holds a game's
slug (``half-moon``), its code letters as a word of a string (``HM``, ``SH-C4``, ``HM1-…``), its
title (``Half Moon``), or an identifier or import that contains its class's or its package's
name (``HalfMoon``, ``halfmoon``, ``SEAHAVEN_DEAL``). A game's own packages are
``app/engine/<name>`` and ``app/web/<name>`` (and, in a checkout from before issue 25, the
modules ``<name>.py`` and ``<name>_*.py`` there). The games come from the checkout's own
table, ``app.engine.games.GAMES``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path


def games(root: Path) -> list[dict[str, str]]:
    """Each game's words, read from the checkout's table of games (in its own interpreter)."""
    probe = (
        "import json; from app.engine.games import GAMES; print(json.dumps([{'slug': g.slug,"
        " 'title': g.title, 'id': g.game_id, 'cls': g.__name__,"
        " 'pkg': g.__module__.split('.')[2]} for g in GAMES.values()]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True
    )
    found: list[dict[str, str]] = json.loads(out.stdout)
    return found


Patterns = tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]


def patterns(found: list[dict[str, str]]) -> Patterns:
    """Identifiers, strings, and the codes' letters as a word."""
    names = set()
    for g in found:
        names |= {g["cls"], g["pkg"], g["slug"].replace("-", "_"), g["title"].replace(" ", "")}
    ident = re.compile("|".join(re.escape(n) for n in sorted(names)), re.IGNORECASE)
    text = re.compile(
        "|".join(re.escape(w) for g in found for w in (g["slug"], g["title"])), re.IGNORECASE
    )
    letters = re.compile(
        r"(?<![A-Za-z0-9])(" + "|".join(re.escape(g["id"]) for g in found) + r")(?![A-Za-z])"
    )
    return ident, text, letters


def docstrings(tree: ast.AST) -> set[int]:
    """Every string that stands alone as a statement (docstrings, attribute docstrings)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            found.add(id(node.value))
    return found


def naming(path: Path, words: Patterns) -> list[str]:
    """What in ``path``'s code names a game."""
    ident, text, letters = words
    tree = ast.parse(path.read_text("utf-8"))
    skip = docstrings(tree)
    said: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skip and (text.search(node.value) or letters.search(node.value)):
                said.append(repr(node.value)[:32])
            continue
        words: list[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or ""]
        elif isinstance(node, ast.keyword):
            words = [node.arg or ""]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        said += [w for w in words if ident.search(w)]
    return said


def own(relative: str, found: list[dict[str, str]]) -> bool:
    """Whether a module is in one of a game's own packages (or its modules, before issue 25)."""
    for g in found:
        own_package = re.compile(rf"app/(engine|web)/{g['pkg']}(/|\.py$|_[a-z]+\.py$)")
        if own_package.match(relative):
            return True
    return False


def count(root: Path) -> dict[str, list[str]]:
    found = games(root)
    words = patterns(found)
    hits = {}
    for path in sorted((root / "app").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if not own(relative, found):
            said = naming(path, words)
            if said:
                hits[relative] = sorted(set(said))
    return hits


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    hits = count(root.resolve())
    for relative, said in hits.items():
        print(f"{relative}: {', '.join(said)}"[:160])
    print(f"{len(hits)} modules of app/ outside the games' own packages name a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
