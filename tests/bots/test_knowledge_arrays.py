"""`SeatKnowledge.encode()` / `legal_mask()`: the environments' arrays, made from what the seat knows."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge
from ghostgames.envs.common import observe
from ghostgames.games import get_game
from ghostgames.rules.contract import State


def states(game: str, plies: int = 12) -> Iterator[tuple[State[Any], int]]:
    state = get_game(game).new(2, seed=11)
    rng = random.Random(5)
    for _ in range(plies):
        if state.is_over():
            break
        seat = min(state.to_act())
        yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("game", ["geister", "ghooost", "thelast"])
def test_encode_and_mask_are_the_environment_arrays_and_the_mask_marks_exactly_the_legal_actions(game: str) -> None:
    for state, seat in states(game):
        knowledge = SeatKnowledge(state, seat)
        env_obs = observe(state, seat)
        encoded = knowledge.encode()
        assert encoded.keys() == env_obs["observation"].keys()
        for name, array in encoded.items():
            assert array.dtype == np.float32 and array.shape == state.game.observation_shapes(2)[name]
            assert np.array_equal(array, env_obs["observation"][name])
        mask = knowledge.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (state.game.action_count(2),)
        assert np.array_equal(mask.astype(np.int8), env_obs["action_mask"])
        chosen = sorted(str(knowledge.action_at(int(i))) for i in np.flatnonzero(mask))
        assert chosen == sorted(str(a) for a in knowledge.legal_actions())


@pytest.mark.parametrize("game", ["geister", "ghooost", "thelast"])
def test_encode_is_the_same_in_every_world_the_seat_cannot_tell_apart(game: str) -> None:
    rng = random.Random(3)
    for state, seat in states(game, 6):
        knowledge = SeatKnowledge(state, seat)
        world = SeatKnowledge(knowledge.sample_world(rng), seat)
        for name, array in knowledge.encode().items():
            assert np.array_equal(array, world.encode()[name])
        assert np.array_equal(knowledge.legal_mask(), world.legal_mask())


@pytest.mark.parametrize("game", ["geister", "ghooost", "thelast"])
def test_the_information_state_is_the_environments_and_the_same_in_every_world(game: str) -> None:
    rng = random.Random(4)
    for state, seat in states(game):
        knowledge = SeatKnowledge(state, seat)
        env_obs = observe(state, seat, "info_state")["observation"]
        world = SeatKnowledge(knowledge.sample_world(rng), seat).encode_info_state()
        mine = knowledge.encode_info_state()
        assert mine.keys() == env_obs.keys() == world.keys() == state.game.info_state_shapes(2).keys()
        assert all(np.array_equal(mine[k], env_obs[k]) and np.array_equal(mine[k], world[k]) for k in mine)
