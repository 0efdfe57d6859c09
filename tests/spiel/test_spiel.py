"""The OpenSpiel adapter: OpenSpiel's own consistency test, explicit chance, secrets, returns, and its bots."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ghostgames[spiel]')")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from ghostgames.spiel import register  # noqa: E402

register()

# Short games where a game could otherwise run long under random play (the limits are rules: a draw).
SHORT = {
    "ghostgames_geister": "ghostgames_geister(max_plies=24)",
    "ghostgames_ghooost": "ghostgames_ghooost(max_turns=40)",
    "ghostgames_thelast": "ghostgames_thelast",
}


def deal(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        assert sum(probabilities) == pytest.approx(1.0)
        state.apply_action(rng.choices(outcomes, probabilities)[0])


def play_randomly(state: pyspiel.State, rng: random.Random) -> None:
    deal(state, rng)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", [
    "ghostgames_geister(max_plies=30)",
    "ghostgames_geister(first=1,exit=escape,max_plies=30)",
    "ghostgames_ghooost(max_turns=80)",
    "ghostgames_ghooost(players=4,max_turns=80,deck=original)",
    "ghostgames_thelast",
    "ghostgames_thelast(players=3)",
    "ghostgames_thelast(players=4)",
    "ghostgames_thelast(players=5,returns=penalty)",
    "ghostgames_thelast(colours=2,values=4,hand=2)",
    "ghostgames_thelast(players=4,colours=3,values=6,hand=3)",  # 15 of 18 cards dealt, 3 spare
])
def test_openspiels_random_simulation_test_passes_with_serialization(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_the_last_deals_exactly_the_chance_outcomes_drawn() -> None:
    state = pyspiel.load_game("ghostgames_thelast").new_initial_state()
    deal(state, random.Random(1))
    drawn = state.drawn
    assert len(drawn) == 3 * 12 + 12 + 1  # two hands, the ghost's pile, the points pile; then the leader
    inner = state.inner
    assert inner.hands[0] == sorted(drawn[:12]) and inner.hands[1] == sorted(drawn[12:24])
    assert inner.round_leaders == [drawn[-1]]
    assert inner.points_card == drawn[47]  # the points pile's top card is turned first


def test_ghooost_deals_kinds_with_the_chance_of_their_share_of_the_deck() -> None:
    state = pyspiel.load_game("ghostgames_ghooost(first=0)").new_initial_state()
    first_node = dict(state.chance_outcomes())
    assert sum(first_node.values()) == pytest.approx(1.0)
    assert len(set(first_node.values())) > 1  # kinds with more cards are likelier
    deal(state, random.Random(2))
    hand = [0] * len(state.inner.hands[0])
    for kind in state.drawn[:4]:
        hand[kind] += 1
    assert state.inner.hands[0] == hand


def test_a_seat_cannot_tell_deals_apart_that_differ_only_in_what_it_cannot_see() -> None:
    """Seat 0's card swapped with the bottom card of the points pile (turned last): seat 1's information
    state and observation stay the same, seat 0's change."""
    game = pyspiel.load_game("ghostgames_thelast")
    one = game.new_initial_state()
    deal(one, random.Random(3))
    swapped = list(one.drawn)
    swapped[0], swapped[36] = swapped[36], swapped[0]
    other = game.new_initial_state()
    for outcome in swapped:
        other.apply_action(outcome)
    assert one.information_state_string(1) == other.information_state_string(1)
    assert one.observation_string(1) == other.observation_string(1)
    assert np.array_equal(one.observation_tensor(1), other.observation_tensor(1))
    assert np.array_equal(one.information_state_tensor(1), other.information_state_tensor(1))
    assert one.information_state_string(0) != other.information_state_string(0)
    assert not np.array_equal(one.information_state_tensor(0), other.information_state_tensor(0))


@pytest.mark.parametrize("name", list(SHORT.values()))
def test_returns_are_zero_sum_and_name_the_winner(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        play_randomly(state, rng)
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        results = [r.result for r in state.inner.outcome().results]
        assert returns == [1.0 if r == "win" else -1.0 if r == "loss" else 0.0 for r in results]


def test_the_last_with_more_players_splits_the_losers_stakes_among_the_winners() -> None:
    state = pyspiel.load_game("ghostgames_thelast(players=4)").new_initial_state()
    play_randomly(state, random.Random(5))
    results = [r.result for r in state.inner.outcome().results]
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    winners, losers = results.count("win"), results.count("loss")
    for result, value in zip(results, returns, strict=True):
        assert value == pytest.approx(losers / winners if result == "win" else -1.0 if result == "loss" else 0.0)


def test_the_last_penalty_returns_are_general_sum_minus_each_penalty() -> None:
    game = pyspiel.load_game("ghostgames_thelast(returns=penalty)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    play_randomly(state, random.Random(6))
    assert state.returns() == [-float(total) for total in state.inner.totals()]


def bots(game: pyspiel.Game, kind: str, seed: int) -> list[pyspiel.Bot]:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if kind == "mcts":
        return [mcts.MCTSBot(game, uct_c=2.0, max_simulations=12, evaluator=evaluator, random_state=rng)
                for _ in range(game.num_players())]
    return [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12, random_state=rng)
            for _ in range(game.num_players())]


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
@pytest.mark.parametrize("name", list(SHORT.values()))
def test_openspiels_search_bots_play_a_whole_game(name: str, kind: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    players = bots(game, kind, seed=7)
    rng = random.Random(8)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
            continue
        action = players[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    decisions = len(state.history()) - len(state.drawn)
    assert decisions >= game.num_players()  # every seat chose at least once


def test_geisters_second_setup_comes_after_the_first_without_seeing_it() -> None:
    """Both seats set up at once in Geister; here seat 0 goes first, and seat 1 learns nothing of its choice."""
    state = pyspiel.load_game("ghostgames_geister(first=1)").new_initial_state()
    assert state.current_player() == 0
    one, other = state.clone(), state.clone()
    one.apply_action(state.legal_actions()[0])
    other.apply_action(state.legal_actions()[7])
    assert one.current_player() == other.current_player() == 1
    assert one.information_state_string(1) == other.information_state_string(1)
    assert np.array_equal(one.information_state_tensor(1), other.information_state_tensor(1))
    assert one.information_state_string(0) != other.information_state_string(0)


@pytest.mark.parametrize("name", list(SHORT.values()))
def test_the_information_state_tensor_is_the_games_perfect_recall_encoding(name: str) -> None:
    game = pyspiel.load_game(name)
    ours = game.game
    players = game.num_players()
    def size(shapes: dict[str, tuple[int, ...]]) -> int:
        return sum(int(np.prod(shape)) for shape in shapes.values())

    assert game.information_state_tensor_shape() == [size(ours.info_state_shapes(players))]
    assert game.observation_tensor_shape() == [size(ours.observation_shapes(players))]
    state = game.new_initial_state()
    rng = random.Random(6)
    deal(state, rng)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        deal(state, rng)
    for seat in range(players):
        arrays = state.inner.encode_info_state(seat)
        flat = np.concatenate([arrays[k].ravel() for k in ours.info_state_shapes(players)])
        assert np.array_equal(np.asarray(state.information_state_tensor(seat)), flat)


def test_geisters_information_state_tensor_tells_apart_what_the_observation_tensor_cannot() -> None:
    """Out and back by different ghosts: the same observation tensor, different information-state tensors."""
    game = pyspiel.load_game("ghostgames_geister(first=0)")
    ours = game.game
    states = []
    for moves in (["b2 n", "e5 s", "b3 s", "e4 n"], ["c2 n", "d5 s", "c3 s", "d4 n"]):
        state = game.new_initial_state()
        for _setup in (0, 1):  # both seats place their ghosts (the first choice)
            state.apply_action(state.legal_actions()[0])
        for ply, text in enumerate(moves):
            state.apply_action(ours.action_index(ours.parse_action(text), ply % 2))
        states.append(state)
    one, other = states
    for seat in (0, 1):
        assert np.array_equal(one.observation_tensor(seat), other.observation_tensor(seat))
        assert not np.array_equal(one.information_state_tensor(seat), other.information_state_tensor(seat))
