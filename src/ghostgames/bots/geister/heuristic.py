"""The search's hand-set Geister knowledge, its numbers named once: how a playout moves and what a position
is worth when a playout is cut short.

The Python search (`search.GeisterPolicy`) and the compiled one (`fast_search`) read the same `Heuristic`;
the worth of a seat is `seat_worth`, one plain function the Python search calls as it is and numba compiles
for the kernel (`compiled_seat_worth`), so the formula exists once. The playout's move choice is written
for each (objects in Python, rows in the kernel); tests/bots/test_fast_search.py checks that the two pick
among the same moves and that the two evaluations agree exactly.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ghostgames.jit import compiled

GHOSTS_A_SIDE = 4  # good ghosts, and bad ghosts, each seat starts with
FAR = 1_000  # farther than any square is from an exit: "no good ghost yet" when looking for the nearest


class Heuristic(NamedTuple):
    """The playout's chances and the hand evaluation's weights (a tuple of floats, which numba takes)."""

    hunt: float = 0.5  # chance that a playout move captures, when one can
    push: float = 0.5  # else, chance that it brings a good ghost closer to its exits, when one can
    bad_lost: float = 0.35  # worth to its owner of each bad ghost the enemy took (four taken: the owner wins)
    last_bad: float = 1.5  # extra worth of a single bad ghost left (the enemy must avoid taking it)
    step_worth: float = 0.3  # worth of each move the nearest good ghost needs fewer than `horizon`
    horizon: float = 6.0  # moves from winning beyond which the nearest good ghost adds nothing
    winning_move: float = 1.5  # extra worth when a good ghost can win with the seat's very next move


HEURISTIC = Heuristic()


def seat_worth(goods: int, bads_left: int, moves_to_win: int, to_move: bool, h: Heuristic) -> float:
    """One seat's worth: its good ghosts, the bad ones the enemy took (and a single one left), and how few
    moves its nearest good ghost needs to win (`moves_to_win`; any value when `goods` is 0)."""
    worth = 1.0 * goods + h.bad_lost * (GHOSTS_A_SIDE - bads_left)
    if bads_left == 1:
        worth += h.last_bad
    if goods > 0:
        worth += h.step_worth * max(0.0, h.horizon - moves_to_win)
        if moves_to_win <= 1 and to_move:
            worth += h.winning_move
    return worth


def win_chance(worth0: float, worth1: float) -> float:
    """Seat 0's chance to win from the two seats' worths (a logistic of their difference)."""
    return 1.0 / (1.0 + math.exp(-(worth0 - worth1)))


compiled_seat_worth = compiled(seat_worth)
compiled_win_chance = compiled(win_chance)
