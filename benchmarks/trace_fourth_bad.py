"""Where a Geister search bot took the enemy's ghosts in the games it lost by taking all four bad ones (issue 39,
`runner-3`): replays those games of a `ghostgames tournament --json` file, game for game (the seeds of
`tournament.runner.play_game`), and notes every capture by the bot: the ply, the ghost's colour (read from the
game afterwards, never by the bot), its steps to the enemy's nearer exit (our corner) and how many bad ghosts
the enemy had left before it.

    python benchmarks/trace_fourth_bad.py benchmarks/results/issue39-runner3-expert-1000.json \
        --json benchmarks/results/issue39-runner3-fourth-bad.json
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.picture import exit_distance
from ghostgames.games import get_game
from ghostgames.rules.chance import derive_rng
from ghostgames.tournament.runner import TournamentSpec


def captures(spec: TournamentSpec, index: int) -> list[dict[str, Any]]:
    """Game `index` of the tournament replayed; the captures the first bot of `spec` made in it."""
    decisions = derive_rng(spec.seed, "tournament-bots", index)
    seats = spec.seating(index)
    me = seats.index(spec.bots[0])
    theirs = range(8 * (1 - me), 8 * (1 - me) + 8)  # the enemy's ghost numbers
    bots = [get_bot(name) for name in seats]
    state = get_game(spec.game).new(2, spec.game_options(),
                                    seed=derive_rng(spec.seed, "tournament-game", index).randrange(2**63))
    taken: list[dict[str, Any]] = []
    while state.to_act():
        seat = min(state.to_act())
        rng = random.Random(decisions.randrange(2**63))
        before, ply = list(state.pos), state.ply
        state.apply(seat, bots[seat].choose(SeatKnowledge(state, seat), rng))
        if seat == me:
            bad_left = sum(1 for g in theirs if before[g] >= 0 and state.good[g] is False)
            taken.extend({"ply": ply, "good": bool(state.good[g]), "to_exit": exit_distance(before[g], 1 - me),
                          "bad_left": bad_left} for g in theirs if before[g] >= 0 > state.pos[g])
    return taken


def lost_by_four_bad(tournament: Path) -> tuple[TournamentSpec, list[int]]:
    """The spec of a `ghostgames tournament --json` file and the games its first bot lost by taking four bad ghosts."""
    data = json.loads(tournament.read_text())
    s = data["spec"]
    spec = TournamentSpec(s["game"], tuple(s["bots"]), s["games"], s["players"], None, s["seed"], s["options"])
    bot = spec.bots[0]
    lost = sorted(g["index"] for g in data["games"]
                  if g["results"][g["seats"].index(bot)]["result"] == "loss" and "four bad" in g["reason"])
    return spec, lost


def steps(capture: dict[str, Any]) -> int:
    return min(capture["to_exit"], 4)  # 4: four or more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tournament", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    spec, lost = lost_by_four_bad(args.tournament)
    bot = spec.bots[0]
    games = {index: captures(spec, index) for index in lost}
    last = Counter(steps(taken[-1]) for taken in games.values())
    one_left = Counter((steps(c), "good" if c["good"] else "bad") for taken in games.values() for c in taken
                       if c["bad_left"] == 1)
    print(f"{bot}: {len(lost)} games lost by taking four bad ghosts")
    print(f"  the fourth bad ghost's steps to its exit when taken (4: four or more): {dict(sorted(last.items()))}")
    print(f"  taken with one bad ghost left, by steps and colour: {dict(sorted(one_left.items()))}")
    if args.json:
        args.json.write_text(json.dumps({"tournament": str(args.tournament), "bot": bot, "games": games,
                                         "fourth_bad_steps": dict(last),
                                         "one_bad_left": {f"{k[0]} {k[1]}": v for k, v in one_left.items()}},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
