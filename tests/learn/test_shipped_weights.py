"""The shipped weights and the commands that make them (bots/geister/weights.json): the manifest names every
weight file of the folder with its hash, each `ghostgames train` command repeats its bytes from its seed
whatever the worker count and gives other bytes for another seed, and (`-m slow`) each manifest command run
at its full size writes the shipped file again."""

from __future__ import annotations

import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import ghostgames.bots.geister
from ghostgames.cli import app

FOLDER = Path(ghostgames.bots.geister.__file__).parent
MANIFEST: list[dict[str, Any]] = json.loads((FOLDER / "weights.json").read_text())["weights"]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_manifest_names_every_shipped_weight_file_with_its_hash() -> None:
    shipped = {p.name for p in FOLDER.iterdir() if "weights" in p.name and p.name != "weights.json"}
    assert {entry["file"] for entry in MANIFEST} == shipped
    for entry in MANIFEST:
        assert sha256(FOLDER / entry["file"]) == entry["sha256"], f"{entry['file']} is not what the manifest says"
        words = shlex.split(entry["command"])
        assert words[:2] == ["ghostgames", "train"] and "--out" not in words
        assert words[words.index("--seed") + 1] == str(entry["seed"])


# Each command at a tiny size (a few games, a short fit): what the full commands do, in seconds.
TINY = {
    "geister": ["--games", "200", "--checkpoints", "1", "--eval-games", "1", "--hidden", "4",
                "--compare-games", "0"],
    "geister-search": ["--games", "rules=3,expert-hand:20=2", "--epochs", "1", "--held-every", "2"],
    "geister-playout": ["--games", "expert-hand:30=4", "--held-every", "2"],
    "geister-info": ["--games", "expert:20+runner=3,expert:20=2", "--hidden", "4", "--held-every", "2"],
    "geister-belief": ["--games", "40", "--search-games", "4", "--search-iterations", "20", "--runner-games", "8",
                       "--runner-iterations", "20"],
}
SUFFIX = {"geister-belief": ".json"}


@pytest.mark.parametrize("command", sorted(TINY))
def test_a_train_command_writes_the_same_bytes_for_its_seed_with_any_worker_count(command: str,
                                                                                   tmp_path: Path) -> None:
    def run(seed: int, workers: int) -> str:
        out = tmp_path / f"{seed}-{workers}{SUFFIX.get(command, '.npz')}"
        result = CliRunner().invoke(app, ["train", command, *TINY[command], "--seed", str(seed),
                                          "--workers", str(workers), "--out", str(out)])
        assert result.exit_code == 0, result.output
        return sha256(out)

    first = run(5, 1)
    assert run(5, 2) == first
    assert run(6, 1) != first


@pytest.mark.slow
@pytest.mark.parametrize("entry", MANIFEST, ids=[entry["file"] for entry in MANIFEST])
def test_the_manifest_command_writes_the_shipped_file_again(entry: dict[str, Any], tmp_path: Path) -> None:
    """Each takes from a few minutes to over an hour on two workers (geister-belief: 70 min at load 10)."""
    out = tmp_path / entry["file"]
    result = CliRunner().invoke(app, [*shlex.split(entry["command"])[1:], "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sha256(out) == entry["sha256"]
