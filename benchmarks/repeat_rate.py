"""How often each kind of player moves the ghost it moved last: the `repeats` of belief.MODELS.

    .venv/bin/python benchmarks/repeat_rate.py --set simple --games 200
    .venv/bin/python benchmarks/repeat_rate.py --set search --games 12

Plays games of one of learn/geister/belief_fit.py's two sets (the same pairs of bots, escape rule, 300 plies) and
counts, for every move after a player's first, whether it moved the same ghost as its previous move (a
move whose previous ghost was taken in between does not count), with belief.enemy_repeats itself. A bot that marches
one ghost (`charge`) repeats nearly always; search bots spread their moves. The rates differ enough that
a few moves tell the belief which model of the enemy to trust.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister.belief import enemy_repeats
from ghostgames.bots.geister.picture import read
from ghostgames.games import get_game
from ghostgames.rules.chance import derive_rng

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ghostgames.learn.geister.belief_fit import PAIRS, SEARCH_PAIRS, player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("simple", "search"), required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    pairs = SEARCH_PAIRS if args.set == "search" else PAIRS
    counts: dict[str, list[int]] = {}
    for index in range(args.games):
        bots = pairs[index % len(pairs)]
        if index // len(pairs) % 2:
            bots = (bots[1], bots[0])
        rng = derive_rng(args.seed, "same", index)
        state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300}, seed=rng.randrange(2**63))
        players = [player(name) for name in bots]
        while state.to_act():
            seat = min(state.to_act())
            state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**63))))
        for seat in (0, 1):  # a seat's repeats, as the other seat's belief counts them
            view = state.view(1 - seat)
            same, other = enemy_repeats(read(view), list(view["moves"]))
            count = counts.setdefault(bots[seat], [0, 0])
            count[0] += same
            count[1] += same + other
    print(f"{'bot':16} {'repeats':>8} {'moves':>7} {'rate':>6}")
    for name, (same, total) in sorted(counts.items()):
        print(f"{name:16} {same:8} {total:7} {same / total:6.3f}")
    same, total = sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values())
    print(f"{'all (the rate)':16} {same:8} {total:7} {same / total:6.3f}")


if __name__ == "__main__":
    main()
