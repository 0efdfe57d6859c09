"""The Gymnasium environment: Gymnasium's own checker, complete games against bots, rewards, and clear
errors for bad settings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ghostgames.envs import GhostGamesSolo

SETTINGS = [
    ("geister", 2, {"exit": "escape", "max_plies": 120}),
    ("ghooost", 3, {"match": False, "max_turns": 200}),
    ("thelast", 2, {"rounds": 1}),
    ("thelast", 4, {"rounds": 1}),
]


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_gymnasium_env_checker_passes(game: str, players: int, options: dict[str, Any]) -> None:
    check_env(GhostGamesSolo(game, players, options=options), skip_render_check=True)


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_gymnasium_env_checker_passes_with_the_information_state(game: str, players: int,
                                                                 options: dict[str, Any]) -> None:
    env = GhostGamesSolo(game, players, options=options, observation="info_state")
    check_env(env, skip_render_check=True)
    observation, _ = env.reset(seed=2)
    assert env.observation_space.contains(observation)
    assert env.state is not None
    expected = env.state.encode_info_state(0)
    assert observation["observation"].keys() == expected.keys() != env.state.encode(0).keys()
    assert all(np.array_equal(observation["observation"][k], expected[k]) for k in expected)


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_the_learner_plays_a_whole_game_against_bots_and_gets_its_result(game: str, players: int,
                                                                         options: dict[str, Any]) -> None:
    env = GhostGamesSolo(game, players, seat=players - 1, opponents="rules", options=options)
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(5_000):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break
        assert reward == 0.0 and not truncated
    else:
        pytest.fail("the game did not end")
    result = info["outcome"]["results"][players - 1]["result"]
    assert reward == {"win": 1.0, "loss": -1.0, "draw": 0.0}[result]
    assert not observation["action_mask"].any()  # nothing left to do


def test_the_bots_act_until_the_learner_is_to_move() -> None:
    env = GhostGamesSolo("thelast", 4, seat=2)
    env.reset(seed=2)
    assert env.state is not None
    assert 2 in env.state.to_act()


def test_an_illegal_index_loses_the_game_for_the_learner() -> None:
    env = GhostGamesSolo("geister", 2)
    observation, _ = env.reset(seed=4)
    bad = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1.0 and "not legal" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(bad)


def test_bad_settings_are_refused_with_what_would_work() -> None:
    with pytest.raises(ValueError, match="seat is 0 to 1"):
        GhostGamesSolo("geister", 2, seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        GhostGamesSolo("thelast", 4, opponents=["random", "rules"])
    with pytest.raises(KeyError, match="choose one of"):
        GhostGamesSolo("geister", 2, opponents="grandmaster")
    with pytest.raises(ValueError, match="'view'"):
        GhostGamesSolo("geister", 2, observation="history")  # type: ignore[arg-type]
