"""What a bot's memory of a table's earlier games costs (tables/memory.py): the bytes a table keeps, and the time
the worker spends telling a bot of them before each move.

    PYTHONPATH=src .venv/bin/python benchmarks/table_memory.py --runs 30 --json benchmarks/results/table-memory.json

For each game (Geister 2 players, Ghooost! 4, The Last 5), `--games` finished games of `rules` bots (Geister with
`disclose`, so every end shows a whole setup): the median and largest size of one final state's JSON (what a
table keeps of a game, at most `REMEMBERED` of them) and a table's total at that many; a table keeps them only
for a game of chosen setups (Geister), the dealt games' sizes say why. Then, for Geister, the time
`tell_earlier_games` takes to tell `hard` (the one bot that remembers) of 0, 1, 5 and `REMEMBERED` games: the
median of `--runs` runs, each with a fresh bot, as the worker makes one for every move. The server asks
`bots.remembers` first and hands the other games' bots nothing, so for them the cost is nil.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot, tell_earlier_games
from ghostgames.games import get_game
from ghostgames.tables.memory import REMEMBERED

TABLES = (("geister", 2, {"disclose": True}), ("ghooost", 4, {}), ("thelast", 5, {}))


def finished(game_name: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = get_game(game_name)
    state = game.new(players, options, seed)
    bot, rng = get_bot("rules"), random.Random(seed)
    while not state.is_over():
        seat = min(state.to_act())
        state.apply(seat, str(bot.choose(SeatKnowledge(state, seat), rng)))
    return state.to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=REMEMBERED, help="finished games a game")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    sizes = []
    finals: dict[str, list[dict[str, Any]]] = {}
    for name, players, options in TABLES:
        finals[name] = [finished(name, players, options, seed) for seed in range(args.games)]
        lengths = [len(json.dumps(f)) for f in finals[name]]
        sizes.append({"game": name, "players": players, "median_bytes": statistics.median(lengths),
                      "largest_bytes": max(lengths), "table_bytes": sum(sorted(lengths)[-REMEMBERED:])})
    print(f"{'game':10}{'players':>8}{'median bytes':>14}{'largest':>10}{str(REMEMBERED) + ' games':>12}   kept")
    for row in sizes:
        kept = "yes" if get_game(row["game"]).chosen_setup else "no (dealt)"
        print(f"{row['game']:10}{row['players']:>8}{row['median_bytes']:>14.0f}{row['largest_bytes']:>10}"
              f"{row['table_bytes']:>12}   {kept}")
    geister = get_game("geister")
    telling = []
    for count in sorted({0, 1, 5, REMEMBERED}):
        times = []
        for _ in range(args.runs):
            bot = get_bot("hard")
            start = time.perf_counter()
            tell_earlier_games(bot, geister, 0, finals["geister"][:count])
            times.append(time.perf_counter() - start)
        telling.append({"games": count, "median_ms": 1000 * statistics.median(times)})
    print(f"\n{'Geister games told':>20}{'median ms':>12}   (hard thinks 900 ms a move)")
    for row in telling:
        print(f"{row['games']:>20}{row['median_ms']:>12.3f}")
    load = os.getloadavg()[0]
    print(f"load {load:.1f}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"sizes": sizes, "telling": telling, "runs": args.runs, "load": load},
                                        indent=1))


if __name__ == "__main__":
    main()
