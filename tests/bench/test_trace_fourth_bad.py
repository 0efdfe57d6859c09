"""benchmarks/trace_fourth_bad.py replays a tournament's games game for game: in every replayed game the bot
lost by taking four bad ghosts, it took exactly four bad ones, the last with one left, and nothing after."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.trace_fourth_bad import captures
from typer.testing import CliRunner

from ghostgames.cli import app
from ghostgames.tournament.runner import TournamentSpec


def test_the_replayed_games_end_as_the_tournament_recorded(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = CliRunner().invoke(app, ["tournament", "--game", "geister", "--bots", "charge,runner-3", "--games", "8",
                                      "--seed", "2", "--option", "exit=escape", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    s = data["spec"]
    spec = TournamentSpec(s["game"], tuple(s["bots"]), s["games"], s["players"], None, s["seed"], s["options"])
    lost = [g for g in data["games"]
            if "four bad" in g["reason"] and g["results"][g["seats"].index("charge")]["result"] == "loss"]
    assert lost, "charge takes all of runner-3's bad ghosts in some of these games"
    for game in data["games"]:
        taken = captures(spec, game["index"])
        bad = [c for c in taken if not c["good"]]
        assert all(0 <= c["to_exit"] <= 10 for c in taken)
        if game in lost:
            assert len(bad) == 4 and taken[-1] == bad[-1] and bad[-1]["bad_left"] == 1
        else:
            assert len(bad) < 4
