"""The table of deals the solver proved winnable, per variant: ``app/data/winnable.json``.

Run: ``.venv/bin/python -m bench.winnable_table --per-variant 250 --days 400 --jobs 2``

Deal numbers are drawn at random (fixed seed) from all of a code's numbers, solved with the
game's own solver and budget, and kept only when the solver found a winning line and that line,
replayed through the rules, wins. The app draws a "winnable deals only" deal from this table
(docs/decisions.md); the codes are ordinary deal codes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from app.engine.analysis import line_positions
from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.games import game_by_id
from app.engine.solutions import Verdict
from app.services.daily import candidate
from app.services.winnable import DAILY_FROM

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "app" / "data" / "winnable.json"
VARIANTS = (("HM", "N"), ("SH", "C4"), ("SH", "C2"), ("SH", "C1"))
DAILY_TRIES = 400
"""Candidates tried for a day (one cell: about 1 in 50 is winnable; all 400 lost happens once
in about 3,000 days, and then this script stops and says so)."""


def proved_winnable(text: str) -> bool:
    code = DealCode.parse(text)
    game = game_by_id(code.game)
    result = game.solve_position(game.deal(code))
    if result.verdict is not Verdict.WON:
        return False
    return bool(line_positions(game, game.deal(code), result.line)[-1].is_won())


def daily_number(args: tuple[str, str, str]) -> int:
    """The daily deal of a day: the first of its candidates proved winnable."""
    day, game_id, variant = args
    for attempt in range(DAILY_TRIES):
        code = candidate(day, game_id, variant, attempt)  # type: ignore[arg-type]
        if proved_winnable(str(code)):
            return code.number
    raise RuntimeError(f"no winnable daily deal for {day} {game_id}-{variant}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-variant", type=int, default=250)
    parser.add_argument("--days", type=int, default=400, help="daily deals from DAILY_FROM")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--only", default="", help="one variant, e.g. SH-C1")
    args = parser.parse_args(argv)
    table = json.loads(DATA.read_text()) if DATA.exists() else {}
    table["about"] = (
        "Written by python -m bench.winnable_table: deals proved winnable (deals) and the "
        f"daily deals from {DAILY_FROM} (daily, one a day); read by app/services/winnable.py."
    )
    first = datetime.date.fromisoformat(DAILY_FROM)
    days = [(first + datetime.timedelta(days=n)).isoformat() for n in range(args.days)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_id, variant in VARIANTS:
            name = f"{game_id}-{variant}"
            if args.only and args.only != name:
                continue
            rng = random.Random(f"{args.seed}-{name}")
            found: list[int] = []
            while len(found) < args.per_variant:
                numbers = [rng.randrange(MAX_NUMBER + 1) for _ in range(200)]
                codes = [str(DealCode(game_id, 1, variant, n)) for n in numbers]  # type: ignore[arg-type]
                for number, ok in zip(numbers, pool.map(proved_winnable, codes), strict=True):
                    if ok and len(found) < args.per_variant:
                        found.append(number)
            daily = list(pool.map(daily_number, [(day, game_id, variant) for day in days]))
            table[name] = {"deals": sorted(found), "daily": daily}
            DATA.write_text(json.dumps(table, indent=0) + "\n")  # after each variant
            print(f"{name}: {len(found)} deals, {len(daily)} days", flush=True)


if __name__ == "__main__":
    main()
