"""Iterations a second of a card game's `expert` (ISMCTS on the game's compiled core) and `ismcts` (the same
search in Python), side by side on the same positions in one run (the shared machine swings: compare the
ratio, and read the load printed with it). One script for both card games (it was one per game, alike but
for the game's name).

    PYTHONPATH=src .venv/bin/python benchmarks/card_search_speed.py --game thelast --players 2 3 \\
        --positions 6 --seconds 0.5 --json benchmarks/results/thelast-search-speed.json
    PYTHONPATH=src .venv/bin/python benchmarks/card_search_speed.py --game ghooost --players 2 3 4 6 \\
        --positions 6 --seconds 0.3 --json benchmarks/results/ghooost-search-speed.json

Positions come from games between `rules` bots, one every few decisions where a seat has a choice; each bot
gets `--seconds` per position (a time budget, as `hard` plays), the two in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.games import get_game
from ghostgames.rules.contract import State

BOTS = ("expert", "ismcts")


def positions(game: str, players: int, count: int, seed: int) -> list[tuple[State[Any], int]]:
    """`count` positions (state, seat to act) with two or more legal actions, from `rules` games."""
    out: list[tuple[State[Any], int]] = []
    rules = get_bot("rules")
    game_seed = seed
    while len(out) < count:
        state = get_game(game).new(players, {}, seed=game_seed)
        rng = random.Random(game_seed)
        decision = 0
        while state.to_act() and len(out) < count:
            seat = min(state.to_act())
            if decision % 5 == 2 and len(state.legal_actions(seat)) > 1:
                out.append((state.clone(), seat))
            state.apply(seat, rules.choose(SeatKnowledge(state, seat), rng))
            decision += 1
        game_seed += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["thelast", "ghooost"], required=True)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    warm = get_game(args.game).new(2, {}, seed=0)
    get_bot("expert:64").choose(SeatKnowledge(warm, min(warm.to_act())), random.Random(0))  # compile once
    rows = []
    for players in args.players:
        rates: dict[str, list[float]] = {name: [] for name in BOTS}
        for k, (state, seat) in enumerate(positions(args.game, players, args.positions, args.seed)):
            for name in BOTS:
                bot = get_bot(name, args.seconds)
                assert isinstance(bot, IsmctsBot)
                bot.choose(SeatKnowledge(state, seat), random.Random(k))
                rates[name].append(bot.last_iterations / args.seconds)
        row = {"players": players, "positions": args.positions, "seconds": args.seconds,
               **{f"{name}_per_second": statistics.median(rates[name]) for name in BOTS}}
        row["ratio"] = row["expert_per_second"] / row["ismcts_per_second"]
        rows.append(row)
    load = os.getloadavg()[0]
    print(f"{get_game(args.game).title} search, iterations per second (median over positions), load {load:.1f}")
    print(f"{'players':>8}{'expert':>10}{'ismcts':>10}{'ratio':>8}")
    for row in rows:
        print(f"{row['players']:>8}{row['expert_per_second']:>10.0f}{row['ismcts_per_second']:>10.0f}"
              f"{row['ratio']:>7.1f}x")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rows": rows, "load": load}, indent=1))


if __name__ == "__main__":
    main()
