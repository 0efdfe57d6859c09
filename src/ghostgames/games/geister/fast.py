"""A compiled Geister core (numba): the same rules as `GeisterState`, for playouts and batched learning.

`GeisterState` (state.py) stays the reference and the contract; this module is a second implementation of
the same rules, proven equal to it move by move (tests/games/geister/test_fast_core.py). It plays random games
about sixty times faster than the reference on one thread, so it is for code that plays many games: the
plain search's playouts, benchmarks and the batched environment `ghostgames.envs.vector.GeisterVectorEnv`.

One game is one row of int32, `FIELDS` long (a batch is a 2-D array, one game per row):

    POS    .. POS+15    per ghost id (0..15, seat s owns s*8 .. s*8+7, as in state.py): its square 0..35
                        (row * 6 + column from seat 0's side, a1 = 0), CAPTURED (-1) or ESCAPED (-2)
    GOOD   .. GOOD+15   per ghost: 1 good, 0 bad, UNSET (-1) before its owner's setup
    BOARD  .. BOARD+35  per square: the ghost id on it, or EMPTY (-1)
    TURN                the seat to move in the play phase
    PLY                 moves played (setups not counted), as state.ply
    FIRST               the seat that moves first
    SET_UP, SET_UP+1    1 once that seat has placed its ghosts
    WINNER              RUNNING (-1), the winning seat, or DRAW (2)
    REASON              why the game ended: an index into ENDINGS (the reference's codes; 0 while running)
    ESCAPE_RULE         1: exit rule `escape`, 0: `reach`
    PLY_LIMIT           the move limit (the `max_plies` option), 0 for none
    DISCLOSE            1: the `disclose` option is on

A move is a code `square * 4 + direction` (directions 0..3 = n, e, s, w, absolute as in board.py); a step
off the board from an exit corner is an escape. Legal moves come in the reference's order (ghosts 0..7 of
the seat, each n/e/s/w, then the escapes), so an index into one legal list picks the same move in both.
The hot loops (playouts, masks, random actions) find the steps with bitboards instead: a uint64 per seat,
bit q set when a ghost of that seat stands on square q, and one shift and mask per direction
(`step_sources`); they are built from POS, so the row stays the one truth.

Random numbers come from the splitmix64 streams of ghostgames/jit.py (one per game in a batch), so a seed
gives the same games on any machine and with any number of threads. Every function is compiled once per
machine and cached next to this file (`cache=True`); the kernels stay in this one module because numba
checks a cache against the source file of the function only, and kernels inline each other (jit.py's
random streams too: `forget_stale_kernels` at the end drops this file's cache when that one changes).
"""

from __future__ import annotations

import sys
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister import encoding as enc
from ghostgames.games.geister import reasons
from ghostgames.games.geister.board import (
    DIRECTIONS,
    EXITS,
    GHOST_IN_SEAT,
    GHOSTS,
    GHOSTS_A_SEAT,
    OWNER_SHIFT,
    SQUARES,
    START,
    step,
)
from ghostgames.games.geister.encoding import MOVE_BASE, PLY_SCALE, SETUP_COUNT
from ghostgames.games.geister.state import ESCAPES
from ghostgames.jit import Rng as Rng  # the bots' and envs' kernels take these from the core, as fast.*
from ghostgames.jit import compiled, compiled_parallel, forget_stale_kernels, new_streams, own_kernels
from ghostgames.jit import next_random as next_random
from ghostgames.jit import random_below as random_below
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.reasons import Reason

if TYPE_CHECKING:
    from ghostgames.games.geister.actions import Move
    from ghostgames.games.geister.state import GeisterState

Board = NDArray[np.int32]  # one game (FIELDS,) or a batch (N, FIELDS)


# --- the layout of one game ------------------------------------------------------------------------------
POS, GOOD, BOARD = 0, 16, 32
TURN, PLY, FIRST, SET_UP, WINNER, REASON, ESCAPE_RULE, PLY_LIMIT, DISCLOSE = 68, 69, 70, 71, 73, 74, 75, 76, 77
FIELDS = 78
# What a field holds for "nothing there", one name per field (the fields never mix, so the values may repeat):
CAPTURED, ESCAPED = -1, -2  # POS of a ghost off the board (so "on the board" is POS >= 0)
EMPTY = -1  # BOARD of a square without a ghost (a ghost id is 0..15)
UNSET = -1  # GOOD before its owner's setup (then 1 good, 0 bad)
RUNNING, DRAW = -1, 2
# The reference's ending codes (reasons.py), numbered for the compiled code; 0 while the game runs.
ENDINGS: tuple[Reason | None, ...] = (None, *reasons.ENDINGS)
NO_REASON = 0
REACHED, LEFT, TOOK_GOOD, TOOK_BAD, LIMIT = (
    ENDINGS.index(r)
    for r in (reasons.REACHED, reasons.LEFT_BOARD, reasons.GOOD_CAPTURED, reasons.BAD_CAPTURED, reasons.PLY_LIMIT)
)
MAX_MOVES = 40  # more than any position allows (8 ghosts x 4 steps, escapes included)

# --- tables (numba freezes module-level arrays into the compiled code) -----------------------------------
# STEP[code]: the square a move lands on, or -1 off the board.
STEP = np.array([step(sq, d) for sq in range(SQUARES) for d in DIRECTIONS], dtype=np.int32)
# IS_EXIT[seat, square]: 1 on the two corners `seat` plays towards.
IS_EXIT = np.array([[1 if sq in EXITS[seat] else 0 for sq in range(SQUARES)] for seat in (0, 1)], dtype=np.int32)
# The escape moves of each seat, in the reference's order: ESCAPE_SQUARE[seat, i] and ESCAPE_CODE[seat, i].
def code_of(move: Move) -> int:
    """The core's code of a move: its square * 4 + its direction (the index into STEP)."""
    return move.origin * 4 + DIRECTIONS.index(move.direction)


_ESCAPES = [[(sq, code_of(move)) for sq, moves in ESCAPES[s] for move in moves] for s in (0, 1)]
ESCAPE_SQUARE = np.array([[sq for sq, _ in _ESCAPES[s]] for s in (0, 1)], dtype=np.int32)
ESCAPE_CODE = np.array([[code for _, code in _ESCAPES[s]] for s in (0, 1)], dtype=np.int32)
START_SQUARE = np.array(START, dtype=np.int32)
ROW_OF = np.array([sq // 6 for sq in range(SQUARES)], dtype=np.int32)
COLUMN_OF = np.array([sq % 6 for sq in range(SQUARES)], dtype=np.int32)
# EXIT_DISTANCE[owner, square]: steps from `square` to the nearer of the exits `owner` leaves by
EXIT_DISTANCE = np.array([[min(abs(ROW_OF[sq] - ROW_OF[e]) + abs(COLUMN_OF[sq] - COLUMN_OF[e]) for e in EXITS[owner])
                           for sq in range(SQUARES)] for owner in (0, 1)], dtype=np.int32)
# SETUP_GOOD[i, k]: 1 when setup index i makes the seat's ghost k good (encoding.py's index order).
SETUP_GOOD = np.array([[1 if k in good else 0 for k in range(8)] for good in combinations(range(8), 4)],
                      dtype=np.int32)


# --- a game ------------------------------------------------------------------------------------------------
@compiled
def new_game(s: Board, escape: int, max_plies: int, disclose: int, first: int) -> None:
    """Ghosts on their start squares, colours not chosen yet, nobody set up."""
    for sq in range(SQUARES):
        s[BOARD + sq] = EMPTY
    for g in range(GHOSTS):
        sq = START_SQUARE[g >> OWNER_SHIFT, g & GHOST_IN_SEAT]
        s[POS + g] = sq
        s[GOOD + g] = UNSET
        s[BOARD + sq] = g
    s[TURN] = first
    s[PLY] = 0
    s[FIRST] = first
    s[SET_UP] = 0
    s[SET_UP + 1] = 0
    s[WINNER] = RUNNING
    s[REASON] = NO_REASON
    s[ESCAPE_RULE] = escape
    s[PLY_LIMIT] = max_plies
    s[DISCLOSE] = disclose


@compiled
def apply_setup(s: Board, seat: int, index: int) -> None:
    """Setup index 0..69 (encoding.py's order) for `seat`."""
    for k in range(8):
        s[GOOD + seat * 8 + k] = SETUP_GOOD[index, k]
    s[SET_UP + seat] = 1


@compiled
def seat_to_act(s: Board) -> int:
    """The seat that acts next: in the setup the lower seat not yet set up (as the AEC environment picks
    from the reference's to_act()), then the seat to move; -1 once the game is over."""
    if s[WINNER] != RUNNING:
        return -1
    if s[SET_UP] == 0:
        return 0
    if s[SET_UP + 1] == 0:
        return 1
    return int(s[TURN])


@compiled
def legal_moves(s: Board, out: NDArray[np.int32]) -> int:
    """Write the move codes of the seat to move into `out` (reference order); return how many."""
    seat = s[TURN]
    n = 0
    for g in range(seat * 8, seat * 8 + 8):
        sq = s[POS + g]
        if sq < 0:
            continue
        for d in range(4):
            code = sq * 4 + d
            dest = STEP[code]
            if dest >= 0:
                other = s[BOARD + dest]
                if other < 0 or (other >> OWNER_SHIFT) != seat:
                    out[n] = code
                    n += 1
    if s[ESCAPE_RULE] == 1:
        for i in range(ESCAPE_CODE.shape[1]):
            ghost = s[BOARD + ESCAPE_SQUARE[seat, i]]
            if ghost >= 0 and (ghost >> OWNER_SHIFT) == seat and s[GOOD + ghost] == 1:
                out[n] = ESCAPE_CODE[seat, i]
                n += 1
    return n


@compiled
def apply_move(s: Board, code: int) -> int:
    """Play a legal move of the seat to move (not checked here: take it from legal_moves or a mask).
    Returns the id of the ghost it captured, or -1."""
    seat = s[TURN]
    origin = code >> 2
    dest = STEP[code]
    ghost = s[BOARD + origin]
    escape = s[ESCAPE_RULE] == 1
    winner = RUNNING
    reason = NO_REASON
    captured = -1
    s[BOARD + origin] = EMPTY
    if dest < 0:  # only legal as an escape
        s[POS + ghost] = ESCAPED
        winner, reason = seat, LEFT
    else:
        other = s[BOARD + dest]
        s[BOARD + dest] = ghost
        s[POS + ghost] = dest
        if other >= 0:
            captured = other
            s[POS + other] = CAPTURED
            enemy = 1 - seat
            good_left = 0
            bad_left = 0
            for g in range(enemy * 8, enemy * 8 + 8):
                p = s[POS + g]
                if p >= 0 or p == ESCAPED:
                    if s[GOOD + g] == 1:
                        good_left += 1
                    else:
                        bad_left += 1
            # The capture decides first: the fourth good ghost wins, the fourth bad one loses, even when
            # the capturing good ghost lands on an exit under `reach` (RULES.md).
            if good_left == 0:
                winner, reason = seat, TOOK_GOOD
            elif bad_left == 0:
                winner, reason = enemy, TOOK_BAD
        if winner == RUNNING and not escape and IS_EXIT[seat, dest] == 1 and s[GOOD + ghost] == 1:
            winner, reason = seat, REACHED
    s[PLY] += 1
    s[TURN] = 1 - seat
    if winner == RUNNING and s[PLY_LIMIT] > 0 and s[PLY] >= s[PLY_LIMIT]:
        winner, reason = DRAW, LIMIT
    s[WINNER] = winner
    s[REASON] = reason
    return captured


@compiled
def random_setups(s: Board, rng: Rng, i: int) -> None:
    """Both seats place their ghosts uniformly at random (seat 0 first)."""
    apply_setup(s, 0, random_below(rng, i, SETUP_COUNT))
    apply_setup(s, 1, random_below(rng, i, SETUP_COUNT))


# Bitboards for the playouts: bit q is square q. A ghost may step in a direction when the square there is
# on the board and not its own: the sources of north steps are own & ~(own >> 6) & ROWS_1_TO_5, and so on.
_ALL = np.uint64((1 << SQUARES) - 1)
_NOT_LAST_ROW = np.uint64((1 << 30) - 1)  # rows 1..5: a step north stays on the board
_NOT_FIRST_ROW = np.uint64(((1 << SQUARES) - 1) & ~63)  # rows 2..6: a step south stays
_NOT_LAST_FILE = np.uint64(sum(1 << sq for sq in range(SQUARES) if sq % 6 != 5))  # a step east stays
_NOT_FIRST_FILE = np.uint64(sum(1 << sq for sq in range(SQUARES) if sq % 6 != 0))  # a step west stays
_ONE, _SIX = np.uint64(1), np.uint64(6)
_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_H01, _S56 = np.uint64(0x0101010101010101), np.uint64(56)


@compiled
def popcount(x: np.uint64) -> int:
    """Set bits of x (LLVM turns this into one instruction where the CPU has one)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> _S56)


@compiled
def nth_bit(x: np.uint64, n: int) -> int:
    """The square of the n-th (from 0) set bit of x, counting from square 0."""
    for _ in range(n):
        x &= x - _ONE
    return popcount((x & (~x + _ONE)) - _ONE)


@compiled
def occupancy(s: Board, seat: int) -> np.uint64:
    bits = np.uint64(0)
    for g in range(seat * 8, seat * 8 + 8):
        if s[POS + g] >= 0:
            bits |= _ONE << np.uint64(s[POS + g])
    return bits


@compiled
def _escape_count(s: Board) -> int:
    """How many escape moves the seat to move has (0 under `reach`)."""
    if s[ESCAPE_RULE] == 0:
        return 0
    seat = s[TURN]
    count = 0
    for e in range(ESCAPE_CODE.shape[1]):
        ghost = s[BOARD + ESCAPE_SQUARE[seat, e]]
        if ghost >= 0 and (ghost >> OWNER_SHIFT) == seat and s[GOOD + ghost] == 1:
            count += 1
    return count


Sources = tuple[np.uint64, np.uint64, np.uint64, np.uint64]


@compiled
def step_sources(own: np.uint64) -> Sources:
    """Per direction (n, e, s, w), the squares of `own` ghosts that may step that way."""
    return (own & ~(own >> _SIX) & _NOT_LAST_ROW, own & ~(own >> _ONE) & _NOT_LAST_FILE,
            own & ~(own << _SIX) & _NOT_FIRST_ROW, own & ~(own << _ONE) & _NOT_FIRST_FILE)


@compiled
def move_count(s: Board, sources: Sources) -> int:
    """How many legal moves the seat to move has; `sources` = step_sources(its ghosts' squares)."""
    return (popcount(sources[0]) + popcount(sources[1]) + popcount(sources[2]) + popcount(sources[3])
            + _escape_count(s))


@compiled
def nth_move(s: Board, sources: Sources, k: int) -> int:
    """The k-th legal move (0 .. move_count - 1) of the seat to move: the north steps by origin square,
    then east, south, west, then the escapes. With move_count this picks a uniformly random move without
    listing the moves."""
    north, east, south, west = sources
    if k < popcount(north):
        return nth_bit(north, k) * 4
    k -= popcount(north)
    if k < popcount(east):
        return nth_bit(east, k) * 4 + 1
    k -= popcount(east)
    if k < popcount(south):
        return nth_bit(south, k) * 4 + 2
    k -= popcount(south)
    if k < popcount(west):
        return nth_bit(west, k) * 4 + 3
    k -= popcount(west)
    seat = s[TURN]
    for e in range(ESCAPE_CODE.shape[1]):
        ghost = s[BOARD + ESCAPE_SQUARE[seat, e]]
        if ghost >= 0 and (ghost >> OWNER_SHIFT) == seat and s[GOOD + ghost] == 1:
            if k == 0:
                return int(ESCAPE_CODE[seat, e])
            k -= 1
    return -1  # k was not below move_count


@compiled
def random_playout(s: Board, rng: Rng, i: int, log: NDArray[np.int32]) -> int:
    """Play uniformly random moves to the end; return the number of moves. The first len(log) move codes
    are written to `log` (give an empty array to keep none)."""
    occ = np.empty(2, dtype=np.uint64)  # per seat, its ghosts' squares
    occ[0] = occupancy(s, 0)
    occ[1] = occupancy(s, 1)
    played = 0
    while s[WINNER] == RUNNING:
        seat = s[TURN]
        sources = step_sources(occ[seat])
        code = nth_move(s, sources, random_below(rng, i, move_count(s, sources)))
        if played < log.shape[0]:
            log[played] = code
        origin = np.uint64(code >> 2)
        dest = STEP[code]
        captured = apply_move(s, code)
        occ[seat] &= ~(_ONE << origin)
        if dest >= 0:
            occ[seat] |= _ONE << np.uint64(dest)
            if captured >= 0:
                occ[1 - seat] &= ~(_ONE << np.uint64(dest))
        played += 1
    return played


@compiled
def play_random_games(games: int, rng: Rng, escape: int, max_plies: int, first: int) -> int:
    """Play `games` complete random games (random setups; `first` -1 = a random first seat) in one thread;
    return the actions taken, the two setups of each game included (as the Python benchmark counts)."""
    s = np.empty(FIELDS, dtype=np.int32)
    none = np.empty(0, dtype=np.int32)
    actions = 0
    for _ in range(games):
        seat = random_below(rng, 0, 2) if first < 0 else first
        new_game(s, escape, max_plies, 0, seat)
        random_setups(s, rng, 0)
        actions += 2 + random_playout(s, rng, 0, none)
    return actions


# --- observations and masks (encoding.py's layout, seat-relative) ------------------------------------------
@compiled
def encode(s: Board, seat: int, board: NDArray[np.float32], vector: NDArray[np.float32]) -> None:
    """Fill `board` (6, 6, 6) and `vector` (24,) exactly as `state.encode(seat)` does, from what `seat`
    may know: its own colours, the colours shown by captures and escapes, and all of them only at the end
    of a game with `disclose`."""
    board[:] = 0.0
    vector[:] = 0.0
    enemy = 1 - seat
    over = s[WINNER] != RUNNING
    disclosed = over and s[DISCLOSE] == 1
    own_on_board = 0
    enemy_on_board = 0
    for g in range(16):
        sq = s[POS + g]
        owner = g >> OWNER_SHIFT
        mine = owner == seat
        colour = s[GOOD + g]
        if sq < 0:
            if sq == ESCAPED:
                vector[enc.OWN_ESCAPED if mine else enc.ENEMY_ESCAPED] = 1.0
            elif colour == 1:
                vector[enc.OWN_GOOD_TAKEN if mine else enc.ENEMY_GOOD_TAKEN] += 1.0 / enc.GHOSTS_A_COLOUR
            else:
                vector[enc.OWN_BAD_TAKEN if mine else enc.ENEMY_BAD_TAKEN] += 1.0 / enc.GHOSTS_A_COLOUR
            continue
        if mine:
            own_on_board += 1
            plane = enc.OWN_UNSET if colour == UNSET else (enc.OWN_GOOD if colour == 1 else enc.OWN_BAD)
        else:
            enemy_on_board += 1
            if not disclosed or colour == UNSET:
                plane = enc.ENEMY_UNKNOWN
            else:
                plane = enc.ENEMY_GOOD if colour == 1 else enc.ENEMY_BAD
        rel = sq if seat == 0 else SQUARES - 1 - sq
        board[plane, ROW_OF[rel], COLUMN_OF[rel]] = 1.0
    set_up_own = s[SET_UP + seat] == 1
    set_up_enemy = s[SET_UP + enemy] == 1
    in_setup = not (s[SET_UP] == 1 and s[SET_UP + 1] == 1)
    if over:
        vector[enc.OVER_PHASE] = 1.0
    elif in_setup:
        vector[enc.SETUP_PHASE] = 1.0
        vector[enc.OWN_TO_ACT] = 0.0 if set_up_own else 1.0
        vector[enc.ENEMY_TO_ACT] = 0.0 if set_up_enemy else 1.0
    else:
        vector[enc.PLAY_PHASE] = 1.0
        vector[enc.OWN_TO_ACT] = 1.0 if s[TURN] == seat else 0.0
        vector[enc.ENEMY_TO_ACT] = 1.0 if s[TURN] == enemy else 0.0
    vector[enc.OWN_SET_UP] = 1.0 if set_up_own else 0.0
    vector[enc.ENEMY_SET_UP] = 1.0 if set_up_enemy else 0.0
    vector[enc.OWN_FIRST] = 1.0 if s[FIRST] == seat else 0.0
    vector[enc.ESCAPE_EXITS] = 1.0 if s[ESCAPE_RULE] == 1 else 0.0
    vector[enc.DISCLOSE_ON] = 1.0 if s[DISCLOSE] == 1 else 0.0
    ply = s[PLY]
    limit = s[PLY_LIMIT]
    if limit > 0:
        vector[enc.HAS_LIMIT] = 1.0
        vector[enc.LIMIT_USED] = min(ply, limit) / limit
    vector[enc.LENGTH] = min(ply, PLY_SCALE) / PLY_SCALE
    vector[enc.OWN_ON_BOARD] = own_on_board / GHOSTS_A_SEAT
    vector[enc.ENEMY_ON_BOARD] = enemy_on_board / GHOSTS_A_SEAT
    if over:
        winner = s[WINNER]
        if winner == DRAW:
            vector[enc.DRAWN] = 1.0
        elif winner == seat:
            vector[enc.WON] = 1.0
        else:
            vector[enc.LOST] = 1.0


@compiled
def move_index(code: int, seat: int) -> int:
    """The seat-relative action index (70..213) of a move code."""
    if seat == 0:
        return MOVE_BASE + code
    return MOVE_BASE + 4 * (SQUARES - 1 - (code >> 2)) + ((code & 3) + 2) % 4


@compiled
def move_code(index: int, seat: int) -> int:
    """The move code of a seat-relative action index (70..213); the inverse of move_index."""
    rel = index - MOVE_BASE
    if seat == 0:
        return rel
    return 4 * (SQUARES - 1 - (rel >> 2)) + ((rel & 3) + 2) % 4


@compiled
def _mark_steps(mask: NDArray[np.int8], sources: np.uint64, direction: int, seat: int) -> None:
    """Set the mask index of each step in `direction` from the squares in `sources`."""
    while sources:
        lowest = sources & (~sources + _ONE)
        mask[move_index(popcount(lowest - _ONE) * 4 + direction, seat)] = 1
        sources ^= lowest


@compiled
def legal_mask(s: Board, seat: int, mask: NDArray[np.int8]) -> None:
    """Fill `mask` (214,) as `state.legal_mask(seat)` does (the steps found with bitboards)."""
    mask[:] = 0
    if s[WINNER] != RUNNING:
        return
    if s[SET_UP] == 0 or s[SET_UP + 1] == 0:
        if s[SET_UP + seat] == 0:
            mask[:SETUP_COUNT] = 1
        return
    if s[TURN] != seat:
        return
    north, east, south, west = step_sources(occupancy(s, seat))
    _mark_steps(mask, north, 0, seat)
    _mark_steps(mask, east, 1, seat)
    _mark_steps(mask, south, 2, seat)
    _mark_steps(mask, west, 3, seat)
    if s[ESCAPE_RULE] == 1:
        for e in range(ESCAPE_CODE.shape[1]):
            ghost = s[BOARD + ESCAPE_SQUARE[seat, e]]
            if ghost >= 0 and (ghost >> OWNER_SHIFT) == seat and s[GOOD + ghost] == 1:
                mask[move_index(ESCAPE_CODE[seat, e], seat)] = 1


@compiled
def apply_index(s: Board, seat: int, index: int) -> int:
    """Apply the seat-relative action index (legal, checked by the caller); return the captured ghost or -1."""
    if index < SETUP_COUNT:
        apply_setup(s, seat, index)
        return -1
    return apply_move(s, move_code(index, seat))


# --- batches (the vector environment's kernels; one game per row, spread over the cores) -------------------
@compiled
def _start(s: Board, rng: Rng, i: int, escape: int, max_plies: int, disclose: int, first: int) -> None:
    new_game(s, escape, max_plies, disclose, random_below(rng, i, 2) if first < 0 else first)


@compiled
def _observe(s: Board, boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
             seats: NDArray[np.int8], i: int) -> None:
    seat = seat_to_act(s)
    seats[i] = seat
    encode(s, seat, boards[i], vectors[i])
    legal_mask(s, seat, masks[i])


@compiled
def _reset_game(states: Board, rng: Rng, i: int, escape: int, max_plies: int, disclose: int, first: int,
                boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
                seats: NDArray[np.int8]) -> None:
    _start(states[i], rng, i, escape, max_plies, disclose, first)
    _observe(states[i], boards, vectors, masks, seats, i)


@compiled
def _step_game(states: Board, rng: Rng, actions: NDArray[np.int64], i: int, escape: int, max_plies: int,
               disclose: int, first: int, boards: NDArray[np.float32], vectors: NDArray[np.float32],
               masks: NDArray[np.int8], seats: NDArray[np.int8], rewards: NDArray[np.float32],
               done: NDArray[np.bool_], winners: NDArray[np.int8]) -> None:
    s = states[i]
    apply_index(s, seat_to_act(s), int(actions[i]))
    winner = s[WINNER]
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    winners[i] = winner
    done[i] = winner != RUNNING
    if winner != RUNNING:
        if winner != DRAW:
            rewards[i, winner] = 1.0
            rewards[i, 1 - winner] = -1.0
        _start(s, rng, i, escape, max_plies, disclose, first)
    _observe(s, boards, vectors, masks, seats, i)


# Each batch kernel comes twice: spread over numba's threads, and in the calling thread alone. With one
# thread the second is used, so a one-thread batch never waits for a hand-off to a worker (under load that
# hand-off cost numba's workqueue layer up to 3x; ghostgames/numba_threads.py says why that layer).
@compiled_parallel
def _batch_reset_spread(states: Board, rng: Rng, escape: int, max_plies: int, disclose: int, first: int,
                        boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
                        seats: NDArray[np.int8]) -> None:
    for i in numba.prange(states.shape[0]):
        _reset_game(states, rng, i, escape, max_plies, disclose, first, boards, vectors, masks, seats)


@compiled
def _batch_reset_here(states: Board, rng: Rng, escape: int, max_plies: int, disclose: int, first: int,
                      boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
                      seats: NDArray[np.int8]) -> None:
    for i in range(states.shape[0]):
        _reset_game(states, rng, i, escape, max_plies, disclose, first, boards, vectors, masks, seats)


def batch_reset(states: Board, rng: Rng, escape: int, max_plies: int, disclose: int, first: int,
                boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
                seats: NDArray[np.int8]) -> None:
    """Start every game of the batch and write the first observation of each (for the seat to act), on
    numba's current number of threads."""
    kernel = _batch_reset_spread if numba.get_num_threads() > 1 else _batch_reset_here
    kernel(states, rng, escape, max_plies, disclose, first, boards, vectors, masks, seats)


@compiled_parallel
def _batch_step_spread(states: Board, rng: Rng, actions: NDArray[np.int64], escape: int, max_plies: int,
                       disclose: int, first: int, boards: NDArray[np.float32], vectors: NDArray[np.float32],
                       masks: NDArray[np.int8], seats: NDArray[np.int8], rewards: NDArray[np.float32],
                       done: NDArray[np.bool_], winners: NDArray[np.int8]) -> None:
    for i in numba.prange(states.shape[0]):
        _step_game(states, rng, actions, i, escape, max_plies, disclose, first, boards, vectors, masks, seats,
                   rewards, done, winners)


@compiled
def _batch_step_here(states: Board, rng: Rng, actions: NDArray[np.int64], escape: int, max_plies: int,
                     disclose: int, first: int, boards: NDArray[np.float32], vectors: NDArray[np.float32],
                     masks: NDArray[np.int8], seats: NDArray[np.int8], rewards: NDArray[np.float32],
                     done: NDArray[np.bool_], winners: NDArray[np.int8]) -> None:
    for i in range(states.shape[0]):
        _step_game(states, rng, actions, i, escape, max_plies, disclose, first, boards, vectors, masks, seats,
                   rewards, done, winners)


def batch_step(states: Board, rng: Rng, actions: NDArray[np.int64], escape: int, max_plies: int, disclose: int,
               first: int, boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8],
               seats: NDArray[np.int8], rewards: NDArray[np.float32], done: NDArray[np.bool_],
               winners: NDArray[np.int8]) -> None:
    """Each game's seat to act plays its action (legal: the caller checked it against the mask). A game
    that ends reports its rewards (+1 win, -1 loss, 0 draw per seat), `done` and its winner (-1 running,
    seat, 2 draw), and starts again at once: the observation is then the new game's first one."""
    kernel = _batch_step_spread if numba.get_num_threads() > 1 else _batch_step_here
    kernel(states, rng, actions, escape, max_plies, disclose, first, boards, vectors, masks, seats, rewards, done,
           winners)


@compiled
def random_action(s: Board, rng: Rng, i: int) -> int:
    """A uniformly random legal action index of the seat to act (-1 once the game is over): a setup, or a
    move counted with bitboards, as picking uniformly from its legal mask would."""
    seat = seat_to_act(s)
    if seat < 0:
        return -1
    if s[SET_UP + seat] == 0:
        return random_below(rng, i, SETUP_COUNT)
    sources = step_sources(occupancy(s, seat))
    return move_index(nth_move(s, sources, random_below(rng, i, move_count(s, sources))), seat)


@compiled_parallel
def _batch_random_actions_spread(states: Board, rng: Rng, out: NDArray[np.int64]) -> None:
    for i in numba.prange(states.shape[0]):
        out[i] = random_action(states[i], rng, i)


@compiled
def _batch_random_actions_here(states: Board, rng: Rng, out: NDArray[np.int64]) -> None:
    for i in range(states.shape[0]):
        out[i] = random_action(states[i], rng, i)


def batch_random_actions(states: Board, rng: Rng, out: NDArray[np.int64]) -> None:
    """random_action for every game of the batch (stream i of `rng` for game i), on numba's current threads."""
    kernel = _batch_random_actions_spread if numba.get_num_threads() > 1 else _batch_random_actions_here
    kernel(states, rng, out)


# --- to and from the reference ------------------------------------------------------------------------------
_ENDING_NUMBER = {r.code: number for number, r in enumerate(ENDINGS) if r is not None}


def from_state(state: GeisterState) -> Board:
    """The fast row of a reference state (secrets included: for search and tests, like the state)."""
    s = np.empty(FIELDS, dtype=np.int32)
    options = state.options
    new_game(s, int(options.exit == "escape"), options.max_plies or 0, int(options.disclose), state.first)
    s[BOARD : BOARD + SQUARES] = EMPTY
    for g, sq in enumerate(state.pos):
        s[POS + g] = sq
        if sq >= 0:
            s[BOARD + sq] = g
        colour = state.good[g]
        s[GOOD + g] = UNSET if colour is None else int(colour)
    s[TURN] = state.turn
    s[PLY] = state.ply
    s[SET_UP], s[SET_UP + 1] = int(state.set_up[0]), int(state.set_up[1])
    outcome = state.outcome()
    if outcome is not None:
        winners = [seat for seat, r in enumerate(outcome.results) if r.result == "win"]
        s[WINNER] = winners[0] if winners else DRAW
        s[REASON] = _ENDING_NUMBER.get(outcome.code, LIMIT if not winners else NO_REASON)
    return s


def to_json(s: Board, seed: int = 0) -> dict[str, Any]:
    """The reference's to_json form of a fast row (load it with `get_game("geister").load(...)`). The fast
    core keeps no move list, so `moves` is empty."""
    from ghostgames.rules.contract import Outcome

    winner = int(s[WINNER])
    max_plies = int(s[PLY_LIMIT]) or None
    outcome = None
    ending = ENDINGS[int(s[REASON])]
    if winner == DRAW:
        outcome = Outcome.draw(2, reasons.PLY_LIMIT, max_plies=max_plies).to_json()
    elif winner != RUNNING and ending is not None:
        outcome = Outcome.winner_takes_all(2, winner, ending).to_json()
    return {
        "game": "geister",
        "options": {"exit": "escape" if s[ESCAPE_RULE] else "reach", "max_plies": max_plies,
                    "disclose": bool(s[DISCLOSE]), "first": None},
        "seed": seed,
        "first": int(s[FIRST]),
        "turn": int(s[TURN]),
        "ply": int(s[PLY]),
        "pos": [int(p) for p in s[POS : POS + 16]],
        "good": [None if c == UNSET else bool(c) for c in s[GOOD : GOOD + 16]],
        "set_up": [bool(s[SET_UP]), bool(s[SET_UP + 1])],
        "moves": [],
        "outcome": outcome,
    }


def new_rng(seed: int, streams: int = 1, label: str = "streams") -> Rng:
    """`streams` random streams for one purpose (`label`) of a seed, started from `derive_rng(seed, label)`:
    the one seeding scheme of rules/chance.py."""
    return new_streams(derive_rng(seed, "geister-core", label), streams)


# numba checks a cached kernel against its own file only: compile afresh when jit.py's random streams change
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=())
