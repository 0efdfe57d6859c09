"""The Last's expert searches on the compiled core: its tree keeps the counts ISMCTS needs, it plays the
actions its seat may take, and it beats chance where a round's outcome is plain (the compiled
rules-of-thumb its playouts may use: test_thelast_fast_rules.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.bots.thelast.fast_search import (
    OPPONENTS,
    RANDOM,
    SEATS,
    TheLastExpertPolicy,
    UniformPlayoutPolicy,
    opponent_action,
    play_out,
    seat_rewards,
)
from ghostgames.bots.thelast.playout_policy import score_tables, shipped_weights
from ghostgames.games import get_game
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index
from tests.bots.tree_checks import check_tree_counts


@pytest.mark.parametrize("players", [3, 4])
def test_every_iteration_passes_through_one_root_action_and_only_legal_ones(players: int) -> None:
    state = get_game("thelast").new(players, {}, seed=11)
    seat = min(state.to_act())
    knowledge = SeatKnowledge(state, seat)
    policy = TheLastExpertPolicy(knowledge)
    legal = knowledge.legal_actions()
    choice, iterations = policy.compiled_choice(legal, Budget(iterations=300), 0.5, random.Random(4)) or (None, 0)
    assert iterations == 300 and choice in legal
    tree = policy.last_tree
    assert tree is not None
    check_tree_counts(tree, 300, {action_index(a) for a in legal})  # type: ignore[arg-type]


def test_the_expert_and_the_hard_level_search_the_last_on_the_compiled_core() -> None:
    state = get_game("thelast").new(2, {}, seed=3)
    seat = min(state.to_act())
    for name in ("expert:200", "hard"):
        bot = get_bot(name)
        assert isinstance(bot, IsmctsBot)
        assert isinstance(bot.policy(SeatKnowledge(state, seat)), TheLastExpertPolicy)
    bot = get_bot("expert:200")
    assert isinstance(bot, IsmctsBot)
    action = bot.choose(SeatKnowledge(state, seat), random.Random(1))
    assert str(action) in state.legal_texts(seat) and bot.last_iterations == 200


def test_the_reward_of_a_finished_match_is_highest_for_the_lowest_penalty() -> None:
    state = get_game("thelast").new(3, {}, seed=8)
    rng = random.Random(8)
    chance = get_bot("random")
    while state.outcome() is None:
        seat = min(state.to_act())
        state.apply(seat, chance.choose(SeatKnowledge(state, seat), rng))
    row = fast.from_state(state)
    penalties = [int(row[fast.TOTAL + p]) for p in range(3)]
    rewards = np.zeros(8)
    seat_rewards(row, rewards, 0.5, 8.0)  # half rank, half the penalty against the others' mean
    best = min(range(3), key=lambda p: penalties[p])
    assert rewards[best] == max(rewards[:3])


def test_the_expert_wins_more_rounds_than_random_at_two_players() -> None:
    game = get_game("thelast")
    expert, chance = get_bot("expert:300"), get_bot("random")
    wins = 0
    for seed in range(8):
        state = game.new(2, {}, seed=seed)
        rng = random.Random(seed)
        me = seed % 2
        while (outcome := state.outcome()) is None:
            seat = min(state.to_act())
            bot = expert if seat == me else chance
            state.apply(seat, bot.choose(SeatKnowledge(state, seat), rng))
        wins += outcome.results[me].rank == 1
    assert wins >= 6



def _positions_with_choices(players: int, seed: int) -> list[np.ndarray]:
    """Rows of one random game at every decision with two or more legal actions."""
    state = get_game("thelast").new(players, {}, seed=seed)
    rng = random.Random(seed)
    rows = []
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    while state.outcome() is None:
        row = fast.from_state(state)  # type: ignore[arg-type]
        if fast.legal_actions(row, legal) > 1:
            rows.append(row)
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return rows


def test_opponent_playouts_play_the_searching_seat_uniformly_and_the_others_by_their_mix() -> None:
    rows = _positions_with_choices(4, seed=6)
    assert len(rows) >= 20
    all_rules = np.zeros((SEATS, 2))
    all_rules[:, 0] = 1.0
    stream = fast.new_rng(5)
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    tables = score_tables(shipped_weights())
    searcher_varied = 0
    for row in rows:
        actor = int(row[fast.ACTOR])
        n = fast.legal_actions(row, legal)
        # another seat with a mix of all `rules` plays `rules`' one choice every time
        assert {opponent_action(row, stream, (actor + 1) % 4, tables, all_rules) for _ in range(8)} \
            == {rules_action(row)}
        # the searching seat ignores the mix: its draws are legal and, over 40, not all `rules`' choice
        mine = {opponent_action(row, stream, actor, tables, all_rules) for _ in range(40)}
        assert mine <= set(legal[:n].tolist())
        searcher_varied += len(mine) > 1
    assert searcher_varied == len(rows)


def test_an_opponent_playout_of_only_rules_moves_finishes_the_round_as_rules_bots_do() -> None:
    for seed in range(3):
        start = _positions_with_choices(3, seed=20 + seed)[0]
        mix = np.zeros((SEATS, 2))
        mix[:, 0] = 1.0
        played = start.copy()
        tables = score_tables(shipped_weights())
        play_out(played, fast.new_rng(seed), OPPONENTS, tables, -1, mix)  # no seat searches
        by_hand = start.copy()
        stream = fast.new_rng(seed)
        while fast.seat_to_act(by_hand) >= 0:
            fast.step(by_hand, rules_action(by_hand), stream, 0)
        assert played[fast.PHASE] == fast.OVER
        assert [int(played[fast.TOTAL + p]) for p in range(3)] == [int(by_hand[fast.TOTAL + p]) for p in range(3)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_expert_plays_the_others_as_players_in_its_playouts_from_four_players(players: int) -> None:
    state = get_game("thelast").new(players, {}, seed=players)
    knowledge = SeatKnowledge(state, min(state.to_act()))
    expected = OPPONENTS if players >= 4 else RANDOM
    assert TheLastExpertPolicy(knowledge).playout_of_decision() == expected
    assert UniformPlayoutPolicy(knowledge).playout_of_decision() == RANDOM
    mix = TheLastExpertPolicy(knowledge).opponent_mix()
    assert (mix.sum() > 0) == (players >= 4)


class _StateWorlds(TheLastExpertPolicy):
    state_worlds = True  # the worlds as states, converted by fast.from_state: the path before fast_worlds.WorldRows


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_expert_grows_the_same_tree_from_rows_as_from_converted_states(players: int) -> None:
    """The rows `fast_worlds.WorldRows` writes are the worlds `sample_world` deals (tests/games/thelast), so at an
    iteration budget the expert's decision, and its whole tree, is what it was when it converted states."""
    game, rng, checked = get_game("thelast"), random.Random(players), 0
    state = game.new(players, {}, seed=players)
    while state.outcome() is None and checked < 6:
        seat = min(state.to_act())
        legal = SeatKnowledge(state, seat).legal_actions()
        if len(legal) > 1:
            trees = []
            for kind in (TheLastExpertPolicy, _StateWorlds):
                policy = kind(SeatKnowledge(state, seat))
                choice, _ = policy.compiled_choice(legal, Budget(iterations=300), 0.5, random.Random(checked)) \
                    or (None, 0)
                tree = policy.last_tree
                assert tree is not None
                size = int(tree.size[0])
                trees.append((choice, tree.nodes[:size].tolist(), tree.reward[:size].tolist()))
            assert trees[0] == trees[1]
            checked += 1
        state.apply(seat, rng.choice(legal))
    assert checked == 6
