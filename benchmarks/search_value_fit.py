"""How well each value predicts the results of games played by the search (search_positions.py's file),
on games held out of any fit: the hand evaluation (as it is and recalibrated), the shipped learned value,
and the shipped value after further training on the other games' positions (written with --save).

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
    parser.add_argument("--epochs", type=float, default=4.0)
    parser.add_argument("--rate", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
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
    hand_train = training.hand_values(train_rows[:: max(1, len(train_y) // 5000)])
    score("hand_calibrated", training.apply_calibration(
        hand_held, training.calibrate(hand_train, train_y[:: max(1, len(train_y) // 5000)])))
    model = shipped()
    score("shipped", training.predict(model, held_x))
    score("constant", np.full(len(held_y), float(np.mean(train_y))))
    tuned = GeisterValue(*(a.copy() for a in model.arrays))
    adam = training.Adam(tuned, rate=args.rate)
    rng = np.random.default_rng(args.seed)
    for epoch in range(int(args.epochs)):
        loss = training.fit(adam, train_rows, train_y, 1.0, 256, rng)
        p = training.predict(tuned, held_x)
        print(f"epoch {epoch + 1}: train {loss:.4f}, held-out {training.log_loss(p, held_y):.4f}", flush=True)
    score("tuned", training.predict(tuned, held_x))
    score("blend_hand_shipped", (hand_held + training.predict(model, held_x)) / 2)
    score("blend_hand_tuned", (hand_held + training.predict(tuned, held_x)) / 2)
    for name in ("constant", "hand", "hand_calibrated", "shipped", "tuned", "blend_hand_shipped", "blend_hand_tuned"):
        print(f"{name:20s} {out[name]}")
    if args.save:
        tuned.save(args.save)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
