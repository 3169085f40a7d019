"""``GET /metrics`` (issue 46): Prometheus's text format, served to the scrapers' addresses
alone; the figures move by exactly what was done (taps by outcome, requests by route template,
store calls, sessions and games created); every response carries its request id; and the JSON
log lines parse and hold no cookie, token or form body."""

from __future__ import annotations

import json
import logging
import warnings

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.config import Config, networks
from app.main import create_app
from app.web.edge.logs import REQUESTS_LOGGER, JsonLines
from tests.web.conftest import HTMX, Player, board_version

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "HM1-N-AAAAAAB"
TAP = "/half-moon/{code}/tap"


def scrape(client: TestClient) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return response.text


def value(text: str, name: str, **labels: str) -> float:
    """The sample ``name`` whose labels include ``labels`` (0 when there is none yet)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and labels.items() <= sample.labels.items():
                return float(sample.value)
    return 0.0


def local_client(app, address: str = "127.0.0.1") -> TestClient:
    return TestClient(
        app, base_url="http://testserver", follow_redirects=False, client=(address, 4711)
    )


@pytest.fixture
def local(app):
    with local_client(app) as client:
        yield client


def test_metrics_answer_loopback_in_the_text_format(local):
    text = scrape(local)
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {
        "solitaire_http_requests",
        "solitaire_http_request_duration_seconds",
        "solitaire_actions",
        "solitaire_store_call_duration_seconds",
        "solitaire_store_up",
        "solitaire_pool_running",
        "solitaire_rate_limit_refusals",
        "solitaire_sessions_created",
        "solitaire_games_created",
    } <= names
    assert value(text, "solitaire_store_up", store="memory") == 1.0


@pytest.mark.parametrize("address", ["203.0.113.9", "10.0.0.7", "2001:db8::1"])
def test_metrics_are_a_404_page_from_elsewhere(app, address):
    with local_client(app, address) as client:
        response = client.get("/metrics")
    assert response.status_code == 404
    assert "Page not found" in response.text
    assert "solitaire_" not in response.text


def test_a_proxied_request_is_refused_even_from_loopback(local):
    for header in (
        {"X-Forwarded-For": "203.0.113.9"},
        {"Forwarded": "for=1.2.3.4"},
        {"X-Real-IP": "1.2.3.4"},
    ):
        response = local.get("/metrics", headers=header)
        assert response.status_code == 404, header


def test_solitaire_metrics_from_names_the_scrapers(store, proof_pool):
    config = Config(store="memory:", metrics_from=networks("10.0.0.0/8, 192.0.2.5"))
    app = create_app(config, store=store.store, proof_pool=proof_pool)
    for address, status in (
        ("10.1.2.3", 200),
        ("192.0.2.5", 200),
        ("192.0.2.6", 404),
        ("127.0.0.1", 404),
    ):
        with local_client(app, address) as client:
            assert client.get("/metrics").status_code == status, address


def test_a_bad_metrics_from_stops_the_start():
    from app.config import ConfigError

    with pytest.raises(ConfigError, match="SOLITAIRE_METRICS_FROM 'localhost'"):
        networks("localhost")


def test_taps_are_counted_by_outcome_and_route_template(local):
    before = scrape(local)
    p = Player(local, f"/half-moon/{CODE}")
    p.open()
    card = p.top("pile-1")
    for _ in range(5):  # select, deselect … : each a tap made
        p.tap("pile-1", card)
    # a card that is not there (a page out of date): nothing to change, the board as it is
    response = local.post(
        f"/half-moon/{CODE}/tap",
        data={"place": "pile-1", "card": "AS" if card != "AS" else "2S", "token": p.token},
        headers={**HTMX, **board_version(p.board)},
    )
    assert response.status_code == 200
    # Undo with no move made: refused by the rules; an expired form: refused before the store
    undo = local.post(f"/half-moon/{CODE}/undo", data={"token": p.token}, headers=HTMX)
    assert undo.status_code == 200
    local.post(
        f"/half-moon/{CODE}/tap", data={"place": "pile-1", "card": card, "token": "x"}, headers=HTMX
    )
    after = scrape(local)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    tap = {"game": "half-moon", "action": "tap", "store": "memory"}
    assert delta("solitaire_actions_total", **tap, outcome="made") == 5
    assert delta("solitaire_actions_total", **tap, outcome="kept") == 1
    assert delta("solitaire_actions_total", **tap, outcome="refused") == 1
    assert delta("solitaire_actions_total", **{**tap, "action": "undo"}, outcome="refused") == 1
    assert delta("solitaire_actions_total", **tap, outcome="not_made") == 0
    assert delta("solitaire_http_requests_total", route=TAP, method="POST", status="200") >= 5
    assert delta("solitaire_http_request_duration_seconds_count", route=TAP, method="POST") == 7
    assert delta("solitaire_sessions_created_total") == 1  # the first page gave one
    assert delta("solitaire_games_created_total", game="half-moon") == 1
    assert (
        delta(
            "solitaire_store_call_duration_seconds_count", store="memory", operation="change_game"
        )
        >= 6
    )
    assert CODE not in after  # labels are templates, never a deal code


def grew(before: str, after: str, name: str, **labels: str) -> float:
    """How much a metric's sample grew between two scrapes."""
    return value(after, name, **labels) - value(before, name, **labels)


def test_an_unknown_path_counts_as_unmatched(local):
    before = scrape(local)
    assert local.get("/no/such/page-AAAAAAB").status_code == 404
    after = scrape(local)
    labels = {"route": "unmatched", "method": "GET", "status": "404"}
    assert grew(before, after, "solitaire_http_requests_total", **labels) == 1
    assert "/no/such" not in after


def test_head_counts_under_its_route(local):
    before = scrape(local)
    assert local.head(f"/half-moon/{CODE}").status_code == 200
    after = scrape(local)
    labels = {"route": "/half-moon/{code}", "method": "HEAD", "status": "200"}
    assert grew(before, after, "solitaire_http_requests_total", **labels) == 1


def test_every_answer_carries_a_request_id(client):
    generated = client.get("/").headers["x-request-id"]
    assert len(generated) == 32 and int(generated, 16) >= 0
    assert client.get("/").headers["x-request-id"] != generated
    given = "7f3a9c1e-5b2d-4e8f-9a6b-1c2d3e4f5a6b"
    assert client.get("/", headers={"X-Request-ID": given}).headers["x-request-id"] == given
    refused = client.get("/nowhere", headers={"X-Request-ID": given}).headers["x-request-id"]
    assert refused == given  # a 404 too
    odd = client.get("/", headers={"X-Request-ID": 'a b"<script>'}).headers["x-request-id"]
    assert len(odd) == 32 and odd != 'a b"<script>'


@pytest.fixture
def logging_restored():
    """JSON logs reconfigure the process's loggers: put them back for the tests after."""
    names = ("", "uvicorn", "uvicorn.error", "uvicorn.access")
    saved = {
        name: (logging.getLogger(name), list(logging.getLogger(name).handlers)) for name in names
    }
    states = {
        name: (logger.level, logger.propagate, logger.disabled)
        for name, (logger, _) in saved.items()
    }
    yield
    for name, (logger, handlers) in saved.items():
        logger.handlers = handlers
        logger.level, logger.propagate, logger.disabled = states[name]


def test_json_log_lines_parse_and_hold_no_secret(store, proof_pool, caplog, logging_restored):
    config = Config(store="memory:", log_format="json")
    app = create_app(config, store=store.store, proof_pool=proof_pool)
    caplog.set_level(logging.INFO, logger=REQUESTS_LOGGER)
    secret = "s3cretLinkSecretAbcdefgh12345678"
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        p = Player(client, f"/half-moon/{CODE}")
        p.open(**{"X-Request-ID": "req-42"})
        p.tap("pile-1")
        client.get(f"/link/{secret}?x=1")
        cookie = client.cookies["sid"]
    lines = [JsonLines().format(r) for r in caplog.records if r.name == REQUESTS_LOGGER]
    parsed = [json.loads(line) for line in lines]
    assert len(parsed) == 3
    first, tap, link = parsed
    assert first["request_id"] == "req-42"
    assert {k: first[k] for k in ("method", "route", "status", "store", "client")} == {
        "method": "GET",
        "route": "/half-moon/{code}",
        "status": 200,
        "store": "memory",
        "client": "testclient",
    }
    assert isinstance(first["duration_ms"], float) and first["time"].endswith("Z")
    assert (tap["method"], tap["route"], tap["status"]) == ("POST", TAP, 200)
    assert link["path"] == "/link/…" and link["route"] == "/link/{secret}"
    text = "\n".join(lines)
    for secret_text in (secret, cookie, cookie.partition(".")[0], p.token, "token=", "card="):
        assert secret_text not in text


def test_a_json_error_line_carries_its_traceback_and_request_id():
    from app.web.edge.logs import REQUEST_ID

    try:
        raise RuntimeError("the store fell over")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "app", logging.ERROR, "", 0, "unhandled error", (), sys.exc_info()
        )
    reset = REQUEST_ID.set("req-9")
    try:
        line = json.loads(JsonLines().format(record))
    finally:
        REQUEST_ID.reset(reset)
    assert (line["level"], line["message"], line["request_id"]) == (
        "error",
        "unhandled error",
        "req-9",
    )
    assert line["traceback"].startswith("Traceback (most recent call last):")
    assert line["traceback"].endswith("RuntimeError: the store fell over")


def test_a_store_that_fails_counts_the_error_and_the_tap_not_made(store, proof_pool):
    from app.store import StoreError

    app = create_app(store=store.store, proof_pool=proof_pool)
    with local_client(app) as client:
        p = Player(client, f"/half-moon/{CODE}")
        p.open()
        before = scrape(client)

        async def fail(*args, **kwargs):
            raise StoreError("the store is away")

        from app.store.observed import _timed

        # the store's call fails, timed as the wiring times the real one
        client.app.state.store.change_game = _timed(fail, "memory", "change_game")
        response = client.post(
            f"/half-moon/{CODE}/tap",
            data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
            headers={**HTMX, **board_version(p.board)},
        )
        assert response.status_code == 503
        after = scrape(client)
    labels = {"store": "memory", "operation": "change_game"}
    name = "solitaire_store_errors_total"
    assert value(after, name, **labels) - value(before, name, **labels) == 1
    tap = {"game": "half-moon", "action": "tap", "outcome": "not_made", "store": "memory"}
    name = "solitaire_actions_total"
    assert value(after, name, **tap) - value(before, name, **tap) == 1


def test_rate_limit_refusals_are_counted_by_limit(store, proof_pool):
    config = Config(store="memory:", rate_writes="2/minute")
    app = create_app(config, store=store.store, proof_pool=proof_pool)
    with local_client(app) as client:
        p = Player(client, f"/half-moon/{CODE}")
        p.open()
        before = scrape(client)
        statuses = [
            client.post(
                f"/half-moon/{CODE}/tap",
                data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
                headers=HTMX,
            ).status_code
            for _ in range(4)
        ]
        after = scrape(client)
    assert statuses == [200, 200, 429, 429]
    name = "solitaire_rate_limit_refusals_total"
    assert value(after, name, limit="write") - value(before, name, limit="write") == 2
    tap = {"game": "half-moon", "action": "tap", "outcome": "refused"}
    assert (
        value(after, "solitaire_actions_total", **tap)
        - value(before, "solitaire_actions_total", **tap)
        == 2
    )


def test_a_pools_tasks_are_counted_running_then_queued_then_timed():
    import concurrent.futures
    import threading

    from prometheus_client import REGISTRY

    from app import metrics

    def sample(name: str) -> float:
        found = REGISTRY.get_sample_value(name, {"pool": "test"})
        return found or 0.0

    gate = threading.Event()
    done_before = sample("solitaire_pool_task_duration_seconds_count")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        futures = [pool.submit(gate.wait) for _ in range(3)]
        for future in futures:
            metrics.track_pool("test", 1, future)
        assert (sample("solitaire_pool_running"), sample("solitaire_pool_queued")) == (1, 2)
        futures[2].cancel()  # dropped before it ran: no time observed
        assert (sample("solitaire_pool_running"), sample("solitaire_pool_queued")) == (1, 1)
        gate.set()
        concurrent.futures.wait(futures[:2])
    assert (sample("solitaire_pool_running"), sample("solitaire_pool_queued")) == (0, 0)
    assert sample("solitaire_pool_task_duration_seconds_count") - done_before == 2
