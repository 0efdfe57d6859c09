"""Does the analysis tell a strong player from a random one (issue 35's sense check)? Games of `--bot`
against `random`, seats swapped every game, both seats analysed: the share of each bot's decisions
labelled mistake or worse, and how often the estimate of the move played at a seat's last judged
decision was on the side of the result (decided games only).

    PYTHONPATH=src:. .venv/bin/python benchmarks/analysis_sense.py --games 4 --budget 300 \
        --json benchmarks/results/analysis-sense.json

Not a timing: the figures behind docs/analysis.md's "Sense" table (the slow test in
tests/analysis/test_sense.py asserts them at a smaller size).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ghostgames.analysis.sense import measure

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("geister", 2, {"exit": "escape", "max_plies": 300}),
    ("ghooost", 2, {}),
    ("thelast", 2, {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=int, default=300)
    parser.add_argument("--bot", default="expert:200")
    parser.add_argument("--only", choices=[t[0] for t in TABLES], help="one game only")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    for game, players, options in TABLES:
        if args.only and game != args.only:
            continue
        sense = measure(game, players, options, range(args.games), [args.bot, "random"], args.budget)
        rows.append({"game": game, "players": players, "games": args.games, "budget": args.budget, "bot": args.bot,
                     "bot_bad": sense.bad.get(args.bot, 0), "bot_judged": sense.judged.get(args.bot, 0),
                     "random_bad": sense.bad.get("random", 0), "random_judged": sense.judged.get("random", 0),
                     "last_agrees": sense.last_agrees, "last_judged": sense.last_judged})
    load = os.getloadavg()
    print(f"{args.bot} against random, both seats analysed at {args.budget} iterations; load {load[0]:.1f}")
    print(f"{'game':<9} {'games':>5} {'random: mistake+':>18} {args.bot + ': mistake+':>22} {'last agrees':>12}")
    for r in rows:
        mine = f"{r['bot_bad']} of {r['bot_judged']} ({r['bot_bad'] / max(1, r['bot_judged']):.0%})"
        theirs = f"{r['random_bad']} of {r['random_judged']} ({r['random_bad'] / max(1, r['random_judged']):.0%})"
        print(f"{r['game']:<9} {r['games']:>5} {theirs:>18} {mine:>22} {r['last_agrees']:>6} of {r['last_judged']:<3}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"load": load[0], "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
