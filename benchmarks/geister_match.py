"""Matches of Geister between two bots kept for all the games of a match (issue 39, a memory of the opponent's
setups): the first player alternates, every game and decision is seeded from (seed, match, game), and after each
game both bots are told how it ended (`Bot.game_over`, `tournament/match.py`). Prints the first bot's wins per game
number of the match and how the games ended (by the outcome's code, and plies); writes JSON.

    nice -n 5 .venv/bin/python benchmarks/geister_match.py --bots expert-memory:1000 runner-3 \
        --matches 10 --games 10 --seed 1 --json benchmarks/results/issue39-memory-runner3.json

Match m (0, 1, ...) is seeded "SEED:m": two runs with the same --seed, the same opponent and bots that play
alike play the same games (e.g. `expert-memory` and `expert` play the first game of each match alike), so a
candidate and its baseline are compared game by game. `--first-match` continues a run in another process.
Two such files compared game by game (the same seed, the same opponent; the games won by only one of the two,
with the sign test of benchmarks/paired_games.py):

    .venv/bin/python benchmarks/geister_match.py --compare CANDIDATE.json BASELINE.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.paired_games import sign_test

from ghostgames.bots import get_bot
from ghostgames.tournament.match import OPTIONS, play_match

# The first game a memory of the opponent's setups can change: with fewer than two games seen its prior is
# uniform (bots/geister/memory.py), so the totals "from game 3" are the games it could have played differently.
REMEMBERED_FROM = 3


def run(bots: list[str], matches: range, games: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for m in matches:
        start = time.perf_counter()
        played = play_match([get_bot(name) for name in bots], games, f"{seed}:{m}")
        out.append({"match": m, "seconds": round(time.perf_counter() - start, 1),
                    "games": [g.to_json() for g in played]})
        wins = "".join({"win": "W", "loss": "L", "draw": "D"}[g.result[0]] for g in played)
        print(f"match {m}: {wins}  ({out[-1]['seconds']} s)", flush=True)
    return out


def table(bots: list[str], matches: list[dict[str, Any]]) -> None:
    games = [g for match in matches for g in match["games"]]
    numbers = sorted({g["number"] for g in games})
    print(f"{bots[0]} against {bots[1]}: {len(matches)} matches, {len(games)} games")
    print("game  won  drawn  lost")
    for n in numbers:
        results = Counter(g["result"][0] for g in games if g["number"] == n)
        print(f"{n:>4}  {results['win']:>3}  {results['draw']:>5}  {results['loss']:>4}")
    results = Counter(g["result"][0] for g in games)
    later = Counter(g["result"][0] for g in games if g["number"] >= REMEMBERED_FROM)
    print(f"all   {results['win']:>3}  {results['draw']:>5}  {results['loss']:>4}"
          f"   (from game {REMEMBERED_FROM}: {later['win']} won of {sum(later.values())})")
    print("how the games ended (the first bot's result):")
    for (result, reason), count in sorted(Counter((g["result"][0], g["reason"]) for g in games).items()):
        plies = [g["plies"] for g in games if g["result"][0] == result and g["reason"] == reason]
        print(f"  {result:<5} {reason:<16} {count:>4}  mean plies {sum(plies) / len(plies):.0f}")


def compare(candidate: Path, baseline: Path) -> None:
    """The two files' first bots game by game: per game number, wins of each and the games only one of them won."""
    runs = [json.loads(path.read_text()) for path in (candidate, baseline)]
    if runs[0]["seed"] != runs[1]["seed"] or runs[0]["bots"][1] != runs[1]["bots"][1]:
        raise SystemExit("not the same games: the seeds or the opponents differ")
    results = [{(m["match"], g["number"]): g["result"][0] for m in run["matches"] for g in m["games"]} for run in runs]
    keys = sorted(set(results[0]) & set(results[1]))
    score = {"win": 2, "draw": 1, "loss": 0}
    print(f"{runs[0]['bots'][0]} (A) and {runs[1]['bots'][0]} (B) against {runs[0]['bots'][1]}, seed {runs[0]['seed']}")
    print("game  A won  B won  only A  only B")
    for n in [*sorted({k[1] for k in keys}), 0]:  # each game number, then the games from REMEMBERED_FROM on (0)
        these = [k for k in keys if k[1] == n] if n else [k for k in keys if k[1] >= REMEMBERED_FROM]
        a = sum(results[0][k] == "win" for k in these)
        b = sum(results[1][k] == "win" for k in these)
        better = sum(score[results[0][k]] > score[results[1][k]] for k in these)
        worse = sum(score[results[0][k]] < score[results[1][k]] for k in these)
        label = f"{n:>4}" if n else f"{REMEMBERED_FROM}-on"
        print(f"{label}  {a:>5}  {b:>5}  {better:>6}  {worse:>6}" + (f"   sign test p = {sign_test(better, worse):.4f}"
                                                                    if not n else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs=2)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("CANDIDATE", "BASELINE"))
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--first-match", type=int, default=0)
    parser.add_argument("--games", type=int, default=10, help="games per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if not args.bots:
        parser.error("--bots or --compare")
    matches = run(args.bots, range(args.first_match, args.first_match + args.matches), args.games, args.seed)
    table(args.bots, matches)
    if args.json:
        args.json.write_text(json.dumps({"bots": args.bots, "games": args.games, "seed": args.seed,
                                         "options": OPTIONS, "matches": matches}, indent=1))


if __name__ == "__main__":
    main()
