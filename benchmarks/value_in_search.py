"""Does the learned value help the search? The expert with the learned value in place of its hand evaluation
at the end of its 14-ply playouts (`expert-learned:N`), against the expert as it is, at the same budget.

The compiled ISMCTS of issue 13 will take the value as its leaf evaluation; this measures the idea on the
Python search today. Game i is game i of `ghostgames tournament` with the same bots and seed; each game
is appended to a JSON-lines file as it ends (an existing file is continued), as stream_tournament.py does.

    .venv/bin/python benchmarks/value_in_search.py --bots expert-learned:400,expert:400 --games 60 --seed 1 \\
        --out benchmarks/results/issue13-learned-leaf.jsonl
    .venv/bin/python benchmarks/how_games_end.py benchmarks/results/issue13-learned-leaf.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from ghostgames.bots import BOTS, Budget
from ghostgames.bots.base import Bot
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.value import shipped
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.games.geister import fast
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import State
from ghostgames.tournament import TournamentSpec
from ghostgames.tournament.runner import play_game


class LearnedLeafPolicy(BeliefPolicy):
    """The expert's policy with the learned value scoring a cut-off playout (the world is a sampled one).
    `sharpen` multiplies the value's log-odds: the value is calibrated, the hand evaluation about twice
    as confident (docs/learning.md), and the search's exploration constant was tuned on the latter."""

    sharpen = 1.0

    def evaluate(self, world: State[Any]) -> list[float]:
        assert isinstance(world, GeisterState)
        v0 = min(max(shipped().of(fast.from_state(world)), 1e-9), 1 - 1e-9)
        v0 = 1.0 / (1.0 + math.exp(-self.sharpen * math.log(v0 / (1.0 - v0))))
        return [v0, 1.0 - v0]


def learned_expert(iterations: int, sharpen: float) -> Bot:
    policy = type("SharpenedLeafPolicy", (LearnedLeafPolicy,), {"sharpen": sharpen})
    bot = IsmctsBot(Budget(iterations=iterations), policy, exploration=0.5)
    bot.name = "expert-learned"
    return bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="expert-learned:400,expert:400")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sharpen", type=float, default=1.0, help="multiply the value's log-odds by this")
    args = parser.parse_args()
    names = tuple(args.bots.split(","))
    for name in names:
        base, _, count = name.partition(":")
        if base == "expert-learned":
            BOTS[name] = lambda seconds, n=int(count or 400): learned_expert(n, args.sharpen)
    spec = TournamentSpec("geister", names, args.games, 2, None, args.seed, {})
    done = set()
    if args.out.exists():
        done = {row["index"] for row in map(json.loads, args.out.read_text().splitlines()) if "index" in row}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        if out.tell() == 0:
            out.write(json.dumps({"spec": spec.to_json()}) + "\n")
        for index in range(args.games):
            if index not in done:
                out.write(json.dumps(play_game(spec, index).to_json()) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
