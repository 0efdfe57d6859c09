"""The Last's information-state tensor (info_state.py): shapes, only what the seat may know, the round kept."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.thelast.cards import CARD_NAMES
from ghostgames.games.thelast.encoding import participant_count
from ghostgames.games.thelast.info_state import INFO_FIXED, TRICKS
from ghostgames.games.thelast.state import TheLastState
from tests import contract_checks as checks

GAME = get_game("thelast")
ALL_COUNTS = pytest.mark.parametrize("players", [2, 3, 4, 5])


def positions(players: int, seed: int = 4) -> Iterator[TheLastState]:
    for state, _seat, _action in checks.random_positions("thelast", players, {"rounds": 2}, seed * 10 + players):
        assert isinstance(state, TheLastState)
        yield state


def _same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return one.keys() == other.keys() and all(np.array_equal(one[k], other[k]) for k in one)


@ALL_COUNTS
def test_the_arrays_have_the_stated_shapes_dtype_and_range_and_hold_the_observation(players: int) -> None:
    shapes = GAME.info_state_shapes(players)
    for state in positions(players):
        for seat in range(players):
            arrays = state.encode_info_state(seat)
            assert {k: a.shape for k, a in arrays.items()} == shapes
            assert all(a.dtype == np.float32 and a.min() >= 0.0 and a.max() <= 1.0 for a in arrays.values())
            observation = state.encode(seat)
            assert _same({k: arrays[k] for k in observation}, observation)


@ALL_COUNTS
def test_every_trick_of_the_round_reads_back_in_its_order_of_play(players: int) -> None:
    m = participant_count(players)
    checked = 0
    for state in positions(players):
        seat = 1
        view = state.view(seat)
        arrays = state.encode_info_state(seat)
        # slot order: this seat, the next seats by number, then (2 players) the ghost
        by_slot: list[int | str] = [(seat + i) % players for i in range(players)] + ["ghost"] * (m - players)
        for t in range(TRICKS):
            info = arrays["trick_info"][t]
            if t >= len(view["tricks"]):
                assert not info.any() and not arrays["trick_plays"][t].any()
                continue
            trick = view["tricks"][t]
            leader = by_slot[int(np.argmax(info[:m]))]
            order = view["order"]
            start = order.index(leader)
            played = [
                {"who": who, "card": CARD_NAMES[int(np.argmax(arrays["trick_plays"][t, by_slot.index(who)]))]}
                for who in order[start:] + order[:start]
            ]
            assert leader == trick["leader"] and played == trick["plays"]
            assert by_slot[int(np.argmax(info[m : 2 * m]))] == trick["winner"]
            assert CARD_NAMES[int(np.argmax(info[2 * m : 2 * m + 48]))] == trick["points"]
            assert info[2 * m + 48] == (trick["taken"] == "keep") and info[2 * m + 49] == (trick["taken"] == "swap")
            checked += 1
    assert checked > 20
    assert INFO_FIXED == 51


@ALL_COUNTS
def test_the_tensor_is_the_same_in_every_world_the_seat_cannot_tell_apart(players: int) -> None:
    rng = random.Random(5)
    for step, state in enumerate(positions(players)):
        if step % 4:
            continue
        for seat in range(players):
            mine = state.encode_info_state(seat)
            assert _same(mine, state.sample_world(seat, rng).encode_info_state(seat))


@ALL_COUNTS
def test_every_step_a_seat_sees_changes_its_tensor(players: int) -> None:
    """Every play, keep and swap is done in the open, so each one is new knowledge for every seat."""
    previous: list[dict[str, Any]] | None = None
    for state in positions(players):
        now = [state.encode_info_state(seat) for seat in range(players)]
        if previous is not None:
            assert all(not _same(a, b) for a, b in zip(previous, now, strict=True))
        previous = now


def test_the_observation_forgets_the_order_of_the_tricks_and_the_information_state_does_not() -> None:
    """Two finished tricks in the other order: the same observation (so it is not Markov: who led and who
    could not follow is lost), a different information state."""
    for state in positions(3):
        view = state.view(0)
        if len(view["tricks"]) >= 2 and view["tricks"][0]["plays"] != view["tricks"][1]["plays"]:
            break
    else:
        raise AssertionError("no position with two finished tricks")
    other = dict(view, tricks=[view["tricks"][1], view["tricks"][0], *view["tricks"][2:]])
    assert _same(GAME.encode_view(view), GAME.encode_view(other))
    assert not _same(GAME.encode_info_state(view), GAME.encode_info_state(other))
