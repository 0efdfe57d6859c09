"""`--backend ray` on a real two-node cluster on loopback: the same games and statistics as the local
backend, the same training data and weights, a node killed mid-run loses no game and counts none twice, and
`--resume` continues a run whose driver was killed without playing its finished games again."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ghostgames.tournament import TournamentSpec, run_tournament, summarize

pytest.importorskip("ray")

from tests.distributed.conftest import LoopbackCluster

BOTS = ("expert:200", "rules")
OPTIONS = {"exit": "escape", "max_plies": 300}


def spec(games: int) -> TournamentSpec:
    return TournamentSpec("geister", BOTS, games, 2, None, 5, OPTIONS)


def comparable_games(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game without its thinking times (wall-clock, never the same twice)."""
    return [{k: v for k, v in game.items() if k != "think_seconds"} for game in games]


def comparable_stats(stats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in s.items() if k != "seconds_per_move"} for s in stats]


def local(games: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    results = run_tournament(spec(games))
    return ([g.to_json() for g in results], [s.to_json() for s in summarize(BOTS, results)])


def command(cluster: LoopbackCluster, games: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "ghostgames", "tournament", "--game", "geister", "--bots", ",".join(BOTS),
            "--games", str(games), "--seed", "5", "--backend", "ray", "--address", cluster.address, *extra]


def run(cluster: LoopbackCluster, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, env=cluster.env, cwd=cwd, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for_games(path: Path, count: int, process: subprocess.Popen[str], seconds: float = 240) -> int:
    """Wait until the results file holds `count` games (the driver still running); how many it holds."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        held = len(lines(path)) - 1 if path.exists() else 0
        if held >= count:
            return held
        assert process.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.2)
    raise AssertionError(f"{path} did not reach {count} games in {seconds} s")


def test_a_tournament_on_ray_plays_exactly_the_local_games(ray_cluster: LoopbackCluster, tmp_path: Path) -> None:
    out = tmp_path / "ray.json"
    run(ray_cluster, command(ray_cluster, 8, "--json", str(out), "--results", str(tmp_path / "r.jsonl")), tmp_path)
    on_ray = json.loads(out.read_text())
    games, stats = local(8)
    assert on_ray["backend"] == "ray" and on_ray["nodes"] == 2  # both nodes played
    assert comparable_games(on_ray["games"]) == comparable_games(games)
    assert comparable_stats(on_ray["stats"]) == comparable_stats(stats)
    streamed = lines(tmp_path / "r.jsonl")
    assert streamed[0]["spec"] == spec(8).to_json()
    assert sorted(comparable_games(streamed[1:]), key=lambda g: g["index"]) == comparable_games(games)


def train_on_both(cluster: LoopbackCluster, tmp_path: Path, args: list[str], files: dict[str, str]) -> None:
    """Run `ghostgames train ...` on Ray and locally (2 processes); every array of each file is the same."""
    for name, backend in (("ray", ["--backend", "ray", "--address", cluster.address]), ("local", ["--workers", "2"])):
        named = [str(tmp_path / f"{name}-{a}") if a in files.values() else a for a in args]
        run(cluster, [sys.executable, "-m", "ghostgames", "train", *named, *backend], tmp_path)
    for file in files.values():
        with np.load(tmp_path / f"ray-{file}") as a, np.load(tmp_path / f"local-{file}") as b:
            assert sorted(a.files) == sorted(b.files)
            for key in a.files:
                assert np.array_equal(a[key], b[key]), (file, key)


def test_training_on_ray_gives_the_local_data_and_weights(ray_cluster: LoopbackCluster, tmp_path: Path) -> None:
    """The search's games (positions by game number), hence the playout policy fitted to them."""
    train_on_both(ray_cluster, tmp_path, ["geister-playout", "--games", "rules=6", "--seed", "3", "--data", "data.npz",
                                          "--out", "playout.npz"], {"data": "data.npz", "out": "playout.npz"})


@pytest.mark.slow
def test_self_play_training_on_ray_gives_the_local_weights(ray_cluster: LoopbackCluster, tmp_path: Path) -> None:
    """`train geister`: rollout tasks by chunk number and checkpoint games by game number, on the nodes."""
    train_on_both(ray_cluster, tmp_path, ["geister", "--games", "600", "--seed", "3", "--checkpoints", "2",
                                          "--eval-games", "2", "--opponents", "rules", "--hidden", "4",
                                          "--compare-games", "0", "--out", "value.npz"], {"out": "value.npz"})


def test_resume_after_the_driver_is_killed_plays_only_the_missing_games(ray_cluster: LoopbackCluster,
                                                                         tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    driver = subprocess.Popen(command(ray_cluster, 12, "--results", str(results)), env=ray_cluster.env,
                              cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        wait_for_games(results, 2, driver)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait()
    before = lines(results)[1:]
    kept = {game["index"] for game in before}
    assert 2 <= len(kept) < 12
    out = tmp_path / "all.json"
    done = run(ray_cluster, command(ray_cluster, 12, "--resume", str(results), "--json", str(out)), tmp_path)
    assert f"{len(kept)} games already played" in done.stdout
    after = lines(results)[1:]
    assert after[: len(before)] == before  # the finished games were kept as they were
    added = [game["index"] for game in after[len(before):]]
    assert sorted(added) == sorted(set(range(12)) - kept)  # only the others were played, each once
    games, stats = local(12)
    whole = json.loads(out.read_text())
    assert comparable_games(whole["games"]) == comparable_games(games)
    assert comparable_stats(whole["stats"]) == comparable_stats(stats)


def test_a_node_killed_mid_run_loses_no_game_and_counts_none_twice(ray_cluster: LoopbackCluster,
                                                                   tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    out = tmp_path / "run.json"
    driver = subprocess.Popen(command(ray_cluster, 16, "--results", str(results), "--json", str(out)),
                              env=ray_cluster.env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        held = wait_for_games(results, 3, driver)
        ray_cluster.kill_second_node()
        stdout, stderr = driver.communicate(timeout=400)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        ray_cluster.add_second_node()  # for any test after this one
    assert driver.returncode == 0, stdout[-3000:] + stderr[-3000:]
    assert held < 16  # the node died mid-run
    streamed = [game["index"] for game in lines(results)[1:]]
    assert sorted(streamed) == list(range(16))  # every game once
    games, stats = local(16)
    whole = json.loads(out.read_text())
    assert comparable_games(whole["games"]) == comparable_games(games)
    assert comparable_stats(whole["stats"]) == comparable_stats(stats)
    assert sum(s["seats"] for s in whole["stats"]) == 32


def test_a_bot_given_by_import_path_is_shipped_to_the_nodes(ray_cluster: LoopbackCluster, tmp_path: Path) -> None:
    """The nodes were started without the plug-in's folder on their path: the command ships its package."""
    from tests import plugin_package

    folder = plugin_package.build(tmp_path / "site")
    env = {**ray_cluster.env, "PYTHONPATH": f"{folder}:{ray_cluster.env['PYTHONPATH']}"}
    out = tmp_path / "t.json"
    args = [sys.executable, "-m", "ghostgames", "tournament", "--game", "thelast", "--bots", "firstplug:make,random",
            "--games", "4", "--backend", "ray", "--address", ray_cluster.address, "--json", str(out)]
    done = subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads(out.read_text())
    assert [s["seats"] for s in data["stats"]] == [4, 4]
    assert data["nodes"] >= 1
