"""Geister's information-state tensor (info_state.py): shapes, only what the seat may know, perfect recall."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import DIRECTIONS, START, square_name, step
from ghostgames.games.geister.encoding import relative_direction
from ghostgames.games.geister.info_state import (
    BAD,
    DIRECTION_BASE,
    GOOD,
    HISTORY,
    LEFT_BOARD,
    PRESENT,
    TOOK_BAD,
    TOOK_GOOD,
    UNKNOWN,
)
from tests.contract_checks import random_positions

GAME = get_game("geister")
RUNS = [({"exit": "escape", "max_plies": 300}, 1), ({"exit": "reach"}, 3), ({"exit": "escape", "disclose": True}, 6)]


def _positions() -> list[GeisterState]:
    out: list[GeisterState] = []
    for options, seed in RUNS:
        for state, _seat, _action in random_positions("geister", 2, options, seed):
            out.append(state.clone())  # type: ignore[arg-type]
    return out


POSITIONS = _positions()


def _same(one: dict[str, np.ndarray], other: dict[str, np.ndarray]) -> bool:
    return one.keys() == other.keys() and all(np.array_equal(one[k], other[k]) for k in one)


def _moves_from_tensor(arrays: dict[str, np.ndarray], seat: int) -> list[str]:
    """The game's move list read back from "history" alone, replayed from the start squares: if this
    gives the true list, nothing of the history was lost (perfect recall)."""
    history = arrays["history"]
    rows = [r for r in range(HISTORY) if history[r, PRESENT]]
    board = {START[owner][k]: owner * 8 + k for owner in (0, 1) for k in range(8)}
    where = {ghost: square for square, ghost in board.items()}
    moves = []
    for r in reversed(rows):
        slot = int(np.argmax(history[r, :16]))
        ghost = (slot & 7) + 8 * (seat if slot < 8 else 1 - seat)
        direction = relative_direction(int(np.argmax(history[r, DIRECTION_BASE : DIRECTION_BASE + 4])), seat)
        origin = where[ghost]
        text = f"{square_name(origin)} {DIRECTIONS[direction]}"
        if history[r, TOOK_GOOD] or history[r, TOOK_BAD]:
            text += " xgood" if history[r, TOOK_GOOD] else " xbad"
        del board[origin]
        if history[r, LEFT_BOARD]:
            del where[ghost]
        else:
            target = step(origin, DIRECTIONS[direction])
            board[target] = ghost
            where[ghost] = target
        moves.append(text)
    return moves


def test_the_arrays_have_the_stated_shapes_dtype_and_range() -> None:
    shapes = GAME.info_state_shapes(2)
    for state in POSITIONS[::4]:
        for seat in (0, 1):
            arrays = state.encode_info_state(seat)
            assert {k: a.shape for k, a in arrays.items()} == shapes
            for array in arrays.values():
                assert array.dtype == np.float32
                assert array.min() >= 0.0 and array.max() <= 1.0
            # the observation is part of it, unchanged
            assert _same({k: arrays[k] for k in ("board", "vector")}, state.encode(seat))


def test_each_ghost_plane_holds_its_own_ghost_so_enemy_ghosts_can_be_told_apart() -> None:
    for state in POSITIONS[::5]:
        for seat in (0, 1):
            planes = state.encode_info_state(seat)["ghosts"]
            board = state.encode(seat)["board"]
            assert np.array_equal(planes[:8].sum(axis=0), board[:3].sum(axis=0))
            assert np.array_equal(planes[8:].sum(axis=0), board[3:].sum(axis=0))
            assert planes.reshape(16, -1).sum(axis=1).max() <= 1.0


def test_the_move_history_reads_back_exactly_perfect_recall() -> None:
    for state in POSITIONS[::3]:
        for seat in (0, 1):
            assert _moves_from_tensor(state.encode_info_state(seat), seat) == state.moves


def test_the_tensor_is_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    rng = random.Random(11)
    for state in POSITIONS[::3]:
        for seat in (0, 1):
            mine = state.encode_info_state(seat)
            for _ in range(3):
                assert _same(mine, state.sample_world(seat, rng).encode_info_state(seat))


def test_swapping_two_hidden_enemy_colours_behind_the_seats_back_changes_nothing_for_it() -> None:
    swapped = 0
    for state in POSITIONS[::7]:
        if not all(state.set_up):
            continue
        for seat in (0, 1):
            hidden = [g for g in range(16) if g >> 3 != seat and not state.colour_known(g, seat)]
            goods = [g for g in hidden if state.good[g]]
            bads = [g for g in hidden if not state.good[g]]
            if not goods or not bads:
                continue
            other = state.clone()
            other.good[goods[0]], other.good[bads[0]] = False, True
            assert _same(state.encode_info_state(seat), other.encode_info_state(seat))
            # the owner knows its colours, so its tensor changes
            assert not _same(state.encode_info_state(1 - seat), other.encode_info_state(1 - seat))
            swapped += 1
    assert swapped > 10


def _played(moves: list[str]) -> GeisterState:
    state: GeisterState = GAME.new(2, {"first": 0}, seed=5)  # type: ignore[assignment]
    state.apply(0, "setup b2 c2 d2 e2")
    state.apply(1, "setup b5 c5 d5 e5")
    for ply, text in enumerate(moves):
        state.apply(ply % 2, text)
    return state


def test_two_histories_to_one_observation_differ_in_the_information_state() -> None:
    """Out and back by different ghosts: the same position and ply, so the same observation (which is
    therefore not Markov), but seat 0 saw different enemy ghosts move."""
    one = _played(["b2 n", "e5 s", "b3 s", "e4 n"])
    other = _played(["c2 n", "d5 s", "c3 s", "d4 n"])
    for seat in (0, 1):
        assert _same(one.encode(seat), other.encode(seat))
        assert not _same(one.encode_info_state(seat), other.encode_info_state(seat))


def test_colours_and_captures_show_per_ghost() -> None:
    state = _played(["b2 n", "e5 s", "b3 n", "e4 s", "b4 n"])  # b4 n takes seat 1's ghost on b5
    info = state.encode_info_state(0)["ghost_info"]
    assert info[0, GOOD] == 1.0 and info[4, BAD] == 1.0  # own ghost 0 (b2) good, ghost 4 (b1) bad
    taken = 8 + [square_name(s) for s in START[1]].index("b5")  # the enemy ghost that started on b5
    assert info[taken, GOOD] + info[taken, BAD] == 1.0  # its colour shown at the capture
    assert info[8:, UNKNOWN].sum() == 7.0  # the others stay unknown
    history = state.encode_info_state(0)["history"]
    assert history[0, 0] == 1.0 and history[0, TOOK_GOOD] + history[0, TOOK_BAD] == 1.0


def test_a_spectator_has_no_information_state() -> None:
    with pytest.raises(ValueError):
        GAME.encode_info_state(POSITIONS[0].view(None))
