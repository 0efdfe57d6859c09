"""Fitting the learned playout policy (`learn/geister/playout_fit.py`) and `ghostgames train geister-playout`."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from ghostgames.bots.geister import playout_policy as pp
from ghostgames.cli import app
from ghostgames.games.geister import fast
from ghostgames.learn.geister.playout_fit import Decisions
from tests.bots.test_playout_policy import _bits


def _played_game(escape: int, seed: int) -> tuple[list[np.ndarray[Any, Any]], list[int]]:
    """A random game on the core: every position from the first move to the end, and the move made in each."""
    row = np.empty(fast.FIELDS, dtype=np.int32)
    fast.new_game(row, escape, 300, 0, 0)
    fast.random_setups(row, fast.new_rng(seed), 0)
    rng = random.Random(seed)
    legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
    rows, codes = [row.copy()], []
    while row[fast.WINNER] == fast.RUNNING:
        code = int(rng.choice(legal[: fast.legal_moves(row, legal)]))
        fast.apply_move(row, code)
        codes.append(code)
        rows.append(row.copy())
    return rows, codes


@pytest.mark.parametrize("escape", [1, 0], ids=["escape", "reach"])
def test_the_moves_made_are_read_back_from_consecutive_positions(escape: int) -> None:
    """Decisions.from_games finds, for every position without a sure move, the move the game made there
    (recorded as it was played), and keeps each decision's game."""
    table, games, expected = [], [], []
    for seed in (1, 2, 3):
        rows, codes = _played_game(escape, seed)
        table += rows
        games += [seed] * len(rows)
        for row, code in zip(rows, codes, strict=False):
            legal, bits = _bits(row)
            if legal:
                expected.append((bits, legal.index(code), seed))
    decisions = Decisions.from_games(np.array(table, dtype=np.int32), np.array(games, dtype=np.int32))
    got = [(b[b >= 0].tolist(), int(c), int(g))
           for b, c, g in zip(decisions.bits, decisions.chosen, decisions.games, strict=True)]
    assert got == expected and len(got) > 50


def test_the_fit_finds_the_weights_that_made_the_choices() -> None:
    """Choices drawn from a known multinomial logit over random feature sets: the fitted weights are close to
    the true ones, and score the choices better than uniform weights do."""
    rng = np.random.default_rng(1)
    true = rng.uniform(-1.5, 1.5, pp.K)
    count = 6000
    sizes = rng.integers(3, 25, count)
    bits = np.full((count, fast.MAX_MOVES), -1, dtype=np.int32)
    chosen = np.empty(count, dtype=np.int64)
    for d in range(count):
        options = rng.integers(0, 1 << pp.K, sizes[d])
        bits[d, : sizes[d]] = options
        weights = pp.table_of(true)[options]
        chosen[d] = rng.choice(sizes[d], p=weights / weights.sum())
    decisions = Decisions(bits, chosen, np.zeros(count, dtype=np.int32))
    fitted = decisions.fit()
    assert np.max(np.abs(fitted - true)) < 0.15
    assert decisions.log_loss(fitted) < decisions.log_loss(np.zeros(pp.K)) - 0.1


def test_train_geister_playout_fits_the_search_moves(tmp_path: Path) -> None:
    """The command plays the recipe, fits, and reports the held-out log-loss of uniform, hand and learned
    playouts; the same seed gives the same weights, read back from --data or played again."""
    runner = CliRunner()
    args = ["train", "geister-playout", "--games", "expert:60=5", "--seed", "2", "--held-every", "2"]
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a.npz"), "--data", str(tmp_path / "d.npz"),
                                "--json", str(tmp_path / "a.json"), "--plot", str(tmp_path / "curve.png")])
    assert first.exit_code == 0, first.output
    report = json.loads((tmp_path / "a.json").read_text())
    assert set(report["log_loss"]) == {"uniform", "hand playout", "learned"}
    games = [point["games"] for point in report["curve"]]
    assert games == sorted(set(games)) and games[-1] == 3  # 5 games, every second held out: 3 to fit on
    assert report["curve"][-1]["log_loss"] == pytest.approx(report["log_loss"]["learned"])
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
    assert report["held_out"] > 0 and report["decisions"] > report["held_out"]
    assert list(report["weights"]) == list(pp.FEATURES)
    again = runner.invoke(app, [*args, "--out", str(tmp_path / "b.npz"), "--data", str(tmp_path / "d.npz")])
    assert again.exit_code == 0 and "read the positions" in again.output
    fresh = runner.invoke(app, [*args, "--out", str(tmp_path / "c.npz")])
    assert fresh.exit_code == 0
    a, b, c = (pp.PlayoutPolicy.load(tmp_path / f"{x}.npz").weights for x in "abc")
    assert np.array_equal(a, b) and np.array_equal(a, c)
    bad = runner.invoke(app, ["train", "geister-playout", "--games", "nobody=3", "--out", str(tmp_path / "x.npz")])
    assert bad.exit_code != 0 and "nobody" in bad.output
