"""A learned value of what one seat knows of a Geister position: the chance that the seat wins.

The full-information value (`value.py`) reads both seats' colours, so inside a search it trusts the colours
the belief dealt to the enemy. This one never reads an enemy ghost's colour while it stands on the board:
it sees the seat's own ghosts with their colours, the enemy's as colourless ghosts, and the enemy's counts
of good and bad ghosts left (known from the captures). What it learns of the enemy's ghosts it learns from
how games went on, which is the point: trained on the search's games against players that run
(`runner`, `rush`, `mixture`), a ghost racing to our exits is worth what such ghosts turned out to be worth,
whatever the belief says its colour is. The features spell that race out (the enemy ghost nearest to
winning, how many are close, and the gap between it and our nearest blocker), since the hand evaluation
at the search's leaves does not look at it.

The network is `value.score`'s (a linear part plus one hidden layer of ReLUs, on the active features) with a
constant feature for a bias; the weights are a `GeisterValue` of INFO_FEATURES columns, trained by
`ghostgames train geister-info` (`learn/geister/info_value_fit.py`) and shipped as `info-value-weights.npz`.
The search reads it at its leaves through `fast_search.INFO` (the `expert-learned` bot).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import value
from ghostgames.bots.geister.value import GeisterValue, score
from ghostgames.games.geister import fast
from ghostgames.games.geister.board import SIZE
from ghostgames.jit import compiled, forget_stale_kernels

Row = NDArray[np.int32]
Floats = NDArray[np.float64]

INFO_WEIGHTS_FILE = "info-value-weights.npz"
SQUARES = SIZE * SIZE
# DISTANCE[a, b]: steps between two squares on the empty board
DISTANCE = np.array([[abs(fast.ROW_OF[a] - fast.ROW_OF[b]) + abs(fast.COLUMN_OF[a] - fast.COLUMN_OF[b])
                      for b in range(SQUARES)] for a in range(SQUARES)], dtype=np.int32)
# EXIT_SQUARE[owner, k]: the two corners `owner` leaves by
EXIT_SQUARE = np.array([[sq for sq in range(SQUARES) if fast.IS_EXIT[owner, sq] == 1] for owner in (0, 1)],
                       dtype=np.int32)

# --- the features, as seen by one seat ("me"; the enemy's ghosts on the board have no colour here) ----------
BIAS = 0  # always 1
TO_MOVE = 1  # 1 when it is my move
MY_GOOD = 2  # 1..4: one-hot of my good ghosts on the board
MY_BAD = 6  # one-hot of my bad ghosts on the board
EN_GOOD = 10  # one-hot of the enemy's good ghosts not yet taken (known: 4 minus the good ones I took)
EN_BAD = 14  # one-hot of the enemy's bad ghosts not yet taken
NEAREST = 18  # 7 one-hot buckets: moves my nearest good ghost needs to win (1..6, 7 or more)
CLOSE_2 = 25  # my good ghosts at most 2 moves from winning, / 4
CLOSE_3 = 26  # ... at most 3, / 4
NEAREST_ATTACKED = 27  # an enemy ghost stands next to my nearest good ghost
WIN_NOW = 28  # my move, and a good ghost of mine wins with it
GOOD_ATTACKED = 29  # my good ghosts with an enemy ghost next to them, / 4
BAD_ATTACKED = 30  # my bad ghosts with an enemy ghost next to them, / 4
EN_NEAREST = 31  # 7 one-hot buckets: moves the enemy's ghost nearest to winning would need, were it good
EN_CLOSE_2 = 38  # enemy ghosts at most 2 such moves away, / 4
EN_CLOSE_3 = 39  # ... at most 3, / 4
EN_NEAREST_TAKEABLE = 40  # one of mine stands next to that nearest enemy ghost
EN_THREAT_NOW = 41  # the enemy's move, and one of its ghosts would win with it were it good
RACE = 42  # 7 one-hot buckets: at the exit of mine the enemy is nearest to, my nearest ghost's distance
#            minus the enemy's (-1 or less, 0, ..., 4, 5 or more): how far behind my blocker is
EN_TAKEABLE = 49  # enemy ghosts next to one of mine, / 8
PLY = 50  # moves played / 300 (at most 1)
ESCAPE = 51  # 1 under the `escape` exit rule
PLANES = ESCAPE + 1  # 3 planes of SQUARES, turned to my side: my good, my bad, the enemy's ghosts
INFO_FEATURES = PLANES + 3 * SQUARES
MAX_ACTIVE = 64  # nonzero features at most: the 52 scalars' few and one plane square per ghost (16)


@compiled
def info_active_features(s: Row, me: int, index: NDArray[np.int32], amount: Floats) -> int:
    """The nonzero features of what seat `me` knows of the position (the enemy's colours on the board are not
    read): their numbers into `index`, their values into `amount`; returns how many."""
    enemy = 1 - me
    escape = s[fast.ESCAPE_RULE]
    n = value._put(index, amount, 0, BIAS, 1.0)
    my_turn = s[fast.TURN] == me
    if my_turn:
        n = value._put(index, amount, n, TO_MOVE, 1.0)
    my_good = 0
    my_bad = 0
    taken_good = 0
    taken_bad = 0
    good_attacked = 0
    bad_attacked = 0
    en_takeable = 0
    en_best = -1
    en_moves = 99
    en_close2 = 0
    en_close3 = 0
    threat_now = False
    for g in range(16):
        sq = s[fast.POS + g]
        mine = (g >> 3) == me
        if sq < 0:
            if not mine:
                if s[fast.GOOD + g] == 1:  # a taken ghost's colour is known
                    taken_good += 1
                else:
                    taken_bad += 1
            continue
        rel = sq if me == 0 else SQUARES - 1 - sq
        if mine:
            good = s[fast.GOOD + g] == 1
            n = value._put(index, amount, n, PLANES + (0 if good else 1) * SQUARES + rel, 1.0)
            if value._attacked(s, sq, enemy):
                if good:
                    good_attacked += 1
                else:
                    bad_attacked += 1
            if good:
                my_good += 1
            else:
                my_bad += 1
        else:
            n = value._put(index, amount, n, PLANES + 2 * SQUARES + rel, 1.0)
            if value._attacked(s, sq, me):
                en_takeable += 1
            moves = fast.EXIT_DISTANCE[enemy, sq] + escape
            if moves < en_moves:
                en_best, en_moves = g, moves
            if moves <= 2:
                en_close2 += 1
            if moves <= 3:
                en_close3 += 1
            if not my_turn and (fast.IS_EXIT[enemy, sq] == 1 if escape == 1 else moves == 1):
                threat_now = True
    if my_good > 0:
        n = value._put(index, amount, n, MY_GOOD + min(my_good, 4) - 1, 1.0)
    if my_bad > 0:
        n = value._put(index, amount, n, MY_BAD + min(my_bad, 4) - 1, 1.0)
    if taken_good < 4:
        n = value._put(index, amount, n, EN_GOOD + 3 - taken_good, 1.0)
    if taken_bad < 4:
        n = value._put(index, amount, n, EN_BAD + 3 - taken_bad, 1.0)
    ghost, moves = value._nearest_good(s, me)
    if ghost >= 0:
        n = value._put(index, amount, n, NEAREST + min(moves, 7) - 1, 1.0)
        if value._attacked(s, s[fast.POS + ghost], enemy):
            n = value._put(index, amount, n, NEAREST_ATTACKED, 1.0)
    close2 = 0
    close3 = 0
    for g in range(me * 8, me * 8 + 8):
        sq = s[fast.POS + g]
        if sq >= 0 and s[fast.GOOD + g] == 1:
            m = fast.EXIT_DISTANCE[me, sq] + escape
            if m <= 2:
                close2 += 1
            if m <= 3:
                close3 += 1
    n = value._put(index, amount, n, CLOSE_2, close2 / 4.0)
    n = value._put(index, amount, n, CLOSE_3, close3 / 4.0)
    if my_turn and value._wins_now(s, me):
        n = value._put(index, amount, n, WIN_NOW, 1.0)
    n = value._put(index, amount, n, GOOD_ATTACKED, good_attacked / 4.0)
    n = value._put(index, amount, n, BAD_ATTACKED, bad_attacked / 4.0)
    if en_best >= 0:
        en_sq = s[fast.POS + en_best]
        n = value._put(index, amount, n, EN_NEAREST + min(en_moves, 7) - 1, 1.0)
        if value._attacked(s, en_sq, me):
            n = value._put(index, amount, n, EN_NEAREST_TAKEABLE, 1.0)
        # the race at the exit that ghost is nearest to: how many steps my nearest ghost lags behind it
        exit_sq = EXIT_SQUARE[enemy, 0]
        if DISTANCE[en_sq, EXIT_SQUARE[enemy, 1]] < DISTANCE[en_sq, exit_sq]:
            exit_sq = EXIT_SQUARE[enemy, 1]
        mine_nearest = 99
        for g in range(me * 8, me * 8 + 8):
            sq = s[fast.POS + g]
            if sq >= 0:
                mine_nearest = min(mine_nearest, DISTANCE[sq, exit_sq])
        lag = mine_nearest - DISTANCE[en_sq, exit_sq]
        n = value._put(index, amount, n, RACE + min(max(lag, -1), 5) + 1, 1.0)
    n = value._put(index, amount, n, EN_CLOSE_2, en_close2 / 4.0)
    n = value._put(index, amount, n, EN_CLOSE_3, en_close3 / 4.0)
    if threat_now:
        n = value._put(index, amount, n, EN_THREAT_NOW, 1.0)
    n = value._put(index, amount, n, EN_TAKEABLE, en_takeable / 8.0)
    n = value._put(index, amount, n, PLY, min(s[fast.PLY], value.PLY_SCALE) / value.PLY_SCALE)
    n = value._put(index, amount, n, ESCAPE, float(escape))
    return n


@compiled
def info_features_batch(rows: Row, seats: NDArray[np.int32], out: NDArray[np.float32]) -> None:
    """out[i] = the features of rows[i] as seats[i] knows it, for a batch (N, FIELDS) -> (N, INFO_FEATURES)."""
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    amount = np.empty(MAX_ACTIVE, dtype=np.float64)
    out[:] = 0.0
    for i in range(rows.shape[0]):
        for k in range(info_active_features(rows[i], seats[i], index, amount)):
            out[i, index[k]] = amount[k]


@compiled
def info_value_of_row(s: Row, me: int, linear: Floats, hidden_wt: Floats, hidden_b: Floats, out_w: Floats) -> float:
    """P(seat `me` wins) by what it knows of the row, a draw counting half; a finished game gives its result.
    The weights as `GeisterValue.kernel_arrays` gives them."""
    winner = s[fast.WINNER]
    if winner == fast.DRAW:
        return 0.5
    if winner >= 0:
        return 1.0 if winner == me else 0.0
    if hidden_wt.shape[0] != INFO_FEATURES:  # numba does not check bounds
        raise ValueError("info_value_of_row takes INFO_FEATURES weights, the hidden layer transposed")
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    amount = np.empty(MAX_ACTIVE, dtype=np.float64)
    hidden = np.empty(hidden_b.shape[0], dtype=np.float64)
    n = info_active_features(s, me, index, amount)
    z = score(index, amount, n, linear, hidden_wt, hidden_b, out_w, hidden)
    return float(1.0 / (1.0 + np.exp(-z)))


KERNELS = (info_active_features, info_features_batch, info_value_of_row)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, value))


def zeros(hidden: int) -> GeisterValue:
    """Weights of the information-state value, all zero."""
    return GeisterValue(np.zeros(INFO_FEATURES), np.zeros((hidden, INFO_FEATURES)), np.zeros(hidden),
                        np.zeros(hidden))


def load(path: str | Path | None = None) -> GeisterValue:
    """The weights in `path` (default: the packaged INFO_WEIGHTS_FILE)."""
    return GeisterValue.load(path, packaged=INFO_WEIGHTS_FILE, features=INFO_FEATURES)


def of(model: GeisterValue, row: Row, seat: int) -> float:
    """P(`seat` wins) of one row, by what `seat` knows of it."""
    return float(info_value_of_row(row, seat, *model.kernel_arrays))


@functools.cache
def shipped_arrays() -> tuple[Floats, Floats, Floats, Floats]:
    """The packaged weights as the search's leaves take them (read once per process)."""
    return load().kernel_arrays
