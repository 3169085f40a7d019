"""Issue 46 item 3: the load profile of real play (``bench/locustfile.py``) runs headless
against a real instance (two workers, SQLite) for 15 s: no request fails, and afterwards every
game, reloaded with its player's cookie, shows exactly the board its player was last shown
(0 lost, 0 desynced)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.system.servers import ROOT, start_server

pytestmark = pytest.mark.system


def test_the_load_profile_runs_with_no_failure_and_every_game_as_its_player_saw_it(tmp_path):
    server = start_server(str(tmp_path / "games.db"), tmp_path, workers=2)
    report = tmp_path / "report.json"
    env = {
        **os.environ,
        "SOLITAIRE_LOCUST_PACE": "0.05",
        "SOLITAIRE_LOCUST_REPORT": str(report),
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "locust", "-f", "bench/locustfile.py", "--headless"]
    command += ["-u", "8", "-r", "8", "-t", "15s", "--stop-timeout", "5", "--only-summary"]
    command += ["--host", server.url]
    try:
        run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    finally:
        server.stop()
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(report.read_text())
    assert figures["failures"] == 0, figures
    assert (figures["lost"], figures["desynced"], figures["in_flight"]) == (0, 0, 0), figures
    assert figures["games"] >= 8  # every player opened one at least
    assert figures["actions"]["half-moon tap"]["requests"] >= 100
    assert figures["actions"]["half-moon tap"]["failures"] == 0
    assert {"open deal", "seahaven auto"} <= set(figures["actions"])
