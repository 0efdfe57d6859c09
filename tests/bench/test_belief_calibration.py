"""benchmarks/thelast_belief_calibration.py: recorded games replay from their seeds, every sampled world's round is
rebuilt so that replaying the game's moves in it reaches that world, a `rules` seat's moves are `rules`' own, and the
weighing and the fits behave at their edges."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ghostgames[spiel]')")

from benchmarks import openspiel_cards as bench
from benchmarks import thelast_belief_calibration as calibration

from ghostgames.games.thelast import fast


@pytest.fixture(scope="module")
def played() -> list[dict[str, Any]]:
    """Two 4-player games of cheap bots (OpenSpiel's with 3 simulations), as openspiel_cards.py records them."""
    game = bench.load("thelast", 4, 0)
    clock = bench.Clock(seconds=None, simulations=3)
    clock.history.append((3, 0.01))
    seats = ["rules", "ismcts:8", bench.OPENSPIEL, "random"]
    return [bench.play(game, seats, g, 300 + g, clock, "random", 2.0) for g in range(2)]


@pytest.fixture(scope="module")
def games(played: list[dict[str, Any]]) -> list[calibration.Game]:
    return [calibration.Game(g["seed"], g["seats"], g["actions"]) for g in played]


def test_a_recorded_game_replays_from_its_seed_to_the_same_result(played: list[dict[str, Any]],
                                                                  games: list[calibration.Game]) -> None:
    spiel_game = bench.load("thelast", 4, 0)
    for record, game in zip(played, games, strict=True):
        assert len(game.actions) >= 36  # nine tricks of four cards at least, the keeps and swaps besides
        outcome = calibration.positions(game, spiel_game)[-1].outcome()
        assert outcome is not None
        assert [(r.rank, r.score) for r in outcome.results] == [(r["rank"], r["score"]) for r in record["results"]]


def test_every_sampled_worlds_round_is_rebuilt_so_that_the_moves_reach_that_world(
        games: list[calibration.Game]) -> None:
    spiel_game = bench.load("thelast", 4, 0)
    swaps = sum(a >= calibration.SWAP_BASE for g in games for a in g.actions)
    assert swaps > 0  # the swapped cards are the part that differs between worlds
    rng = random.Random(4)
    assert sum(calibration.check_replay(g, spiel_game, rng, samples=2) for g in games) == 0


def test_the_rules_seats_moves_are_rules_own_and_the_terms_are_probabilities(games: list[calibration.Game]) -> None:
    spiel_game = bench.load("thelast", 4, 0)
    weights = calibration.shipped_weights()
    own = np.tile(weights, (4, 1))
    out = np.empty((64, 4))
    actors = np.empty(64, dtype=np.int64)
    for game in games:
        first = calibration.positions(game, spiel_game)[0]
        start = fast.from_state(first)
        m = calibration.move_terms(start, np.array(game.actions, dtype=np.int64), -1, weights, own, out, actors)
        assert m > 0
        rules_seat = game.seats.index("rules")
        assert set(out[:m][actors[:m] == rules_seat, 0]) == {1.0}
        assert np.all((out[:m, 1:] > 0) & (out[:m, 1:] <= 1))
        assert np.allclose(out[:m, 1], out[:m, 3])  # the same logit as the seat's own gives the same probability
        broken = np.array(game.actions, dtype=np.int64)
        broken[1] = first.hands[first.actor][0]  # the second player plays a card of the leader's hand
        assert calibration.move_terms(start, broken, -1, weights, own, out, actors) == -1 - 1


def test_the_weights_fall_back_to_equal_ones_when_no_world_is_possible() -> None:
    weights, none = calibration.weigh(np.full(4, -np.inf))
    assert none and list(weights) == [1.0] * 4
    weights, none = calibration.weigh(np.array([0.0, -np.inf, np.log(3.0), 0.0]))
    assert not none and weights.sum() == pytest.approx(4.0) and weights[1] == 0.0
    assert weights[2] == pytest.approx(3 * weights[0])


def test_em_finds_the_mix_that_drew_the_moves() -> None:
    rng = np.random.default_rng(5)
    n = 4000
    uniform = 1.0 / rng.integers(2, 9, size=n)
    logit = rng.uniform(0.05, 0.9, size=n)
    kind = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])  # what drew each move: rules, the logit, uniform
    # a move drawn by rules is rules' move; otherwise it is rules' move as often as chance gives
    is_rules = np.where(kind == 0, 1.0, (rng.uniform(size=n) < uniform).astype(float))
    terms = np.stack([is_rules, np.where(kind == 1, logit, logit * 0.5), uniform], axis=1)
    r, g, u = calibration.em_mix(terms)
    assert r + g + u == pytest.approx(1.0)
    assert r == pytest.approx(0.5, abs=0.08)


def test_the_logit_fit_finds_the_weights_that_drew_the_moves() -> None:
    rng = np.random.default_rng(6)
    decisions, actions = 3000, 5
    truth = rng.normal(0.0, 1.5, size=calibration.K)
    features = rng.uniform(0.0, 1.0, size=(decisions, actions, calibration.K))
    counts = rng.integers(2, actions + 1, size=decisions)
    scores = np.where(np.arange(actions)[None, :] < counts[:, None], features @ truth, -np.inf)
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    chosen = np.array([rng.choice(actions, p=row) for row in p])
    fitted = calibration.fit_logit(features, counts, chosen, l2=0.1)
    assert np.abs(fitted - truth).max() < 0.6
    assert np.abs(calibration.fit_logit(features, counts, chosen, l2=1e6)).max() < 0.01  # a strong penalty: near 0
