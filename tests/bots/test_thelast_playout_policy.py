"""The Last's learned playout policy: its features read only what the seat to act knows, its draws are
legal and follow the weights, the fit recovers the weights that made a set of choices, and the expert with
its playouts (or the opponent-aware playouts at a table where it would not play them)
still cannot peek."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search
from ghostgames.bots.thelast.playout_policy import (
    FEATURES,
    K,
    action_features,
    learned_action,
    learned_action_tabled,
    score_tables,
    shipped_weights,
)
from ghostgames.games import get_game
from ghostgames.games.thelast import fast
from ghostgames.learn.thelast.playout_fit import Decisions, fit, log_loss
from tests.bots.positions import positions


def _features(row: np.ndarray) -> list[list[float]]:
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    out = np.empty(K)
    rows = []
    for j in range(fast.legal_actions(row, legal)):
        action_features(row, int(legal[j]), out)
        rows.append([int(legal[j]), *out.tolist()])
    return rows


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_features_read_nothing_the_seat_to_act_cannot_see(players: int) -> None:
    checked = 0
    for state, seat in positions("thelast", players, {}, seed=players, every=3):
        twin = state.sample_world(seat, random.Random(checked))
        assert twin.view(seat) == state.view(seat)
        assert _features(fast.from_state(state)) == _features(fast.from_state(twin))  # type: ignore[arg-type]
        checked += 1
    assert checked >= 10


def test_a_learned_draw_is_legal_and_follows_a_strong_weight() -> None:
    # Find a position where the last player of a trick may either take it or duck.
    rng = random.Random(3)
    state = get_game("thelast").new(4, {}, seed=3)
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    features = np.empty(K)
    found = None
    while state.outcome() is None:
        row = fast.from_state(state)  # type: ignore[arg-type]
        n = fast.legal_actions(row, legal)
        takes = set()
        for j in range(n):
            action_features(row, int(legal[j]), features)
            takes.add(features[FEATURES.index("last_takes")])
        if takes == {0.0, 1.0}:
            found = row
            break
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert found is not None
    ducking = np.zeros(K)
    ducking[FEATURES.index("last_takes")] = -50.0
    stream = fast.new_rng(1)
    n = fast.legal_actions(found, legal)
    for _ in range(50):
        action = learned_action(found, ducking, stream)
        assert action in set(legal[:n].tolist())
        action_features(found, action, features)
        assert features[FEATURES.index("last_takes")] == 0.0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_tabled_draw_is_the_features_logits_draw(players: int) -> None:
    # Same stream, same draw: the per-card tables give learned_action's distribution, not an approximation
    # of it. Checked for the packaged weights and for random ones (every table row then matters), at random
    # positions of every kind (lead, follow over/under, discard, last taking/ducking, keep or swap).
    gen = np.random.default_rng(players)
    weight_sets = [shipped_weights(), *(gen.normal(0.0, 3.0, K) for _ in range(3))]
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    draws = differed = 0
    for seed in range(4):
        for state, _seat in positions("thelast", players, {}, seed=100 * players + seed, every=1):
            row = fast.from_state(state)  # type: ignore[arg-type]
            n = fast.legal_actions(row, legal)
            for w, weights in enumerate(weight_sets):
                tables = score_tables(weights)
                plain, tabled = fast.new_rng(seed * 7 + w), fast.new_rng(seed * 7 + w)
                picked = set()
                for _ in range(6):
                    action = learned_action(row, weights, plain)
                    assert learned_action_tabled(row, tables, tabled) == action
                    picked.add(action)
                    draws += 1
                assert picked <= set(legal[:n].tolist())
                differed += len(picked) > 1
    assert draws > 1000 and differed > 50


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    truth = np.array([1.5, -2.0, 0.5, 1.0, -1.0, 0.0, 0.8, -0.5, 0.3, 0.7, 2.0, -1.2])
    gen = np.random.default_rng(0)
    xs, groups, chosen, games = [], [], [], []
    for d in range(6000):
        n = int(gen.integers(2, 7))
        x = gen.random((n, K))
        p = np.exp(x @ truth)
        p /= p.sum()
        pick = int(gen.choice(n, p=p))
        chosen.append(len(xs) + pick)
        xs.extend(x)
        groups.extend([d] * n)
        games.append(d // 100)
    data = Decisions(np.array(xs), np.array(groups), np.array(chosen), np.array(games))
    fitted = fit(data, l2=0.01)
    assert np.abs(fitted - truth).max() < 0.35
    assert log_loss(data, fitted) < log_loss(data, np.zeros(K))


def test_the_packaged_weights_name_every_feature() -> None:
    weights = shipped_weights()
    assert weights.shape == (K,) and np.isfinite(weights).all() and np.abs(weights).sum() > 0


@pytest.mark.parametrize("settings", [
    {"playout_kind": fast_search.OPPONENTS, "opponent_rules": 0.4, "opponent_learned": 0.4},
    {},
], ids=["opponent_playout", "as_shipped"])
@pytest.mark.parametrize("players", [3, 4])
def test_the_experts_settings_choose_the_same_in_worlds_the_seat_cannot_tell_apart(
        settings: dict[str, object], players: int) -> None:
    policy = type("Variant", (fast_search.TheLastExpertPolicy,), settings)
    bot = IsmctsBot(Budget(iterations=200), policy, 0.5)
    checked = 0
    for state, seat in positions("thelast", players, {}, seed=players + 10, every=5):
        twin = state.sample_world(seat, random.Random(checked))
        first = bot.choose(SeatKnowledge(state, seat), random.Random(99))
        second = bot.choose(SeatKnowledge(twin, seat), random.Random(99))
        assert str(first) == str(second) and str(first) in state.legal_texts(seat)
        checked += 1
    assert checked >= 5
