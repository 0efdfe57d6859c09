"""The races to an exit (races.py), which `expert` walks on when won (`expert.run_on`): exact on positions built
by hand and equal to a slow search of the same race over random positions; the bot that reads them reads only
what its seat may know."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister import races
from ghostgames.bots.geister.expert import RunOnPolicy
from ghostgames.bots.geister.heuristic import FAR
from ghostgames.games.geister import fast
from ghostgames.games.geister.board import EXITS, NEIGHBOURS, SQUARES, parse_square
from tests.games.geister.positions import position


def row_of(ghosts: dict[str, tuple[int, bool]], turn: int, escape: int = 1) -> fast.Board:
    """A play-phase row with only `ghosts` on the board (square name -> (owner, good)), `turn` to move."""
    row = np.empty(fast.FIELDS, dtype=np.int32)
    fast.new_game(row, escape, 0, 0, 0)
    row[fast.BOARD : fast.BOARD + SQUARES] = fast.EMPTY
    row[fast.POS : fast.POS + 16] = fast.CAPTURED
    row[fast.GOOD : fast.GOOD + 16] = 0
    used = [0, 0]
    for name, (owner, good) in ghosts.items():
        g = owner * 8 + used[owner]
        used[owner] += 1
        square = parse_square(name)
        row[fast.POS + g] = square
        row[fast.BOARD + square] = g
        row[fast.GOOD + g] = int(good)
    row[fast.SET_UP] = row[fast.SET_UP + 1] = 1
    row[fast.TURN] = turn
    return row


# Seat 1 leaves by a1 and f1; its good ghost is the runner, seat 0's ghosts the keepers. Keepers on e5 and f4
# stand far from both corners, so only the ones named in each case can be in time.
RUNNER = (1, True)
KEEPER = (0, False)


def test_a_runner_two_steps_out_wins_against_a_keeper_three_steps_from_the_corner() -> None:
    row = row_of({"a3": RUNNER, "d1": KEEPER, "f2": KEEPER}, turn=1)
    assert races.race_moves(row, 1) == 3  # two steps, then the move off the board
    assert races.race_winner(row, races.BOTH) == 1


def test_the_same_race_is_held_when_the_keeper_moves_first_one_tempo_more() -> None:
    row = row_of({"a3": RUNNER, "d1": KEEPER, "f2": KEEPER}, turn=0)
    assert races.race_moves(row, 1) == FAR
    assert races.race_winner(row, races.BOTH) == -1


def test_a_keeper_on_the_runners_path_holds_the_corner() -> None:
    # a2 is next to a1 and on the runner's file: every way to a1 passes next to it (a3, b2) or ends on a1 next to it
    row = row_of({"a4": RUNNER, "a2": KEEPER, "f2": KEEPER}, turn=1)
    assert races.race_moves(row, 1) == FAR
    away = row_of({"a4": RUNNER, "c3": KEEPER, "f2": KEEPER}, turn=1)  # off the path and out of time
    assert races.race_moves(away, 1) == 4


def test_a_keeper_next_to_the_runner_on_the_runners_move_is_taken_and_the_race_lost() -> None:
    row = row_of({"b2": RUNNER, "a2": KEEPER, "f2": KEEPER}, turn=1)
    assert races.race_moves(row, 1) == 3
    # ...but on the keeper's move the keeper takes it
    assert races.race_moves(row_of({"b2": RUNNER, "a2": KEEPER, "f2": KEEPER}, turn=0), 1) == FAR


def test_two_keepers_in_time_hold_though_the_runner_would_take_either_alone() -> None:
    row = row_of({"b2": RUNNER, "a2": KEEPER, "b1": KEEPER, "f2": KEEPER}, turn=1)
    assert races.race_moves(row, 1) == FAR


def test_one_keeper_at_each_corner_holds_what_neither_holds_alone() -> None:
    both = row_of({"c2": RUNNER, "a2": KEEPER, "f2": KEEPER}, turn=1)
    assert races.race_moves(both, 1) == FAR
    assert races.race_moves(row_of({"c2": RUNNER, "a2": KEEPER, "e5": KEEPER}, turn=1), 1) == 5  # by f1
    assert races.race_moves(row_of({"c2": RUNNER, "f2": KEEPER, "e5": KEEPER}, turn=1), 1) == 4  # by a1


def test_a_bad_ghost_runs_no_race_and_our_own_runner_races_the_same_way() -> None:
    assert races.race_moves(row_of({"a3": (1, False), "d1": KEEPER, "f2": KEEPER}, turn=1), 1) == FAR
    ours = row_of({"f4": (0, True), "c6": (1, False), "a5": (1, False)}, turn=0)  # seat 0 leaves by a6 / f6
    assert races.race_moves(ours, 0) == 3
    assert races.race_winner(ours, races.BOTH) == 0


def test_of_two_races_won_the_one_that_leaves_first_wins_the_side_to_move_first_on_equal_moves() -> None:
    ghosts = {"f5": (0, True), "a2": (1, True), "c3": (0, False), "d4": (1, False)}
    assert races.race_moves(row_of(ghosts, turn=0), 0) == 2 and races.race_moves(row_of(ghosts, turn=0), 1) == 2
    assert races.race_winner(row_of(ghosts, turn=0), races.BOTH) == 0
    assert races.race_winner(row_of(ghosts, turn=1), races.BOTH) == 1
    # reading one seat's races only: the other's does not count
    assert races.race_winner(row_of(ghosts, turn=0), 1 << 1) == 1
    assert races.race_winner(row_of(ghosts, turn=1), 1 << 0) == 0
    ghosts.pop("a2")
    ghosts["a3"] = (1, True)  # now three moves from leaving against seat 0's two
    assert races.race_winner(row_of(ghosts, turn=1), races.BOTH) == 0


# --- the slow version: the same race searched move by move ---------------------------------------------------
def steps(a: int, b: int) -> int:
    return abs(a // 6 - b // 6) + abs(a % 6 - b % 6)


@functools.cache
def slow_runner_wins(corner: int, runner: int, keeper: int, runner_to_move: bool, plies: int) -> bool:
    """Whether the runner forces its way out by `corner` within `plies` plies against one keeper (either may
    spend a move elsewhere), by searching every line."""
    if runner_to_move:
        if runner == corner or steps(runner, keeper) == 1:
            return True  # it leaves, or takes the keeper and nothing is left to stop it
        if plies == 0:
            return False
        return any(slow_runner_wins(corner, n, keeper, False, plies - 1)
                   for n in [runner, *(sq for _, sq in NEIGHBOURS[runner])])
    if steps(runner, keeper) == 1 or plies == 0:
        return False
    return all(slow_runner_wins(corner, runner, n, True, plies - 1)
               for n in [keeper, *(sq for _, sq in NEIGHBOURS[keeper])])


PLIES = 40  # longer than any race on a 6 x 6 board: the table's positions all fall within it


def slow_race_moves(pos: list[int], good: list[int], turn: int, seat: int) -> int:
    best = FAR
    keepers = [sq for sq in pos[(1 - seat) * 8 : (1 - seat) * 8 + 8] if sq >= 0]
    runner_to_move = turn == seat
    for g in range(seat * 8, seat * 8 + 8):
        if pos[g] < 0 or good[g] != 1:
            continue
        for corner in EXITS[seat]:
            beaten = all(slow_runner_wins(corner, pos[g], k, runner_to_move, PLIES) for k in keepers)
            in_time = sum(steps(k, corner) <= steps(pos[g], corner) + (0 if runner_to_move else 1) for k in keepers)
            if beaten and in_time < 2:
                best = min(best, steps(pos[g], corner) + 1)
    return best


def random_row(rng: random.Random) -> fast.Board:
    squares = rng.sample(range(SQUARES), rng.randint(2, 12))
    ghosts = {}
    counts = [0, 0]
    for i, sq in enumerate(squares):
        owner = i % 2 if i < 2 else rng.randrange(2)
        if counts[owner] == 8:
            owner = 1 - owner
        counts[owner] += 1
        ghosts[f"{'abcdef'[sq % 6]}{sq // 6 + 1}"] = (owner, rng.random() < 0.5)
    return row_of(ghosts, turn=rng.randrange(2))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compiled_races_are_the_slow_search_of_the_same_race(seed: int) -> None:
    rng = random.Random(seed)
    decided = 0
    for _ in range(150):
        row = random_row(rng)
        pos = [int(x) for x in row[fast.POS : fast.POS + 16]]
        good = [int(x) for x in row[fast.GOOD : fast.GOOD + 16]]
        turn = int(row[fast.TURN])
        expected = [slow_race_moves(pos, good, turn, seat) for seat in (0, 1)]
        assert [races.race_moves(row, seat) for seat in (0, 1)] == expected, fast.to_json(row)
        if min(expected) < FAR:
            decided += 1
            winner = turn if expected[turn] <= expected[1 - turn] else 1 - turn
            assert races.race_winner(row, races.BOTH) == winner
        else:
            assert races.race_winner(row, races.BOTH) == -1
    assert decided >= 10  # the sample holds races won, not only positions where nothing runs


@pytest.mark.parametrize("j", range(4))
def test_the_table_is_the_slow_search_on_every_position(j: int) -> None:
    corner = int(races.CORNERS[j])
    for r in range(SQUARES):
        for k in range(SQUARES):
            if r != k:
                for m in (races.RUNNER_TO_MOVE, races.KEEPER_TO_MOVE):
                    slow = slow_runner_wins(corner, r, k, m == races.RUNNER_TO_MOVE, PLIES)
                    assert races.RUNNER_WINS[j, r, k, m] == int(slow), (r, k, m)


# --- the bot ---------------------------------------------------------------------------------------------------
# Our bad ghost keeps f1 and the enemy's f3 may run for it (tests/bots/test_exit_races.py's position): races are
# at stake in the search's worlds, and which of the enemy's ghosts are good is what our seat cannot see.
RACE_AT_STAKE = {
    "f1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e6": (1, "bad"),
}  # fmt: skip


@pytest.mark.parametrize("bot", ["expert:200"])
def test_the_race_bots_choose_the_same_in_worlds_that_differ_only_in_the_enemys_hidden_colours(bot: str) -> None:
    state = position(RACE_AT_STAKE, turn=0, options={"exit": "escape"})
    for seed in range(3):
        twin = state.sample_world(0, random.Random(seed))
        assert twin.view(0) == state.view(0)
        first = get_bot(bot).choose(SeatKnowledge(state, 0), random.Random(7))
        second = get_bot(bot).choose(SeatKnowledge(twin, 0), random.Random(7))
        assert str(first) == str(second)
        assert str(first) != "f1 n"  # the guard's race is held


def test_the_expert_walks_a_runner_whose_race_is_won_and_only_then() -> None:
    ghosts = {
        "f4": (0, "good"), "b2": (0, "bad"), "c2": (0, "good"), "d1": (0, "bad"),
        "c5": (1, "good"), "b5": (1, "bad"), "b6": (1, "bad"), "c6": (1, "good"),
    }  # fmt: skip
    knowledge = SeatKnowledge(position(ghosts, turn=0, options={"exit": "escape"}), 0)
    policy = RunOnPolicy(knowledge)
    assert str(policy.forced(knowledge.legal_actions(), random.Random(0))) == "f4 n"
    ghosts["e5"] = (1, "bad")  # a keeper in time for f6, next to f5: the race is held, the search decides
    held = SeatKnowledge(position(ghosts, turn=0, options={"exit": "escape"}), 0)
    assert RunOnPolicy(held).forced(held.legal_actions(), random.Random(0)) is None
