"""benchmarks/finish_scale.py: the Plackett-Luce fit finds the scale that made the orders, its file of rounds
keeps only what a round's order says, and one real small match gives positions whose rounds fit."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from finish_scale import collect, fit, fit_beta, log_likelihood, rounds_of  # noqa: E402

from ghostgames.tournament.runner import TournamentSpec  # noqa: E402


def _orders(scale: float, count: int, rng: random.Random) -> list[list[int]]:
    """Cards left of 2-5 seats, listed in an order drawn by Plackett-Luce at `scale`."""
    out = []
    for _ in range(count):
        cards = [rng.randint(0, 14) for _ in range(rng.randint(2, 5))]
        order: list[int] = []
        while cards:
            weights = [math.exp(-c / scale) for c in cards]
            pick = rng.random() * sum(weights)
            k = 0
            while pick > weights[k]:
                pick -= weights[k]
                k += 1
            order.append(cards.pop(k))
        out.append(order)
    return out


def test_the_fit_recovers_the_scale_that_drew_the_orders() -> None:
    rng = random.Random(3)
    for scale in (3.0, 10.0):
        orders = _orders(scale, 3000, rng)
        assert 1 / fit_beta(orders) == pytest.approx(scale, rel=0.15)
        assert log_likelihood(orders, 1 / scale) > log_likelihood(orders, 1 / (3 * scale))


def test_positions_of_a_real_match_fit(tmp_path: Path) -> None:
    spec = TournamentSpec("ghooost", ("rules", "rules", "random"), 1, 3, None, 4, {"match": True})
    line = collect(spec, 0)
    assert line["snaps"] and all(len(snap["cards"]) == 3 for snap in line["snaps"])
    path = tmp_path / "positions.jsonl"
    path.write_text(json.dumps(line) + "\n")
    rounds = rounds_of([path])
    decided = [order for order in line["orders"] if order is not None]
    assert len(rounds) <= len(decided) and rounds
    for (_, _, number), positions in rounds.items():
        assert line["orders"][number] is not None and all(len(cards) >= 2 for cards in positions)
    result = fit([path], 20, 1)
    assert result["rounds"] == len(rounds) and result["scale"] > 0
    assert result["interval"][0] <= result["interval"][1]
