"""Which public habits tell a learned runner's good ghosts from its bad ones, judged on a runner nothing was
fitted on: the conditional logit of `ghostgames train geister-belief` (learn/geister/belief_fit.py), fitted
on the games of two runners with a set of features (belief.FEATURES and groups of kinds.EXTRA, or the start
square one-hot) and scored per ghost on fresh games of the third (leave one runner out). Also scored: the
same fit on the judged runner's own games (a ceiling, tuned on it), and the endgame alone (snapshots where
three of the runner's bad ghosts are taken). The games are `benchmarks/kinds_games.py`'s files.

    python benchmarks/kinds_games.py --bots runner runner-2 runner-3 --games 600 --seed 21 --out /tmp/gs-kinds
    python benchmarks/kinds_games.py --bots runner runner-2 runner-3 --games 200 --seed 11 --out /tmp/gs-kinds
    python benchmarks/belief_kinds.py --games /tmp/gs-kinds --json benchmarks/results/belief-kinds.json
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from ghostgames.bots.geister.belief import FEATURES
from ghostgames.bots.geister.kinds import KIND_FEATURES
from ghostgames.learn.geister.belief_fit import Snapshot, fit, groups, marginal_scores
from ghostgames.learn.geister.kinds_fit import game_snapshots

RUNNERS = ("runner", "runner-2", "runner-3")
GROUPS: dict[str, tuple[str, ...]] = {
    "FEATURES": (),
    "+ order": ("first_rank", "moved_first"),
    "+ recency": ("last_moved", "streak"),
    "+ pace": ("pace",),
    "+ escorts, lead": ("escorts", "lead"),
    "+ start row/column": ("start_front", "start_inner"),
    "+ endgame": ("last_bad", "last_bad_forward", "last_bad_distance", "last_bad_last_moved", "last_bad_lead"),
    "+ all of EXTRA": tuple(f for f in KIND_FEATURES if f not in FEATURES),
    "+ start square one-hot": ("start:",),
}


def snapshots(path: Path) -> list[Snapshot]:
    """The labelled kind features of every view of every game in the file (kinds_fit.game_snapshots)."""
    with gzip.open(path, "rt") as f:
        games: list[dict[str, Any]] = json.load(f)
    return [s for game in games for s in game_snapshots(game)]


def columns(snaps: list[Snapshot], names: tuple[str, ...]) -> list[Snapshot]:
    """The snapshots with FEATURES and `names` only ("start:": the start index one-hot)."""
    keep = [KIND_FEATURES.index(f) for f in FEATURES + tuple(n for n in names if n != "start:")]
    onehot = "start:" in names
    out = []
    for s in snaps:
        x = [[row[i] for i in keep] + ([float(k == j) for j in range(8)] if onehot else [])
             for row, k in zip(s["x"], s["start"], strict=True)]
        out.append({**s, "x": x})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=Path("/tmp/gs-kinds"))
    parser.add_argument("--fit-file", default="{bot}-21-600.json.gz")
    parser.add_argument("--held-file", default="{bot}-11-200.json.gz")
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--groups", nargs="+", default=list(GROUPS), help="which rows of GROUPS to fit")
    parser.add_argument("--own", nargs="*", default=["FEATURES", "+ all of EXTRA"],
                        help="rows also fitted on the judged runner's own games (the ceiling)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    fitting = {bot: snapshots(args.games / args.fit_file.format(bot=bot)) for bot in RUNNERS}
    held = {bot: snapshots(args.games / args.held_file.format(bot=bot)) for bot in RUNNERS}
    table: dict[str, Any] = {}
    for bot in RUNNERS:
        endgame = [s for s in held[bot] if s["last_bad"]]
        whole, end = marginal_scores(held[bot], None), marginal_scores(endgame, None)
        table[bot] = {"ghosts": whole[2], "endgame ghosts": end[2], "uniform": whole[0], "uniform endgame": end[0]}
        print(f"{bot}: {table[bot]['ghosts']} ghost-snapshots, {table[bot]['endgame ghosts']} in the endgame; "
              f"uniform {table[bot]['uniform']:.3f} / endgame {table[bot]['uniform endgame']:.3f}")
    for name in args.groups:
        extra = GROUPS[name]
        row: dict[str, Any] = {}
        for bot in RUNNERS:
            others = [s for other in RUNNERS if other != bot for s in columns(fitting[other], extra)]
            test = columns(held[bot], extra)
            size = len(test[0]["x"][0])
            scored: dict[str, float] = {}
            ways = [("others", others)] + ([("own", columns(fitting[bot], extra))] if name in args.own else [])
            for how, train in ways:
                theta = fit(groups(train), args.l2, size=size)
                scored[how] = marginal_scores(test, theta)[0]
                scored[f"{how} endgame"] = marginal_scores([s for s in test if s["last_bad"]], theta)[0]
            row[bot] = scored
        table[name] = row
        print(f"{name:>24}: " + "  ".join(
            f"{bot} {r['others']:.3f} ({r['others endgame']:.3f})"
            + (f" own {r['own']:.3f} ({r['own endgame']:.3f})" if "own" in r else "")
            for bot, r in row.items()), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"l2": args.l2, "fit_file": args.fit_file, "held_file": args.held_file,
                                         "features": list(KIND_FEATURES), "groups": GROUPS, "scores": table},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
