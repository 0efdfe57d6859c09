"""Tournaments: the same seed plays the same games whatever the number of worker processes, and the
command prints a table and writes JSON and a PNG."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ghostgames.cli import app
from ghostgames.tournament import TournamentSpec, run_tournament, summarize, wilson_interval
from ghostgames.tournament.seating import cyclic_orders


def _comparable(spec: TournamentSpec, workers: int) -> list[dict[str, Any]]:
    games = [g.to_json() for g in run_tournament(spec, workers)]
    for g in games:
        del g["think_seconds"]  # wall time is the one thing allowed to differ
    return games


def test_the_same_seed_gives_the_same_games_with_one_or_two_workers() -> None:
    spec = TournamentSpec("thelast", ("ismcts:10", "rules", "random"), games=4, players=3, seed=11)
    alone = _comparable(spec, 1)
    assert alone == _comparable(spec, 2)
    assert alone == _comparable(spec, 1)
    assert [g["index"] for g in alone] == [0, 1, 2, 3]


def test_another_seed_gives_other_games() -> None:
    first = _comparable(TournamentSpec("thelast", ("rules", "random"), games=3, players=3, seed=1), 1)
    second = _comparable(TournamentSpec("thelast", ("rules", "random"), games=3, players=3, seed=2), 1)
    assert [g["seed"] for g in first] != [g["seed"] for g in second]


def test_seats_rotate_so_every_bot_plays_every_seat() -> None:
    spec = TournamentSpec("thelast", ("a", "b", "c"), games=3, players=3)
    assert [spec.seating(i) for i in range(3)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    four = TournamentSpec("ghooost", ("x", "y"), games=2, players=4)
    assert four.seating(0) == ["x", "y", "x", "y"] and four.seating(1) == ["y", "x", "y", "x"]


def test_cycled_seatings_turn_every_cyclic_order_in_and_keep_rotations_within_each() -> None:
    spec = TournamentSpec("thelast", ("e", "i", "r", "o"), games=24, players=4, seatings="cycle")
    plain = TournamentSpec("thelast", ("e", "i", "r", "o"), games=24, players=4)
    seats = [spec.seating(i) for i in range(24)]
    assert seats[:4] == [plain.seating(i) for i in range(4)]  # the order named first, rotated as before
    assert sorted(map(tuple, seats)) == sorted(itertools.permutations("eiro"))  # every seating once
    for bot in "eiro":  # so each bot plays right before each other bot in a third of its games
        after = [s[(s.index(bot) + 1) % 4] for s in seats]
        assert sorted(after.count(b) for b in "eiro" if b != bot) == [8, 8, 8]
    assert "seatings" not in plain.to_json() and spec.to_json()["seatings"] == "cycle"
    assert len(cyclic_orders(("e", "x", "y", "o", "o"))) == 12  # a bot named twice: orders that rotate alike are one
    with pytest.raises(ValueError, match="one bot a seat"):
        TournamentSpec("thelast", ("a", "b"), games=3, players=3, seatings="cycle").seating(0)


def test_the_command_plays_cycled_seatings_and_explains_when_they_cannot_be(tmp_path: Path) -> None:
    json_file = tmp_path / "t.json"
    result = CliRunner().invoke(app, ["tournament", "--game", "thelast", "--players", "3", "--bots",
                                      "rules,random,ismcts:5", "--games", "6", "--seatings", "cycle", "--seed", "2",
                                      "--json", str(json_file)])
    assert result.exit_code == 0, result.output
    data = json.loads(json_file.read_text())
    assert data["spec"]["seatings"] == "cycle"
    assert sorted(tuple(g["seats"]) for g in data["games"]) == sorted(
        itertools.permutations(("rules", "random", "ismcts:5")))
    refused = CliRunner().invoke(app, ["tournament", "--game", "thelast", "--players", "3", "--bots", "rules,random",
                                       "--games", "3", "--seatings", "cycle"])
    assert refused.exit_code != 0 and "one bot a seat" in refused.output
    unknown = CliRunner().invoke(app, ["tournament", "--game", "thelast", "--players", "3", "--bots", "rules,random",
                                       "--games", "3", "--seatings", "shuffle"])
    assert unknown.exit_code != 0 and "rotations, cycle" in unknown.output


def test_stats_count_every_seat_game_once() -> None:
    spec = TournamentSpec("thelast", ("rules", "random"), games=4, players=3, seed=5)
    results = run_tournament(spec)
    stats = {s.bot: s for s in summarize(spec.bots, results)}
    assert stats["rules"].seats + stats["random"].seats == 4 * 3
    for s in stats.values():
        assert s.wins + s.draws + s.losses == s.seats
        assert s.win_low <= s.win_rate <= s.win_high
        assert 1 <= s.mean_rank <= 3


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson_interval(100, 100)
    assert round(low, 4) == 0.9630 and high == 1.0


def test_the_command_prints_a_table_and_writes_json_and_png(tmp_path: Path) -> None:
    json_file, png_file = tmp_path / "t.json", tmp_path / "t.png"
    result = CliRunner().invoke(
        app,
        ["tournament", "--game", "thelast", "--players", "3", "--bots", "rules,random", "--games", "3",
         "--workers", "2", "--seed", "4", "--json", str(json_file), "--plot", str(png_file)],
    )
    assert result.exit_code == 0, result.output
    assert "rules" in result.output and "random" in result.output
    data = json.loads(json_file.read_text())
    assert data["spec"]["bots"] == ["rules", "random"] and data["spec"]["seed"] == 4
    assert len(data["games"]) == 3
    assert {s["bot"] for s in data["stats"]} == {"rules", "random"}
    assert png_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_rejects_an_unknown_bot() -> None:
    result = CliRunner().invoke(app, ["tournament", "--game", "geister", "--bots", "rules,nobody", "--games", "1"])
    assert result.exit_code != 0
    assert "nobody" in result.output
