"""A learned value of a full Geister position: the probability that seat 0 wins (a draw counts half).

It scores a *full-information* row of the compiled core (`ghostgames.games.geister.fast`), as the search
sees its sampled worlds: the enemy colours there come from the seat's belief, never from the real game, so
scoring them is legitimate inside a search and gives nothing away.

The model is antisymmetric by construction. `features(row, seat)` describes the position as `seat` sees it
(its own ghosts first, the board turned so that it plays "up"), `score` is a small network on those
features (a linear part plus one hidden layer of ReLUs), and

    P(seat 0 wins) = sigmoid(score(features(row, 0)) - score(features(row, 1)))

so swapping the seats gives exactly 1 - P, and a position both seats see alike is worth exactly 0.5.
The weights are trained by self-play (`ghostgames train geister`, `learn/geister/value_training.py`) and shipped next to
this file in `value-weights.npz` (a few tens of KB), read with numpy.

Everything that runs per position is a `numba.njit(cache=True)` function written as plain loops, so a
compiled search can call `value_of_row(row, *model.kernel_arrays)` at its leaves.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister import fast
from ghostgames.games.geister.board import NEIGHBOURS, SIZE
from ghostgames.jit import compiled, forget_stale_kernels

Row = NDArray[np.int32]
Floats = NDArray[np.float64]

WEIGHTS_FILE = "value-weights.npz"  # trained by self-play (`ghostgames train geister`)
SEARCH_WEIGHTS_FILE = "search-value-weights.npz"  # the same, trained further on the search's own games


SQUARES = SIZE * SIZE
EXIT_DISTANCE = fast.EXIT_DISTANCE  # [owner, square]: steps from the square to the nearer exit `owner` plays towards
# NEAR[square, k]: the k-th neighbour of the square, -1 past the last one.
NEAR = np.full((SQUARES, 4), -1, dtype=np.int32)
for _sq in range(SQUARES):
    for _k, (_, _near) in enumerate(NEIGHBOURS[_sq]):
        NEAR[_sq, _k] = _near

# --- the features, as seen by one seat ("me"; the other seat is "the enemy") -------------------------------
TO_MOVE = 0  # 1 when it is my move
MY_GOOD = 1  # 1..4: one-hot of my good ghosts on the board (none left: all four zero)
MY_BAD = 5  # one-hot of my bad ghosts on the board
EN_GOOD = 9  # one-hot of the enemy's good ghosts on the board
EN_BAD = 13  # one-hot of the enemy's bad ghosts on the board
NEAREST = 17  # 7 one-hot buckets: moves my nearest good ghost needs to win by an exit (1..6, 7 or more)
CLOSE_2 = 24  # my good ghosts at most 2 moves from winning, / 4
CLOSE_3 = 25  # ... at most 3 moves, / 4
NEAREST_ATTACKED = 26  # 1 when an enemy ghost stands next to my nearest good ghost
WIN_NOW = 27  # 1 when it is my move and a good ghost of mine wins with it
GOOD_ATTACKED = 28  # my good ghosts with an enemy ghost next to them, / 4
BAD_ATTACKED = 29  # my bad ghosts with an enemy ghost next to them, / 4
EN_NEAREST_TAKEABLE = 30  # 1 when one of mine stands next to the enemy's nearest good ghost
EN_NEAR_EXIT_TAKEABLE = 31  # ... and that ghost is at most 2 moves from winning
EN_GOOD_TAKEABLE = 32  # enemy good ghosts next to one of mine, / 4
EN_BAD_TAKEABLE = 33  # enemy bad ghosts next to one of mine, / 4
PLY = 34  # moves played / 300 (at most 1)
ESCAPE = 35  # 1 under the `escape` exit rule
PLANES = ESCAPE + 1  # where 4 planes of SQUARES start, turned to my side: my good, my bad, enemy good, enemy bad
FEATURES = PLANES + 4 * SQUARES
PLY_SCALE = 300.0


@compiled
def _attacked(s: Row, sq: int, owner: int) -> bool:
    """Whether a ghost of `owner` stands next to `sq`."""
    for k in range(4):
        near = NEAR[sq, k]
        if near < 0:
            break
        ghost = s[fast.BOARD + near]
        if ghost >= 0 and (ghost >> 3) == owner:
            return True
    return False


@compiled
def _nearest_good(s: Row, seat: int) -> tuple[int, int]:
    """(ghost, moves it needs to win) of the seat's good ghost nearest to winning; (-1, 99) if none."""
    escape = s[fast.ESCAPE_RULE]
    best, best_moves = -1, 99
    for g in range(seat * 8, seat * 8 + 8):
        sq = s[fast.POS + g]
        if sq >= 0 and s[fast.GOOD + g] == 1:
            moves = EXIT_DISTANCE[seat, sq] + escape
            if moves < best_moves:
                best, best_moves = g, moves
    return best, best_moves


@compiled
def _wins_now(s: Row, seat: int) -> bool:
    """Whether `seat`, to move, has a winning step for a good ghost (leaving, or stepping onto a free exit
    under `reach`)."""
    escape = s[fast.ESCAPE_RULE] == 1
    for g in range(seat * 8, seat * 8 + 8):
        sq = s[fast.POS + g]
        if sq < 0 or s[fast.GOOD + g] != 1:
            continue
        if escape:
            if fast.IS_EXIT[seat, sq] == 1:
                return True
        elif EXIT_DISTANCE[seat, sq] == 1:
            for k in range(4):
                near = NEAR[sq, k]
                if near >= 0 and fast.IS_EXIT[seat, near] == 1:
                    other = s[fast.BOARD + near]
                    if other < 0 or (other >> 3) != seat:
                        return True
    return False


MAX_ACTIVE = 64  # nonzero features of one seat at most: the 36 scalars and one plane square per ghost (16)


@compiled
def _put(index: NDArray[np.int32], amount: Floats, n: int, feature: int, x: float) -> int:
    """Append feature `feature` with value `x` to the active list unless it is 0; the new length."""
    if x != 0.0:
        index[n] = feature
        amount[n] = x
        n += 1
    return n


@compiled
def active_features(s: Row, me: int, index: NDArray[np.int32], amount: Floats) -> int:
    """The nonzero features of the position as seat `me` sees it (all colours known): their numbers into
    `index`, their values into `amount` (each of MAX_ACTIVE room); returns how many. Most of the FEATURES
    are 0 (the planes hold 16 ghosts at most), so the network reads only these."""
    enemy = 1 - me
    n = 0
    if s[fast.TURN] == me:
        n = _put(index, amount, n, TO_MOVE, 1.0)
    counts = np.zeros(4, dtype=np.int32)  # my good, my bad, enemy good, enemy bad on the board
    good_attacked = 0
    bad_attacked = 0
    en_good_takeable = 0
    en_bad_takeable = 0
    for g in range(16):
        sq = s[fast.POS + g]
        if sq < 0:
            continue
        owner = g >> 3
        good = s[fast.GOOD + g] == 1
        mine = owner == me
        kind = (0 if mine else 2) + (0 if good else 1)
        counts[kind] += 1
        rel = sq if me == 0 else SQUARES - 1 - sq
        n = _put(index, amount, n, PLANES + kind * SQUARES + rel, 1.0)
        touched = _attacked(s, sq, 1 - owner)
        if touched:
            if mine and good:
                good_attacked += 1
            elif mine:
                bad_attacked += 1
            elif good:
                en_good_takeable += 1
            else:
                en_bad_takeable += 1
    for kind, base in enumerate((MY_GOOD, MY_BAD, EN_GOOD, EN_BAD)):
        if counts[kind] > 0:
            n = _put(index, amount, n, base + min(counts[kind], 4) - 1, 1.0)
    ghost, moves = _nearest_good(s, me)
    if ghost >= 0:
        n = _put(index, amount, n, NEAREST + min(moves, 7) - 1, 1.0)
        if _attacked(s, s[fast.POS + ghost], enemy):
            n = _put(index, amount, n, NEAREST_ATTACKED, 1.0)
    escape = s[fast.ESCAPE_RULE]
    close2 = 0
    close3 = 0
    for g in range(me * 8, me * 8 + 8):
        sq = s[fast.POS + g]
        if sq >= 0 and s[fast.GOOD + g] == 1:
            m = EXIT_DISTANCE[me, sq] + escape
            if m <= 2:
                close2 += 1
            if m <= 3:
                close3 += 1
    n = _put(index, amount, n, CLOSE_2, close2 / 4.0)
    n = _put(index, amount, n, CLOSE_3, close3 / 4.0)
    if s[fast.TURN] == me and _wins_now(s, me):
        n = _put(index, amount, n, WIN_NOW, 1.0)
    n = _put(index, amount, n, GOOD_ATTACKED, good_attacked / 4.0)
    n = _put(index, amount, n, BAD_ATTACKED, bad_attacked / 4.0)
    en_ghost, en_moves = _nearest_good(s, enemy)
    if en_ghost >= 0 and _attacked(s, s[fast.POS + en_ghost], me):
        n = _put(index, amount, n, EN_NEAREST_TAKEABLE, 1.0)
        if en_moves <= 2:
            n = _put(index, amount, n, EN_NEAR_EXIT_TAKEABLE, 1.0)
    n = _put(index, amount, n, EN_GOOD_TAKEABLE, en_good_takeable / 4.0)
    n = _put(index, amount, n, EN_BAD_TAKEABLE, en_bad_takeable / 4.0)
    n = _put(index, amount, n, PLY, min(s[fast.PLY], PLY_SCALE) / PLY_SCALE)
    n = _put(index, amount, n, ESCAPE, float(escape))
    return n


@compiled
def features(s: Row, me: int, out: Floats) -> None:
    """Write the FEATURES numbers of the position as seat `me` sees it (all colours known) into `out`."""
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    amount = np.empty(MAX_ACTIVE, dtype=np.float64)
    out[:] = 0.0
    for k in range(active_features(s, me, index, amount)):
        out[index[k]] = amount[k]


@compiled
def score(index: NDArray[np.int32], amount: Floats, n: int, linear: Floats, hidden_wt: Floats,
          hidden_b: Floats, out_w: Floats, hidden: Floats) -> float:
    """One seat's score from its active features: linear . x + out_w . relu(hidden_w @ x + hidden_b).
    `hidden_wt` is hidden_w transposed (FEATURES, hidden), so that each active feature adds one contiguous
    row to the hidden units (`hidden`: scratch of that size)."""
    hidden[:] = hidden_b
    total = 0.0
    for k in range(n):
        i = index[k]
        x = amount[k]
        total += linear[i] * x
        weights = hidden_wt[i]
        for h in range(hidden.shape[0]):
            hidden[h] += weights[h] * x
    for h in range(hidden.shape[0]):
        if hidden[h] > 0.0:
            total += out_w[h] * hidden[h]
    return total


@compiled
def value_of_row(s: Row, linear: Floats, hidden_wt: Floats, hidden_b: Floats, out_w: Floats) -> float:
    """P(seat 0 wins) of a full row, a draw counting half; a finished game gives its result exactly. The
    weights as `GeisterValue.kernel_arrays` gives them (the hidden layer's transposed)."""
    winner = s[fast.WINNER]
    if winner == 0:
        return 1.0
    if winner == 1:
        return 0.0
    if winner == fast.DRAW:
        return 0.5
    if hidden_wt.shape[0] != FEATURES:  # numba does not check bounds: the (hidden, FEATURES) layout would read past
        raise ValueError("value_of_row takes the hidden weights transposed: pass GeisterValue.kernel_arrays")
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    amount = np.empty(MAX_ACTIVE, dtype=np.float64)
    hidden = np.empty(hidden_b.shape[0], dtype=np.float64)
    n = active_features(s, 0, index, amount)
    z = score(index, amount, n, linear, hidden_wt, hidden_b, out_w, hidden)
    n = active_features(s, 1, index, amount)
    z -= score(index, amount, n, linear, hidden_wt, hidden_b, out_w, hidden)
    return float(1.0 / (1.0 + np.exp(-z)))


@compiled
def features_batch(rows: Row, out: Floats) -> None:
    """out[i, seat] = features(rows[i], seat) for a batch (N, FIELDS) -> (N, 2, FEATURES)."""
    for i in range(rows.shape[0]):
        features(rows[i], 0, out[i, 0])
        features(rows[i], 1, out[i, 1])


@compiled
def move_values(worlds: Row, codes: NDArray[np.int32], seat: int, linear: Floats, hidden_wt: Floats,
                hidden_b: Floats, out_w: Floats) -> Floats:
    """For each move code, the mean over the worlds (K, FIELDS) of `seat`'s chance to win after it."""
    out = np.zeros(codes.shape[0])
    row = np.empty(worlds.shape[1], dtype=np.int32)
    for m in range(codes.shape[0]):
        for k in range(worlds.shape[0]):
            row[:] = worlds[k]
            fast.apply_move(row, codes[m])
            v = value_of_row(row, linear, hidden_wt, hidden_b, out_w)
            out[m] += v if seat == 0 else 1.0 - v
        out[m] /= worlds.shape[0]
    return out


KERNELS = (_attacked, _nearest_good, _wins_now, _put, active_features, features, score, value_of_row, features_batch,
           move_values)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast,))  # they inline fast.py's rules


@dataclass(frozen=True)
class GeisterValue:
    """The weights of the value model (numpy arrays; `hidden` = 0 is a plain logistic regression). The
    information-state value (`info_value.py`) keeps its weights in the same four arrays, with its own
    feature count."""

    linear: Floats  # (FEATURES,)
    hidden_w: Floats  # (hidden, FEATURES)
    hidden_b: Floats  # (hidden,)
    out_w: Floats  # (hidden,)

    @classmethod
    def zeros(cls, hidden: int) -> GeisterValue:
        return cls(np.zeros(FEATURES), np.zeros((hidden, FEATURES)), np.zeros(hidden), np.zeros(hidden))

    @classmethod
    def load(cls, path: str | Path | None = None, packaged: str = WEIGHTS_FILE,
             features: int = FEATURES) -> GeisterValue:
        """The weights in `path`, by default the package's file `packaged` (WEIGHTS_FILE or
        SEARCH_WEIGHTS_FILE; info_value's file with its own `features` count)."""
        if path is None:
            with resources.as_file(resources.files("ghostgames.bots.geister") / packaged) as shipped:
                return cls.load(shipped, features=features)
        with np.load(path) as data:
            arrays = {name: np.ascontiguousarray(data[name], dtype=np.float64)
                      for name in ("linear", "hidden_w", "hidden_b", "out_w")}
        if arrays["linear"].shape != (features,) or arrays["hidden_w"].shape[1:] != (features,):
            raise ValueError(f"{path}: weights for {arrays['linear'].shape} features; this model has {features}")
        return cls(**arrays)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, linear=self.linear, hidden_w=self.hidden_w, hidden_b=self.hidden_b,
                            out_w=self.out_w)

    @property
    def arrays(self) -> tuple[Floats, Floats, Floats, Floats]:
        """The four arrays themselves (training updates them in place)."""
        return self.linear, self.hidden_w, self.hidden_b, self.out_w

    @property
    def kernel_arrays(self) -> tuple[Floats, Floats, Floats, Floats]:
        """The weights as `value_of_row` and the kernels that call it take them: a copy, with the hidden
        layer transposed (each feature's weights contiguous)."""
        return self.linear, np.ascontiguousarray(self.hidden_w.T), self.hidden_b, self.out_w

    def of(self, row: Row) -> float:
        """P(seat 0 wins) of one full row."""
        return float(value_of_row(row, *self.kernel_arrays))


_SHIPPED: list[GeisterValue] = []


def shipped() -> GeisterValue:
    """The packaged weights, read once per process."""
    if not _SHIPPED:
        _SHIPPED.append(GeisterValue.load())
    return _SHIPPED[0]
