"""How often a race to an exit that `races.race_winner` reads as won is the game won, on real games (issue 39).

    .venv/bin/python benchmarks/race_calibration.py --bot expert:1000 --against runner-2 --seed 1 --games 40 \
        --json benchmarks/results/issue39-race-calibration.json

`expert` walks its own races read as won on without search (`expert.run_on`), and a race leaf measured and not
kept scored such a world as that side's game, on the grounds that such a race, solved on the empty board, is
nearly always run out. This checks the grounds
on `ghostgames tournament`'s games (`tournament.runner.play_game`, game for game): before every move of the
play phase it reads the race from the true position, all colours included (the reader is this script, never a
bot), and at the end of the game notes who won and how. The table: positions where the race was read won by the
bot, by its opponent, or by neither; in how many the side read as winning won the game, and won it by an escape.
A position is counted once per move, so long races weigh more; the last column counts each game once (its first
position read so).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ghostgames.bots.geister import races
from ghostgames.games.geister import fast
from ghostgames.tournament.runner import TournamentSpec, play_game

ESCAPED = "a good ghost escaped"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert:1000")
    parser.add_argument("--against", default="runner-2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    spec = TournamentSpec(game="geister", bots=(args.bot, args.against), games=args.games, players=2,
                          seed=args.seed, options={"exit": "escape", "max_plies": 300})
    load = os.getloadavg()
    # per kind of reading ("bot", "opponent", "neither"): positions, the reader's side won, won by an escape
    counts: dict[str, list[int]] = {kind: [0, 0, 0] for kind in ("bot", "opponent", "neither")}
    first: dict[str, list[int]] = {kind: [0, 0] for kind in ("bot", "opponent")}  # games, the side won
    for index in range(args.games):
        seat = spec.seating(index).index(args.bot)
        readings: list[int] = []

        def watch(state: Any, into: list[int] = readings) -> None:
            if state.playing:
                into.append(races.race_winner(fast.from_state(state), races.BOTH))

        result = play_game(spec, index, watch=watch)
        winners = [s for s, r in enumerate(result.results) if r["result"] == "win"]
        winner = winners[0] if winners else -1
        seen: set[str] = set()
        for read in readings:
            kind = "neither" if read < 0 else ("bot" if read == seat else "opponent")
            side = read if read >= 0 else -1
            counts[kind][0] += 1
            counts[kind][1] += int(side >= 0 and winner == side)
            counts[kind][2] += int(side >= 0 and winner == side and result.reason == ESCAPED)
            if kind != "neither" and kind not in seen:
                seen.add(kind)
                first[kind][0] += 1
                first[kind][1] += int(winner == side)
    print(f"{args.bot} against {args.against}, {args.games} games, seed {args.seed}; load average {load[0]:.2f}")
    print(f"{'race read as won by':<20} {'positions':>10} {'that side won':>14} {'by an escape':>13} "
          f"{'games (first reading): won':>28}")
    rows = {}
    for kind, (n, won, escaped) in counts.items():
        games, games_won = first.get(kind, [0, 0])
        share = f"{won / n:.2f}" if n and kind != "neither" else "-"
        by_escape = f"{escaped / n:.2f}" if n and kind != "neither" else "-"
        per_game = f"{games_won} of {games}" if kind != "neither" else "-"
        print(f"{kind:<20} {n:>10} {share:>14} {by_escape:>13} {per_game:>28}")
        rows[kind] = {"positions": n, "side_won": won, "side_won_by_escape": escaped, "games": games,
                      "games_side_won": games_won}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"spec": {"bot": args.bot, "against": args.against, "games": args.games,
                                                  "seed": args.seed}, "load": load, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
