"""How well each value predicts the results of games played by the search (search_positions.py's files, or
`ghostgames train geister-search --data`'s), on games held out of any fit: a constant, the hand evaluation
(as it is and recalibrated), the shipped learned value, the shipped value trained further on the other
games' positions (`training.fine_tune`, the fit of `ghostgames train geister-search`; written with --save),
the means of the hand evaluation and each value, and any other weights named with --also.

    .venv/bin/python benchmarks/search_value_fit.py search-positions.npz --epochs 2 --rate 0.0005 \\
        --save benchmarks/results/value-search-tuned.npz --json benchmarks/results/search-value-fit.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ghostgames.bots.geister.value import GeisterValue, shipped
from ghostgames.learn.geister import value_training as training


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+", help="files of positions (their games pooled)")
    parser.add_argument("--held-every", type=int, default=5, help="hold out every k-th game")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the training positions")
    parser.add_argument("--rate", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="other weights (a file --save wrote) to score on the same held-out games (repeat)")
    args = parser.parse_args()
    parts = [np.load(path) for path in args.data]
    rows = np.concatenate([part["rows"] for part in parts])
    y = np.concatenate([part["results"] for part in parts])
    games = np.concatenate([part["games"] + 1_000_000 * k for k, part in enumerate(parts)])  # one id per game
    spec = training.FineTuneSpec(args.held_every, args.epochs, args.rate, seed=args.seed)
    tuned, report = training.fine_tune(shipped(), rows, y, games, spec)
    out: dict[str, object] = {"data": [str(path) for path in args.data], **report}
    out["shipped"], out["tuned"] = out.pop("start"), out.pop("trained")
    for epoch, point in enumerate(report["curve"]):
        print(f"epoch {epoch + 1}: train {point['train_loss']:.4f}, held-out {point['heldout_loss']:.4f}")
    held = games % args.held_every == 0
    held_rows, held_y = rows[held], y[held]
    held_x = training.featurize(held_rows)
    hand_held = training.hand_values(held_rows)

    def score(name: str, p: np.ndarray) -> None:
        out[name] = {"log_loss": training.log_loss(p, held_y), "accuracy": training.accuracy(p, held_y)}

    for path in args.also:
        score(path.name, training.predict(GeisterValue.load(path), held_x))
    score("blend_hand_shipped", (hand_held + training.predict(shipped(), held_x)) / 2)
    score("blend_hand_tuned", (hand_held + training.predict(tuned, held_x)) / 2)
    for name, scores in out.items():
        if isinstance(scores, dict) and "log_loss" in scores:
            print(f"{name:20s} {scores}")
    if args.save:
        tuned.save(args.save)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
