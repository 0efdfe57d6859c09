"""The compiled Geister core (games/geister/fast.py) against the reference GeisterState: driven side by side
through random games and random near-terminal positions, both exit rules, both seats, the ply cap. At every
position both engines must give the same legal moves in the same order, the same observation and mask for
each seat and the same outcome; every legal move must give the same next position (the whole fast row,
compared with the reference's) and capture the same ghost.

The normal suite drives a few thousand positions; `pytest -m slow` drives more than 100,000.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState, fast
from ghostgames.games.geister.actions import MOVES, Move
from ghostgames.games.geister.board import DIRECTIONS, EXITS, START, square_name
from tests.games.geister.positions import position

GAME = get_game("geister")
SCRATCH = np.empty(fast.MAX_MOVES, dtype=np.int32)


def code_of(move: Move) -> int:
    return move.origin * 4 + DIRECTIONS.index(move.direction)


def move_of(code: int) -> Move:
    return MOVES[code >> 2][DIRECTIONS[code & 3]]


def random_options(rng: random.Random) -> dict[str, Any]:
    """Both exit rules, with and without a (sometimes very short) move limit, disclose on and off."""
    return {
        "exit": rng.choice(("reach", "escape")),
        "max_plies": rng.choice((None, 300, rng.randint(1, 40))),
        "disclose": rng.random() < 0.5,
        "first": rng.choice((None, 0, 1)),
    }


def scattered_position(rng: random.Random) -> GeisterState:
    """A random mid- or end-game position: 1-4 good and 1-4 bad ghosts left per side (one capture from
    the end, often), anywhere on the board (exit corners too), either seat to move, the ply near the limit."""
    options = random_options(rng)
    squares = rng.sample(range(36), 16)
    pos = [-1] * 16
    good: list[bool | None] = [None] * 16
    for seat in (0, 1):
        colours = [True] * 4 + [False] * 4
        rng.shuffle(colours)
        keep_good, keep_bad = rng.randint(1, 4), rng.randint(1, 4)
        for k, colour in enumerate(colours):
            g = seat * 8 + k
            good[g] = colour
            if (colour and keep_good > 0) or (not colour and keep_bad > 0):
                pos[g] = squares[g]
                if colour:
                    keep_good -= 1
                else:
                    keep_bad -= 1
    if rng.random() < 0.5:  # a good ghost of the seat to move on one of its exits
        turn = rng.randrange(2)
        g = next(g for g in range(turn * 8, turn * 8 + 8) if good[g] and pos[g] >= 0)
        corner = rng.choice(sorted(EXITS[turn]))
        if corner in pos:
            pos[pos.index(corner)] = pos[g]
        pos[g] = corner
    else:
        turn = rng.randrange(2)
    limit = options["max_plies"]
    ply = rng.randint(0, limit - 1) if limit else rng.randint(0, 400)
    state = GAME.load(
        {"game": "geister", "options": options, "seed": 1, "first": rng.randrange(2), "turn": turn, "ply": ply,
         "pos": pos, "good": good, "set_up": [True, True], "moves": [], "outcome": None}
    )
    assert isinstance(state, GeisterState)
    return state


def assert_same_position(state: GeisterState, row: np.ndarray[Any, Any]) -> None:
    """The fast row is the reference position, and both engines see the same things in it."""
    np.testing.assert_array_equal(row, fast.from_state(state), err_msg=str(state.to_json()))
    loaded = GAME.load(fast.to_json(row, state.seed))
    assert isinstance(loaded, GeisterState)
    np.testing.assert_array_equal(fast.from_state(loaded), row)
    assert loaded.outcome() == state.outcome()
    if state.playing and state.outcome() is None:
        n = fast.legal_moves(row, SCRATCH)
        assert [move_of(int(c)) for c in SCRATCH[:n]] == state.legal_actions(state.turn)  # same order too
    for seat in (0, 1):
        board = np.empty((6, 6, 6), dtype=np.float32)
        vector = np.empty(24, dtype=np.float32)
        fast.encode(row, seat, board, vector)
        expected = state.encode(seat)
        np.testing.assert_array_equal(board, expected["board"])
        np.testing.assert_array_equal(vector, expected["vector"])
        mask = np.empty(214, dtype=np.int8)
        fast.legal_mask(row, seat, mask)
        np.testing.assert_array_equal(mask.astype(bool), state.legal_mask(seat))
    expected_seat = -1 if state.outcome() else min(state.to_act()) if not state.playing else state.turn
    assert fast.seat_to_act(row) == expected_seat


def assert_every_move_agrees(state: GeisterState, row: np.ndarray[Any, Any]) -> None:
    """Each legal move of the seat to move gives the same next position and captures the same ghost."""
    if not state.playing or state.outcome() is not None:
        return
    for move in state.legal_actions(state.turn):
        assert isinstance(move, Move)
        after = state.clone()
        events = after.apply(state.turn, move)
        fast_after = row.copy()
        captured = fast.apply_move(fast_after, code_of(move))
        assert captured == events[0].public.get("captured", -1)
        np.testing.assert_array_equal(fast_after, fast.from_state(after), err_msg=f"{move} in {state.to_json()}")


def drive(positions: int, seed: int) -> dict[str, int]:
    """Drive both engines through `positions` positions: random games from before the setups to the end,
    each engine applying the same actions to its own position, and scattered single positions; return
    what was covered."""
    rng = random.Random(seed)
    seen = {"positions": 0, "escape": 0, "reach": 0, "seat1_to_move": 0, "ended": 0, "limit": 0, "setup": 0}

    def check(state: GeisterState, row: np.ndarray[Any, Any]) -> None:
        assert_same_position(state, row)
        assert_every_move_agrees(state, row)
        seen["positions"] += 1
        seen[state.options.exit] += 1
        seen["seat1_to_move"] += state.playing and state.turn == 1
        seen["setup"] += not state.playing
        outcome = state.outcome()
        seen["ended"] += outcome is not None
        seen["limit"] += outcome is not None and "limit" in outcome.reason

    while seen["positions"] < positions:
        if rng.random() < 0.3:
            state = scattered_position(rng)
            check(state, fast.from_state(state))
            continue
        new = GAME.new(2, random_options(rng), seed=rng.randrange(2**32))
        assert isinstance(new, GeisterState)
        state, row = new, fast.from_state(new)
        while True:
            check(state, row)
            acting = sorted(state.to_act())
            if not acting:
                break
            seat = acting[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            if isinstance(action, Move):
                assert fast.seat_to_act(row) == seat
                fast.apply_move(row, code_of(action))
            else:
                fast.apply_index(row, seat, GAME.action_index(action, seat))
    return seen


def test_fast_core_agrees_with_the_reference_on_thousands_of_positions() -> None:
    seen = drive(3000, seed=12)
    assert seen["escape"] > 500 and seen["reach"] > 500 and seen["seat1_to_move"] > 500
    assert seen["ended"] > 20 and seen["limit"] > 3 and seen["setup"] > 20


@pytest.mark.slow
def test_fast_core_agrees_with_the_reference_on_over_100000_positions() -> None:
    seen = drive(100_000, seed=1212)
    assert seen["positions"] >= 100_000 and seen["ended"] > 500 and seen["limit"] > 100


def test_fast_random_playouts_replay_move_for_move_in_the_reference() -> None:
    """The bitboard playout (the benchmark's and the bots' hot loop) plays only legal moves, and its games
    end as the reference ends them, for both exit rules and a move limit."""
    rng = fast.new_rng(5)
    endings: set[str] = set()
    for game in range(300):
        options = {"exit": ("reach", "escape")[game % 2], "max_plies": (None, 300, 30)[game % 3]}
        state = GAME.new(2, options, seed=game)
        assert isinstance(state, GeisterState)
        row = np.empty(fast.FIELDS, dtype=np.int32)
        fast.new_game(row, game % 2, options["max_plies"] or 0, 0, state.first)
        fast.random_setups(row, rng, 0)
        for seat in (0, 1):
            good = [START[seat][k] for k in range(8) if row[fast.GOOD + seat * 8 + k]]
            state.apply(seat, "setup " + " ".join(square_name(q) for q in good))
        log = np.empty(2000, dtype=np.int32)
        played = fast.random_playout(row, rng, 0, log)
        for code in log[:played]:
            state.apply(state.turn, move_of(int(code)))
        assert state.outcome() is not None and state.ply == played
        np.testing.assert_array_equal(row, fast.from_state(state))
        endings.add(state.outcome().reason)  # type: ignore[union-attr]
    assert {"a good ghost reached an exit", "a good ghost escaped", "captured all four good ghosts",
            "captured all four bad ghosts", "the 30-move limit was reached"} <= endings


def test_bitboard_move_count_and_nth_move_list_exactly_the_legal_moves() -> None:
    rng = random.Random(3)
    for _ in range(500):
        state = scattered_position(rng)
        row = fast.from_state(state)
        sources = fast.step_sources(fast.occupancy(row, state.turn))
        count = fast.move_count(row, sources)
        moves = [move_of(fast.nth_move(row, sources, k)) for k in range(count)]
        assert sorted(moves, key=code_of) == sorted(state.legal_actions(state.turn), key=code_of)
        assert len(set(moves)) == count


@pytest.mark.parametrize(
    ("ghosts", "exit_rule", "winner", "reason"),
    [
        # reach: a good ghost lands on an exit and takes the fourth bad ghost there: the capture decides.
        ({"a5": (0, "good"), "a6": (1, "bad"), "c3": (1, "good"), "f3": (0, "bad")}, "reach", 1,
         "captured all four bad ghosts"),
        # reach: the same landing takes the fourth good ghost: the mover wins.
        ({"a5": (0, "good"), "a6": (1, "good"), "c3": (1, "bad"), "f3": (0, "bad")}, "reach", 0,
         "captured all four good ghosts"),
        # reach: landing on the exit with a capture that decides nothing: the exit wins.
        ({"a5": (0, "good"), "a6": (1, "bad"), "c3": (1, "bad"), "d3": (1, "good"), "f3": (0, "bad")}, "reach", 0,
         "a good ghost reached an exit"),
        # escape: the same landing is only a capture; the game goes on.
        ({"a5": (0, "good"), "a6": (1, "bad"), "c3": (1, "bad"), "d3": (1, "good"), "f3": (0, "bad")}, "escape",
         None, None),
    ],
)
def test_a_capture_on_an_exit_decides_as_rules_md_says(ghosts: dict[str, tuple[int, str]], exit_rule: str,
                                                       winner: int | None, reason: str | None) -> None:
    state = position(ghosts, turn=0, options={"exit": exit_rule})
    row = fast.from_state(state)
    move = MOVES[30 - 6]["n"]  # a5 -> a6
    state.apply(0, move)
    fast.apply_move(row, code_of(move))
    np.testing.assert_array_equal(row, fast.from_state(state))
    outcome = state.outcome()
    if winner is None:
        assert outcome is None and row[fast.WINNER] == fast.RUNNING
    else:
        assert outcome is not None and outcome.reason == reason
        assert outcome.results[winner].result == "win" and row[fast.WINNER] == winner
