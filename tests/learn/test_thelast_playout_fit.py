"""`ghostgames train thelast-playout`: writes the weights The Last's learned playout reads, and repeats from its
seed; the packaged weights come from the recipe they record (the full recipe under `-m slow`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ghostgames.bots.thelast import playout_policy
from ghostgames.cli import app


def _weights(path: Path) -> np.ndarray:
    data = json.loads(path.read_text())
    return np.array([data["weights"][name] for name in playout_policy.FEATURES])


def test_train_thelast_playout_writes_weights_the_policy_reads_and_repeats_from_its_seed(tmp_path: Path) -> None:
    args = ["train", "thelast-playout", "--games", "4", "--iterations", "20", "--seed", "5"]
    runner = CliRunner()
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a.json"), "--json", str(tmp_path / "report.json")])
    assert first.exit_code == 0, first.output
    weights = _weights(tmp_path / "a.json")
    assert weights.shape == (playout_policy.K,) and np.any(weights != 0)
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["decisions"] > 0 and report["held_out_log_loss"]["fitted"] > 0
    again = runner.invoke(app, [*args, "--out", str(tmp_path / "b.json")])
    assert again.exit_code == 0, again.output
    assert np.array_equal(_weights(tmp_path / "b.json"), weights)
    bad = runner.invoke(app, ["train", "thelast-playout", "--out", str(tmp_path / "w.npz")])
    assert bad.exit_code != 0 and ".json" in bad.output


@pytest.mark.slow
def test_the_packaged_playout_weights_are_what_their_recipe_fits(tmp_path: Path) -> None:
    recipe = shlex.split(json.loads(playout_policy.WEIGHTS_FILE.read_text())["recipe"])
    assert recipe[:3] == ["ghostgames", "train", "thelast-playout"]
    result = CliRunner().invoke(app, [*recipe[1:], "--out", str(tmp_path / "w.json")])
    assert result.exit_code == 0, result.output
    assert np.allclose(_weights(tmp_path / "w.json"), _weights(playout_policy.WEIGHTS_FILE), atol=1e-3)
