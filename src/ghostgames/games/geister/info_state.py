"""Geister's information-state tensor: what one seat has seen since the start, in fixed shapes.

Why beside the observation (encoding.py): the observation shows where ghosts stand and what colours the seat
knows, but not which enemy ghost is which nor what each one did. The enemy's colours are the hidden part of
the game, and the seat's best guess about them rests on exactly that history (the ghost that ran for an exit,
the one that never moved, the one that captured). Two histories with the same observation can call for
different moves, so the observation is not Markov for the seat. This tensor keeps the whole history.

Made from one seat's view only (`view["ghosts"]` and the public move list `view["moves"]`), seat-relative as
in encoding.py (relative row 0 is the seat's back row). A ghost's number k (0..7) is its start square,
board.START order; in the arrays below ghost slot k (0..7) is the seat's own ghost k and slot 8 + k the enemy's
ghost k. All float32 in [0, 1]:

- "board", "vector": the observation, unchanged (encoding.py).
- "ghosts" (16, 6, 6): plane = ghost slot, 1 on the square where that ghost stands (all 0 once it is off the
  board). Each enemy ghost keeps its own plane, so it can be followed from move to move.
- "ghost_info" (16, 13), per ghost slot: 0-2 colour known good / known bad / unknown to the seat;
  3-5 on the board / captured / escaped; 6 has moved; 7 moves made; 8-10 of them forward (toward its owner's
  enemy) / back / sideways; 11 captures it made; 12 the ply of its last move (1 = the game's first move);
  counts and plies are / HISTORY and capped at 1.
- "history" (HISTORY, 24): the moves of the game, row 0 the latest, row 1 the one before, ...: 0-15 the ghost
  slot that moved, 16-19 its seat-relative direction (n e s w), 20-21 it captured a good / bad ghost,
  22 it left the board, 23 the row holds a move.

Perfect recall: the start squares are fixed and both seats know who moves first ("vector"), so the rows of
"history" with the seat's own colours ("ghost_info") give back every position and capture of the game: two
different histories of what the seat knows give different tensors, for games of up to HISTORY plies (past
that, the oldest moves drop out of "history"; the per-ghost counts still cover them, up to their cap).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister.actions import MOVES
from ghostgames.games.geister.board import DIRECTIONS, OFF_BOARD, SIZE, START, square_name
from ghostgames.games.geister.encoding import encode_view, observation_shapes, relative_direction, relative_square

GHOST_SLOTS = 16
HISTORY = 300  # plies kept in "history" (the AI competition stops a game at 300 plies)
GOOD, BAD, UNKNOWN, ON_BOARD, CAPTURED, ESCAPED, MOVED, MOVES_MADE, FORWARD, BACK, SIDEWAYS, CAPTURES, LAST_PLY = (
    range(13)
)
GHOST_FEATURES = 13
DIRECTION_BASE = GHOST_SLOTS  # history columns 16-19
TOOK_GOOD, TOOK_BAD, LEFT_BOARD, PRESENT = 20, 21, 22, 23
HISTORY_FEATURES = 24

_SQUARE: dict[str, int] = {square_name(sq): sq for sq in range(SIZE * SIZE)}
# A direction as its owner sees it (seat 1's north is seat 0's south): 0 forward, 1 sideways, 2 back.
_HEADING = {0: FORWARD, 1: SIDEWAYS, 2: BACK, 3: SIDEWAYS}


def info_state_shapes() -> dict[str, tuple[int, ...]]:
    return {
        **observation_shapes(),
        "ghosts": (GHOST_SLOTS, SIZE, SIZE),
        "ghost_info": (GHOST_SLOTS, GHOST_FEATURES),
        "history": (HISTORY, HISTORY_FEATURES),
    }


def _slot(ghost: int, seat: int) -> int:
    """Own ghosts first (0..7), then the enemy's (8..15), each by its number."""
    return (ghost & 7) + (0 if ghost >> 3 == seat else 8)


def encode_info_state(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays of the module docstring, from one seat's view (refused for a spectator's, as encode_view)."""
    out = encode_view(view)
    seat: int = view["seat"]
    ghosts = np.zeros((GHOST_SLOTS, SIZE, SIZE), dtype=np.float32)
    info = np.zeros((GHOST_SLOTS, GHOST_FEATURES), dtype=np.float32)
    history = np.zeros((HISTORY, HISTORY_FEATURES), dtype=np.float32)

    for ghost in view["ghosts"]:
        slot = _slot(ghost["id"], seat)
        colour = ghost["colour"]
        info[slot, GOOD if colour == "good" else BAD if colour == "bad" else UNKNOWN] = 1.0
        status = ghost["status"]
        info[slot, ON_BOARD if status == "board" else CAPTURED if status == "captured" else ESCAPED] = 1.0
        if ghost["square"] is not None:
            row, col = divmod(relative_square(_SQUARE[ghost["square"]], seat), SIZE)
            ghosts[slot, row, col] = 1.0

    # Replay the public move list from the start squares to know which ghost made each move.
    board = [-1] * (SIZE * SIZE)
    for owner in (0, 1):
        for k, square in enumerate(START[owner]):
            board[square] = owner * 8 + k
    counts = np.zeros((GHOST_SLOTS, GHOST_FEATURES), dtype=np.float32)
    moves: list[str] = view["moves"]
    for ply, text in enumerate(moves, start=1):
        words = text.split()
        origin, direction = _SQUARE[words[0]], DIRECTIONS.index(words[1])
        target = MOVES[origin][words[1]].target
        ghost = board[origin]
        owner, slot = ghost >> 3, _slot(ghost, seat)
        board[origin] = -1
        if target != OFF_BOARD:
            board[target] = ghost
        counts[slot, MOVES_MADE] += 1
        counts[slot, _HEADING[relative_direction(direction, owner)]] += 1
        counts[slot, LAST_PLY] = ply
        row = len(moves) - ply  # the latest move in row 0
        if row < HISTORY:
            history[row, slot] = 1.0
            history[row, DIRECTION_BASE + relative_direction(direction, seat)] = 1.0
            history[row, LEFT_BOARD] = target == OFF_BOARD
            history[row, PRESENT] = 1.0
        if len(words) > 2:  # "b2 n xgood": a capture, its colour shown to both seats
            counts[slot, CAPTURES] += 1
            if row < HISTORY:
                history[row, TOOK_GOOD if words[2] == "xgood" else TOOK_BAD] = 1.0
    info[:, MOVED] = counts[:, MOVES_MADE] > 0
    for feature in (MOVES_MADE, FORWARD, BACK, SIDEWAYS, CAPTURES, LAST_PLY):
        info[:, feature] = np.minimum(counts[:, feature] / HISTORY, 1.0)
    return {**out, "ghosts": ghosts, "ghost_info": info, "history": history}
