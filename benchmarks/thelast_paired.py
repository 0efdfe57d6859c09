"""Mean penalties and paired differences of The Last's bots from result files already played.

    .venv/bin/python benchmarks/thelast_paired.py benchmarks/results/thelast4-table.json [more files of one table]

Reads `ghostgames tournament --json` files and `benchmarks/openspiel_cards.py --json` files alike (both keep
each game's seats and results). For each bot: its mean penalty over its seat-games with mean +- 1.96 standard
errors. For each pair of bots: the paired difference, in every game where both sit, of the first's penalty
minus the second's (a bot with two seats in a game counts with the mean of its seats), with its interval.
Two bots at one table share the deal, so the paired interval is narrower than the two means' intervals.
`--by-deal` (a duplicate run of `openspiel_cards.py`, every deal in every rotation): the unit is the deal, not
the game; a bot's value on a deal is its mean over the seats it held there, and both the means' and the paired
intervals are taken over deals. `--json OUT` writes the same figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from pathlib import Path
from typing import Any

Z95 = 1.96


def mean_interval(values: list[float]) -> list[float]:
    """[mean, low, high]: mean +- 1.96 standard errors (the mean three times for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return [mean, mean, mean]
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return [mean, mean - half, mean + half]


def per_game(game: dict[str, Any]) -> dict[str, float]:
    """Bot name -> its mean penalty in this game (over its seats)."""
    seats: dict[str, list[float]] = {}
    for name, result in zip(game["seats"], game["results"], strict=True):
        seats.setdefault(name, []).append(float(result["score"]))
    return {name: sum(v) / len(v) for name, v in seats.items()}


def per_deal(games: list[dict[str, Any]]) -> list[dict[str, float]]:
    """Bot name -> its mean penalty on each deal (over the seats it held in the deal's games)."""
    deals: dict[int, dict[str, list[float]]] = {}
    for game in games:
        seats = deals.setdefault(int(game["seed"]), {})
        for name, result in zip(game["seats"], game["results"], strict=True):
            seats.setdefault(name, []).append(float(result["score"]))
    return [{name: sum(v) / len(v) for name, v in seats.items()} for seats in deals.values()]


def figures(games: list[dict[str, Any]], by_deal: bool = False) -> dict[str, Any]:
    names = list(dict.fromkeys(name for game in games for name in game["seats"]))
    rows = per_deal(games) if by_deal else [per_game(game) for game in games]
    means = {}
    for name in names:
        if by_deal:
            scores = [row[name] for row in rows if name in row]
            seat_games = sum(seat == name for game in games for seat in game["seats"])
        else:
            scores = [float(r["score"]) for game in games for seat, r in zip(game["seats"], game["results"],
                                                                              strict=True) if seat == name]
            seat_games = len(scores)
        means[name] = {"seat_games": seat_games, "penalty": mean_interval(scores)}
    pairs = []
    for a, b in itertools.combinations(names, 2):
        diffs = [row[a] - row[b] for row in rows if a in row and b in row]
        if len(diffs) >= 2:
            pairs.append({"first": a, "second": b, "games": len(diffs), "difference": mean_interval(diffs),
                          "sd": math.sqrt(sum((d - sum(diffs) / len(diffs)) ** 2 for d in diffs)
                                          / (len(diffs) - 1))})
    return {"games": len(games), "units": len(rows), "by_deal": by_deal, "bots": means, "paired": pairs}


def print_figures(out: dict[str, Any]) -> None:
    """`figures`' means and paired differences, a line each."""
    unit = "deals" if out["by_deal"] else "games"
    for name, row in out["bots"].items():
        m, lo, hi = row["penalty"]
        print(f"  {name:28} {row['seat_games']:5} seat-games  penalty {m:6.2f} ({lo:.2f}-{hi:.2f})")
    for pair in out["paired"]:
        m, lo, hi = pair["difference"]
        print(f"  {pair['first']} - {pair['second']}: {m:+.2f} ({lo:+.2f}..{hi:+.2f}) over {pair['games']} {unit},"
              f" sd {pair['sd']:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--by-deal", action="store_true", help="a duplicate run: intervals over deals")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    games = [g for f in args.files for g in json.loads(f.read_text())["games"]]
    out = figures(games, args.by_deal)
    print(f"{out['games']} games" + (f", {out['units']} deals (the unit of every interval)" if args.by_deal else ""))
    print_figures(out)
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
