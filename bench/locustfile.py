"""A load profile of real play (issue 46), for Locust: players who open a deal, tap at a
human's pace, undo and redo, win or get stuck or walk away, look at where the win slipped
away, watch replays and open ``/stats``.

Run (one instance; ``bench/bench_load.py`` starts the servers and prints the figures)::

    .venv/bin/locust -f bench/locustfile.py --headless -u 20 -r 5 -t 60s --host http://127.0.0.1:8000

Settings (environment):

- ``SOLITAIRE_LOCUST_HOSTS``: several instances, comma-separated (``http://a:8000,http://b:8001``):
  every request goes to the next one in turn, as behind a load balancer without sticky
  sessions, so each game is played on all of them.
- ``SOLITAIRE_LOCUST_PACE`` (default ``0.8``): seconds between two actions of a player, on
  average (a person taps every half second to a second and a half); the CI test runs at
  ``0.05``.
- ``SOLITAIRE_LOCUST_REPORT``: a file the run's figures are written to as JSON.

**The proportions.** Each player's session is a run of games, 70 % Half Moon and 30 %
Seahaven (Half Moon is the site's first game and most played). A Half Moon game is played to
its win along a solver's line (35 %), or by random removals until it is stuck (25 %), or is
left after 3–15 removals (40 %); after 1 removal in 12 the player undoes it, and redoes it.
After a win 60 % open its replay; after a game stuck 50 % look at the analysis of where the win
slipped away (and again a moment later, as the page polls). A Seahaven game is 5–25 double
taps on the cards at the columns' ends, then left. Between games one player in five opens
``/stats``, one in ten the home page.

**After the run** every game is reloaded with its player's cookie and its board (state, moves,
score) compared with the last one its player was shown: *lost* when the reload shows fewer
moves, *desynced* when it shows anything else different. A game whose last action was still
on its way when the run stopped is counted apart (*in flight*), not compared. The run fails
(exit code 1) on any lost or desynced game.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Final

import gevent
from locust import HttpUser, between, events, task

from app.engine.codes import DealCode
from app.engine.halfmoon import apply_move, deal, legal_moves, place_name
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import COLUMNS, Seahaven
from app.engine.solutions import Verdict

log = logging.getLogger("solitaire.locust")

PACE = float(os.environ.get("SOLITAIRE_LOCUST_PACE", "0.8"))
HOSTS = [
    h.strip().rstrip("/")
    for h in os.environ.get("SOLITAIRE_LOCUST_HOSTS", "").split(",")
    if h.strip()
]
HTMX = {"HX-Request": "true"}
BOARD = re.compile(r'<div id="board"([^>]*)>')
DATA = re.compile(r'data-(state|moves|score)="([^"]*)"')
TOKEN = re.compile(r'name="token" value="([^"]+)"')
REPLAY = re.compile(r"/replay/([A-Za-z0-9_-]{16,})")


def board_of(html: str) -> dict[str, str] | None:
    match = BOARD.search(html)
    return dict(DATA.findall(match.group(1))) if match else None


def _winning_lines(count: int) -> dict[str, tuple[Any, ...]]:
    """Solver lines of the first ``count`` winnable Half Moon deals, found before the run (a
    search in the middle of it would stall every simulated player of this process)."""
    lines: dict[str, tuple[Any, ...]] = {}
    number = 0
    while len(lines) < count:
        number += 1
        code = str(DealCode("HM", 1, "N", number))
        result = solve(deal(DealCode.parse(code)), 2_000)  # the quick ones: most deals
        if result.verdict is Verdict.WON:
            lines[code] = tuple(result.line)
    return lines


WINNING: Final = _winning_lines(int(os.environ.get("SOLITAIRE_LOCUST_WINS", "60")))
"""The deals players win (each player wins each at most once: a finished deal started again
would be a new game)."""


@dataclass
class Game:
    """One game as its player sees it."""

    slug: str
    code: str
    intent: str
    seen: dict[str, str] = field(default_factory=dict)
    position: Any = None
    taps: list[tuple[str, str, str]] = field(default_factory=list)
    """Actions queued: (verb, place, card)."""
    removals: int = 0
    budget: int = 0
    replay: str | None = None
    in_flight: bool = False
    over: bool = False


@dataclass
class Played:
    """A game to reload after the run: its player's cookies and host, and what it saw."""

    game: Game
    cookies: Any
    host: str


PLAYED: list[Played] = []
STOPPING: list[bool] = []
"""Set once the run stops: no player starts another action."""


class Player(HttpUser):
    """One person playing: a session (cookie) and its games, one action per task."""

    wait_time = between(PACE * 0.5, PACE * 1.5)

    def on_start(self) -> None:
        self.hosts = HOSTS or [self.host.rstrip("/")]
        self.turn = 0
        self.token = ""
        self.game: Game | None = None
        self.after: list[str] = []
        self.numbers: set[int] = set(range(1, 1000))  # the won deals' numbers among them
        self.won: set[str] = set()

    def url(self, path: str) -> str:
        self.turn += 1
        return self.hosts[self.turn % len(self.hosts)] + path

    @task
    def step(self) -> None:
        if STOPPING:
            return
        if self.after:
            self.after_game(self.after.pop(0))
        elif self.game is None or self.game.over:
            self.new_game()
        elif self.game.slug == "half-moon":
            self.half_moon_step(self.game)
        else:
            self.seahaven_step(self.game)

    # --- starting and ending games ---------------------------------------------------------

    def fresh_number(self) -> int:
        while True:
            number = random.randint(1, 5_000_000)
            if number not in self.numbers:
                self.numbers.add(number)
                return number

    def new_game(self) -> None:
        if random.random() < 0.7:
            roll = random.random()
            intent = "win" if roll < 0.35 else "lose" if roll < 0.6 else "leave"
            left = [code for code in WINNING if code not in self.won]
            if intent == "win" and left:
                code = random.choice(left)
                self.won.add(code)
            else:
                intent = "lose" if intent == "win" else intent
                code = str(DealCode("HM", 1, "N", self.fresh_number()))
            game = Game("half-moon", code, intent, position=deal(DealCode.parse(code)))
            game.budget = random.randint(3, 15)
        else:
            code = str(DealCode("SH", 1, "C4", self.fresh_number()))
            game = Game("seahaven", code, "leave", position=Seahaven(DealCode.parse(code)))
            game.budget = random.randint(5, 25)
        with self.client.get(
            self.url(f"/{game.slug}/{code}"), name="open deal", catch_response=True
        ) as response:
            board, token = board_of(response.text), TOKEN.search(response.text)
            if response.status_code != 200 or board is None or token is None:
                response.failure(f"no board: {response.status_code}")
                return
        self.token = token.group(1)
        game.seen = board
        self.game = game
        PLAYED.append(Played(game, self.client.cookies, self.hosts[0]))

    def ended(self, game: Game) -> None:
        game.over = True
        if game.seen.get("state") == "won" and game.replay and random.random() < 0.6:
            self.after.append("replay")
        elif game.seen.get("state") in ("stuck", "lost") and game.replay and random.random() < 0.5:
            self.after += ["analysis", "analysis"]
        roll = random.random()
        if roll < 0.2:
            self.after.append("stats")
        elif roll < 0.3:
            self.after.append("home")

    def after_game(self, what: str) -> None:
        game = self.game
        assert game is not None
        if what == "replay":
            self.client.get(self.url(f"/replay/{game.replay}"), name="replay")
        elif what == "analysis":
            self.client.get(
                self.url(f"/replay/{game.replay}/analysis"), headers=HTMX, name="analysis"
            )
        elif what == "stats":
            self.client.get(self.url("/stats"), name="stats")
        else:
            self.client.get(self.url("/"), name="home")

    # --- actions ---------------------------------------------------------------------------

    def act(self, game: Game, verb: str, fields: dict[str, str]) -> bool:
        """POST one action as the page's htmx does; record the board it shows."""
        game.in_flight = True
        with self.client.post(
            self.url(f"/{game.slug}/{game.code}/{verb}"),
            data={**fields, "token": self.token},
            headers=HTMX,
            name=f"{game.slug} {verb}",
            catch_response=True,
        ) as response:
            board = board_of(response.text)
            if response.status_code != 200 or board is None:
                response.failure(f"{verb}: {response.status_code} {response.text[:200]}")
                game.in_flight = False
                return False
            game.seen.update(board)
            replay = REPLAY.search(response.text)
            if replay:
                game.replay = replay.group(1)
        game.in_flight = False
        return True

    def half_moon_step(self, game: Game) -> None:
        if not game.taps:
            removal = self.next_removal(game)
            if removal is None:
                self.ended(game)
                return
            for place in removal:
                game.taps.append(("tap", place_name(place), str(game.position.top(place))))
            game.position = apply_move(game.position, removal)
            game.removals += 1
            if random.random() < 1 / 12:
                game.taps += [("undo", "", ""), ("redo", "", "")]
        verb, place, card = game.taps.pop(0)
        fields = {"place": place, "card": card} if verb == "tap" else {}
        self.act(game, verb, fields)
        if not game.taps and game.seen.get("state") in ("won", "stuck", "lost"):
            self.ended(game)

    def next_removal(self, game: Game) -> Any:
        if game.intent == "win":
            line = WINNING[game.code]
            return line[game.removals] if game.removals < len(line) else None
        if game.intent == "leave" and game.removals >= game.budget:
            return None
        moves = list(legal_moves(game.position))
        return random.choice(moves) if moves else None

    def seahaven_step(self, game: Game) -> None:
        seahaven: Seahaven = game.position
        if game.removals >= game.budget or seahaven.status().is_over:
            self.ended(game)
            return
        filled = [i for i in COLUMNS if seahaven.position.columns[i]]
        column = random.choice(filled)
        place = f"column-{column + 1}"
        card = seahaven.position.columns[column][-1]
        seahaven.auto(place, card)
        game.removals += 1
        self.act(game, "auto", {"place": place, "card": str(card)})


# --- after the run ---------------------------------------------------------------------------


def reload_all() -> dict[str, int]:
    """Every game reloaded with its player's cookie, compared with what its player saw (once
    the actions still on their way have been answered, for at most 30 s)."""
    STOPPING.append(True)
    deadline = time.monotonic() + 30
    while any(p.game.in_flight for p in PLAYED) and time.monotonic() < deadline:
        gevent.sleep(0.05)
    import requests  # after locust's own import, which patches the network for gevent first

    counts = {"games": 0, "lost": 0, "desynced": 0, "in_flight": 0}
    with requests.Session() as session:
        for played in PLAYED:
            game = played.game
            counts["games"] += 1
            if game.in_flight:
                counts["in_flight"] += 1
                log.warning("in flight: %s %s %s", game.slug, game.code, game.seen)
                continue
            page = session.get(
                f"{played.host}/{game.slug}/{game.code}", cookies=played.cookies, timeout=30
            )
            now = board_of(page.text) or {}
            seen = game.seen
            if int(now.get("moves", -1)) < int(seen.get("moves", 0)):
                counts["lost"] += 1
                log.error("lost: %s %s saw %s, reload %s", game.slug, game.code, seen, now)
            elif any(now.get(k) != seen.get(k) for k in ("moves", "score")) or (
                now.get("state") != seen.get("state")
                and (seen.get("state"), now.get("state")) != ("playing", "lost")
            ):  # a Seahaven game proved lost after its last answer is no desync
                counts["desynced"] += 1
                log.error("desynced: %s %s saw %s, reload %s", game.slug, game.code, seen, now)
    return counts


@events.test_stopping.add_listener
def stop_acting(**_: Any) -> None:
    STOPPING.append(True)


@events.test_stop.add_listener
def check_games(environment: Any, **_: Any) -> None:
    counts = reload_all()
    total = environment.stats.total
    actions = {
        name: {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "p50_ms": entry.get_response_time_percentile(0.5),
            "p95_ms": entry.get_response_time_percentile(0.95),
            "p99_ms": entry.get_response_time_percentile(0.99),
        }
        for (name, _method), entry in sorted(environment.stats.entries.items())
    }
    report = {
        "requests": total.num_requests,
        "failures": total.num_failures,
        "requests_per_s": round(total.total_rps, 1),
        "p50_ms": total.get_response_time_percentile(0.5),
        "p95_ms": total.get_response_time_percentile(0.95),
        "p99_ms": total.get_response_time_percentile(0.99),
        "actions": actions,
        **counts,
    }
    log.info("games checked after the run: %s", json.dumps(counts))
    path = os.environ.get("SOLITAIRE_LOCUST_REPORT")
    if path:
        with open(path, "w") as out:
            json.dump(report, out, indent=2)
    if counts["lost"] or counts["desynced"]:
        environment.process_exit_code = 1
