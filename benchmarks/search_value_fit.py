"""How well each value predicts the results of games played by the search (search_positions.py's file),
on games held out of any fit: the hand evaluation (as it is and recalibrated), the shipped learned value,
and the shipped value after further training on the other games' positions (written with --save), and
any other weights named with --also (e.g. those trained on other games).

    .venv/bin/python benchmarks/search_value_fit.py search-positions.npz --epochs 2 --rate 0.0005 \\
        --save benchmarks/results/value-search-tuned.npz --json benchmarks/results/search-value-fit.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ghostgames.bots.geister import training
from ghostgames.bots.geister.value import GeisterValue, shipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+", help="search_positions.py files (their games pooled)")
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
    held = games % args.held_every == 0
    train_rows, train_y = rows[~held], y[~held]
    held_rows, held_y = rows[held], y[held]
    held_x = training.featurize(held_rows)
    out: dict[str, object] = {"data": [str(path) for path in args.data], "games": len(set(games.tolist())),
                              "train_positions": len(train_y), "held_positions": len(held_y)}

    def score(name: str, p: np.ndarray) -> None:
        out[name] = {"log_loss": training.log_loss(p, held_y), "accuracy": training.accuracy(p, held_y)}

    hand_held = training.hand_values(held_rows)
    score("hand", hand_held)
    sample = slice(None, None, max(1, len(train_y) // 5000))  # about 5,000 training positions fit the calibration
    calibration = training.calibrate(training.hand_values(train_rows[sample]), train_y[sample])
    score("hand_calibrated", training.apply_calibration(hand_held, calibration))
    model = shipped()
    shipped_held = training.predict(model, held_x)
    score("shipped", shipped_held)
    for path in args.also:
        score(path.name, training.predict(GeisterValue.load(path), held_x))
    score("constant", np.full(len(held_y), float(np.mean(train_y))))
    tuned = GeisterValue(*(a.copy() for a in model.arrays))
    adam = training.Adam(tuned, rate=args.rate)
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        loss = training.fit(adam, train_rows, train_y, 1.0, 256, rng)
        p = training.predict(tuned, held_x)
        print(f"epoch {epoch + 1}: train {loss:.4f}, held-out {training.log_loss(p, held_y):.4f}", flush=True)
    tuned_held = training.predict(tuned, held_x)
    score("tuned", tuned_held)
    score("blend_hand_shipped", (hand_held + shipped_held) / 2)
    score("blend_hand_tuned", (hand_held + tuned_held) / 2)
    for name, scores in out.items():
        if isinstance(scores, dict):
            print(f"{name:20s} {scores}")
    if args.save:
        tuned.save(args.save)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
