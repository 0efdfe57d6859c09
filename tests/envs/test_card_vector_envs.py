"""What both card games' batched environments (envs/card_vector.py) must do alike: seeds that repeat each
game whatever the batch, NEXT_STEP autoreset as the same games one step later, Gymnasium's batched spaces,
`rules` opponents that play better than random ones, and refusals that say what would work. Each game's own
file plays its reference alongside."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from ghostgames.envs.card_vector import CardVectorEnv
from ghostgames.envs.ghooost_vector import GhooostVectorEnv
from ghostgames.envs.thelast_vector import TheLastVectorEnv
from ghostgames.rules import IllegalAction
from tests.envs.card_checks import assert_same_arrays, single

# (environment, players, options with games short enough to end often in a test)
GAMES = [pytest.param(TheLastVectorEnv, 3, {}, id="thelast"),
         pytest.param(GhooostVectorEnv, 3, {"max_turns": 40, "match": False}, id="ghooost")]


@pytest.mark.parametrize("opponent", ["random", "rules"])
@pytest.mark.parametrize(("env_type", "players", "options"), GAMES)
def test_a_seed_repeats_every_game_whatever_the_batch_and_another_seed_does_not(
        env_type: type[CardVectorEnv], players: int, options: dict[str, Any], opponent: str) -> None:
    def play(env: CardVectorEnv, seed: Any) -> list[np.ndarray[Any, Any]]:
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"]["hand"].copy()]
        for _ in range(60):
            obs, *_ = env.step(env.random_actions())
            seen.append(obs["observation"]["hand"].copy())
        return seen

    a = play(env_type(3, 4, options, seed=0, opponent=opponent), 7)
    b = play(env_type(3, 4, options, seed=0, opponent=opponent), 7)
    c = play(env_type(3, 4, options, seed=0, opponent=opponent), 8)
    d = play(env_type(1, 4, options, seed=0, opponent=opponent), [8])  # game 0 of seed 8 alone
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(c, d, strict=True))


@pytest.mark.parametrize("opponent", ["random", "rules", None])
@pytest.mark.parametrize(("env_type", "players", "options"), GAMES)
def test_next_step_autoreset_plays_the_same_games_one_step_later(
        env_type: type[CardVectorEnv], players: int, options: dict[str, Any], opponent: str | None) -> None:
    same = env_type(1, players, options, seed=5, opponent=opponent)
    later = env_type(1, players, options, seed=5, opponent=opponent, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert later.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    ended_key = env_type.ended
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
            np.testing.assert_array_equal(info_b[ended_key][0], info_a["final_info"][ended_key][0])
            obs_b, reward_b, done_b, _, _ = later.step(np.array([0]))  # any index: it is ignored
            assert reward_b[0] == 0.0 and not done_b[0]
    assert ended >= 2


@pytest.mark.parametrize(("env_type", "players", "options"), GAMES)
def test_it_is_a_gymnasium_vector_env_with_batched_spaces(
        env_type: type[CardVectorEnv], players: int, options: dict[str, Any]) -> None:
    import gymnasium as gym
    from gymnasium.vector import VectorEnv

    env = env_type(5, 4, options, seed=1, opponent="random", copy=False)
    assert isinstance(env, VectorEnv) and env.single_action_space.n == env.action_count
    assert isinstance(env.action_space, gym.spaces.MultiDiscrete) and env.action_space.shape == (5,)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    env.close()
    assert env.closed


@pytest.mark.parametrize(("env_type", "players", "options"), GAMES)
def test_rules_opponents_beat_random_ones_for_the_same_random_learner(
        env_type: type[CardVectorEnv], players: int, options: dict[str, Any]) -> None:
    """The opponents really play `rules` (bots/<game>/fast_rules.py): a random learner does worse against
    them than against random ones."""
    means = {}
    for opponent in ("random", "rules"):
        env = env_type(32, players, {**options, "max_turns": 300} if env_type is GhooostVectorEnv else options,
                       seed=3, opponent=opponent, learner_seat="alternate", copy=False)
        env.reset()
        results: list[float] = []
        while len(results) < 300:
            _, reward, done, _, _ = env.step(env.random_actions())
            results += list(reward[done])
        means[opponent] = float(np.mean(results))
    assert means["rules"] < means["random"] - 0.2, means


@pytest.mark.parametrize(("env_type", "too_many", "unknown", "known"), [
    (TheLastVectorEnv, 6, {"round": 2}, "rounds"), (GhooostVectorEnv, 7, {"max_turn": 20}, "max_turns")])
def test_bad_settings_and_actions_are_refused_saying_what_would_work(
        env_type: type[CardVectorEnv], too_many: int, unknown: dict[str, Any], known: str) -> None:
    with pytest.raises(ValueError, match=f"2 to {too_many - 1} players"):
        env_type(2, too_many)
    with pytest.raises(ValueError, match=known):
        env_type(2, 3, unknown)
    with pytest.raises(ValueError, match="'random', 'rules', a callable"):
        env_type(2, 3, opponent="expert")
    with pytest.raises(ValueError, match="needs an opponent"):
        env_type(2, 3, learner_seat=1)
    with pytest.raises(ValueError, match="0 to 2"):
        env_type(2, 3, opponent="random", learner_seat=3)
    env = env_type(2, 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array([0, 0]))
    obs, _ = env.reset()
    illegal = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), int(env.random_actions()[1])])
    before = env.row(0)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(illegal)
    np.testing.assert_array_equal(env.row(0), before)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0]))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match=rf"outside 0\.\.{env.action_count - 1}"):
        env.step(np.array([env.action_count, 0]))


@pytest.mark.parametrize(("env_type", "players", "options"), GAMES)
def test_a_python_opponent_gets_its_own_observation_and_mask_and_must_play_legally(
        env_type: type[CardVectorEnv], players: int, options: dict[str, Any]) -> None:
    env = env_type(4, players, options, seed=2, opponent="random")  # for the shapes of one game
    shapes = {name: space.shape for name, space in env.single_observation_space["observation"].items()}
    asked: list[int] = []

    def first_legal(observation: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        assert {name: array.shape for name, array in observation.items()} == shapes
        assert mask.shape == (env.action_count,) and mask.any()
        asked.append(int(np.flatnonzero(mask)[0]))
        return asked[-1]

    env = env_type(4, players, options, seed=2, opponent=first_legal, learner_seat="alternate")
    obs, info = env.reset()
    ended = 0
    for _ in range(150):
        for i in range(4):  # every game waits for its learner, whatever the opponent did
            assert env.core.seat_to_act(env.row(i)) == info["seat"][i] == i % players and obs["action_mask"][i].any()
        obs, reward, done, _, info = env.step(env.random_actions())
        assert np.isin(reward[done], (-1.0, 0.0, 1.0)).all() and (reward[~done] == 0.0).all()
        ended += int(done.sum())
    assert len(asked) > 150 and ended >= 2

    def cheat(observation: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = env_type(2, players, options, seed=2, opponent=cheat, learner_seat=1)
    with pytest.raises(IllegalAction, match="the opponent returned"):
        env.reset()
