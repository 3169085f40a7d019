"""Issue 46 under real processes: ``/metrics`` adds up every uvicorn worker (prometheus-client's
multiprocess mode, its folder made by the application), refuses a client the proxy names, and
``SOLITAIRE_LOG_FORMAT=json`` writes lines that parse and hold no secret; a real Prometheus
scrapes an instance and answers a query for the tap counter; ``promtool`` accepts the alert
rules of ``docs/ops/alerts.yml``."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from tests.system.conftest import HTMX, board_of, token_of
from tests.system.servers import ROOT, Server, free_port, start_server

pytestmark = pytest.mark.system

HM = "HM1-N-AAAAAAB"
MADE_TAPS = {"game": "half-moon", "action": "tap", "outcome": "made"}


def made_taps(server: Server) -> float:
    """The tap counter, read on a connection of its own (whichever worker answers)."""
    with httpx.Client(timeout=10) as client:
        response = client.get(f"{server.url}/metrics")
    assert response.status_code == 200, response.text
    total = 0.0
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if (
                sample.name == "solitaire_actions_total"
                and MADE_TAPS.items() <= sample.labels.items()
            ):
                total += sample.value
    return total


def tap_pile_one(server: Server, taps: int) -> None:
    """``taps`` taps on pile 1 (select, deselect …), each on a new connection, so the
    kernel spreads them over the workers."""
    with httpx.Client(timeout=30) as client:
        page = client.get(f"{server.url}/half-moon/{HM}")
        token, cookies = token_of(page.text), client.cookies
    card = str(deal(DealCode.parse(HM)).top(0))
    for _ in range(taps):
        with httpx.Client(timeout=30, cookies=cookies) as client:
            response = client.post(
                f"{server.url}/half-moon/{HM}/tap",
                data={"place": "pile-1", "card": card, "token": token},
                headers=HTMX,
            )
            assert response.status_code == 200, response.text


def test_the_tap_counter_moves_by_exactly_the_taps_made_across_two_workers(tmp_path):
    server = start_server(str(tmp_path / "games.db"), tmp_path, workers=2)
    try:
        before = made_taps(server)
        tap_pile_one(server, 40)
        # every scrape, whichever worker answers it, adds up both workers' counts
        assert [made_taps(server) - before for _ in range(6)] == [40.0] * 6
        folders = list(Path("/tmp").glob(f"solitaire-metrics-{server.process.pid}-*"))
        assert len(folders) == 1, folders
        pids = {re.sub(r"\D", "", p.stem) for p in folders[0].glob("counter_*.db")}
        assert len(pids) >= 2, pids  # both workers wrote their own counts
        with httpx.Client(timeout=10) as client:
            proxied = client.get(
                f"{server.url}/metrics", headers={"X-Forwarded-For": "203.0.113.9"}
            )
        assert proxied.status_code == 404
        assert "solitaire_" not in proxied.text
    finally:
        server.stop()


def _workers(server: Server) -> set[int]:
    """The pids of the uvicorn workers: the supervisor's children."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        command = (
            (stat.parent / "cmdline").read_bytes() if int(fields[1]) == server.process.pid else b""
        )
        if command and b"resource_tracker" not in command:  # spawn's own helper is no worker
            found.add(int(stat.parent.name))
    return found


def test_a_killed_worker_keeps_its_counts_and_loses_its_gauges(tmp_path):
    server = start_server(str(tmp_path / "games.db"), tmp_path, workers=2)
    try:
        before = made_taps(server)
        tap_pile_one(server, 20)
        folder = next(Path("/tmp").glob(f"solitaire-metrics-{server.process.pid}-*"))
        workers = _workers(server)
        assert len(workers) == 2, workers

        def with_gauges() -> set[int]:
            return {w for w in workers if list(folder.glob(f"gauge_live*_{w}.db"))}

        for _ in range(60):  # a scrape's worker writes its live store_up gauge
            if with_gauges():
                break
            made_taps(server)
        victim = min(with_gauges())
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            len(_workers(server)) < 2 or victim in _workers(server)
        ):
            time.sleep(0.2)
        assert victim not in _workers(server) and len(_workers(server)) == 2  # uvicorn replaced it
        time.sleep(1)  # the new worker's application has started
        assert made_taps(server) - before == 20  # the dead worker's taps still counted
        tap_pile_one(server, 5)
        assert made_taps(server) - before == 25
        assert list(folder.glob(f"gauge_live*_{victim}.db")) == []  # marked dead at the scrape
        assert list(folder.glob(f"counter_{victim}.db"))  # its counts stay
    finally:
        server.stop()


def test_json_logs_parse_and_hold_no_cookie_token_or_body(tmp_path):
    secret = "Zq8Wm2LinkSecretNeverLogged4k9"
    server = start_server(
        str(tmp_path / "games.db"), tmp_path, env={"SOLITAIRE_LOG_FORMAT": "json"}
    )
    try:
        with httpx.Client(timeout=30) as client:
            page = client.get(f"{server.url}/half-moon/{HM}", headers={"X-Request-ID": "edge-7"})
            assert page.headers["x-request-id"] == "edge-7"
            token = token_of(page.text)
            card = str(deal(DealCode.parse(HM)).top(0))
            tapped = client.post(
                f"{server.url}/half-moon/{HM}/tap",
                data={"place": "pile-1", "card": card, "token": token},
                headers=HTMX,
            )
            assert board_of(tapped.text)["data-state"] == "playing"
            client.get(f"{server.url}/link/{secret}")
            client.get(f"{server.url}/no-such-page")
            cookie = client.cookies["sid"]
    finally:
        server.stop()
    text = server.log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    requests = [line for line in lines if line["logger"] == "solitaire.access"]
    routes = [(r["method"], r["route"], r["status"]) for r in requests]
    assert ("GET", "/half-moon/{code}", 200) in routes
    assert ("POST", "/half-moon/{code}/tap", 200) in routes
    assert ("GET", "/link/{secret}", 200) in routes
    assert ("GET", "unmatched", 404) in routes
    first = next(r for r in requests if r["request_id"] == "edge-7")
    assert set(first) >= {"time", "method", "route", "status", "duration_ms", "store", "client"}
    assert (first["store"], first["client"]) == ("sqlite", "127.0.0.1")
    # the process's lines are all JSON from its start to its end (after it, multiprocessing's
    # resource tracker, a process of its own, may warn about the proof pool's semaphores)
    lived = text[text.index("{") : text.index("Finished server process")].splitlines()
    assert len(lived) >= 8
    assert all(line.startswith("{") for line in lived if line.strip())
    for never in (secret, cookie, cookie.partition(".")[0], token, "token=", "card="):
        assert never not in text


def test_promtool_accepts_the_alert_rules():
    promtool = shutil.which("promtool")
    assert promtool, "promtool (Debian's prometheus package) is installed by scripts/test"
    result = subprocess.run(
        [promtool, "check", "rules", str(ROOT / "docs" / "ops" / "alerts.yml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 7 rules found" in result.stdout


def test_the_dashboard_queries_only_metrics_the_application_exports(tmp_path):
    from app import metrics

    exported = {
        getattr(metric, "_name", "")
        for metric in vars(metrics).values()
        if hasattr(metric, "_name") and hasattr(metric, "_type")
    }
    dashboard = json.loads((ROOT / "docs" / "ops" / "dashboard.json").read_text())
    queries = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])
    ]
    assert len(queries) >= 8
    named = {m for q in queries for m in re.findall(r"\b(solitaire_[a-z_]+)", q)}
    bases = {re.sub(r"_(total|bucket|count|sum)$", "", name) for name in named}
    assert bases <= exported, bases - exported


def test_a_real_prometheus_scrapes_an_instance_and_answers_for_the_tap_counter(tmp_path):
    prometheus = shutil.which("prometheus")
    assert prometheus, "prometheus (Debian's package) is installed by scripts/test"
    server = start_server(str(tmp_path / "games.db"), tmp_path)
    port = free_port()
    config = tmp_path / "prometheus.yml"
    target = server.url.removeprefix("http://")
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        f"rule_files:\n  - {ROOT / 'docs' / 'ops' / 'alerts.yml'}\n"
        "scrape_configs:\n  - job_name: solitaire\n"
        f"    static_configs:\n      - targets: ['{target}']\n"
    )
    log = (tmp_path / "prometheus.log").open("wb")
    process = subprocess.Popen(
        [
            prometheus,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    query = 'sum(solitaire_actions_total{game="half-moon",action="tap",outcome="made"})'
    try:
        tap_pile_one(server, 7)
        answer: list = []
        deadline = time.monotonic() + 45
        with httpx.Client(timeout=5) as client:
            while time.monotonic() < deadline:
                assert process.poll() is None, (tmp_path / "prometheus.log").read_text()[-2000:]
                try:
                    response = client.get(
                        f"http://127.0.0.1:{port}/api/v1/query", params={"query": query}
                    )
                    answer = response.json()["data"]["result"] if response.is_success else []
                except httpx.HTTPError:
                    answer = []
                if answer and answer[0]["value"][1] == "7":
                    break
                time.sleep(0.5)
            assert answer and answer[0]["value"][1] == "7", answer
            targets = client.get(f"http://127.0.0.1:{port}/api/v1/targets").json()
            health = [t["health"] for t in targets["data"]["activeTargets"]]
            assert health == ["up"]
            rules = client.get(f"http://127.0.0.1:{port}/api/v1/rules").json()
            loaded = [r["name"] for g in rules["data"]["groups"] for r in g["rules"]]
            assert "SolitaireStoreUnreachable" in loaded
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        server.stop()
