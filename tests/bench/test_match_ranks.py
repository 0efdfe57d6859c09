"""benchmarks/match_ranks.py and match_rounds.py on a real (small) Ghooost! match tournament: the mean ranks
and paired differences are the games' own, a bot that won everything gets an interval from its wins, and
the round history adds up to the match's points and Bouh!."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from match_ranks import bot_rows, mean_interval, paired_against, paired_within  # noqa: E402
from match_rounds import match_rounds  # noqa: E402

from ghostgames.tournament.runner import TournamentSpec  # noqa: E402


def _tournament(out: Path, bots: str, games: int) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-m", "ghostgames", "tournament", "--game", "ghooost", "--players", "3",
                           "--bots", bots, "--games", str(games), "--seed", "2", "--option", "match=on",
                           "--option", "max_turns=300", "--json", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(out.read_text())
    return data


def test_ranks_and_pairs_are_the_games_own(tmp_path: Path) -> None:
    data = _tournament(tmp_path / "a.json", "rules,random", 4)
    games = data["games"]
    assert isinstance(games, list)
    rows = {row["bot"]: row for row in bot_rows(data)}
    for name in ("rules", "random"):
        ranks = [r["rank"] for g in games for s, r in zip(g["seats"], g["results"], strict=True) if s == name]
        assert rows[name]["mean_rank"] == pytest.approx(sum(ranks) / len(ranks))
        assert rows[name]["rank_low"] <= rows[name]["mean_rank"] <= rows[name]["rank_high"]
        assert rows[name]["seat_games"] == len(ranks)
    (pair,) = paired_within(data)
    best = [(min(r["rank"] for s, r in zip(g["seats"], g["results"], strict=True) if s == "rules"),
             min(r["rank"] for s, r in zip(g["seats"], g["results"], strict=True) if s == "random")) for g in games]
    assert pair["mean_difference"] == pytest.approx(sum(a - b for a, b in best) / len(best))
    assert pair["better"] == sum(a < b for a, b in best) and pair["worse"] == sum(a > b for a, b in best)
    itself = paired_against(data, data)
    assert itself["games"] == 4 and itself["mean_difference"] == 0.0


def test_a_bot_that_won_every_match_is_bounded_by_its_wins() -> None:
    games = [{"index": i, "seed": i, "seats": ["a", "b", "c"],
              "results": [{"rank": 1, "result": "win"}, {"rank": 2, "result": "loss"}, {"rank": 3, "result": "loss"}]}
             for i in range(18)]
    a, b, c = bot_rows({"spec": {"bots": ["a", "b", "c"], "players": 3}, "games": games})
    assert a["mean_rank"] == 1.0 and a["won"] == 18
    assert a["rank_low"] == 1.0 and a["rank_high"] == pytest.approx(1 + 2 * (1 - a["won_low"]))
    assert a["rank_high"] < 1.4
    assert b["rank_low"] == b["rank_high"] == 2.0  # no spread, neither first nor last: the mean is all there is
    assert c["mean_rank"] == c["rank_high"] == 3.0  # last in every match: bounded below by that share
    assert c["rank_low"] == pytest.approx(3 - 2 * (1 - a["won_low"])) and c["rank_low"] > 2.6
    assert mean_interval([1.0, 3.0]) == pytest.approx((2.0, 0.04, 3.96), abs=1e-3)  # standard error 1


def test_the_rounds_add_up_to_the_match() -> None:
    """Each decided round puts two players out and scores 2 + 3 points (3 players), the loser none; the rounds'
    points are the match's, and its Bouh! are the decided rounds."""
    spec = TournamentSpec("ghooost", ("rules", "random"), 1, 3, None, 4, {"match": True, "max_turns": 300})
    line = match_rounds(spec, 0)
    points = [0] * 3
    for entry in line["rounds"]:
        if entry["loser"] is not None:
            assert len(entry["out"]) == 2 and sorted(entry["points"]) == [0, 2, 3]
        for seat in range(3):
            points[seat] += entry["points"][seat]
    assert points == line["points"]
    assert max(line["bouh"]) >= 2
    assert sum(line["bouh"]) == sum(entry["loser"] is not None for entry in line["rounds"])
