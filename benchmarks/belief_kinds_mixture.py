"""The belief as `expert-kinds` reads it, judged on a runner none of its models was fitted on: belief.MODELS
and one model per other learned runner (kinds.kind_models' mixture, over kinds.KIND_FEATURES, each fitted on
that runner's games as `ghostgames train geister-kinds` fits it), trusted by Bayes' rule along each game,
scored per ghost on fresh games of the held-out runner beside `expert`'s belief (belief.MODELS alone) and the
uniform one; also on the endgame alone (three of the runner's bad ghosts taken). The games are
`benchmarks/kinds_games.py`'s files.

    python benchmarks/belief_kinds_mixture.py --games /tmp/gs-kinds --held-games 100 \\
        --json benchmarks/results/belief-kinds-mixture.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from pathlib import Path
from typing import Any

from ghostgames.bots.geister.belief import Models, belief, certainly_bad
from ghostgames.bots.geister.kinds import KIND_FEATURES, kind_belief, kinds_mixture
from ghostgames.bots.geister.picture import read
from ghostgames.learn.geister.belief_fit import fit, groups, repeat_rates
from ghostgames.learn.geister.kinds_fit import game_snapshots

RUNNERS = ("runner", "runner-2", "runner-3")


def load(path: Path, games: int | None = None) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as f:
        played: list[dict[str, Any]] = json.load(f)
    return played[:games] if games else played


def scores(games: list[dict[str, Any]], models: Models | None) -> dict[str, float]:
    """Per-ghost log-loss over every view (None: belief.MODELS over FEATURES, `expert`'s belief), and in the
    endgame of the last bad ghost."""
    loss, count, end_loss, end_count = 0.0, 0, 0.0, 0
    for game in games:
        for view in game["views"]:
            picture = read(view)
            moves = list(view["moves"])
            b = belief(picture, moves) if models is None else kind_belief(picture, moves, models)
            chance = b.good_probability()
            candidates = [g for g in b.hidden if not certainly_bad(picture, g)]
            good = [bool(game["good"][g & 7]) for g in candidates]
            if not candidates or sum(good) in (0, len(candidates)):
                continue
            endgame = len(candidates) - sum(good) == 1
            for g, is_good in zip(candidates, good, strict=True):
                q = min(max(chance[g], 1e-6), 1 - 1e-6)
                term = -math.log(q if is_good else 1 - q)
                loss, count = loss + term, count + 1
                if endgame:
                    end_loss, end_count = end_loss + term, end_count + 1
    return {"log_loss": loss / count, "endgame": end_loss / max(1, end_count), "ghosts": count,
            "endgame ghosts": end_count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=Path("/tmp/gs-kinds"))
    parser.add_argument("--fit-file", default="{bot}-21-600.json.gz")
    parser.add_argument("--held-file", default="{bot}-11-200.json.gz")
    parser.add_argument("--held-games", type=int, default=100)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--shares", type=float, nargs="+", default=[0.1],
                        help="the learned runners' prior shares to try (taken from the search bots')")
    parser.add_argument("--runners", nargs="+", default=list(RUNNERS), help="the runners judged")
    parser.add_argument("--fitted", type=Path, help="take the weights and repeats from an earlier --json")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    weights: dict[str, dict[str, float]] = {}
    repeats: dict[str, float] = {}
    if args.fitted:
        earlier = json.loads(args.fitted.read_text())
        weights, repeats = earlier["weights"], earlier["repeats"]
    for bot in RUNNERS if not args.fitted else ():
        snaps = [s for game in load(args.games / args.fit_file.format(bot=bot)) for s in game_snapshots(game)]
        theta = fit(groups(snaps), args.l2, size=len(KIND_FEATURES))
        weights[bot] = {f: round(float(v), 3) for f, v in zip(KIND_FEATURES, theta, strict=True)}
        repeats[bot] = round(repeat_rates(snaps)[bot], 2)
        print(f"fitted {bot} on {len(snaps)} snapshots; moves the ghost it moved last {repeats[bot]}", flush=True)
    table: dict[str, Any] = {}
    for bot in args.runners:
        held = load(args.games / args.held_file.format(bot=bot), args.held_games)
        others = {name: w for name, w in weights.items() if name != bot}
        rows = {"belief.MODELS (expert's)": scores(held, None)}
        for share in args.shares:
            rows[f"MODELS + the other two runners' models, {share}"] = scores(
                held, kinds_mixture(others, repeats, share))
            rows[f"MODELS + all three (its own too: a ceiling), {share}"] = scores(
                held, kinds_mixture(weights, repeats, share))
        table[bot] = rows
        for name, row in rows.items():
            print(f"{bot:>9} {name:>50}: log-loss {row['log_loss']:.3f}, endgame {row['endgame']:.3f}"
                  f" ({row['ghosts']} / {row['endgame ghosts']} ghost-snapshots)", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"held_games": args.held_games, "l2": args.l2, "weights": weights,
                                         "repeats": repeats, "scores": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
