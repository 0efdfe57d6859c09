"""`ghostgames tournament` with an installed plug-in bot and an import path, across worker processes."""

from __future__ import annotations

import json
from pathlib import Path

from tests import plugin_package


def test_tournament_plays_an_entry_point_bot_and_an_import_path_in_workers(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path / "site")
    out = tmp_path / "t.json"
    run = plugin_package.run_python(folder, [
        "-m", "ghostgames", "tournament", "--game", "thelast", "--bots", "firstmove,firstplug:make,random",
        "--games", "6", "--workers", "2", "--json", str(out),
    ])
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads(out.read_text())
    assert [s["bot"] for s in data["stats"]] == ["firstmove", "firstplug:make", "random"]
    assert all(s["seats"] == 4 for s in data["stats"])  # each bot sat in 4 of the 12 seats
    assert {name for game in data["games"] for name in game["seats"]} == {"firstmove", "firstplug:make", "random"}


def test_tournament_refuses_an_unknown_name_and_lists_the_installed_ones(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path / "site")
    run = plugin_package.run_python(folder, ["-m", "ghostgames", "tournament", "--game", "thelast", "--bots",
                                             "nosuchbot,random", "--games", "1"])
    assert run.returncode == 2
    assert "firstmove" in run.stderr and "package.module:factory" in run.stderr
