"""Helpers of the batched card environments' tests: one game's arrays of a batch, arrays compared by name, and
a batch played alongside reference states."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ghostgames.envs.common import rewards


def single(obs: dict[str, Any], i: int) -> dict[str, Any]:
    """Game i's named observation arrays of a batched observation."""
    return {name: array[i] for name, array in obs["observation"].items()}


def assert_same_arrays(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for name, array in want.items():
        np.testing.assert_array_equal(got[name], array, err_msg=name)


def play_alongside(env: Any, reference_of: Callable[[Any], Any], result_of: Callable[[Any], list[int]],
                   steps: int) -> int:
    """Self-play `env` with random actions for `steps` steps while a reference state of each game plays the
    same actions: at every step each game shows the reference's encoding and mask for the seat to act, and
    a game ends when its reference does, with the reference's rewards, last observation and result
    (`result_of(state)`, what the env reports under `env.ended`). A game that ends is mirrored again from the
    env's row (`reference_of(row)`: the reference of a game just dealt). Returns how many games ended."""
    obs, info = env.reset()
    mirrors = [reference_of(env.row(i)) for i in range(env.num_envs)]
    ended = 0
    for _ in range(steps):
        for i, state in enumerate(mirrors):
            seat = min(state.to_act())
            assert info["seat"][i] == seat
            assert_same_arrays(single(obs, i), state.encode(seat))
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), state.legal_mask(seat))
        actions = env.random_actions()
        obs, reward, done, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, state in enumerate(mirrors):
            seat = min(state.to_act())
            state.apply(seat, state.game.action_at(int(actions[i]), seat))
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
            assert list(info["final_info"][env.ended][i]) == result_of(state)
            mirrors[i] = reference_of(env.row(i))
    return ended
