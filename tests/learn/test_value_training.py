"""Training the learned Geister value (`learn/geister/self_play.py`, `value_training.py`) and its command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from ghostgames.bots.geister.value import FEATURES, GeisterValue
from ghostgames.cli import app
from ghostgames.games.geister import fast
from ghostgames.learn.geister import self_play


def test_the_train_command_writes_weights_curve_and_plot_and_repeats_from_its_seed(tmp_path: Path) -> None:
    def run(name: str) -> GeisterValue:
        result = CliRunner().invoke(app, [
            "train", "geister", "--seed", "4", "--games", "300", "--checkpoints", "2", "--eval-games", "2",
            "--hidden", "4", "--compare-games", "20", "--out", str(tmp_path / f"{name}.npz"),
            "--plot", str(tmp_path / f"{name}.png"), "--json", str(tmp_path / f"{name}.json"),
        ])
        assert result.exit_code == 0, result.output
        return GeisterValue.load(tmp_path / f"{name}.npz")

    first, second = run("a"), run("b")
    assert (tmp_path / "a.png").stat().st_size > 1000
    curve = json.loads((tmp_path / "a.json").read_text())
    assert [p["games"] for p in curve["curve"]] == [0, 150, 300]
    for point in curve["curve"]:
        assert set(point["win_rate"]) == {"random", "charge", "rules"}
        assert all(r["games"] == 2 for r in point["win_rate"].values())
    assert set(curve["comparison"]) >= {"learned", "hand", "hand_calibrated"}
    for a, b in zip(first.arrays, second.arrays, strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(first.linear, np.zeros(FEATURES))


def test_the_train_command_refuses_an_unknown_opponent_and_a_wrong_suffix(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "geister", "--opponents", "rules,nobody", "--out",
                                      str(tmp_path / "w.npz")])
    assert result.exit_code != 0 and "nobody" in result.output
    result = CliRunner().invoke(app, ["train", "geister", "--out", str(tmp_path / "w.json")])
    assert result.exit_code != 0 and ".npz" in result.output


def test_value_guided_self_play_repeats_from_its_seed_and_keeps_real_positions() -> None:
    model = GeisterValue.load()
    rows, y = self_play.positions(12, 3, seed=13, stream="guided", guided=1.0, model=model)
    again, y_again = self_play.positions(12, 3, seed=13, stream="guided", guided=1.0, model=model)
    assert np.array_equal(rows, again) and np.array_equal(y, y_again)
    plain, _ = self_play.positions(12, 3, seed=13, stream="guided")
    assert not np.array_equal(rows, plain)  # the value chose other moves than the playout policy
    assert set(y.tolist()) <= {0.0, 0.5, 1.0}
    for row in rows:
        assert row[fast.WINNER] == fast.RUNNING
        on_board = [g for g in range(16) if row[fast.POS + g] >= 0]
        assert all(row[fast.BOARD + row[fast.POS + g]] == g for g in on_board)


def test_self_play_gives_the_same_positions_with_one_or_two_rollout_workers() -> None:
    """Each chunk of games is a rollout task with its own stream, so the learner gets the same data however
    many workers (processes here, or Ray nodes: tests/distributed) play the chunks."""
    from ghostgames.executor import LocalExecutor

    games = self_play.CHUNK + 30  # two chunks, the second short
    alone = self_play.positions(games, 2, seed=8, stream="workers")
    with LocalExecutor(2) as pool:
        shared = self_play.positions(games, 2, seed=8, stream="workers", executor=pool)
    assert len(alone[0]) > 2 * self_play.CHUNK
    assert np.array_equal(alone[0], shared[0]) and np.array_equal(alone[1], shared[1])
