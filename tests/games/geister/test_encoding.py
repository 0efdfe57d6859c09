"""Geister's action index space and observation encoding (layout: ghostgames.games.geister.encoding)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.actions import Move, Setup
from ghostgames.games.geister.board import START, parse_square
from ghostgames.games.geister.encoding import ACTION_COUNT, ENEMY_BAD, ENEMY_GOOD, ENEMY_UNKNOWN, OWN_BAD, OWN_GOOD
from ghostgames.rules import IllegalAction
from tests.contract_checks import random_positions
from tests.games.geister.positions import position

GAME = get_game("geister")
RUNS: list[tuple[dict[str, Any], int]] = [
    ({"exit": "escape", "max_plies": 300}, 1),
    ({"exit": "escape"}, 2),
    ({"exit": "reach"}, 3),
    ({"exit": "escape", "max_plies": 60, "disclose": True}, 4),
    ({"exit": "reach", "disclose": True, "first": 1}, 5),
    ({"exit": "escape", "disclose": True}, 6),
]


def _positions() -> list[GeisterState]:
    """Clones of every position (and the final one) of several random games."""
    out: list[GeisterState] = []
    for options, seed in RUNS:
        state = None
        for state, _seat, _action in random_positions("geister", 2, options, seed):
            out.append(state.clone())  # type: ignore[arg-type]
        assert state is not None
        last = GAME.new(2, options, seed=seed)
        rng = random.Random(seed)
        while last.to_act():  # the same game played to its end, as random_positions plays it
            seat = rng.choice(sorted(last.to_act()))
            last.apply(seat, rng.choice(last.legal_actions(seat)))
        out.append(last)  # type: ignore[arg-type]
    return out


POSITIONS = _positions()


def test_every_index_round_trips_for_both_seats() -> None:
    assert GAME.action_count(2) == ACTION_COUNT == 214
    for seat in (0, 1):
        actions = [GAME.action_at(i, seat) for i in range(ACTION_COUNT)]
        assert len(set(actions)) == ACTION_COUNT
        assert all(GAME.action_index(a, seat) == i for i, a in enumerate(actions))
        assert all(isinstance(a, Setup) for a in actions[:70])
        assert all(isinstance(a, Move) for a in actions[70:])


def test_every_legal_action_has_its_own_index_and_round_trips() -> None:
    escapes = 0
    for state in POSITIONS:
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            indices = [GAME.action_index(a, seat) for a in legal]
            assert all(0 <= i < ACTION_COUNT for i in indices)
            assert len(set(indices)) == len(indices)
            assert [GAME.action_at(i, seat) for i in indices] == legal
            escapes += sum(1 for a in legal if isinstance(a, Move) and a.target < 0)
    assert escapes > 0, "the runs should reach escape moves so their indices are checked too"


def test_legal_mask_is_true_exactly_at_the_legal_indices() -> None:
    for state in POSITIONS:
        for seat in (0, 1):
            mask = state.legal_mask(seat)
            assert mask.shape == (ACTION_COUNT,) and mask.dtype == np.bool_
            legal = state.legal_actions(seat)
            assert int(mask.sum()) == len(legal)
            assert all(mask[GAME.action_index(a, seat)] for a in legal)


def test_encode_has_the_stated_shapes_dtype_and_range() -> None:
    shapes = GAME.observation_shapes(2)
    assert shapes == {"board": (6, 6, 6), "vector": (24,)}
    for state in POSITIONS:
        for seat in (0, 1):
            arrays = state.encode(seat)
            assert {k: v.shape for k, v in arrays.items()} == shapes
            for value in arrays.values():
                assert value.dtype == np.float32
                assert np.isfinite(value).all()
                assert value.min() >= 0.0 and value.max() <= 1.0
            # one plane per ghost on the board: no square is marked twice
            assert arrays["board"].sum(axis=0).max() <= 1.0


def test_encoding_is_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    rng = random.Random(7)
    for state in POSITIONS[::3]:
        for seat in (0, 1):
            mine = state.encode(seat)
            for _ in range(3):
                world = state.sample_world(seat, rng)
                theirs = world.encode(seat)
                assert all(np.array_equal(mine[k], theirs[k]) for k in mine)


def test_encoding_changes_between_positions() -> None:
    first = POSITIONS[0].encode(0)
    later = POSITIONS[40].encode(0)
    assert not all(np.array_equal(first[k], later[k]) for k in first)
    distinct = {POSITIONS[i].encode(0)["board"].tobytes() for i in range(0, 200, 5)}
    assert len(distinct) > 10


def test_action_at_rejects_indices_out_of_range() -> None:
    for bad in (-1, ACTION_COUNT):
        with pytest.raises(IllegalAction, match="0 to 213"):
            GAME.action_at(bad, 0)


def test_a_setup_on_another_seats_squares_has_no_index() -> None:
    with pytest.raises(IllegalAction):
        GAME.action_index(Setup(frozenset(START[1][:4])), 0)


def test_setup_indices_count_ghost_numbers_so_index_0_is_the_front_row_for_both_seats() -> None:
    assert GAME.action_at(0, 0) == Setup(frozenset(parse_square(s) for s in ("b2", "c2", "d2", "e2")))
    assert GAME.action_at(0, 1) == Setup(frozenset(parse_square(s) for s in ("b5", "c5", "d5", "e5")))
    assert GAME.action_at(69, 1) == Setup(frozenset(parse_square(s) for s in ("b6", "c6", "d6", "e6")))


def test_seat_1_sees_the_board_turned_so_its_escape_from_a1_is_index_of_relative_f6_north() -> None:
    # relative square 35 (f6 for seat 0) is a1 for seat 1; relative north is absolute south for seat 1
    assert str(GAME.action_at(70 + 35 * 4 + 0, 0)) == "f6 n"
    assert str(GAME.action_at(70 + 35 * 4 + 0, 1)) == "a1 s"
    assert str(GAME.action_at(70 + 7 * 4 + 1, 1)) == "e5 w"  # relative b2 east = absolute e5 west


def _mirrored(state: GeisterState) -> GeisterState:
    """The same position with the seats swapped and the board turned 180 degrees."""
    data = state.to_json()
    pos = [0] * 16
    good: list[bool | None] = [None] * 16
    for g in range(16):
        pos[g ^ 8] = 35 - data["pos"][g] if data["pos"][g] >= 0 else data["pos"][g]
        good[g ^ 8] = data["good"][g]
    outcome = data["outcome"]
    if outcome is not None:
        outcome = {**outcome, "results": outcome["results"][::-1]}
    mirrored = {
        **data,
        "first": 1 - data["first"],
        "turn": 1 - data["turn"],
        "pos": pos,
        "good": good,
        "set_up": data["set_up"][::-1],
        "moves": [],
        "outcome": outcome,
    }
    loaded = GAME.load(mirrored)
    assert isinstance(loaded, GeisterState)
    return loaded


def test_one_network_serves_both_seats_a_mirrored_position_encodes_identically_for_the_other_seat() -> None:
    for state in POSITIONS[::2]:
        mirror = _mirrored(state)
        for seat in (0, 1):
            mine, theirs = state.encode(seat), mirror.encode(1 - seat)
            assert all(np.array_equal(mine[k], theirs[k]) for k in mine)
            assert np.array_equal(state.legal_mask(seat), mirror.legal_mask(1 - seat))


def test_own_ghost_colours_show_on_the_own_planes_at_the_own_back_row() -> None:
    state = position({"b1": (0, "good"), "c1": (0, "bad"), "e6": (1, "good"), "d6": (1, "bad"), "c3": (1, "bad")})
    mine = state.encode(0)["board"]
    assert mine[OWN_GOOD, 0, 1] == 1 and mine[OWN_BAD, 0, 2] == 1
    assert mine[ENEMY_UNKNOWN, 5, 4] == 1 and mine[ENEMY_UNKNOWN, 5, 3] == 1 and mine[ENEMY_UNKNOWN, 2, 2] == 1
    assert mine[ENEMY_GOOD].sum() == 0 and mine[ENEMY_BAD].sum() == 0
    theirs = state.encode(1)["board"]  # seat 1's e6 is its relative b1
    assert theirs[OWN_GOOD, 0, 1] == 1 and theirs[OWN_BAD, 0, 2] == 1 and theirs[OWN_BAD, 3, 3] == 1


def test_a_capture_shows_the_captured_colour_in_the_counts() -> None:
    state = position({"c3": (0, "good"), "c4": (1, "bad"), "a1": (0, "bad"), "f6": (1, "good")}, turn=0)
    before = state.encode(0)["vector"]
    state.apply(0, "c3 n")
    mine, theirs = state.encode(0)["vector"], state.encode(1)["vector"]
    assert mine[16] - before[16] == pytest.approx(0.25)  # enemy bad ghosts we captured
    assert theirs[14] - before[14] == pytest.approx(0.25)  # own bad ghosts lost, as seat 1 sees it
    assert mine[18] < before[18]


def test_disclosed_colours_show_at_the_end() -> None:
    state = position(
        {"c3": (0, "good"), "c4": (1, "good"), "e5": (1, "bad"), "a5": (0, "good")},
        turn=0,
        options={"disclose": True},
    )
    state.apply(0, "a5 n")  # a good ghost reaches the exit a6: seat 0 wins
    board, vector = state.encode(0)["board"], state.encode(0)["vector"]
    assert vector[2] == 1 and vector[21] == 1
    assert board[ENEMY_GOOD, 3, 2] == 1 and board[ENEMY_BAD, 4, 4] == 1
    assert state.encode(1)["vector"][22] == 1


def test_a_spectator_view_is_refused() -> None:
    with pytest.raises(ValueError):
        GAME.encode_view(POSITIONS[0].view(None))
