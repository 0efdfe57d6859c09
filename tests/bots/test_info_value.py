"""The information-state value (bots/geister/info_value.py): it never reads the colour of an enemy ghost on
the board, the compiled value and its numpy twin (the one the fit trains) agree, a finished game scores its
result, and `expert-learned` ends its playouts on it, reproducibly."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister import fast_search, info_value
from ghostgames.bots.geister.fast_search import INFO, leaf_value
from ghostgames.bots.geister.heuristic import HEURISTIC
from ghostgames.games.geister import GeisterState, fast
from ghostgames.learn.geister import info_value_fit
from tests.bots.positions import positions


def _rows(seed: int) -> list[tuple[np.ndarray, int]]:
    """Rows of play-phase positions along a random game, with the seat to move."""
    out = []
    for state, seat in positions("geister", 2, {"exit": "escape", "max_plies": 300}, seed, 2):
        assert isinstance(state, GeisterState)
        if all(state.set_up):
            out.append((fast.from_state(state), seat))
    return out


def _model(seed: int) -> info_value.GeisterValue:
    return info_value_fit.start_model(6, np.random.default_rng(seed))


def test_the_value_reads_no_colour_of_an_enemy_ghost_on_the_board() -> None:
    model = _model(1)
    checked = 0
    for row, _ in _rows(3):
        for me in (0, 1):
            enemy = 1 - me
            on_board = [g for g in range(enemy * 8, enemy * 8 + 8) if row[fast.POS + g] >= 0]
            flipped = row.copy()
            for g in on_board:  # any recolouring of the enemy's ghosts on the board
                flipped[fast.GOOD + g] = 1 - flipped[fast.GOOD + g]
            assert info_value.of(model, flipped, me) == info_value.of(model, row, me)
            mine = [g for g in range(me * 8, me * 8 + 8) if row[fast.POS + g] >= 0]
            mine_flipped = row.copy()
            mine_flipped[fast.GOOD + mine[0]] = 1 - mine_flipped[fast.GOOD + mine[0]]
            checked += info_value.of(model, mine_flipped, me) != info_value.of(model, row, me)
    assert checked > 0  # its own colours it does read


def test_the_compiled_value_is_the_numpy_one_the_fit_trains() -> None:
    model = _model(2)
    rows = np.array([row for row, _ in _rows(4)])
    results = np.zeros(len(rows))
    x, _, seats = info_value_fit.examples(rows, results)
    expected = info_value_fit.predict(model, x)
    got = [info_value.of(model, rows[i % len(rows)], int(seats[i])) for i in range(len(seats))]
    assert np.allclose(got, expected)


def test_a_finished_game_scores_its_result_and_the_leaf_reads_the_roots_seat() -> None:
    model = _model(3)
    row, _ = _rows(5)[0]
    won = row.copy()
    won[fast.WINNER] = 1
    assert info_value.of(model, won, 1) == 1.0 and info_value.of(model, won, 0) == 0.0
    arrays = model.kernel_arrays
    for seat in (0, 1):  # the leaf gives seat 0's reward, from the value of the root's seat
        assert leaf_value(row, 0, INFO + seat, HEURISTIC, arrays) == pytest.approx(
            info_value.of(model, row, 0) if seat == 0 else 1.0 - info_value.of(model, row, 1))


def test_expert_learned_searches_with_the_shipped_value_and_repeats_its_choice() -> None:
    bot = get_bot("expert-learned:300")
    assert isinstance(bot, fast_search.FastExpertBot) and bot.evaluator == INFO
    for state, seat in positions("geister", 2, {"exit": "escape"}, 7, 9):
        if all(state.set_up):
            knowledge = SeatKnowledge(state, seat)
            first = bot.choose(knowledge, random.Random(1))
            assert first in knowledge.legal_actions()
            assert get_bot("expert-learned:300").choose(knowledge, random.Random(1)) == first


def test_the_learned_leaf_variant_is_todays_expert_with_the_learned_value() -> None:
    """benchmarks/geister_variants.py's `learned_N` (the research log's screen): today's expert's policy and search
    with the learned leaf; it plays legal moves, the same ones from the same random stream."""
    from benchmarks.geister_variants import learned_at

    from ghostgames.bots.geister.expert_memory import MemoryExpertBot, SealedMemoryPolicy

    bot = learned_at(300)
    expert = get_bot("expert:300")
    assert isinstance(bot, MemoryExpertBot) and isinstance(expert, MemoryExpertBot)
    assert bot.evaluator == INFO and expert.evaluator != INFO
    assert bot.memory_policy is SealedMemoryPolicy is expert.memory_policy
    for state, seat in positions("geister", 2, {"exit": "escape"}, 8, 9):
        if all(state.set_up):
            knowledge = SeatKnowledge(state, seat)
            first = bot.choose(knowledge, random.Random(1))
            assert first in knowledge.legal_actions()
            assert learned_at(300).choose(knowledge, random.Random(1)) == first
