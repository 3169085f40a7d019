"""A third game plugs in by its own packages, templates and stylesheet plus one table entry
(issue 36; docs/architecture.md, *How to add a game*): the toy One Pile (tests/toygame/files/,
never shipped) is copied into a copy of the project, ``"onepile"`` added to ``PACKAGES``, and
played there to a win in a process of its own."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toygame"
TABLE = 'PACKAGES: Final = ("halfmoon", "seahaven")'

TOY_FILES = sorted(
    p.relative_to(TOY / "files").as_posix() for p in (TOY / "files").rglob("*") if p.is_file()
)


def test_the_recipe_names_every_file_the_toy_game_adds():
    """The files a game adds, counted: its two packages, its templates, its stylesheet — and
    the one line of the table, which docs/architecture.md states with the count."""
    assert TOY_FILES == [
        "app/engine/onepile/__init__.py",
        "app/web/onepile/__init__.py",
        "static/css/games/one-pile.css",
        "templates/games/one-pile/board.html",
        "templates/games/one-pile/example.html",
        "templates/games/one-pile/howto.html",
        "templates/games/one-pile/rules.html",
        "templates/games/one-pile/rules/bg.html",
        "templates/games/one-pile/rules/en.html",
        "templates/games/one-pile/rules/tr.html",
        "templates/games/one-pile/scripts.html",
        "templates/games/one-pile/styles.html",
    ]
    docs = (ROOT / "docs" / "architecture.md").read_text()
    assert "12 new files and one line of `PACKAGES`" in docs


def test_a_third_game_plugs_in_by_its_packages_and_one_table_entry(tmp_path):
    copy = tmp_path / "project"
    for part in ("app", "templates", "static"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TOY / "files", copy, dirs_exist_ok=True)
    shutil.copy(TOY / "play.py", copy / "play.py")
    games = copy / "app" / "engine" / "games.py"
    text = games.read_text()
    assert TABLE in text
    games.write_text(text.replace(TABLE, TABLE[:-1] + ', "onepile")'))
    run = subprocess.run(
        [sys.executable, "play.py", str(tmp_path / "one-pile.db")],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(copy), "HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.findall(r"^FAILED", run.stdout, re.M) == []
    assert run.stdout.count("ok ") >= 14
