"""A playout policy learned from the expert's own moves: which of its moves a search player makes, read
from a few facts about each move, for the expert's playouts to play more like the games they stand for.

The expert's playout (`fast_search.rollout_move`) makes the sure moves (leave, or step onto an exit under
`reach`; take a ghost standing on our own exit corner) and otherwise captures with a fixed chance, steps a
good ghost forward with another, or moves at random. This policy keeps the sure moves and draws every
other move with a chance proportional to exp(w · f), f the move's features below, each 0 or 1. They read
only what the mover knows: its own colours and where every ghost stands, never the enemy's colours. So a
playout in a world the search dealt plays each seat as that seat could.

w is fitted by maximum likelihood (a multinomial logit, Newton's method) on the moves the expert chose in
games against itself (`ghostgames train geister-playout`, learn/geister/playout_fit.py). With 11 binary
features a move's weight is one of 2,048 numbers, tabled once (`table_of`), so the playout reads a table
where it would compute exp.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister import fast
from ghostgames.games.geister.board import SQUARES
from ghostgames.jit import compiled, forget_stale_kernels

Row = NDArray[np.int32]

FEATURES = (
    "captures a ghost",
    "good ghost steps towards its exits",
    "good ghost steps away from its exits",
    "bad ghost steps towards its exits",
    "bad ghost steps away from its exits",
    "good ghost lands next to an enemy ghost",
    "bad ghost lands next to an enemy ghost",
    "good ghost leaves a square next to an enemy ghost",
    "bad ghost leaves a square next to an enemy ghost",
    "closes on the enemy ghost nearest our exits, when it is 2 steps or fewer from them",
    "captures with a good ghost",
)
K = len(FEATURES)
RUNNER_REACH = 2  # an enemy ghost this close to leaving is one to close on (feature 9)
# The packaged policy: `ghostgames train geister-playout` with its default recipe (docs/learning.md).
WEIGHTS_FILE = "playout-weights.npz"

_POS, _GOOD, _BOARD, _TURN = fast.POS, fast.GOOD, fast.BOARD, fast.TURN
_STEP, _IS_EXIT, _EXIT_DISTANCE = fast.STEP, fast.IS_EXIT, fast.EXIT_DISTANCE
_ESCAPE_SQUARE, _ESCAPE_CODE = fast.ESCAPE_SQUARE, fast.ESCAPE_CODE
_ROW, _COLUMN = fast.ROW_OF, fast.COLUMN_OF
# NEAR[sq]: the squares one step from sq, as a bit set (so "an enemy ghost next to sq" is one AND)
_NEAR = np.array([sum(1 << int(t) for t in fast.STEP[sq * 4: sq * 4 + 4] if t >= 0) for sq in range(SQUARES)],
                 dtype=np.uint64)
_NONE = np.uint64(0)


@compiled
def sure(code: int) -> int:
    """decision_bits' answer for a sure move `code`, and back: -1 - code (so that it is below 0)."""
    return int(-1 - code)


@compiled
def _runner(row: Row, seat: int) -> int:
    """The square of the enemy ghost nearest its exits, when it is RUNNER_REACH steps or fewer away; else -1."""
    best = -1
    best_distance = RUNNER_REACH + 1
    enemy = 1 - seat
    for g in range(enemy * 8, enemy * 8 + 8):
        sq = row[_POS + g]
        if sq >= 0 and _EXIT_DISTANCE[enemy, sq] < best_distance:
            best_distance = _EXIT_DISTANCE[enemy, sq]
            best = sq
    return best


@compiled
def _apart(a: int, b: int) -> int:
    return int(abs(_ROW[a] - _ROW[b]) + abs(_COLUMN[a] - _COLUMN[b]))


@compiled
def move_bits(row: Row, seat: int, origin: int, target: int, good: bool, runner: int, enemies: np.uint64,
              origin_near: bool) -> int:
    """The features of `seat`'s step from `origin` to `target` (a legal step), bit k for FEATURES[k];
    `enemies`: the enemy's squares as a bit set, `origin_near`: whether one of them is next to `origin`."""
    bits = 0
    if row[_BOARD + target] >= 0:
        bits |= 1
        if good:
            bits |= 1 << 10
    before = _EXIT_DISTANCE[seat, origin]
    after = _EXIT_DISTANCE[seat, target]
    if after != before:
        bits |= 1 << ((1 if after < before else 2) + (0 if good else 2))
    if _NEAR[target] & enemies != _NONE:
        bits |= 1 << (5 if good else 6)
    if origin_near:
        bits |= 1 << (7 if good else 8)
    if runner >= 0 and runner != target and _apart(target, runner) < _apart(origin, runner):
        bits |= 1 << 9
    return bits


@compiled
def decision_bits(row: Row, legal: NDArray[np.int32], bits: NDArray[np.int32]) -> int:
    """The moves the policy chooses among for the seat to move (into `legal`, in `fast.legal_moves`'s order
    of steps) and each one's features (into `bits`); returns how many, or `sure(code)` (below 0) for the
    first sure move in `fast_search.rollout_move`'s order, which the playout makes without the policy."""
    seat = row[_TURN]
    escape = row[fast.ESCAPE_RULE] == 1
    runner = _runner(row, seat)
    enemies = fast.occupancy(row, 1 - seat)
    n = 0
    for g in range(seat * 8, seat * 8 + 8):
        origin = row[_POS + g]
        if origin < 0:
            continue
        good = row[_GOOD + g] == 1
        origin_near = _NEAR[origin] & enemies != _NONE
        for d in range(4):
            code = origin * 4 + d
            target = _STEP[code]
            if target < 0:
                continue
            other = row[_BOARD + target]
            if other >= 0 and (other >> 3) == seat:
                continue
            if good and not escape and _IS_EXIT[seat, target] == 1:
                return sure(code)
            if other >= 0 and _IS_EXIT[1 - seat, target] == 1:
                return sure(code)
            legal[n] = code
            bits[n] = move_bits(row, seat, origin, target, good, runner, enemies, origin_near)
            n += 1
    if escape:
        for i in range(_ESCAPE_CODE.shape[1]):
            ghost = row[_BOARD + _ESCAPE_SQUARE[seat, i]]
            if ghost >= 0 and (ghost >> 3) == seat and row[_GOOD + ghost] == 1:
                return sure(_ESCAPE_CODE[seat, i])
    return n


@compiled
def learned_move(row: Row, u: float, table: NDArray[np.float64], legal: NDArray[np.int32],
                 bits: NDArray[np.int32], cumulative: NDArray[np.float64]) -> int:
    """The playout's move for the seat to move: the sure move if there is one, else a move drawn with chance
    proportional to table[its features], `u` a uniform number in [0, 1). The arrays after `table`: scratch."""
    n = decision_bits(row, legal, bits)
    if n < 0:
        return sure(n)
    total = 0.0
    for i in range(n):
        total += table[bits[i]]
        cumulative[i] = total
    point = u * total
    for i in range(n - 1):
        if cumulative[i] > point:
            return int(legal[i])
    return int(legal[n - 1])


def table_of(weights: NDArray[np.float64]) -> NDArray[np.float64]:
    """exp(w · f) for every feature set f, indexed by its bits."""
    logits = ((np.arange(1 << K)[:, None] >> np.arange(K)[None, :]) & 1) @ weights
    return np.asarray(np.exp(logits - logits.max()), dtype=np.float64)


KERNELS = (sure, _runner, _apart, move_bits, decision_bits, learned_move)


forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast,))  # they inline the core's functions


@dataclass(frozen=True)
class PlayoutPolicy:
    """The fitted weights, one per FEATURES entry."""

    weights: NDArray[np.float64]

    @property
    def table(self) -> NDArray[np.float64]:
        return table_of(self.weights)

    def save(self, path: Path) -> None:
        np.savez(path, weights=self.weights, features=np.array(FEATURES))

    @classmethod
    def load(cls, path: Path | None = None) -> PlayoutPolicy:
        """The policy in `path`, by default the package's own (WEIGHTS_FILE)."""
        if path is None:
            with resources.as_file(resources.files("ghostgames.bots.geister") / WEIGHTS_FILE) as packaged:
                return cls.load(packaged)
        with np.load(path) as held:
            if tuple(str(name) for name in held["features"]) != FEATURES:
                raise ValueError(f"{path} was fitted on other features; fit it again")
            return cls(np.asarray(held["weights"], dtype=np.float64))


@functools.cache
def shipped_table() -> NDArray[np.float64]:
    """The packaged policy's table, as `FastExpertBot(playout_table=...)` takes it (read once per process)."""
    return PlayoutPolicy.load().table
