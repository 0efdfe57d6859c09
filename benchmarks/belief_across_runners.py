"""Does a belief model of learned runners fitted on several of them read one it never saw? The conditional
logit of `ghostgames train geister-belief` (learn/geister/belief_fit.py: `fit`, the same L2) fitted on the
runners' games of each set of `--fit` bots (`benchmarks/belief_on_runner.py`'s games: the bot against rules,
defender, charge and twice `expert:1000`), scored per ghost on games of the `--held` bots, beside the uniform
belief and the shipped weight sets. Snapshots are kept in `--cache` (one file per bot, games and seed), so a
second call with another held-out bot replays nothing it has.

    python benchmarks/belief_across_runners.py --fit runner runner-2 runner,runner-2 --held runner-3 runner-2 \\
        --fit-games 200 --held-games 100 --json benchmarks/results/belief-across-runners.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from benchmarks.belief_on_runner import runner_snapshots

from ghostgames.bots.geister.belief import FEATURES, load_weights
from ghostgames.learn.geister.belief_fit import Snapshot, fit, groups, marginal_scores, repeat_rates

FIT_SEED = 21  # the fitting games' seed; the held-out games use 11, as belief_on_runner.py's tables do
HELD_SEED = 11


def cached(bot: str, games: int, seed: int, folder: Path) -> list[Snapshot]:
    """The snapshots of the first `games` games of `bot` (games 0, 1, ... are the same whatever the count)."""
    path = folder / f"{bot}-{seed}.json"
    if path.exists():
        held = json.loads(path.read_text())
        if held["games"] >= games:
            return [s for s in held["snapshots"] if s["game"] < games]
    started = time.perf_counter()
    text = json.dumps({"games": games, "snapshots": runner_snapshots(bot, games, seed)})
    print(f"  played {games} games of {bot} (seed {seed}) in {time.perf_counter() - started:.0f} s")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    played: list[Snapshot] = json.loads(text)["snapshots"]  # as a later call reads them (lists, not tuples)
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", nargs="+", default=["runner", "runner-2", "runner,runner-2"],
                        help="sets of bots to fit one model on each (comma-separated)")
    parser.add_argument("--held", nargs="+", default=["runner-3"])
    parser.add_argument("--fit-games", type=int, default=200,
                        help="games of a fitting set, shared among its bots (with --per-bot: of each bot)")
    parser.add_argument("--per-bot", action="store_true")
    parser.add_argument("--held-games", type=int, default=100)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/belief-across-runners"))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    models: dict[str, np.ndarray | None] = {"uniform": None}
    models.update((f"{name} (shipped)", np.array([w[f] for f in FEATURES])) for name, w in load_weights().items())
    fitted: dict[str, dict[str, float]] = {}
    repeats: dict[str, dict[str, float]] = {}  # per bot: how often it moved the ghost it moved last
    for group in args.fit:
        bots = group.split(",")
        per_bot = args.fit_games if args.per_bot else args.fit_games // len(bots)
        by_bot = {bot: cached(bot, per_bot, FIT_SEED, args.cache) for bot in bots}
        train = [s for snaps in by_bot.values() for s in snaps]
        theta = fit(groups(train), args.l2)
        name = f"fitted on {' + '.join(bots)} ({per_bot} games each, {len(train)} snapshots)"
        models[name] = theta
        fitted[name] = {f: round(float(v), 3) for f, v in zip(FEATURES, theta, strict=True)}
        repeats[name] = {bot: repeat_rates(snaps)[bot] for bot, snaps in by_bot.items()}  # game numbers repeat
    scores: dict[str, dict[str, dict[str, float]]] = {}
    for bot in args.held:
        test = cached(bot, args.held_games, HELD_SEED, args.cache)
        scores[bot] = {}
        print(f"held-out games of {bot}: {args.held_games} games, {marginal_scores(test, None)[2]} ghost-snapshots")
        for name, theta in models.items():
            loss, accuracy, ghosts = marginal_scores(test, theta)
            scores[bot][name] = {"log_loss": loss, "accuracy": accuracy, "ghosts": ghosts}
            print(f"  {name:>58}: log-loss {loss:.3f}, accuracy {100 * accuracy:.1f}%")
    if args.json:
        args.json.write_text(json.dumps({"fit_seed": FIT_SEED, "held_seed": HELD_SEED, "fit_games": args.fit_games,
                                         "held_games": args.held_games, "l2": args.l2, "weights": fitted,
                                         "repeats": repeats,
                                         "scores": scores}, indent=1) + "\n")


if __name__ == "__main__":
    main()
