"""How well the belief's weight sets read one runner-style bot's ghosts: the runners' games of
`ghostgames train geister-belief` (learn/geister/belief_fit.py) with another bot in the runner's seat (e.g.
`runner-2`, which the shipped `learned` set was not fitted on), scored per ghost as the fit's report does.

    python benchmarks/belief_on_runner.py --bot runner-2 --games 100 --json benchmarks/results/belief-on-runner2.json
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister.belief import FEATURES, load_weights
from ghostgames.games import get_game
from ghostgames.learn.geister.belief_fit import EVERY, Snapshot, marginal_scores, player, runner_pairs, snapshot
from ghostgames.rules.chance import derive_rng


def opponents(bot: str) -> list[tuple[str, str]]:
    """The pairs `runner` plays in the runners' games, with `bot` in its seat."""
    return [(bot, other) for style, other in runner_pairs() if style == "runner"]


def runner_snapshots(bot: str, games: int, seed: int) -> list[Snapshot]:
    """The snapshots of the seat facing `bot` along `games` games against `opponents(bot)`, seats alternated."""
    pairs = opponents(bot)
    snaps: list[Snapshot] = []
    for index in range(games):
        bots = pairs[index % len(pairs)]
        if index // len(pairs) % 2:
            bots = (bots[1], bots[0])
        rng = derive_rng(seed, "belief-on-runner", index)
        options = {"exit": "reach" if index % 3 == 2 else "escape", "max_plies": 300}
        state = get_game("geister").new(2, options, seed=rng.randrange(2**63))
        players = [player(name) for name in bots]
        observer = bots.index(bot) ^ 1
        while state.to_act():
            seat = min(state.to_act())
            if state.ply % EVERY == 0 and not state.setup_phase():  # type: ignore[attr-defined]
                snaps.extend(snapshot(state, observer, "runners", index, bot))
            state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**63))))
    return snaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="runner-2")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    pairs = opponents(args.bot)
    snaps = runner_snapshots(args.bot, args.games, args.seed)
    rows = {"uniform": marginal_scores(snaps, None)}
    for name, w in load_weights().items():
        rows[name] = marginal_scores(snaps, np.array([w[f] for f in FEATURES]))
    print(f"{args.bot}: {args.games} games, {rows['uniform'][2]} ghost-snapshots")
    for name, (loss, accuracy, _) in rows.items():
        print(f"  {name:>8}: log-loss {loss:.3f}, accuracy {100 * accuracy:.1f}%")
    if args.json:
        args.json.write_text(json.dumps({"bot": args.bot, "games": args.games, "seed": args.seed, "pairs": pairs,
                                         "scores": {n: {"log_loss": r[0], "accuracy": r[1], "ghosts": r[2]}
                                                    for n, r in rows.items()}}, indent=1) + "\n")


if __name__ == "__main__":
    main()
