"""CPU time of one seat's analysis of one game (issue 35), per game, at a budget (default: the analysis
default): the figure behind "how long does Analyse this game take".

    PYTHONPATH=src:. .venv/bin/python benchmarks/analysis_time.py --games 2 --json benchmarks/results/analysis-time.json

Each game is played by `--bot` (default `ismcts:200`) in every seat from seeds 0.. (Geister to its end
with escape exits and a 300-ply limit, Ghooost! with 2 players and 200 turns, Ghooost! with 3 players as
a one-round match of 200 turns (the match points' playouts included), The Last with 3 players), then
seat 1 is analysed (`--spectator`: a spectator's analysis of every seat); CPU seconds (process time, one
core) of the analysis alone are reported with the number of decisions judged. The load is printed
beside the table: compare rows of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from ghostgames.analysis import DEFAULT_BUDGET, analyse
from ghostgames.bots import get_bot
from ghostgames.rules.record import GameRecord
from ghostgames.tournament.runner import play_record

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("geister", 2, {"exit": "escape", "max_plies": 300}),
    ("ghooost", 2, {"max_turns": 200}),
    ("ghooost", 3, {"max_turns": 200, "max_rounds": 1}),
    ("thelast", 3, {}),
]


def play(game: str, players: int, options: dict[str, Any], seed: int, bot: str) -> GameRecord:
    return play_record(game, players, options, seed, [get_bot(bot) for _ in range(players)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--bot", default="ismcts:200")
    parser.add_argument("--spectator", action="store_true", help="a spectator's analysis of every seat")
    parser.add_argument("--only", choices=sorted({t[0] for t in TABLES}), help="one game only")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    reader = None if args.spectator else 0
    for game, players, options in TABLES:
        if args.only and game != args.only:
            continue
        seconds, decisions, plies = [], [], []
        for seed in range(args.games):
            record = play(game, players, options, seed, args.bot)
            start = time.process_time()
            analysis = analyse(record, reader, args.budget)
            seconds.append(time.process_time() - start)
            decisions.append(len(analysis.decisions))
            plies.append(len(record.actions))
        rows.append({"game": game, "players": players, "games": args.games, "budget": args.budget,
                     "actions_mean": statistics.mean(plies), "decisions_mean": statistics.mean(decisions),
                     "cpu_seconds_mean": statistics.mean(seconds), "cpu_seconds_max": max(seconds),
                     "ms_per_decision": 1000 * sum(seconds) / max(1, sum(decisions))})
    load = os.getloadavg()
    who = "a spectator's" if args.spectator else "seat 1's"
    print(f"{who} analysis, {args.budget} iterations per decision, games by {args.bot}; load {load[0]:.1f}")
    print(f"{'game':<9} {'players':>7} {'actions':>8} {'decisions':>9} {'cpu s mean':>10} {'cpu s max':>9} "
          f"{'ms/decision':>11}")
    for r in rows:
        print(f"{r['game']:<9} {r['players']:>7} {r['actions_mean']:>8.0f} {r['decisions_mean']:>9.0f} "
              f"{r['cpu_seconds_mean']:>10.1f} {r['cpu_seconds_max']:>9.1f} {r['ms_per_decision']:>11.0f}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"bot": args.bot, "reader": "spectator" if args.spectator else "seat 1",
                                         "load": load[0], "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
