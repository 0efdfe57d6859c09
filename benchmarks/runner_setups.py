"""How many different setups a Geister bot plays: its setup drawn `--draws` times for each seat (fresh games,
seeds 0, 1, ...), the most common colourings by ghost number (0-3 the front row from the owner's left, 4-7 the
back row) and each number's share of good. The learned runners each play one setup, always the same
(docs/research/geister-belief.md, "Telling the kinds of runner apart").

    python benchmarks/runner_setups.py --bots runner runner-2 runner-3 rush --draws 200
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState


def setups(name: str, draws: int) -> Counter[tuple[int, tuple[int, ...]]]:
    """(seat, the good ghosts' numbers) -> how often the bot set up so."""
    bot = get_bot(name)
    counts: Counter[tuple[int, tuple[int, ...]]] = Counter()
    for i in range(draws):
        state = get_game("geister").new(2, {"exit": "escape"}, seed=i)
        assert isinstance(state, GeisterState)
        for seat in (0, 1):
            state.apply(seat, bot.choose(SeatKnowledge(state, seat), random.Random(i * 2 + seat)))
        for seat in (0, 1):
            counts[(seat, tuple(g & 7 for g in range(seat * 8, seat * 8 + 8) if state.good[g]))] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["runner", "runner-2", "runner-3", "rush"])
    parser.add_argument("--draws", type=int, default=200)
    args = parser.parse_args()
    for name in args.bots:
        counts = setups(name, args.draws)
        share = [sum(n for (_, good), n in counts.items() if k in good) / (2 * args.draws) for k in range(8)]
        print(f"{name}: {len(counts)} different (seat, setup); most common {counts.most_common(3)}")
        print(f"  share good by ghost number: {[round(s, 2) for s in share]}")


if __name__ == "__main__":
    main()
