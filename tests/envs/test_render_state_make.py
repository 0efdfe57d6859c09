"""PettingZoo's render_test and state tests, the global `state()` and its secrets, and the ids of
`gymnasium.make` and `make_vec`."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.test.state_test import test_state_space as state_space_test

from ghostgames.envs import GhostGamesAEC, GhostGamesSolo
from ghostgames.envs.registration import IDS, VECTORS
from tests.envs.test_aec import SETTINGS


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_pettingzoo_render_test_passes_and_human_mode_prints(game: str, players: int, options: dict[str, Any],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> GhostGamesAEC:
        return GhostGamesAEC(game, players, options, render_mode=render_mode)

    render_test(make)
    assert capsys.readouterr().out.strip()  # human mode printed its renders
    shown, printed = make("ansi"), make("human")
    shown.reset(seed=2)
    printed.reset(seed=2)
    text = shown.render()
    assert isinstance(text, str) and text.strip()
    assert printed.render() is None and capsys.readouterr().out == text  # the same text, printed


def test_geister_renders_the_board_without_secrets() -> None:
    env = GhostGamesAEC("geister", 2, render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter(2):  # both seats set up
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    text = env.render()
    assert text is not None and "a  b  c  d  e  f" in text
    assert "G" not in text and "B" not in text and "?" in text  # a spectator sees no colour


def test_solo_human_mode_prints_the_learners_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = GhostGamesSolo("thelast", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert '"seat": 0' in capsys.readouterr().out
    with pytest.raises(ValueError, match="'human'"):
        GhostGamesSolo("thelast", render_mode="rgb_array")


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_pettingzoo_state_tests_pass(game: str, players: int, options: dict[str, Any]) -> None:
    env = GhostGamesAEC(game, players, options)
    state_space_test(env)
    state_test(env, num_cycles=30)


@pytest.mark.parametrize(("game", "players", "options"), SETTINGS)
def test_state_is_every_seats_observation_and_so_holds_every_secret(game: str, players: int,
                                                                     options: dict[str, Any]) -> None:
    env = GhostGamesAEC(game, players, options)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter(3 * players):
        if env.terminations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    live = env.game_state
    assert live is not None
    expected = np.concatenate([array.ravel() for seat in range(players)
                               for array in live.encode(seat).values()])
    state = env.state()
    assert state.dtype == np.float32 and env.state_space.contains(state)
    assert np.array_equal(state, expected)
    # A world seat 0 cannot tell from this one: its observation is the same, the global state is not
    # whenever another seat's secrets differ there.
    world = live.sample_world(0, random.Random(1))
    assert all(np.array_equal(a, b) for a, b in zip(live.encode(0).values(), world.encode(0).values(),
                                                   strict=True))
    others = [np.concatenate([a.ravel() for a in w.encode(s).values()])
              for w in (live, world) for s in range(1, players)]
    differs = any(not np.array_equal(x, y) for x, y in zip(others[: players - 1], others[players - 1:], strict=True))
    env.game_state = world
    assert differs == (not np.array_equal(env.state(), state))


def test_state_before_reset_says_so() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        GhostGamesAEC("thelast", 2).state()


@pytest.mark.parametrize(("env_id", "game"), sorted(IDS.items()))
def test_gymnasium_make_builds_the_one_seat_environment(env_id: str, game: str) -> None:
    env = gymnasium.make(env_id, opponents="rules", render_mode="ansi")
    assert isinstance(env.unwrapped, GhostGamesSolo) and env.unwrapped.game.name == game
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    _, reward, terminated, truncated, _ = env.step(action)
    assert reward in (-1.0, 0.0, 1.0) and not truncated and (terminated or reward == 0.0)
    assert isinstance(env.render(), str)
    env.close()


@pytest.mark.parametrize(("env_id", "game", "options"), [
    ("ghostgames/Geister-v0", "geister", {"exit": "escape"}), ("ghostgames/Ghooost-v0", "ghooost", {}),
    ("ghostgames/TheLast-v0", "thelast", {})])
def test_gymnasium_make_vec_builds_the_batched_environment(env_id: str, game: str, options: dict[str, Any]) -> None:
    env = gymnasium.make_vec(env_id, num_envs=3, options=options, seed=4, opponent="rules", learner_seat="alternate")
    assert type(env).__name__ == VECTORS[game].split(":")[1] and env.num_envs == 3
    assert env.spec is not None and env.spec.id == env_id and env.spec.kwargs["opponent"] == "rules"
    obs, info = env.reset()
    seats = getattr(env, "players", 2)
    assert env.observation_space.contains(obs) and info["seat"].tolist() == [0, 1, 2 % seats]
    _, reward, terminated, truncated, _ = env.step(env.random_actions())  # type: ignore[attr-defined]
    assert reward.shape == terminated.shape == truncated.shape == (3,)
    one_seat = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", opponents="rules")
    assert type(one_seat).__name__ == "SyncVectorEnv"  # Gymnasium's own vectorising of the one-seat env
    one_seat.close()


def test_gymnasium_make_imports_the_package_itself_in_a_fresh_process() -> None:
    script = ("import gymnasium\nenv = gymnasium.make('ghostgames.envs:ghostgames/TheLast-v0')\n"
              "print(type(env.unwrapped).__name__, env.unwrapped.game.name)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["GhostGamesSolo", "thelast"], run.stderr
