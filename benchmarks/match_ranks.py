"""Mean ranks of a multi-player tournament with 95% intervals, and paired comparisons by game.

`ghostgames tournament --json` gives each bot's mean rank but no interval; in a match of 3+ players that
mean is what the issue's target reads ("the best mean rank, with an interval that excludes the others'").
This reads one or more of those files and prints, per bot, the mean rank with mean +- 1.96 standard errors
(over its seat-games, cut to 1..players) and the matches won with their Wilson interval. A bot that won
every match has no spread to take an error from, so its interval's upper end is then the worst mean rank
the Wilson interval of its wins allows (every match not won at the last rank); a bot last in every match
likewise gets the best mean its share of last places allows. Paired:

- within a file, first bot against each other: per game the first bot's best seat's rank less the other's
  best seat's, mean +- 1.96 standard errors (negative: the first ranks better);
- `--against FILE`: the same games (same seed, game index, seating) of another run with another first bot;
  per game the first bot's rank here less there.

    python benchmarks/match_ranks.py benchmarks/results/ghooost3-match-expert-equity-ismcts-rules.json \\
        --against benchmarks/results/ghooost3-match-expert40-ismcts-rules.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from ghostgames.tournament.stats import Z95, wilson_interval


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and mean +- 1.96 standard errors (the sample's own spread; none for one value)."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * spread / math.sqrt(n)
    return mean, mean - half, mean + half


def best_ranks(game: dict[str, Any], slot: int, bots: list[str]) -> int:
    """The best rank of the seats bot `slot` of the spec holds in `game`."""
    return min(r["rank"] for name, r in zip(game["seats"], game["results"], strict=True) if name == bots[slot])


def bot_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    bots = list(dict.fromkeys(data["spec"]["bots"]))
    players = data["spec"]["players"]
    rows = []
    for name in bots:
        ranks = [float(r["rank"]) for g in data["games"] for seat, r in zip(g["seats"], g["results"], strict=True)
                 if seat == name]
        wins = sum(1 for g in data["games"] for seat, r in zip(g["seats"], g["results"], strict=True)
                   if seat == name and r["result"] == "win")
        mean, low, high = mean_interval(ranks)
        win_low, win_high = wilson_interval(wins, len(ranks))
        if low == high and mean == 1.0:  # no spread: bound the mean by the share of matches won
            high = max(high, 1.0 + (1.0 - win_low) * (players - 1))
        elif low == high and mean == players:  # the same at the bottom: by the share of matches ended last
            last_low, _ = wilson_interval(len(ranks), len(ranks))
            low = min(low, players - (1.0 - last_low) * (players - 1))
        low, high = max(low, 1.0), min(high, float(players))  # a rank lies in 1..players
        rows.append({"bot": name, "seat_games": len(ranks), "mean_rank": mean, "rank_low": low, "rank_high": high,
                     "won": wins, "won_low": win_low, "won_high": win_high})
    return rows


def paired_within(data: dict[str, Any]) -> list[dict[str, Any]]:
    bots = list(dict.fromkeys(data["spec"]["bots"]))
    out = []
    for slot in range(1, len(bots)):
        diffs = [float(best_ranks(g, 0, bots) - best_ranks(g, slot, bots)) for g in data["games"]]
        mean, low, high = mean_interval(diffs)
        out.append({"first": bots[0], "other": bots[slot], "games": len(diffs), "better": sum(d < 0 for d in diffs),
                    "worse": sum(d > 0 for d in diffs), "mean_difference": mean, "low": low, "high": high})
    return out


def paired_against(data: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    here, there = list(dict.fromkeys(data["spec"]["bots"])), list(dict.fromkeys(other["spec"]["bots"]))
    by_index = {g["index"]: g for g in other["games"]}
    diffs = []
    for game in data["games"]:
        twin = by_index.get(game["index"])
        if twin is None or twin["seed"] != game["seed"]:
            continue
        diffs.append(float(best_ranks(game, 0, here) - best_ranks(twin, 0, there)))
    mean, low, high = mean_interval(diffs)
    return {"here": here[0], "there": there[0], "games": len(diffs), "better": sum(d < 0 for d in diffs),
            "worse": sum(d > 0 for d in diffs), "mean_difference": mean, "low": low, "high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--against", type=Path, help="a run of the same games with another first bot")
    args = parser.parse_args()
    for path in args.files:
        data = json.loads(path.read_text())
        spec = data["spec"]
        print(f"{path.name}: {spec['players']} players, {len(data['games'])} games, seed {spec['seed']}")
        print(f"  {'bot':<58} {'mean rank (95%)':<22} {'won (95%)':<20}")
        for row in bot_rows(data):
            print(f"  {row['bot']:<58} {row['mean_rank']:.2f} ({row['rank_low']:.2f}-{row['rank_high']:.2f})"
                  f"       {row['won']:>3} ({row['won_low']:.0%}-{row['won_high']:.0%})")
        for pair in paired_within(data):
            print(f"  paired, best seat of {pair['first']} less {pair['other']}: {pair['mean_difference']:+.2f} "
                  f"({pair['low']:+.2f} to {pair['high']:+.2f}); better in {pair['better']}, worse in {pair['worse']}")
        if args.against:
            pair = paired_against(data, json.loads(args.against.read_text()))
            print(f"  paired with {args.against.name}, {pair['here']} less {pair['there']} over {pair['games']} "
                  f"games: {pair['mean_difference']:+.2f} ({pair['low']:+.2f} to {pair['high']:+.2f}); better in "
                  f"{pair['better']}, worse in {pair['worse']}")


if __name__ == "__main__":
    main()
