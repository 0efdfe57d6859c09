"""Ghooost! matches round by round: who went out in which order, who lost, the points and Bouh!.

`ghostgames tournament` keeps only a match's final ranks and points; why a bot wins rounds but not matches
shows in the rounds (at 3 players the second out scores more than the first). This plays the games of a
tournament spec exactly as `ghostgames tournament` does (`play_game`, the same seeds and seating) with a
watch that keeps the live state, and writes one JSON line per match with its round history.

    python benchmarks/match_rounds.py --bots expert:2000,ismcts:100,rules --players 3 --games 9 --seed 1 \\
        --out benchmarks/results/ghooost3-match-rounds.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ghostgames.rules.contract import State
from ghostgames.tournament.runner import TournamentSpec, play_game


def match_rounds(spec: TournamentSpec, index: int) -> dict[str, Any]:
    """Game `index` of `spec` with its rounds: each round's finishing order and loser by bot name."""
    seen: dict[str, State[Any]] = {}
    result = play_game(spec, index, watch=lambda state: seen.setdefault("state", state))
    state: Any = seen["state"]  # the live state: after the game it holds the whole match's history
    seats = result.seats
    rounds = [{"out": [seats[s] for s in entry["out"]],
               "loser": seats[entry["loser"]] if entry["loser"] is not None else None,
               "points": entry["points"], "turns": entry["turns"]} for entry in state.history]
    return {"index": index, "seats": seats, "ranks": [r["rank"] for r in result.results],
            "points": list(state.points), "bouh": list(state.bouh), "rounds": rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", required=True)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    spec = TournamentSpec("ghooost", tuple(args.bots.split(",")), args.games, args.players, None, args.seed,
                          {"match": True})
    with args.out.open("w") as out:
        for index in range(args.games):
            line = match_rounds(spec, index)
            out.write(json.dumps(line) + "\n")
            out.flush()
            firsts = {name: sum(r["out"][:1] == [name] for r in line["rounds"]) for name in dict.fromkeys(spec.bots)}
            print(f"match {index}: ranks {line['ranks']} points {line['points']}; rounds first out {firsts}")


if __name__ == "__main__":
    main()
