"""How sure can a guess of a Ghooost! round's finishing order from the cards left be? A fit to real rounds.

The expert's match equity (`bots/ghooost/fast_search.py`) finishes the round under way, where its playout
stops, by a Plackett-Luce draw: each seat still in goes out next with weight exp(-cards left / scale). The
expert's scale, 3 cards, was round_shares' hand-set logistic. This plays matches of a table exactly as
`ghostgames tournament` does (`play_game`, its seeds and seating), keeps every fifth position (each seat's
cards left, who is out) with the order the round really ended in, and fits the scale by maximum likelihood,
with a 95% interval from resampling whole rounds (positions of one round are not independent).

    python benchmarks/finish_scale.py --players 5 --games 5 --seed 3 \\
        --bots expert:1200,ismcts:100,rules,$EP,$SP --out benchmarks/results/ghooost5-finish-positions.jsonl
    python benchmarks/finish_scale.py --fit benchmarks/results/ghooost4-finish-positions.jsonl \\
        benchmarks/results/ghooost5-finish-positions.jsonl --json benchmarks/results/ghooost-finish-scale.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any

from ghostgames.rules.contract import State
from ghostgames.tournament.runner import TournamentSpec, play_game

EVERY = 5  # keep every fifth position of a match


def collect(spec: TournamentSpec, index: int) -> dict[str, Any]:
    """Game `index` of `spec`: positions (round, cards left per seat, seats out) and each round's order."""
    seen: dict[str, State[Any]] = {}
    positions: list[dict[str, Any]] = []
    calls = [0]

    def watch(state: Any) -> None:
        seen["state"] = state
        calls[0] += 1
        if calls[0] % EVERY == 0:
            cards = [0 if state.is_out[s] else state.sizes[s] + len(state.mansions[s]) for s in range(state.players)]
            positions.append({"round": len(state.history), "cards": cards, "out": list(state.out_order),
                              "turns": state.turns})

    result = play_game(spec, index, watch=watch)
    state: Any = seen["state"]
    orders = [entry["out"] + [entry["loser"]] if entry["loser"] is not None else None for entry in state.history]
    return {"index": index, "seats": result.seats, "orders": orders, "snaps": positions}


def rounds_of(paths: list[Path]) -> dict[tuple[str, int, int], list[list[int]]]:
    """Per round (file, match, round): the cards left of the seats still in at each kept position, listed
    in the order they went out (a drawn round, or one left with a single seat in, says nothing)."""
    out: dict[tuple[str, int, int], list[list[int]]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            match = json.loads(line)
            for snap in match["snaps"]:
                order = match["orders"][snap["round"]] if snap["round"] < len(match["orders"]) else None
                if order is None:
                    continue
                rest = [seat for seat in order if seat not in snap["out"]]
                if len(rest) >= 2:
                    out.setdefault((str(path), match["index"], snap["round"]), []).append(
                        [snap["cards"][seat] for seat in rest])
    return out


def log_likelihood(orders: list[list[int]], beta: float) -> float:
    """Plackett-Luce: each seat in turn goes out among those left with weight exp(-beta * cards)."""
    total = 0.0
    for cards in orders:
        for k in range(len(cards) - 1):
            weights = [-beta * c for c in cards[k:]]
            top = max(weights)
            total += weights[0] - (top + math.log(sum(math.exp(w - top) for w in weights)))
    return total


def fit_beta(orders: list[list[int]]) -> float:
    """The maximum-likelihood beta in [0, 1] (1 / scale), by ternary search (the log-likelihood is concave)."""
    low, high = 0.0, 1.0
    for _ in range(50):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if log_likelihood(orders, a) < log_likelihood(orders, b):
            low = a
        else:
            high = b
    return (low + high) / 2


def fit(paths: list[Path], resamples: int, seed: int) -> dict[str, Any]:
    rounds = rounds_of(paths)
    keys = sorted(rounds)
    orders = [cards for key in keys for cards in rounds[key]]
    beta = fit_beta(orders)
    rng = random.Random(seed)
    scales = sorted(1 / max(fit_beta([c for _ in keys for c in rounds[rng.choice(keys)]]), 1e-9)
                    for _ in range(resamples))
    low, high = scales[int(0.025 * resamples)], scales[int(0.975 * resamples) - 1]
    per_position = {f"{s:g}": log_likelihood(orders, 1 / s) / len(orders) for s in (3.0, 1 / beta, 1e9)}
    duels = [cards for cards in orders if len(cards) == 2 and cards[0] != cards[1]]
    return {"rounds": len(keys), "positions": len(orders), "scale": 1 / beta, "interval": [low, high],
            "mean_log_likelihood": per_position,
            "duels_fewer_cards_first": [sum(c[0] < c[1] for c in duels), len(duels)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, help="collect: the positions file to write")
    parser.add_argument("--fit", type=Path, nargs="+", help="fit: positions files to read")
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.fit:
        result = fit(args.fit, args.resamples, 1)
        print(json.dumps(result, indent=1))
        if args.json:
            args.json.write_text(json.dumps(result, indent=1) + "\n")
        return
    spec = TournamentSpec("ghooost", tuple(args.bots.split(",")), args.games, args.players, None, args.seed,
                          {"match": True})
    with args.out.open("w") as out:
        for index in range(args.games):
            line = collect(spec, index)
            out.write(json.dumps(line) + "\n")
            out.flush()
            print(f"match {index}: {len(line['orders'])} rounds, {len(line['snaps'])} positions")


if __name__ == "__main__":
    main()
