"""The table of deals the solver proved winnable, per variant: ``app/data/winnable.json``.

Run: ``.venv/bin/python -m bench.winnable_table --per-variant 250 --jobs 2``

Deal numbers are drawn at random (fixed seed) from all of a code's numbers, solved with the
game's own solver and budget, and kept only when the solver found a winning line and that line,
replayed through the rules, wins. The app draws a "winnable deals only" deal from this table
(docs/decisions.md); the codes are ordinary deal codes.
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from app.engine.analysis import line_positions
from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.games import game_by_id
from app.engine.solving import Verdict

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "app" / "data" / "winnable.json"
VARIANTS = (("HM", "N"), ("SH", "C4"), ("SH", "C2"), ("SH", "C1"))


def proved_winnable(text: str) -> bool:
    code = DealCode.parse(text)
    game = game_by_id(code.game)
    result = game.solve_position(game.deal(code))
    if result.verdict is not Verdict.WON:
        return False
    return bool(line_positions(game, game.deal(code), result.line)[-1].is_won())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-variant", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--only", default="", help="one variant, e.g. SH-C1")
    args = parser.parse_args(argv)
    table = json.loads(DATA.read_text()) if DATA.exists() else {}
    table["about"] = "Written by python -m bench.winnable_table: deals proved winnable."
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
            table[name] = sorted(found)
            DATA.write_text(json.dumps(table, indent=0) + "\n")  # after each variant
            print(f"{name}: {len(found)}", flush=True)


if __name__ == "__main__":
    main()
