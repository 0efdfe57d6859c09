"""Self-play of Geister on the compiled core: the positions the learned value (`bots/geister/value.py`) is
fitted to, each with its game's result for seat 0.

Both seats play the search's playout policy (`playout_move`, the compiled twin of
`GeisterPolicy.rollout_action`: leave or reach an exit when it can, take a ghost on its own corners,
otherwise capture half of the time, push a good ghost forward half of the time, else a random move). It uses
its own colours and never the enemy's. With `guided` > 0, that share of the games is played instead by a
value (`guided_move`: one ply over a few worlds whose enemy colours are dealt again at random, a tenth of the
moves by the playout policy to explore), so the value also learns from stronger play. Everything is drawn
from the seed, so a seed gives the same positions on the same machine.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import value
from ghostgames.bots.geister.value import EXIT_DIST, GeisterValue, value_of_row
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import SETUP_COUNT
from ghostgames.games.geister.jit import compiled, forget_stale_kernels

Rows = NDArray[np.int32]
Floats = NDArray[np.float64]

MAX_PLIES = 300  # the tournaments' move limit
GUIDED_WORLDS = 4  # worlds a value-guided self-play move is scored in
EXPLORE = 0.1  # share of a value-guided game's moves played by the playout policy
HUNT = 0.5  # GeisterPolicy.hunt
PUSH = 0.5  # GeisterPolicy.push


@compiled
def _chance(rng: NDArray[np.uint64], i: int, p: float) -> bool:
    return fast.random_below(rng, i, 1 << 30) < p * (1 << 30)


@compiled
def playout_move(s: Rows, rng: NDArray[np.uint64], i: int, moves: NDArray[np.int32],
                 picks: NDArray[np.int32]) -> int:
    """The playout policy's move code for the seat to move (its own colours only)."""
    seat = s[fast.TURN]
    n = fast.legal_moves(s, moves)
    escape = s[fast.ESCAPE_RULE] == 1
    forward = 0
    captures = 0
    for k in range(n):
        code = moves[k]
        origin = code >> 2
        dest = fast.STEP[code]
        if dest < 0:
            return int(code)  # leaving wins
        ghost = s[fast.BOARD + origin]
        if s[fast.GOOD + ghost] == 1:
            if not escape and fast.IS_EXIT[seat, dest] == 1:
                return int(code)  # reaching an exit wins
            if EXIT_DIST[seat, dest] < EXIT_DIST[seat, origin]:
                picks[fast.MAX_MOVES + forward] = code
                forward += 1
        if s[fast.BOARD + dest] >= 0:
            if fast.IS_EXIT[1 - seat, dest] == 1:
                return int(code)  # a ghost on our corner may be about to leave
            picks[captures] = code
            captures += 1
    if captures > 0 and _chance(rng, i, HUNT):
        return int(picks[fast.random_below(rng, i, captures)])
    if forward > 0 and _chance(rng, i, PUSH):
        return int(picks[fast.MAX_MOVES + fast.random_below(rng, i, forward)])
    return int(moves[fast.random_below(rng, i, n)])


@compiled
def _redeal(s: Rows, seat: int, rng: NDArray[np.uint64], out: Rows) -> None:
    """`out` = the position with the colours of the enemy's ghosts on the board dealt again at random (as
    many good ones as it has): a world `seat` cannot tell from the real one, without its belief."""
    out[:] = s
    enemy = 1 - seat
    ids = np.empty(8, dtype=np.int32)
    n = 0
    good = 0
    for g in range(enemy * 8, enemy * 8 + 8):
        if s[fast.POS + g] >= 0:
            ids[n] = g
            n += 1
            if s[fast.GOOD + g] == 1:
                good += 1
            out[fast.GOOD + g] = 0
    for k in range(good):
        j = k + fast.random_below(rng, 0, n - k)
        ids[k], ids[j] = ids[j], ids[k]
        out[fast.GOOD + ids[k]] = 1


@compiled
def guided_move(s: Rows, rng: NDArray[np.uint64], moves: NDArray[np.int32], worlds: Rows, linear: Floats,
                hidden_wt: Floats, hidden_b: Floats, out_w: Floats) -> int:
    """The move with the best value for the seat to move, averaged over worlds with the enemy colours
    dealt again (its own colours it knows); a winning move at once."""
    seat = s[fast.TURN]
    n = fast.legal_moves(s, moves)
    escape = s[fast.ESCAPE_RULE] == 1
    for k in range(n):
        dest = fast.STEP[moves[k]]
        if dest < 0:
            return int(moves[k])
        if not escape and fast.IS_EXIT[seat, dest] == 1 and s[fast.GOOD + s[fast.BOARD + (moves[k] >> 2)]] == 1:
            return int(moves[k])
    for w in range(worlds.shape[0]):
        _redeal(s, seat, rng, worlds[w])
    row = np.empty(fast.FIELDS, dtype=np.int32)
    best = int(moves[0])
    best_value = -1.0
    for k in range(n):
        total = 0.0
        for w in range(worlds.shape[0]):
            row[:] = worlds[w]
            fast.apply_move(row, moves[k])
            v = value_of_row(row, linear, hidden_wt, hidden_b, out_w)
            total += v if seat == 0 else 1.0 - v
        if total > best_value:
            best, best_value = int(moves[k]), total
    return best


@compiled
def self_play(games: int, keep: int, seed_rng: NDArray[np.uint64], rows_out: Rows, targets: Floats,
              guided: float, linear: Floats, hidden_wt: Floats, hidden_b: Floats, out_w: Floats) -> int:
    """Play `games` games (random setups, random first seat, `escape` or `reach` at even odds, 300 plies)
    and keep up to `keep` random positions of each with the result for seat 0. A share `guided` of the
    games is played by `guided_move` on the given model (a tenth of its moves by the playout policy, to
    explore), the rest by the playout policy. Returns how many positions were written."""
    s = np.empty(fast.FIELDS, dtype=np.int32)
    trail = np.empty((MAX_PLIES + 1, fast.FIELDS), dtype=np.int32)
    moves = np.empty(fast.MAX_MOVES, dtype=np.int32)
    picks = np.empty(2 * fast.MAX_MOVES, dtype=np.int32)
    order = np.empty(MAX_PLIES + 1, dtype=np.int32)
    worlds = np.empty((GUIDED_WORLDS, fast.FIELDS), dtype=np.int32)
    written = 0
    for _ in range(games):
        by_value = guided > 0.0 and _chance(seed_rng, 0, guided)  # no draw at 0: the streams stay as they were
        escape = fast.random_below(seed_rng, 0, 2)
        fast.new_game(s, escape, MAX_PLIES, 0, fast.random_below(seed_rng, 0, 2))
        fast.apply_setup(s, 0, fast.random_below(seed_rng, 0, SETUP_COUNT))
        fast.apply_setup(s, 1, fast.random_below(seed_rng, 0, SETUP_COUNT))
        plies = 0
        while s[fast.WINNER] == fast.RUNNING:
            trail[plies] = s
            plies += 1
            if by_value and not _chance(seed_rng, 0, EXPLORE):
                code = guided_move(s, seed_rng, moves, worlds, linear, hidden_wt, hidden_b, out_w)
            else:
                code = playout_move(s, seed_rng, 0, moves, picks)
            fast.apply_move(s, code)
        winner = s[fast.WINNER]
        result = 1.0 if winner == 0 else (0.0 if winner == 1 else 0.5)
        for k in range(plies):  # a partial shuffle picks `keep` distinct plies
            order[k] = k
        for k in range(min(keep, plies)):
            j = k + fast.random_below(seed_rng, 0, plies - k)
            order[k], order[j] = order[j], order[k]
            rows_out[written] = trail[order[k]]
            targets[written] = result
            written += 1
    return written


KERNELS = (_chance, playout_move, _redeal, guided_move, self_play)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, value))  # they inline both


def positions(games: int, keep: int, seed: int, stream: str, guided: float = 0.0,
              model: GeisterValue | None = None) -> tuple[Rows, Floats]:
    """Positions of `games` self-play games and their results, from a named stream of the seed (a share
    `guided` of the games played by the value `model`)."""
    rng = fast.new_rng(abs(hash_seed(seed, stream)))
    rows = np.empty((games * keep, fast.FIELDS), dtype=np.int32)
    targets = np.empty(games * keep)
    arrays = (model or GeisterValue.zeros(1)).kernel_arrays
    n = self_play(games, keep, rng, rows, targets, guided if model is not None else 0.0, *arrays)
    return rows[:n], targets[:n]


def hash_seed(seed: int, stream: str) -> int:
    """A stable integer for (seed, stream name) (Python's hash() of a str changes between runs)."""
    h = seed * 1_000_003
    for ch in stream:
        h = (h * 31 + ord(ch)) % (2**61 - 1)
    return h


