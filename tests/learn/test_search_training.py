"""Training the value further on the search's own games: the positions (`learn/geister/positions.py`), the fit
(`value_training.fine_tune`) and `ghostgames train geister-search`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ghostgames.bots.geister.value import GeisterValue
from ghostgames.cli import app
from ghostgames.games.geister import fast
from ghostgames.learn.geister import value_training
from ghostgames.learn.geister.positions import Part, Positions, game_rows, parse_parts, schedule
from ghostgames.tournament.runner import TournamentSpec, play_game

TINY = [Part("expert:12", 3), Part("rules", 3)]


def test_parts_are_read_from_text_and_numbered_on() -> None:
    parts = parse_parts("expert:4000=2, rules=3")
    assert parts == [Part("expert:4000", 2), Part("rules", 3)]
    expert, rules = ("expert:4000", "expert:4000"), ("rules", "rules")
    assert schedule(parts) == [(expert, 0), (expert, 1), (rules, 2), (rules, 3), (rules, 4)]
    (pair,) = parse_parts("expert:1000+runner=2")  # the search against a sparring partner
    assert pair == Part("expert:1000", 2, "runner") and str(pair) == "expert:1000+runner=2"
    assert schedule([pair]) == [(("expert:1000", "runner"), 0), (("expert:1000", "runner"), 1)]
    for bad in ("expert:4000", "rules=0", "rules=x", "=3", "", "+runner=3", "a+b+c=3"):
        with pytest.raises(ValueError, match="BOT=GAMES"):
            parse_parts(bad)


def test_a_games_positions_are_its_states_after_the_setups_with_seat_0s_result() -> None:
    for index in (0, 1):
        rows, result = game_rows("rules", 7, index)
        options = {"exit": "escape" if index % 2 == 0 else "reach", "max_plies": 300}
        record = play_game(TournamentSpec("geister", ("rules", "rules"), 2, 2, None, 7, options), index)
        assert len(rows) == record.actions - 2  # every move, not the two setups
        assert result == {"win": 1.0, "draw": 0.5, "loss": 0.0}[record.results[0]["result"]]
        assert list(rows[:, fast.PLY]) == list(range(len(rows)))
        assert set(rows[:, fast.ESCAPE_RULE].tolist()) == {1 if index % 2 == 0 else 0}
        assert (rows[:, fast.GOOD : fast.GOOD + 16] >= 0).all()  # both setups made: every colour known


def test_positions_repeat_from_the_seed_in_one_process_or_two() -> None:
    one = Positions.collect(TINY, seed=3)
    two = Positions.collect(TINY, seed=3, workers=2)
    for a, b in ((one.rows, two.rows), (one.results, two.results), (one.games, two.games)):
        assert np.array_equal(a, b)
    assert sorted(set(one.games.tolist())) == list(range(6))
    assert not np.array_equal(one.rows, Positions.collect(TINY, seed=4).rows)


def test_fine_tune_holds_whole_games_out_and_leaves_the_start_alone() -> None:
    data = Positions.collect(TINY, seed=3)
    start = GeisterValue.load()
    before = [a.copy() for a in start.arrays]
    model, report = value_training.fine_tune(start, data.rows, data.results, data.games,
                                       value_training.FineTuneSpec(held_every=3, epochs=1))
    held = data.games % 3 == 0
    assert report["held_positions"] == int(held.sum()) and report["train_positions"] == int((~held).sum())
    assert all(np.array_equal(a, b) for a, b in zip(before, start.arrays, strict=True))
    assert not np.array_equal(model.linear, start.linear)
    held_y = data.results[held]
    p = value_training.predict(model, value_training.featurize(data.rows[held]))
    assert report["trained"]["log_loss"] == pytest.approx(value_training.log_loss(p, held_y))


def test_the_command_writes_weights_and_setups_repeats_from_its_seed_and_reuses_its_data(tmp_path: Path) -> None:
    def run(name: str, *more: str) -> str:
        result = CliRunner().invoke(app, [
            "train", "geister-search", "--games", "expert:12=3,rules=3", "--seed", "2", "--held-every", "3",
            "--epochs", "1", "--out", str(tmp_path / f"{name}.npz"), "--json", str(tmp_path / f"{name}.json"),
            *more,
        ])
        assert result.exit_code == 0, result.output
        return result.output

    run("a", "--data", str(tmp_path / "games.npz"))
    assert "read the positions" in run("b", "--data", str(tmp_path / "games.npz"))
    run("c")
    first, again, fresh = (GeisterValue.load(tmp_path / f"{n}.npz") for n in "abc")
    for a, b, c in zip(first.arrays, again.arrays, fresh.arrays, strict=True):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    report = json.loads((tmp_path / "a.json").read_text())
    assert report["recipe"] == "expert:12=3,rules=3 seed 2"
    for rule in ("escape", "reach"):
        assert len(report["setups"][rule]["best"]) == 17 and report["setups"][rule]["predicted_gain"] > 0


def test_the_command_says_what_a_recipe_should_look_like(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "geister-search", "--games", "expert:400", "--out",
                                      str(tmp_path / "w.npz")])
    assert result.exit_code != 0 and "BOT=GAMES" in result.output
    result = CliRunner().invoke(app, ["train", "geister-search", "--games", "nobody=3", "--out",
                                      str(tmp_path / "w.npz")])
    assert result.exit_code != 0 and "nobody" in result.output
