"""A playout policy learned from the expert's own moves: which of its moves a search player makes, read
from a few facts about each move, for the expert's playouts to play more like the games they stand for.

The expert's playout (`fast_search.rollout_move`) makes the sure moves (leave, or step onto an exit under
`reach`; take a ghost standing on our own exit corner) and otherwise captures with a fixed chance, steps a
good ghost forward with another, or moves at random. This policy keeps the sure moves and draws every
other move with a chance proportional to exp(w · f), f the move's features below, each 0 or 1. They read
only what the mover knows: its own colours and where every ghost stands, never the enemy's colours. So a
playout in a world the search dealt plays each seat as that seat could.

w is fitted by maximum likelihood (a multinomial logit, Newton's method) on the moves the expert chose in
games against itself (`ghostgames train geister-playout`). With 11 binary features a move's weight is
one of 2,048 numbers, tabled once (`table_of`), so the playout reads a table where it would compute exp.
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
from ghostgames.games.geister.jit import compiled, forget_stale_kernels

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
_NEAR = np.array([sum(1 << int(t) for t in fast.STEP[sq * 4: sq * 4 + 4] if t >= 0) for sq in range(fast.SQUARES)],
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


@compiled
def _chosen(row: Row, after: Row, legal: NDArray[np.int32], n: int) -> int:
    """Which of the first n moves in `legal` turns `row` into `after` (compared by where the ghosts stand),
    or -1."""
    trial = np.empty(fast.FIELDS, dtype=np.int32)
    for i in range(n):
        trial[:] = row
        fast.apply_move(trial, legal[i])
        same = True
        for g in range(16):
            if trial[_POS + g] != after[_POS + g]:
                same = False
                break
        if same:
            return i
    return -1


KERNELS = (sure, _runner, _apart, move_bits, decision_bits, learned_move, _chosen)


forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast,))  # they inline the core's functions


@dataclass
class Decisions:
    """Each decision's moves as feature bits (-1 past its moves) and the index of the move made."""

    bits: NDArray[np.int32]
    chosen: NDArray[np.int64]
    games: NDArray[np.int32]  # the game each decision came from

    @classmethod
    def from_games(cls, rows: NDArray[np.int32], games: NDArray[np.int32]) -> Decisions:
        """The decisions in consecutive positions of the same game (`tournament.positions` keeps every one);
        positions with a sure move, and the last of each game, are left out."""
        all_bits, chosen, game_of = [], [], []
        legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
        bits = np.empty(fast.MAX_MOVES, dtype=np.int32)
        for t in range(len(rows) - 1):
            row, after = rows[t], rows[t + 1]
            if games[t] != games[t + 1] or after[fast.PLY] != row[fast.PLY] + 1 or row[fast.WINNER] != fast.RUNNING:
                continue
            n = decision_bits(row, legal, bits)
            if n < 0:
                continue
            i = _chosen(row, after, legal, n)
            if i < 0:
                continue  # `after` is not one step of the seat to move: not a pair of consecutive positions
            padded = np.full(fast.MAX_MOVES, -1, dtype=np.int32)
            padded[:n] = bits[:n]
            all_bits.append(padded)
            chosen.append(i)
            game_of.append(games[t])
        return cls(np.array(all_bits, dtype=np.int32).reshape(len(chosen), fast.MAX_MOVES),
                   np.array(chosen, dtype=np.int64), np.array(game_of, dtype=np.int32))

    def __len__(self) -> int:
        return len(self.chosen)

    def log_loss(self, weights: NDArray[np.float64]) -> float:
        """Mean -log P(the move made) under `weights`."""
        f, present = self._features()
        logits = np.where(present, f @ weights, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
        return float(np.mean(log_z - logits[np.arange(len(self)), self.chosen]))

    def hand_log_loss(self, hunt: float, push: float) -> float:
        """Mean -log P(the move made) under the hand playout (`fast_search.rollout_move`): a capture with
        chance `hunt`, else a good ghost's step towards its exits with chance `push`, else any move."""
        present = self.bits >= 0
        n = present.sum(axis=1, keepdims=True)
        capture = present & (self.bits & 1 > 0)
        forward = present & (self.bits & 2 > 0)
        n_capture = capture.sum(axis=1, keepdims=True)
        n_forward = forward.sum(axis=1, keepdims=True)
        hunting = np.where(n_capture > 0, hunt, 0.0)
        pushing = np.where(n_forward > 0, push, 0.0)
        p = (capture * hunting / np.maximum(n_capture, 1)
             + (1 - hunting) * (forward * pushing / np.maximum(n_forward, 1) + (1 - pushing) / n))
        return float(np.mean(-np.log(p[np.arange(len(self)), self.chosen])))

    def subset(self, keep: NDArray[np.bool_]) -> Decisions:
        return Decisions(self.bits[keep], self.chosen[keep], self.games[keep])

    def learning_curve(self, test: Decisions, weights: NDArray[np.float64], points: int = 5) -> list[dict[str, float]]:
        """The log-loss on `test` of fits on the first 1/2**(points-1), ..., 1/2 and all of these decisions'
        games (`weights`: the fit on all of them, already made): whether more games would still help."""
        games = np.unique(self.games)  # sorted
        counts = sorted({max(1, len(games) >> shift) for shift in range(1, points)} - {len(games)})
        curve: list[dict[str, float]] = []
        for count in counts:
            part = self.subset(self.games <= games[count - 1])
            curve.append({"games": count, "decisions": len(part), "log_loss": test.log_loss(part.fit())})
        return [*curve, {"games": len(games), "decisions": len(self), "log_loss": test.log_loss(weights)}]

    def _features(self) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        present = self.bits >= 0
        f = ((np.maximum(self.bits, 0)[:, :, None] >> np.arange(K)[None, None, :]) & 1).astype(np.float64)
        return f * present[:, :, None], present

    def fit(self, ridge: float = 1e-3, steps: int = 30) -> NDArray[np.float64]:
        """Maximum-likelihood weights (with a small ridge, so that a feature never seen stays at 0)."""
        f, present = self._features()
        made = f[np.arange(len(self)), self.chosen]
        w = np.zeros(K)
        for _ in range(steps):
            logits = np.where(present, f @ w, -np.inf)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("dm,dmk->dk", p, f)
            gradient = (mean - made).sum(axis=0) + ridge * len(self) * w
            second = np.einsum("dm,dmk,dml->kl", p, f, f) - mean.T @ mean
            hessian = second + ridge * len(self) * np.eye(K)
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.max(np.abs(step)) < 1e-6:
                break
        return w


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
