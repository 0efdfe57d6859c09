"""The learned Geister value (`bots/geister/value.py`), its training command and the `value` bot."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, bot_names, get_bot
from ghostgames.bots.geister.value import (
    FEATURES,
    MY_BAD,
    MY_GOOD,
    PLANES,
    SQUARES,
    TO_MOVE,
    GeisterValue,
    features,
    value_of_row,
)
from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.learn.geister import self_play, value_training
from tests.bots import test_no_peek as no_peek
from tests.bots.positions import TABLES


def _random_positions(count: int, seed: int) -> list[np.ndarray[Any, Any]]:
    """Full rows after a random number of uniformly random moves (both exit rules; games still going)."""
    rng = fast.new_rng(seed)
    picker = random.Random(seed)
    rows = []
    moves = np.empty(fast.MAX_MOVES, dtype=np.int32)
    while len(rows) < count:
        s = np.empty(fast.FIELDS, dtype=np.int32)
        fast.new_game(s, picker.randrange(2), 300, 0, picker.randrange(2))
        fast.random_setups(s, rng, 0)
        for _ in range(picker.randrange(120)):
            if s[fast.WINNER] != fast.RUNNING:
                break
            n = fast.legal_moves(s, moves)
            fast.apply_move(s, int(moves[picker.randrange(n)]))
        if s[fast.WINNER] == fast.RUNNING:
            rows.append(s)
    return rows


def _random_model(hidden: int, seed: int) -> GeisterValue:
    rng = np.random.default_rng(seed)
    return GeisterValue(rng.normal(0, 0.3, FEATURES), rng.normal(0, 0.3, (hidden, FEATURES)),
                        rng.normal(0, 0.3, hidden), rng.normal(0, 0.3, hidden))


def _reference_value(model: GeisterValue, row: np.ndarray[Any, Any]) -> float:
    """The model written out in numpy on the compiled features: linear part, ReLU layer, difference of the
    two seats' scores, sigmoid."""
    scores = []
    for seat in (0, 1):
        x = np.empty(FEATURES)
        features(row, seat, x)
        hidden = np.maximum(model.hidden_w @ x + model.hidden_b, 0.0)
        scores.append(float(model.linear @ x + model.out_w @ hidden))
    return 1.0 / (1.0 + np.exp(-(scores[0] - scores[1])))


def _swapped(row: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The same position with the seats' roles exchanged: the board turned half round, ghost g of one
    seat becomes ghost g of the other (a symmetry of the rules: seat 0's exits turn into seat 1's)."""
    out = row.copy()
    out[fast.BOARD : fast.BOARD + SQUARES] = fast.EMPTY
    for g in range(16):
        twin = g ^ 8
        sq = row[fast.POS + g]
        out[fast.POS + twin] = SQUARES - 1 - sq if sq >= 0 else sq
        out[fast.GOOD + twin] = row[fast.GOOD + g]
        if sq >= 0:
            out[fast.BOARD + SQUARES - 1 - sq] = twin
    out[fast.TURN] = 1 - row[fast.TURN]
    out[fast.FIRST] = 1 - row[fast.FIRST]
    return out


def test_value_of_row_agrees_with_a_numpy_reference_of_the_same_model() -> None:
    model = _random_model(8, seed=3)
    for row in _random_positions(60, seed=5):
        assert value_of_row(row, *model.kernel_arrays) == pytest.approx(_reference_value(model, row), abs=1e-9)
    rows = _random_positions(20, seed=6)
    batch = value_training.predict(model, value_training.featurize(np.stack(rows)))  # the numpy model the fit trains
    assert np.allclose(batch, [value_of_row(r, *model.kernel_arrays) for r in rows], atol=1e-9)


def test_value_of_row_refuses_the_weights_in_training_layout() -> None:
    """The kernel reads the hidden layer transposed; the training layout is refused, not read past its end."""
    model = _random_model(8, seed=3)
    with pytest.raises(ValueError, match="kernel_arrays"):
        value_of_row(_random_positions(1, seed=5)[0], *model.arrays)


def test_the_features_show_the_pieces_counts_and_the_side_to_move() -> None:
    for row in _random_positions(40, seed=7):
        for me in (0, 1):
            x = np.empty(FEATURES)
            features(row, me, x)
            assert x[TO_MOVE] == (1.0 if row[fast.TURN] == me else 0.0)
            for g in range(16):
                sq = row[fast.POS + g]
                if sq < 0:
                    continue
                rel = sq if me == 0 else SQUARES - 1 - sq
                kind = (0 if g >> 3 == me else 2) + (0 if row[fast.GOOD + g] == 1 else 1)
                assert x[PLANES + kind * SQUARES + rel] == 1.0
            assert x[PLANES:].sum() == sum(1 for g in range(16) if row[fast.POS + g] >= 0)
            own = [g for g in range(me * 8, me * 8 + 8) if row[fast.POS + g] >= 0]
            good = sum(1 for g in own if row[fast.GOOD + g] == 1)
            assert x[MY_GOOD : MY_GOOD + 4].tolist() == [1.0 if good == k else 0.0 for k in (1, 2, 3, 4)]
            bad = len(own) - good
            assert x[MY_BAD : MY_BAD + 4].tolist() == [1.0 if bad == k else 0.0 for k in (1, 2, 3, 4)]


def test_swapping_the_seats_gives_the_other_seats_chance() -> None:
    weights = GeisterValue.load().kernel_arrays
    for row in _random_positions(40, seed=9):
        assert value_of_row(_swapped(row), *weights) == pytest.approx(1.0 - value_of_row(row, *weights))


def test_the_shipped_weights_favour_four_good_ghosts_against_one() -> None:
    model = GeisterValue.load()
    rows, _ = self_play.positions(3000, 8, seed=11, stream="test")
    ahead, behind = [], []
    for row in rows:
        alive = [sum(1 for g in range(s * 8, s * 8 + 8) if row[fast.POS + g] >= 0 and row[fast.GOOD + g] == 1)
                 for s in (0, 1)]
        if alive == [4, 1]:
            ahead.append(model.of(row))
        elif alive == [1, 4]:
            behind.append(model.of(row))
    assert len(ahead) >= 20 and len(behind) >= 20
    assert np.mean(ahead) > 0.5 > np.mean(behind)


def test_the_shipped_weights_predict_held_out_results_better_than_a_constant() -> None:
    model = GeisterValue.load()
    rows, y = self_play.positions(400, 4, seed=12, stream="test-heldout")
    p = value_training.predict(model, value_training.featurize(rows))
    assert value_training.log_loss(p, y) < value_training.log_loss(np.full(len(y), 0.5), y) - 0.03


def test_the_value_bot_plays_legal_moves_and_repeats_its_choices_for_a_seed() -> None:
    assert "value" in bot_names()
    bot = get_bot("value")
    game = get_game("geister")
    for seed, options in ((1, {"exit": "escape", "max_plies": 300}), (2, {"exit": "reach", "max_plies": 300})):
        state = game.new(2, options, seed=seed)
        rng = random.Random(seed)
        while state.to_act():
            seat = min(state.to_act())
            decision_seed = rng.randrange(2**32)
            if seat == 0:
                action = bot.choose(SeatKnowledge(state, seat), random.Random(decision_seed))
                again = bot.choose(SeatKnowledge(state, seat), random.Random(decision_seed))
                assert str(action) == str(again)
                assert str(action) in state.legal_texts(seat)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        assert state.outcome() is not None


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=lambda v: str(v))
def test_the_value_bot_does_not_peek(game: str, players: int, options: dict[str, Any]) -> None:
    no_peek.test_a_bot_chooses_the_same_in_worlds_its_seat_cannot_tell_apart(game, players, options, "value")


