"""benchmarks/belief_across_runners.py keeps one file of snapshots per bot and seed and serves any smaller
count from it: that holds only if game i is the same whatever the number of games played."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.belief_across_runners import cached
from benchmarks.belief_on_runner import runner_snapshots


def test_a_smaller_count_is_served_from_the_kept_games_and_equals_playing_it(tmp_path: Path) -> None:
    kept = cached("runner-3", 2, 5, tmp_path)
    assert {s["game"] for s in kept} == {0, 1} and all(s["enemy"] == "runner-3" for s in kept)
    again = cached("runner-3", 1, 5, tmp_path)
    played = json.loads(json.dumps(runner_snapshots("runner-3", 1, 5)))  # as the file holds them (lists)
    assert again == [s for s in kept if s["game"] == 0] == played
