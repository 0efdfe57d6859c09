"""The PettingZoo environment: PettingZoo's own API test, complete games through masks, rewards from the
outcome, what an illegal index does, and seeded resets."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from ghostgames.envs import GhostGamesAEC
from ghostgames.rules.contract import IllegalAction

SETTINGS = [
    ("geister", 2, {"exit": "escape", "max_plies": 120}),
    ("ghooost", 2, {"match": False, "max_turns": 200}),
    ("ghooost", 4, {"match": False, "max_turns": 200}),
    ("thelast", 2, {"rounds": 1}),
    ("thelast", 3, {"rounds": 1}),
]


def play_out(env: GhostGamesAEC, rng: np.random.Generator) -> dict[str, float]:
    """Masked random play to the end; returns each agent's total reward."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size > 0, f"{agent} is to act with no legal action"
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_pettingzoo_api_test_passes(game: str, players: int, options: dict[str, Any]) -> None:
    api_test(GhostGamesAEC(game, players, options), num_cycles=300)


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_pettingzoo_api_test_passes_with_the_information_state(game: str, players: int,
                                                               options: dict[str, Any]) -> None:
    env = GhostGamesAEC(game, players, options, observation="info_state")
    api_test(env, num_cycles=100)
    env.reset(seed=4)
    assert env.game_state is not None
    for agent in env.possible_agents:
        seat = int(agent.removeprefix("seat_"))
        observed = env.observe(agent)["observation"]
        expected = env.game_state.encode_info_state(seat)
        assert env.observation_space(agent)["observation"].keys() == expected.keys()
        assert all(np.array_equal(observed[k], expected[k]) for k in expected)


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_a_masked_random_game_ends_and_pays_each_seat_its_result(game: str, players: int,
                                                                 options: dict[str, Any]) -> None:
    env = GhostGamesAEC(game, players, options)
    env.reset(seed=3)
    state = env.game_state
    assert state is not None
    totals = play_out(env, np.random.default_rng(3))
    outcome = state.outcome()
    assert outcome is not None
    expected = {"win": 1.0, "loss": -1.0, "draw": 0.0}
    assert totals == {f"seat_{s}": expected[r.result] for s, r in enumerate(outcome.results)}
    assert env.agents == []  # every agent left after its dead step


def test_an_illegal_index_ends_the_game_and_the_offender_loses() -> None:
    env = GhostGamesAEC("geister", 2, {"exit": "escape"})
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    offender = env.agent_selection
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0 and sum(env.rewards.values()) == -1.0
    assert "not legal" in env.infos[offender]["illegal_action"]


def test_with_illegal_raise_a_bad_index_is_an_error_that_names_legal_actions() -> None:
    env = GhostGamesAEC("geister", 2, illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match=r"legal are e\.g\. setup"):
        env.step(env.game.action_count(2) - 1)  # a move during the setup
    with pytest.raises(IllegalAction, match=r"range|index"):
        env.step(env.game.action_count(2))


def test_reset_with_the_same_seed_repeats_the_game() -> None:
    def first_observations(seed: int) -> list[np.ndarray]:
        env = GhostGamesAEC("thelast", 3)
        env.reset(seed=seed)
        arrays = [env.observe(agent)["observation"] for agent in env.possible_agents]
        return [np.concatenate([a[name].ravel() for name in sorted(a)]) for a in arrays]

    assert all(np.array_equal(a, b) for a, b in zip(first_observations(9), first_observations(9), strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first_observations(9), first_observations(10), strict=True))


def test_bad_settings_are_refused_with_what_would_work() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GhostGamesAEC("ghooost", 7)
    with pytest.raises(ValueError, match="exit"):
        GhostGamesAEC("geister", 2, {"exit": "fly"})
    with pytest.raises(KeyError, match="geister"):
        GhostGamesAEC("chess", 2)
