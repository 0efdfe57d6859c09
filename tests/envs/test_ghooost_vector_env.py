"""The batched Ghooost! environment (envs/ghooost_vector.py) against reference GhooostStates: played alongside
through single rounds, and set to random positions of matches."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from ghostgames.envs.batched import NOTHING
from ghostgames.envs.common import rewards
from ghostgames.envs.ghooost_vector import GhooostVectorEnv
from ghostgames.games import get_game
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.cards import KINDS
from ghostgames.games.ghooost.state import GhooostOptions, GhooostState
from ghostgames.rules import IllegalAction
from tests.bots.positions import positions

GAME = get_game("ghooost")
COUNT = fast.ACTION_COUNT


def reference_of(row: np.ndarray[Any, Any], players: int, options: dict[str, Any]) -> GhooostState:
    """The reference state of a game the core has just dealt (no card moved yet): the same hands, mansions,
    crypt and starter."""
    checked = GhooostOptions.model_validate({**options, "players": players})
    state = GhooostState(GAME, checked, 0, players)  # type: ignore[arg-type]
    cards = [k for seat in range(players) for k in range(KINDS) for _ in range(int(row[fast.HANDS + seat * KINDS + k]))]
    for seat in range(players):
        at = fast.MANSIONS + seat * fast.MANSION_CAP
        cards += [int(c) for c in row[at : at + int(row[fast.MANSION_COUNT + seat])]]
    cards += [int(c) for c in row[fast.CRYPT : fast.CRYPT + int(row[fast.CRYPT_COUNT])]]
    state.deal(int(row[fast.FIRST]), cards)
    return state


def single(obs: dict[str, Any], i: int) -> dict[str, Any]:
    return {name: array[i] for name, array in obs["observation"].items()}


def assert_same_arrays(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for name, array in want.items():
        np.testing.assert_array_equal(got[name], array, err_msg=name)


@pytest.mark.parametrize(("players", "options"), [
    (2, {"max_turns": 120}), (3, {"match": False, "deck": "original", "replay": "must", "max_turns": 150}),
    (4, {"match": False, "max_turns": 100}), (6, {"match": False, "max_turns": 200})])
def test_self_play_observes_exactly_what_the_reference_encodes_for_the_seat_to_act(
        players: int, options: dict[str, Any]) -> None:
    n = 4
    env = GhooostVectorEnv(n, players, options, seed=players)
    obs, info = env.reset()
    mirrors = [reference_of(env.row(i), players, options) for i in range(n)]
    ended = 0
    for _ in range(260):
        for i, state in enumerate(mirrors):
            assert info["seat"][i] == state.turn
            assert_same_arrays(single(obs, i), state.encode(state.turn))
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), state.legal_mask(state.turn))
        actions = env.random_actions()
        obs, reward, done, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, state in enumerate(mirrors):
            seat = state.turn
            state.apply(seat, GAME.action_at(int(actions[i]), seat))
            outcome = state.outcome()
            assert done[i] == (outcome is not None)
            if outcome is None:
                assert reward[i] == 0.0 and not info["rewards"][i].any()
                continue
            ended += 1
            assert list(info["rewards"][i]) == rewards(outcome) and reward[i] == rewards(outcome)[seat]
            final = info["final_obs"][i]
            assert_same_arrays(final["observation"], state.encode(seat))
            assert not final["action_mask"].any()
            assert list(info["final_info"]["ranks"][i]) == [r.rank for r in outcome.results]
            mirrors[i] = reference_of(env.row(i), players, options)
    assert ended >= n


@pytest.mark.parametrize(("players", "options"), [(3, {"max_turns": 150}), (5, {"max_turns": 150, "replay": "must"})])
def test_every_seats_observation_and_mask_are_the_references_on_random_positions_of_matches(
        players: int, options: dict[str, Any]) -> None:
    """Random positions of matches (any round, any seat to act), set into the environment's row: what it
    shows is the reference's encoding and mask for that seat."""
    env = GhooostVectorEnv(1, players, options, seed=1)
    env.reset()
    checked = 0
    for seed in range(2):
        for state, seat in positions("ghooost", players, options, seed, every=7):
            env._states[0] = fast.from_state(state)
            env._play(np.array([NOTHING]))
            obs = env._observation()
            assert env._seats[0] == seat
            assert_same_arrays(single(obs, 0), state.encode(seat))
            np.testing.assert_array_equal(obs["action_mask"][0].astype(bool), state.legal_mask(seat))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (3, "rules"), (6, "rules")])
def test_against_an_opponent_the_learner_sees_only_its_own_decisions(players: int, opponent: str) -> None:
    n = 2 * players
    env = GhooostVectorEnv(n, players, {"max_turns": 80, "max_rounds": 2}, seed=1, opponent=opponent,
                           learner_seat="alternate")
    obs, info = env.reset()
    learners = np.arange(n) % players
    finished = 0
    for _ in range(250):
        np.testing.assert_array_equal(info["seat"], learners)
        for i in range(n):
            row = env.row(i)
            assert fast.seat_to_act(row) == learners[i]
            mask = np.empty(COUNT, dtype=np.int8)
            fast.legal_mask(row, int(learners[i]), mask)
            np.testing.assert_array_equal(obs["action_mask"][i], mask)
        obs, reward, done, _, info = env.step(env.random_actions())
        assert (reward[~done] == 0.0).all() and np.isin(reward[done], (-1.0, 0.0, 1.0)).all()
        for i in np.flatnonzero(done):
            finished += 1
            ranks = info["final_info"]["ranks"][i]
            assert ranks.min() >= 1 and ranks.max() <= players
            if reward[i] == 1.0:
                assert ranks[learners[i]] == 1
            assert info["final_obs"][i]["observation"]["table"][10] == 1.0  # the game is over
    assert finished >= n


def test_rules_opponents_beat_random_ones_for_the_same_random_learner() -> None:
    """The opponents really play `rules`: a random learner does worse against them than against random."""
    means = {}
    for opponent in ("random", "rules"):
        env = GhooostVectorEnv(32, 2, {"max_turns": 300}, seed=3, opponent=opponent, learner_seat="alternate",
                               copy=False)
        env.reset()
        results: list[float] = []
        while len(results) < 150:
            _, reward, done, _, _ = env.step(env.random_actions())
            results += list(reward[done])
        means[opponent] = float(np.mean(results))
    assert means["rules"] < means["random"] - 0.2, means


def test_a_seed_repeats_every_game_whatever_the_batch_and_another_seed_does_not() -> None:
    def play(env: GhooostVectorEnv, seed: Any) -> list[np.ndarray[Any, Any]]:
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"]["hand"].copy()]
        for _ in range(60):
            obs, *_ = env.step(env.random_actions())
            seen.append(obs["observation"]["hand"].copy())
        return seen

    a = play(GhooostVectorEnv(3, 4, seed=0, opponent="rules"), 7)
    b = play(GhooostVectorEnv(3, 4, seed=0, opponent="rules"), 7)
    c = play(GhooostVectorEnv(3, 4, seed=0, opponent="rules"), 8)
    d = play(GhooostVectorEnv(1, 4, seed=0, opponent="rules"), [8])  # game 0 of seed 8 alone
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(c, d, strict=True))


@pytest.mark.parametrize("opponent", ["rules", None])
def test_next_step_autoreset_plays_the_same_games_one_step_later(opponent: str | None) -> None:
    options = {"max_turns": 40, "match": False}
    same = GhooostVectorEnv(1, 3, options, seed=5, opponent=opponent)
    later = GhooostVectorEnv(1, 3, options, seed=5, opponent=opponent, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert later.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs_a, _ = same.reset()
    obs_b, _ = later.reset()
    ended = 0
    for _ in range(300):
        assert_same_arrays(single(obs_a, 0), single(obs_b, 0))
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"])
        action = same.random_actions()
        obs_a, reward_a, done_a, _, info_a = same.step(action)
        obs_b, reward_b, done_b, _, info_b = later.step(action)
        assert reward_b[0] == reward_a[0] and done_b[0] == done_a[0]
        if done_a[0]:
            ended += 1
            final = info_a["final_obs"][0]
            assert_same_arrays(single(obs_b, 0), final["observation"])
            np.testing.assert_array_equal(obs_b["action_mask"][0], final["action_mask"])
            assert "final_obs" not in info_b
            np.testing.assert_array_equal(info_b["ranks"][0], info_a["final_info"]["ranks"][0])
            obs_b, reward_b, done_b, _, _ = later.step(np.array([0]))  # any index: it is ignored
            assert reward_b[0] == 0.0 and not done_b[0]
    assert ended >= 2


def test_it_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    import gymnasium as gym
    from gymnasium.vector import VectorEnv

    env = GhooostVectorEnv(5, 4, seed=1, opponent="random", copy=False)
    assert isinstance(env, VectorEnv) and env.single_action_space.n == COUNT
    assert isinstance(env.action_space, gym.spaces.MultiDiscrete) and env.action_space.shape == (5,)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    env.close()
    assert env.closed


def test_bad_settings_and_actions_are_refused_saying_what_would_work() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GhooostVectorEnv(2, 7)
    with pytest.raises(ValueError, match="max_turns"):
        GhooostVectorEnv(2, 3, {"max_turn": 20})
    with pytest.raises(ValueError, match="'random', 'rules' or None"):
        GhooostVectorEnv(2, 3, opponent="expert")
    with pytest.raises(ValueError, match="needs an opponent"):
        GhooostVectorEnv(2, 3, learner_seat=1)
    with pytest.raises(ValueError, match="0 to 2"):
        GhooostVectorEnv(2, 3, opponent="random", learner_seat=3)
    env = GhooostVectorEnv(2, 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array([0, 0]))
    obs, _ = env.reset()
    illegal = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), int(env.random_actions()[1])])
    before = env.row(0)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(illegal)
    np.testing.assert_array_equal(env.row(0), before)
    with pytest.raises(ValueError, match=r"outside 0\.\.288"):
        env.step(np.array([289, 0]))
