"""The batched Geister environment (envs/vector.py) against reference GeisterStates played alongside."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from ghostgames.envs.vector import GeisterVectorEnv, most_threads
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import START
from ghostgames.rules import IllegalAction

GAME = get_game("geister")


@pytest.mark.parametrize(
    "options",
    [{"exit": "escape", "max_plies": 40}, {"exit": "reach", "disclose": True}, {"exit": "escape", "first": 1}],
)
def test_each_game_observes_exactly_what_the_reference_encodes_for_its_seat_to_act(options: dict[str, Any]) -> None:
    env = GeisterVectorEnv(12, options, seed=3, threads=1)
    obs, info = env.reset()
    mirrors = [env.state(i) for i in range(env.num_envs)]
    assert all(m.pos == [START[g >> 3][g & 7] for g in range(16)] and not any(m.set_up) for m in mirrors)
    finished = 0
    for _ in range(250):
        for i, mirror in enumerate(mirrors):
            seat = int(info["seat"][i])
            assert seat == min(mirror.to_act())
            expected = mirror.encode(seat)
            np.testing.assert_array_equal(obs["observation"]["board"][i], expected["board"])
            np.testing.assert_array_equal(obs["observation"]["vector"][i], expected["vector"])
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), mirror.legal_mask(seat))
        actions = env.random_actions()
        for i, mirror in enumerate(mirrors):
            seat = int(info["seat"][i])
            mirror.apply(seat, GAME.action_at(int(actions[i]), seat))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        np.testing.assert_array_equal(info["autoreset"], terminated)
        for i, mirror in enumerate(mirrors):
            outcome = mirror.outcome()
            assert bool(terminated[i]) == (outcome is not None)
            if outcome is None:
                assert rewards[i].tolist() == [0.0, 0.0] and info["winner"][i] == -1
                continue
            finished += 1
            assert rewards[i].tolist() == [{"win": 1.0, "loss": -1.0, "draw": 0.0}[r.result] for r in outcome.results]
            fresh = env.state(i)  # the game that started in its place
            assert fresh.ply == 0 and not any(fresh.set_up) and obs["observation"]["vector"][i][0] == 1.0
            mirrors[i] = fresh
    assert finished >= 6  # games end (and restart) within the run


def test_a_seed_repeats_every_game_and_another_seed_does_not() -> None:
    def run(seed: int) -> list[np.ndarray[Any, Any]]:
        env = GeisterVectorEnv(8, {"exit": "escape"}, seed=seed, threads=1)
        env.reset()
        out = []
        for _ in range(60):
            actions = env.random_actions()
            out.append(actions)
            env.step(actions)
        return out

    same = run(7), run(7)
    assert all((a == b).all() for a, b in zip(*same, strict=True))
    assert any((a != b).any() for a, b in zip(run(7), run(8), strict=True))


def test_threads_do_not_change_the_games() -> None:
    def run(threads: int) -> np.ndarray[Any, Any]:
        env = GeisterVectorEnv(64, {"exit": "reach"}, seed=5, threads=threads, copy=False)
        env.reset()
        for _ in range(80):
            env.step(env.random_actions())
        return env._states.copy()

    np.testing.assert_array_equal(run(1), run(most_threads()))


def test_the_environment_gives_numbas_thread_count_back_after_each_call() -> None:
    """numba's thread count belongs to the whole process: the environment sets its own only for its calls."""
    most = most_threads()
    if most < 2:
        pytest.skip("numba may use one thread here: there is no other count to give back")
    env = GeisterVectorEnv(4, seed=1, threads=1)
    numba.set_num_threads(most)
    try:
        env.reset()
        assert numba.get_num_threads() == most
        env.step(env.random_actions())
        assert numba.get_num_threads() == most
    finally:
        numba.set_num_threads(most)


def test_bad_actions_are_refused_saying_what_would_work_and_change_nothing() -> None:
    env = GeisterVectorEnv(4, seed=1, threads=1)
    env.reset()
    before = env._states.copy()
    with pytest.raises(ValueError, match=r"integer array of shape \(4,\), not shape \(3,\)"):
        env.step([70, 70, 70])
    with pytest.raises(TypeError, match=r"action indices are integers .* not float64"):
        env.step(np.zeros(4))
    with pytest.raises(ValueError, match=r"game 2: action index 214 is outside 0..213"):
        env.step([0, 0, 214, 0])
    setups = env.random_actions()
    illegal = setups.copy()
    illegal[1] = 100  # a move while the ghosts are not placed yet
    with pytest.raises(IllegalAction, match=r"game 1: action 100 is not legal for seat 0 now .* legal there: 0, 1, 2"):
        env.step(illegal)
    np.testing.assert_array_equal(env._states, before)
    env.step(setups)  # the refused calls lost nothing: the same step still works


def test_bad_settings_are_refused_when_the_environment_is_made() -> None:
    with pytest.raises(ValueError, match="num_envs is a whole number of games, at least 1"):
        GeisterVectorEnv(0)
    with pytest.raises(ValueError, match=r"bad Geister options .*exit"):
        GeisterVectorEnv(2, {"exit": "fly"})
    with pytest.raises(ValueError, match="threads is 1 to"):
        GeisterVectorEnv(2, threads=0)
    with pytest.raises(RuntimeError, match="call reset"):
        GeisterVectorEnv(2).step([0, 0])


def test_observations_lie_in_the_gymnasium_spaces_of_the_other_environments() -> None:
    env = GeisterVectorEnv(3, seed=2)
    obs, _ = env.reset()
    for _ in range(20):
        obs, *_ = env.step(env.random_actions())
    space = env.single_observation_space
    for i in range(3):
        single = {"observation": {k: v[i] for k, v in obs["observation"].items()}, "action_mask": obs["action_mask"][i]}
        assert space.contains(single)
    assert env.single_action_space.n == 214


def test_a_mirror_is_a_real_reference_state() -> None:
    env = GeisterVectorEnv(1, seed=4)
    env.reset()
    assert isinstance(env.state(0), GeisterState)
    with pytest.raises(IndexError, match="game index is 0 to 0"):
        env.state(1)


def test_the_rollout_example_in_docs_learning_md_runs_and_finishes_games(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "learning.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    [example] = [b for b in blocks if "GeisterVectorEnv(" in b]
    exec(compile(example, "docs/learning.md", "exec"), {})
    won = capsys.readouterr().out
    match = re.search(r"seat 0 and seat 1: \[(\d+)\.? +(\d+)\.?\]", won)
    assert match and int(match[1]) + int(match[2]) > 0, won
