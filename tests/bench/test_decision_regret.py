"""benchmarks/thelast_decision_regret.py: the oracle's worlds keep every seat's true cards, the belief's weights
decide which worlds a search draws, every measured decision is the observer's with a choice, and the report's share
is (U - T) / (U - O)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ghostgames[spiel]')")

from benchmarks import openspiel_cards as bench
from benchmarks import thelast_decision_regret as regret
from benchmarks.thelast_belief_calibration import Game, positions

from ghostgames.bots.fast_tree import root_codes
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index


@pytest.fixture(scope="module")
def game() -> Game:
    """A 4-player game of cheap bots, as openspiel_cards.py records it."""
    spiel_game = bench.load("thelast", 4, 0)
    clock = bench.Clock(seconds=None, simulations=3)
    clock.history.append((3, 0.01))
    record = bench.play(spiel_game, ["rules", "ismcts:8", bench.OPENSPIEL, "random"], 0, 410, clock, "random", 2.0)
    return Game(record["seed"], record["seats"], record["actions"])


def test_the_oracles_worlds_hold_every_true_hand_and_pile_and_only_the_points_pile_differs(game: Game) -> None:
    state = positions(game, bench.load("thelast", 4, 0))[12]
    truth = fast.from_state(state)
    rng = random.Random(3)
    rows = [regret.true_row(state, rng) for _ in range(20)]
    size = len(state.points)
    hidden = set(state.points) | set(state.spare)
    for row in rows:
        differs = np.flatnonzero(row != truth)
        assert set(differs) <= {*range(fast.POINTS, fast.POINTS + size), fast.SPARE}
        dealt = {int(c) for c in row[fast.POINTS:fast.POINTS + size]}
        spare = {c for c in range(48) if int(row[fast.SPARE]) >> c & 1}
        assert dealt | spare == hidden and not dealt & spare
    assert len({tuple(row[fast.POINTS:fast.POINTS + size]) for row in rows}) > 1  # the pile is dealt afresh


def test_a_search_draws_its_worlds_by_the_weights(game: Game) -> None:
    state = positions(game, bench.load("thelast", 4, 0))[8]
    seat = state.actor
    _, codes = root_codes(state.legal_actions(seat), action_index)
    sampler = random.Random(5)
    rows = np.array([fast.from_state(state.sample_world(seat, sampler)) for _ in range(6)])
    weights = np.zeros(6)
    weights[4] = 2.5
    alone = regret.search(rows[4:5], None, seat, codes, 512, random.Random(9))
    weighted = regret.search(rows, weights, seat, codes, 512, random.Random(9))
    assert weighted == alone  # every chunk drew world 4, the only one with weight
    everyone = regret.search(rows, None, seat, codes, 512, random.Random(9))
    assert everyone != alone
    assert sum(everyone[0].values()) == 512


def test_every_measured_decision_is_the_observers_with_a_choice_and_is_priced(game: Game) -> None:
    spiel_game = bench.load("thelast", 4, 0)
    before = positions(game, spiel_game)
    observer = game.seats.index("rules")
    expected = [t for t, s in enumerate(before[:-1]) if s.actor == observer and len(s.legal_actions(s.actor)) > 1]
    rows = regret.measure(game, spiel_game, 16, 256, 512, 0.3, random.Random(2), observer="rules")
    assert [r["t"] for r in rows] == expected
    for r in rows:
        state = before[r["t"]]
        legal = {action_index(a) for a in state.legal_actions(observer)}
        assert set(r["choices"].values()) <= legal and r["actions"] == len(legal)
        assert all(v >= 0.0 for v in r["regret"].values())
        assert r["kind"] == regret.kind_of(state) and 1 <= r["trick"] <= 9
        assert sum(r["referee_visits"].values()) == 512
    kinds = {r["kind"] for r in rows}
    assert "lead" in kinds and len(kinds) >= 2


def test_the_report_gives_the_share_of_the_oracles_value_the_belief_gives_back(tmp_path: Path) -> None:
    def row(trick: int, u: float, t: float, o: float) -> dict[str, object]:
        return {"t": 0, "trick": trick, "kind": "lead", "actions": 2, "choices": {"U": 1, "T": 2, "O": 2},
                "regret": {"U": u, "T": t, "O": o}, "ess": 0.5, "referee_visits": {}}

    games = [{"seed": s, "seats": [], "rows": [row(1, 0.04, 0.03, 0.0), row(2, 0.02, 0.01, 0.0)]} for s in range(5)]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"summary": {"worlds": 1}, "games": games}))
    summary = regret.report([path])
    assert summary["decisions"] == 10
    assert summary["all"]["recovery"][0] == pytest.approx(1 / 3)
    assert summary["all"]["U-O"][0] == pytest.approx(0.03)
    assert summary["by_trick"]["trick 2"]["recovery"][0] == pytest.approx(0.5)
    assert summary["same_choice_as_O"] == {"U": 0.0, "T": 1.0}
