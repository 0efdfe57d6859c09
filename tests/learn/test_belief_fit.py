"""Fitting the belief's weights (`learn/geister/belief_fit.py`) and `ghostgames train geister-belief`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ghostgames.bots.geister import belief
from ghostgames.cli import app


def test_the_packaged_weights_are_the_models_sets() -> None:
    held = json.loads((Path(belief.__file__).parent / belief.WEIGHTS_FILE).read_text())
    assert held["features"] == list(belief.FEATURES)
    assert [m.weights for m in belief.MODELS] == [held["weights"][k] for k in ("runner", "simple", "search")]
    assert [m.weights for m in belief.LEARNED_MODELS] == [held["weights"][k]
                                                          for k in ("runner", "learned", "simple", "search")]
    assert sum(m.share for m in belief.LEARNED_MODELS) == pytest.approx(1.0)


def test_train_geister_belief_writes_weights_the_belief_reads_and_repeats_from_its_seed(tmp_path: Path) -> None:
    """A tiny run: the file holds one weight set per kind of player, loads as the packaged one does, tells
    the held-out scores, and the same seed gives the same weights."""
    args = ["train", "geister-belief", "--games", "40", "--search-games", "4", "--search-iterations", "30",
            "--runner-games", "8", "--runner-iterations", "30", "--seed", "3"]
    runner = CliRunner()
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a.json"), "--json", str(tmp_path / "report.json")])
    assert first.exit_code == 0, first.output
    weights = belief.load_weights(tmp_path / "a.json")
    assert set(weights) == {"simple", "search", "runner", "learned"}
    assert all(list(w) == list(belief.FEATURES) for w in weights.values())
    assert weights["simple"] != weights["search"]
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report["held_out"]["simple"]) >= {"uniform", "simple shipped", "fitted here", "ghosts"}
    assert report["pairs"]["search"][0] == ["expert:30", "expert-v1:1"]
    assert ["runner", "expert:30"] in report["pairs"]["runners"]
    # the learned-runner model is scored on each runner-style bot apart, and their repeat rates are told
    assert {"learned, against runner", "learned, against rush"} <= set(report["held_out"])
    assert set(report["repeats"]) == {"runner", "rush"} and all(0 <= r <= 1 for r in report["repeats"].values())
    again = runner.invoke(app, [*args, "--workers", "2", "--out", str(tmp_path / "b.json")])
    assert again.exit_code == 0, again.output
    assert belief.load_weights(tmp_path / "b.json") == weights
    bad = runner.invoke(app, ["train", "geister-belief", "--out", str(tmp_path / "w.npz")])
    assert bad.exit_code != 0 and ".json" in bad.output
