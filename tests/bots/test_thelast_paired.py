"""benchmarks/thelast_paired.py: the paired difference of two bots is the mean of their per-game differences,
a bot with two seats counts with the mean of its seats, and a game without one of them is left out."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def paired() -> ModuleType:
    spec = importlib.util.spec_from_file_location("thelast_paired", ROOT / "benchmarks" / "thelast_paired.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(seats: list[str], scores: list[float]) -> dict[str, object]:
    return {"seats": seats, "results": [{"score": s, "rank": 0, "result": "loss"} for s in scores]}


def test_paired_differences_average_per_game_and_seats_of_one_bot(tmp_path: Path) -> None:
    games = [
        _game(["a", "b", "c"], [2.0, 10.0, 5.0]),
        _game(["b", "c", "a"], [4.0, 1.0, 6.0]),
        _game(["a", "b", "a"], [1.0, 3.0, 5.0]),  # a sits twice: its mean, 3.0
        _game(["c", "b", "c"], [0.0, 7.0, 2.0]),  # no a: left out of a's pairs
    ]
    file = tmp_path / "games.json"
    file.write_text(json.dumps({"games": games}))
    out = paired().figures(json.loads(file.read_text())["games"])
    by_pair = {(p["first"], p["second"]): p for p in out["paired"]}
    ab = by_pair[("a", "b")]
    assert ab["games"] == 3
    assert ab["difference"][0] == pytest.approx(((2 - 10) + (6 - 4) + (3 - 3)) / 3)
    assert ab["difference"][1] < ab["difference"][0] < ab["difference"][2]
    assert by_pair[("b", "c")]["games"] == 3  # the third game has no c
    assert out["bots"]["a"]["seat_games"] == 4
    assert out["bots"]["a"]["penalty"][0] == pytest.approx((2 + 6 + 1 + 5) / 4)
