"""The Last's belief: its marks follow the public events they name, its fit learns what `rules` players
reveal, and the expert that weighs its worlds with it decides the same in worlds its seat cannot tell apart."""

from __future__ import annotations

import random

import numpy as np

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast.belief import FEATURES, load_weights, marks
from ghostgames.bots.thelast.belief_search import BeliefExpertPolicy
from ghostgames.games import get_game
from ghostgames.games.thelast.cards import VALUE_OF, parse_card
from ghostgames.learn.thelast.belief_fit import BeliefFitSpec, Rows, fit, log_loss, play_rows
from tests.bots.positions import positions


def test_a_kept_points_card_marks_exactly_the_lower_cards_of_the_seat_that_kept_it() -> None:
    game = get_game("thelast")
    rules = get_bot("rules")
    found = 0
    for seed in range(10):
        state = game.new(3, {}, seed=seed)
        rng = random.Random(seed)
        while state.outcome() is None:
            seat = min(state.to_act())
            state.apply(seat, rules.choose(SeatKnowledge(state, seat), rng))
            view = state.view(0)
            kept = [t for t in view["tricks"] if t["taken"] == "keep" and isinstance(t["winner"], int)]
            if kept:
                points = max(VALUE_OF[parse_card(t["points"])] for t in kept if t["winner"] == kept[0]["winner"])
                marked = marks(view)[kept[0]["winner"], :, FEATURES.index("kept_over")]
                assert {c for c in range(48) if marked[c]} == {c for c in range(48) if VALUE_OF[c] < points}
                found += 1
                break
    assert found >= 3


def test_the_fit_learns_that_rules_players_who_keep_hold_no_lower_card() -> None:
    spec = BeliefFitSpec(games=8, seed=3, iterations=20, expert_share=0.0)
    rows = play_rows(spec)
    assert len(rows.y) > 1000 and set(np.unique(rows.y)) == {0.0, 1.0}
    weights = fit(rows, spec.l2)
    # `rules` keeps only without a lower card, and leads its lowest: a card so marked is never in the hand,
    # and the fit makes it far less likely than the uniform deal does
    z = rows.offset + rows.x @ weights
    for name in ("kept_over", "led_over"):
        marked = rows.x[:, FEATURES.index(name)] > 0
        assert marked.sum() > 100 and rows.y[marked].sum() == 0
        uniform = 1 / (1 + np.exp(-rows.offset[marked]))
        assert np.mean(1 / (1 + np.exp(-z[marked]))) < 0.2 * np.mean(uniform)
    assert log_loss(rows, weights) < log_loss(rows, np.zeros(len(FEATURES)))
    # the fit is the optimum: moving any weight a little makes the penalised loss no smaller
    def penalised(w: np.ndarray) -> float:  # type: ignore[type-arg]
        return log_loss(rows, w) + spec.l2 * float(w @ w) / (2 * len(rows.y))
    for f in range(len(FEATURES)):
        for step in (-0.05, 0.05):
            moved = weights.copy()
            moved[f] += step
            assert penalised(moved) >= penalised(weights) - 1e-12
    assert isinstance(rows, Rows)


def test_the_packaged_weights_name_every_feature() -> None:
    weights = load_weights()
    assert weights.shape == (len(FEATURES),) and np.all(np.isfinite(weights))


def test_the_belief_expert_decides_the_same_in_worlds_its_seat_cannot_tell_apart() -> None:
    bot = IsmctsBot(Budget(iterations=160), BeliefExpertPolicy, 0.5)
    checked = 0
    for players in (3, 4, 5):
        for state, seat in positions("thelast", players, {}, players, every=5):
            twin = state.sample_world(seat, random.Random(checked))
            assert twin.view(seat) == state.view(seat)
            first = bot.choose(SeatKnowledge(state, seat), random.Random(7))
            second = bot.choose(SeatKnowledge(twin, seat), random.Random(7))
            assert str(first) == str(second)
            checked += 1
    assert checked >= 6
