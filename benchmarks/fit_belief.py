"""Fit the Geister belief's feature weights (ghostgames.bots.geister.belief.WEIGHTS) on games between our bots.

    .venv/bin/python benchmarks/fit_belief.py --games 3000 --seed 1 --out benchmarks/results/belief-fit.json

Games between rules, charge, defender and expert-v1 (a small iteration budget), seats and exit rules
mixed, are played to the end; every few plies each seat's view gives the public features of the enemy's
hidden ghosts, and the true colours (read from the state, here only, to label the data) are recorded.
The weights maximise the conditional likelihood of the true colouring among those still possible
(a conditional logit, L2-regularised, plain gradient ascent with numpy). The last quarter of the games is
held out: the table compares the per-ghost log-loss and accuracy of the fitted belief with the uniform
belief (every possible colouring equally likely) there, and the WEIGHTS lines to paste are printed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.belief import FEATURES, certainly_bad, features
from ghostgames.bots.geister.picture import read
from ghostgames.games import get_game
from ghostgames.rules.chance import derive_rng

PAIRS = [
    ("rules", "charge"), ("rules", "defender"), ("charge", "defender"), ("rules", "rules"),
    ("charge", "charge"), ("defender", "defender"), ("expert-v1:40", "rules"), ("expert-v1:40", "charge"),
    ("expert-v1:40", "defender"), ("expert-v1:40", "expert-v1:40"),
]  # fmt: skip
EVERY = 3  # plies between snapshots


Snapshot = dict[str, Any]  # x: features per candidate, good: labels, goods: how many are good


def play(index: int, seed: int) -> list[Snapshot]:
    """One game; the snapshots of both seats along it."""
    bots = PAIRS[index % len(PAIRS)]
    if index // len(PAIRS) % 2:
        bots = (bots[1], bots[0])
    options = {"exit": "reach"} if index % 3 == 2 else {"exit": "escape", "max_plies": 300}
    options["max_plies"] = 300
    rng = derive_rng(seed, "fit-belief", index)
    state = get_game("geister").new(2, options, seed=rng.randrange(2**63))
    players = [get_bot(name) for name in bots]
    snapshots: list[Snapshot] = []
    while state.to_act():
        seat = min(state.to_act())
        if state.ply % EVERY == 0 and not state.setup_phase():  # type: ignore[attr-defined]
            for observer in (0, 1):
                snapshots.extend(snapshot(state, observer, index))
        state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**63))))
    return snapshots


def snapshot(state: Any, observer: int, index: int) -> list[Snapshot]:
    view = state.view(observer)
    picture = read(view)
    feats = features(picture, list(view["moves"]))
    hidden = sorted(feats)
    candidates = [g for g in hidden if not certainly_bad(picture, g)]
    goods = sum(1 for g in candidates if state.good[g])
    if not candidates or goods in (0, len(candidates)):
        return []  # nothing left to guess
    return [{
        "game": index,
        "x": [feats[g] for g in candidates],
        "good": [bool(state.good[g]) for g in candidates],
        "goods": goods,
    }]


def groups(snaps: list[Snapshot]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Snapshots batched by (candidates, goods): X (G, n, F), the colourings M (m, n), the true one (G,)."""
    by_shape: dict[tuple[int, int], list[Snapshot]] = {}
    for s in snaps:
        by_shape.setdefault((len(s["x"]), s["goods"]), []).append(s)
    out = []
    for (n, k), batch in by_shape.items():
        subsets = list(combinations(range(n), k))
        index = {frozenset(c): i for i, c in enumerate(subsets)}
        m = np.zeros((len(subsets), n))
        for i, c in enumerate(subsets):
            m[i, list(c)] = 1.0
        x = np.array([s["x"] for s in batch], dtype=float)
        true = np.array([index[frozenset(j for j, good in enumerate(s["good"]) if good)] for s in batch])
        out.append((x, m, true))
    return out


def log_likelihood(theta: np.ndarray, batches: list[Any], l2: float) -> tuple[float, np.ndarray, int]:
    total, grad, count = 0.0, np.zeros_like(theta), 0
    for x, m, true in batches:
        scores = x @ theta  # (G, n)
        logits = scores @ m.T  # (G, m)
        top = logits.max(axis=1, keepdims=True)
        p = np.exp(logits - top)
        z = p.sum(axis=1, keepdims=True)
        p /= z
        rows = np.arange(len(true))
        total += float((logits[rows, true] - top[:, 0] - np.log(z[:, 0])).sum())
        chosen = m[true] - p @ m  # (G, n): observed minus expected "is good"
        grad += np.einsum("gn,gnf->f", chosen, x)
        count += len(true)
    return total - l2 * float(theta @ theta) * count, grad - 2 * l2 * theta * count, count


def fit(batches: list[Any], l2: float, steps: int = 800) -> np.ndarray:
    """Adam on the mean conditional log-likelihood."""
    theta = np.zeros(len(FEATURES))
    mom, var = np.zeros_like(theta), np.zeros_like(theta)
    for t in range(1, steps + 1):
        _, grad, count = log_likelihood(theta, batches, l2)
        g = grad / count
        mom = 0.9 * mom + 0.1 * g
        var = 0.999 * var + 0.001 * g * g
        theta += 0.05 * (mom / (1 - 0.9**t)) / (np.sqrt(var / (1 - 0.999**t)) + 1e-8)
    return theta


def marginal_scores(snaps: list[Snapshot], theta: np.ndarray | None) -> tuple[float, float, int]:
    """Per-ghost log-loss and accuracy of the belief's marginals (theta None: the uniform belief)."""
    loss, right, count = 0.0, 0, 0
    for s in snaps:
        x = np.array(s["x"])
        n, k = len(s["good"]), s["goods"]
        subsets = list(combinations(range(n), k))
        m = np.zeros((len(subsets), n))
        for i, c in enumerate(subsets):
            m[i, list(c)] = 1.0
        scores = x @ theta if theta is not None else np.zeros(n)
        logits = m @ scores
        p = np.exp(logits - logits.max())
        p /= p.sum()
        marginal = np.clip(p @ m, 1e-6, 1 - 1e-6)
        for q, good in zip(marginal, s["good"], strict=True):
            loss -= math.log(q if good else 1 - q)
            right += int((q > 0.5) == good) if abs(q - 0.5) > 1e-9 else 0
            count += 1
    return loss / count, right / count, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/belief-fit.json"))
    args = parser.parse_args()
    start = time.perf_counter()
    snaps: list[Snapshot] = []
    for index in range(args.games):
        snaps.extend(play(index, args.seed))
        if (index + 1) % 100 == 0:
            print(f"{index + 1} games, {len(snaps)} snapshots, {time.perf_counter() - start:.0f} s", flush=True)
    cut = args.games * 3 // 4
    train = [s for s in snaps if s["game"] < cut]
    test = [s for s in snaps if s["game"] >= cut]
    theta = fit(groups(train), args.l2)
    fitted = marginal_scores(test, theta)
    uniform = marginal_scores(test, None)
    print(f"held out: {fitted[2]} ghost-snapshots from {args.games - cut} games")
    print(f"{'belief':10} {'log-loss':>9} {'accuracy':>9}")
    print(f"{'uniform':10} {uniform[0]:9.4f} {uniform[1]:9.3f}")
    print(f"{'fitted':10} {fitted[0]:9.4f} {fitted[1]:9.3f}")
    print("WEIGHTS = {")
    for name, value in zip(FEATURES, theta, strict=True):
        print(f'    "{name}": {value:.3f},')
    print("}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "games": args.games, "seed": args.seed, "l2": args.l2, "pairs": PAIRS, "every": EVERY,
        "train_snapshots": len(train), "test_snapshots": len(test),
        "weights": dict(zip(FEATURES, (round(float(v), 4) for v in theta), strict=True)),
        "held_out": {"uniform": {"log_loss": uniform[0], "accuracy": uniform[1]},
                     "fitted": {"log_loss": fitted[0], "accuracy": fitted[1]}, "ghosts": fitted[2]},
        "seconds": round(time.perf_counter() - start, 1),
    }, indent=1))


if __name__ == "__main__":
    main()
