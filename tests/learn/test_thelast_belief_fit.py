"""`ghostgames train thelast-belief`: writes weights The Last's belief reads, and repeats from its seed; the
packaged weights come from the recipe they record (the full recipe under `-m slow`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ghostgames.bots.thelast import belief
from ghostgames.cli import app


def test_train_thelast_belief_writes_weights_the_belief_reads_and_repeats_from_its_seed(tmp_path: Path) -> None:
    args = ["train", "thelast-belief", "--games", "8", "--iterations", "20", "--seed", "5"]
    runner = CliRunner()
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a.json"), "--json", str(tmp_path / "report.json")])
    assert first.exit_code == 0, first.output
    weights = belief.load_weights(tmp_path / "a.json")
    assert weights.shape == (len(belief.FEATURES),) and np.any(weights != 0)
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["held_out_log_loss"]["fitted"] > 0 and report["rows"]["train"] > 0
    again = runner.invoke(app, [*args, "--out", str(tmp_path / "b.json")])
    assert again.exit_code == 0, again.output
    assert np.array_equal(belief.load_weights(tmp_path / "b.json"), weights)
    bad = runner.invoke(app, ["train", "thelast-belief", "--out", str(tmp_path / "w.npz")])
    assert bad.exit_code != 0 and ".json" in bad.output


@pytest.mark.slow
def test_the_packaged_weights_are_what_their_recipe_fits(tmp_path: Path) -> None:
    packaged = json.loads((Path(belief.__file__).parent / belief.WEIGHTS_FILE).read_text())
    recipe = shlex.split(packaged["recipe"])
    assert recipe[:3] == ["ghostgames", "train", "thelast-belief"]
    result = CliRunner().invoke(app, [*recipe[1:], "--out", str(tmp_path / "w.json")])
    assert result.exit_code == 0, result.output
    assert np.allclose(belief.load_weights(tmp_path / "w.json"), belief.load_weights(), atol=1e-3)
