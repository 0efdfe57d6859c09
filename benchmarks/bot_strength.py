"""Bot strength: the tournaments behind the fixed-budget strength tables, one JSON file per match-up (Geister's in
docs/bots.md; the card games' of 30 November-4 December in docs/research/card-games-strength.md).

    .venv/bin/python benchmarks/bot_strength.py --workers 2 --out benchmarks/results
    .venv/bin/python benchmarks/bot_strength.py --only geister-value-rules --games 40

Every bot here is a pure function of its view and seed (search bots run on iteration budgets), so the same
seed gives the same games on any machine and with any number of workers. `hard` at its thinking time is
measured separately (benchmarks/leaf_tournament.py, benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ghostgames.tournament import TournamentSpec, run_tournament, summarize

# name -> (game, players, bots, seconds per move or None, extra options, games): the rows of those tables.
MATCHUPS: dict[str, tuple[str, int, tuple[str, ...], float | None, dict[str, Any], int]] = {
    "ghooost2-ismcts-rules": ("ghooost", 2, ("ismcts:300", "rules"), None, {}, 60),
    "ghooost4-ismcts-rules": ("ghooost", 4, ("ismcts:300", "rules"), None, {}, 32),
    "thelast3-ismcts-rules-random": ("thelast", 3, ("ismcts:400", "rules", "random"), None, {}, 60),
    # The Last's expert (compiled search) at about the time per move of ismcts:200
    "thelast2-expert-ismcts": ("thelast", 2, ("expert:4000", "ismcts:200"), None, {}, 60),
    "thelast2-expert-rules": ("thelast", 2, ("expert:4000", "rules"), None, {}, 60),
    "thelast3-expert-ismcts-rules": ("thelast", 3, ("expert:4000", "ismcts:200", "rules"), None, {}, 36),
    # the Geister sparring partners
    "geister-charge-random": ("geister", 2, ("charge", "random"), None, {}, 1000),
    "geister-charge-rules": ("geister", 2, ("charge", "rules"), None, {}, 1000),
    "geister-defender-random": ("geister", 2, ("defender", "random"), None, {}, 1000),
    "geister-defender-rules": ("geister", 2, ("defender", "rules"), None, {}, 1000),
    "geister-defender-charge": ("geister", 2, ("defender", "charge"), None, {}, 1000),
    # the one-move `value` bot
    "geister-value-random": ("geister", 2, ("value", "random"), None, {}, 200),
    "geister-value-charge": ("geister", 2, ("value", "charge"), None, {}, 200),
    "geister-value-rules": ("geister", 2, ("value", "rules"), None, {}, 200),
    "geister-value-defender": ("geister", 2, ("value", "defender"), None, {}, 200),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=0, help="games per match-up (default: as in the docs)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", default=[], help="run only these match-ups (repeat)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    args = parser.parse_args()
    console = Console()
    table = Table(title="bot strength")
    for column in ("match-up", "bot", "games", "win %", "95% CI", "draws", "mean score", "mean rank"):
        table.add_column(column)
    for name, (game, players, bots, seconds, options, games) in MATCHUPS.items():
        if args.only and name not in args.only:
            continue
        spec = TournamentSpec(game, bots, args.games or games, players, seconds, args.seed, options)
        results = run_tournament(spec, args.workers)
        stats = summarize(bots, results)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{name}.json").write_text(json.dumps(
            {"spec": spec.to_json(), "stats": [s.to_json() for s in stats], "games": [r.to_json() for r in results]},
            indent=1,
        ))
        for s in stats:
            table.add_row(name, s.bot, str(s.seats), f"{100 * s.win_rate:.1f}",
                          f"{100 * s.win_low:.1f}-{100 * s.win_high:.1f}", str(s.draws), f"{s.mean_score:.2f}",
                          f"{s.mean_rank:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
