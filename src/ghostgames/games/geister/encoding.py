"""Geister for learning code: a fixed action index space and fixed-shape observations, both seat-relative.

Seat-relative means every seat sees itself at the bottom. For seat 0 nothing changes; for seat 1 the board
is turned 180 degrees: square q (0..35, row * 6 + column from seat 0's side, a1 = 0) becomes 35 - q, and a
direction turns with it (n <-> s, e <-> w). So relative row 0 is always the seat's own back row, relative
column 0 its own left, relative north points at the enemy, and the exits it leaves by are relative a6 / f6
(squares 30 and 35). One network therefore serves both seats: the same index and plane mean the same thing
to whoever acts.

Action indices (214 for 2 players, the only player count):
- 0 .. 69: Setup. Index i = the i-th set of 4 ghost numbers in itertools.combinations(range(8), 4) that
  hold the good ghosts. Ghost number k is the seat's k-th start square (board.START order: 0-3 the front row
  from the owner's left to right, 4-7 the back row), so index 0 = the whole front row good, 69 = the whole
  back row good, for either seat.
- 70 .. 213: Move. Index 70 + 4 * r + d, where r is the seat-relative origin square (0..35) and d the
  seat-relative direction (0 n, 1 e, 2 s, 3 w). Every (square, direction) pair has an index, also those
  the rules never allow; the off-board steps from the exit corners are the escape moves of the `escape`
  exit rule (relative 30 n / 30 w / 35 n / 35 e).

Observation (`encode_view` of one seat's view; all float32, values in [0, 1]):
- "board", shape (6, 6, 6): planes [plane, relative row, relative column], one ghost sets one square of
  exactly one plane:
    0 own good ghost, 1 own bad ghost, 2 own ghost before our setup (colour not chosen yet),
    3 enemy ghost of unknown colour, 4 enemy ghost known good, 5 enemy ghost known bad
    (on-board enemy colours are known only when the game has ended with `disclose`).
- "vector", shape (24,):
    0-2   phase: setup, play, over
    3-4   set up already: own seat, enemy
    5-6   to act now: own seat, enemy
    7     own seat moves first in the play phase
    8     exit rule is `escape` (0 = `reach`)
    9     `disclose` is on
    10    a move limit (max_plies) is set
    11    ply / max_plies (0 without a limit)
    12    min(ply, 300) / 300 (game length on a fixed scale)
    13-14 own ghosts captured by the enemy: good / 4, bad / 4
    15-16 enemy ghosts we captured: good / 4, bad / 4
    17-18 ghosts on the board: own / 8, enemy / 8
    19-20 a good ghost escaped off the board: own, enemy
    21-23 outcome for the own seat: win, loss, draw (all 0 while the game runs)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister.actions import MOVES, Move, Setup
from ghostgames.games.geister.board import DIRECTIONS, GHOSTS_A_SEAT, SIZE, SQUARES, START, square_name
from ghostgames.rules.contract import IllegalAction
from ghostgames.rules.reasons import NO_SUCH_ACTION

SETUP_COUNT = 70
MOVE_BASE = SETUP_COUNT
ACTION_COUNT = SETUP_COUNT + SQUARES * len(DIRECTIONS)  # 214
PLANES = 6
PLY_SCALE = 300  # plies at which the fixed-scale length feature saturates
GHOSTS_A_COLOUR = 4  # the scale of the captured counts

# The board's planes and the vector's slots (the table above), named once: `encode_view` and the compiled
# core's `fast.encode` both write by these names (tests/games/geister/test_fast_core.py checks they agree).
OWN_GOOD, OWN_BAD, OWN_UNSET, ENEMY_UNKNOWN, ENEMY_GOOD, ENEMY_BAD = range(PLANES)
SETUP_PHASE, PLAY_PHASE, OVER_PHASE = 0, 1, 2
OWN_SET_UP, ENEMY_SET_UP = 3, 4
OWN_TO_ACT, ENEMY_TO_ACT = 5, 6
OWN_FIRST = 7  # the own seat moves first in the play phase
ESCAPE_EXITS = 8  # the exit rule is `escape`
DISCLOSE_ON = 9
HAS_LIMIT = 10  # a move limit is set
LIMIT_USED = 11  # ply / max_plies
LENGTH = 12  # min(ply, PLY_SCALE) / PLY_SCALE
OWN_GOOD_TAKEN, OWN_BAD_TAKEN, ENEMY_GOOD_TAKEN, ENEMY_BAD_TAKEN = 13, 14, 15, 16  # / GHOSTS_A_COLOUR
OWN_ON_BOARD, ENEMY_ON_BOARD = 17, 18  # / GHOSTS_A_SEAT
OWN_ESCAPED, ENEMY_ESCAPED = 19, 20
WON, LOST, DRAWN = 21, 22, 23
VECTOR = 24


def relative_square(square: int, seat: int) -> int:
    """The square as `seat` sees it (seat 1: turned 180 degrees). Turning twice gives the square back."""
    return square if seat == 0 else SQUARES - 1 - square


def relative_direction(direction: int, seat: int) -> int:
    """Index into DIRECTIONS as `seat` sees it (seat 1: n <-> s, e <-> w)."""
    return direction if seat == 0 else (direction + 2) % 4


# --- tables, built once ------------------------------------------------------------------------------------
_GOOD_SETS: tuple[tuple[int, ...], ...] = tuple(combinations(range(8), 4))
# Per seat: the action of every index, and every action's index (actions are hashable values).
_ACTIONS: tuple[tuple[Setup | Move, ...], ...] = tuple(
    (
        *(Setup(frozenset(START[seat][k] for k in good)) for good in _GOOD_SETS),
        *(
            MOVES[relative_square(rel, seat)][DIRECTIONS[relative_direction(d, seat)]]
            for rel in range(SQUARES)
            for d in range(len(DIRECTIONS))
        ),
    )
    for seat in (0, 1)
)
_INDEX: tuple[dict[Setup | Move, int], ...] = tuple({a: i for i, a in enumerate(_ACTIONS[seat])} for seat in (0, 1))
_SQUARE_OF_NAME: dict[str, int] = {square_name(sq): sq for sq in range(SQUARES)}


def _check_seat(seat: int) -> None:
    if seat not in (0, 1):
        raise IllegalAction(f"Geister seats are 0 and 1, not {seat}", NO_SUCH_ACTION)


# --- actions ---------------------------------------------------------------------------------------------
def action_index(action: Setup | Move, seat: int) -> int:
    _check_seat(seat)
    index = _INDEX[seat].get(action)
    if index is None:
        raise IllegalAction(f"{action} is not an action seat {seat} can ever take in Geister", NO_SUCH_ACTION)
    return index


def action_at(index: int, seat: int) -> Setup | Move:
    _check_seat(seat)
    if not 0 <= index < ACTION_COUNT:
        raise IllegalAction(f"a Geister action index is in the range 0 to {ACTION_COUNT - 1}, not {index}",
                            NO_SUCH_ACTION)
    return _ACTIONS[seat][index]


# --- observations ----------------------------------------------------------------------------------------
def observation_shapes() -> dict[str, tuple[int, ...]]:
    return {"board": (PLANES, SIZE, SIZE), "vector": (VECTOR,)}


def encode_view(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays of the module docstring, from one seat's JSON view (a spectator's view has no seat)."""
    seat = view.get("seat")
    if seat not in (0, 1):
        raise ValueError("encode_view needs the view of seat 0 or 1, not a spectator's view")
    enemy = 1 - seat
    board = np.zeros((PLANES, SIZE, SIZE), dtype=np.float32)
    vector = np.zeros(VECTOR, dtype=np.float32)

    on_board = [0, 0]
    escaped = [0, 0]
    for ghost in view["ghosts"]:
        owner = ghost["owner"]
        name = ghost["square"]
        if name is None:
            if ghost["status"] == "escaped":
                escaped[owner] = 1
            continue
        on_board[owner] += 1
        colour = ghost["colour"]
        if owner == seat:
            plane = OWN_UNSET if colour is None else (OWN_GOOD if colour == "good" else OWN_BAD)
        else:
            plane = ENEMY_UNKNOWN if colour is None else (ENEMY_GOOD if colour == "good" else ENEMY_BAD)
        row, col = divmod(relative_square(_SQUARE_OF_NAME[name], seat), SIZE)
        board[plane, row, col] = 1.0

    phase = view["phase"]
    vector[SETUP_PHASE] = phase == "setup"
    vector[PLAY_PHASE] = phase == "play"
    vector[OVER_PHASE] = phase == "over"
    set_up = view["set_up"]
    vector[OWN_SET_UP] = bool(set_up[seat])
    vector[ENEMY_SET_UP] = bool(set_up[enemy])
    to_act = view["to_act"]
    vector[OWN_TO_ACT] = seat in to_act
    vector[ENEMY_TO_ACT] = enemy in to_act
    vector[OWN_FIRST] = view["first"] == seat
    options = view["options"]
    vector[ESCAPE_EXITS] = options.get("exit") == "escape"
    vector[DISCLOSE_ON] = bool(options.get("disclose"))
    ply = int(view["ply"])
    max_plies = options.get("max_plies")
    if max_plies:
        vector[HAS_LIMIT] = 1.0
        vector[LIMIT_USED] = min(ply, max_plies) / max_plies
    vector[LENGTH] = min(ply, PLY_SCALE) / PLY_SCALE
    captured = view["captured"]  # captured[s]: ghosts of seat s taken by the other side
    vector[OWN_GOOD_TAKEN] = captured[seat]["good"] / GHOSTS_A_COLOUR
    vector[OWN_BAD_TAKEN] = captured[seat]["bad"] / GHOSTS_A_COLOUR
    vector[ENEMY_GOOD_TAKEN] = captured[enemy]["good"] / GHOSTS_A_COLOUR
    vector[ENEMY_BAD_TAKEN] = captured[enemy]["bad"] / GHOSTS_A_COLOUR
    vector[OWN_ON_BOARD] = on_board[seat] / GHOSTS_A_SEAT
    vector[ENEMY_ON_BOARD] = on_board[enemy] / GHOSTS_A_SEAT
    vector[OWN_ESCAPED] = escaped[seat]
    vector[ENEMY_ESCAPED] = escaped[enemy]
    outcome = view.get("outcome")
    if outcome:
        result = outcome["results"][seat]["result"]
        vector[WON] = result == "win"
        vector[LOST] = result == "loss"
        vector[DRAWN] = result == "draw"
    return {"board": board, "vector": vector}
