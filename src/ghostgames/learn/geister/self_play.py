"""Self-play of Geister on the compiled core: the positions the learned value (`bots/geister/value.py`) is
fitted to, each with its game's result for seat 0.

Both seats play the search's hand playout (`fast_search.rollout_move`, the compiled twin of
`GeisterPolicy.rollout_action`: leave or reach an exit when it can, take a ghost on its own corners,
otherwise capture half of the time, push a good ghost forward half of the time, else a random move). It uses
its own colours and never the enemy's. With `guided` > 0, that share of the games is played instead by a
value (`guided_move`: one ply over a few worlds whose enemy colours are dealt again at random, a tenth of the
moves by the playout policy to explore), so the value also learns from stronger play. Everything is drawn
from the seed, so a seed gives the same positions on the same machine.

The games come in chunks of `CHUNK`, each a rollout task with its own stream of the seed (named by the
stream and the chunk's number), so the rollout workers (processes here or nodes of a Ray cluster, through
ghostgames.executor) feed the learner the same positions however many of them there are.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import fast_search, heuristic, value
from ghostgames.bots.geister.fast_search import rollout_move, uniform
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.bots.geister.value import GeisterValue, value_of_row
from ghostgames.executor import Executor, given_or_local
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import SETUP_COUNT
from ghostgames.jit import compiled, forget_stale_kernels

Rows = NDArray[np.int32]
Floats = NDArray[np.float64]

GAME_PLIES = 300  # the tournaments' move limit
GUIDED_WORLDS = 4  # worlds a value-guided self-play move is scored in
EXPLORE = 0.1  # share of a value-guided game's moves played by the playout policy
PLAYOUT = GeisterPolicy.heuristic  # the search's playout chances, which the self-play games are played with
CHUNK = 250  # games per rollout task


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
    trail = np.empty((GAME_PLIES + 1, fast.FIELDS), dtype=np.int32)
    moves = np.empty(fast.MAX_MOVES, dtype=np.int32)
    forward = np.empty(fast.MAX_MOVES, dtype=np.int32)
    captures = np.empty(fast.MAX_MOVES, dtype=np.int32)
    order = np.empty(GAME_PLIES + 1, dtype=np.int32)
    worlds = np.empty((GUIDED_WORLDS, fast.FIELDS), dtype=np.int32)
    written = 0
    for _ in range(games):
        by_value = guided > 0.0 and uniform(seed_rng) < guided  # no draw at 0: the streams stay as they were
        escape = fast.random_below(seed_rng, 0, 2)
        fast.new_game(s, escape, GAME_PLIES, 0, fast.random_below(seed_rng, 0, 2))
        fast.apply_setup(s, 0, fast.random_below(seed_rng, 0, SETUP_COUNT))
        fast.apply_setup(s, 1, fast.random_below(seed_rng, 0, SETUP_COUNT))
        plies = 0
        while s[fast.WINNER] == fast.RUNNING:
            trail[plies] = s
            plies += 1
            if by_value and not uniform(seed_rng) < EXPLORE:
                code = guided_move(s, seed_rng, moves, worlds, linear, hidden_wt, hidden_b, out_w)
            else:
                code = rollout_move(s, seed_rng, PLAYOUT, moves, forward, captures)
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


KERNELS = (_redeal, guided_move, self_play)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, value, fast_search, heuristic))  # all inlined


def _chunk(keep: int, seed: int, stream: str, guided: float, arrays: tuple[Floats, ...],
           chunk: tuple[int, int]) -> tuple[Rows, Floats]:
    """One rollout task: chunk number `chunk[0]`, `chunk[1]` games, from its own stream of the seed."""
    number, games = chunk
    rng = fast.new_rng(seed, 1, f"self-play {stream} {number}")
    rows = np.empty((games * keep, fast.FIELDS), dtype=np.int32)
    targets = np.empty(games * keep)
    n = self_play(games, keep, rng, rows, targets, guided, *arrays)
    return rows[:n], targets[:n]


def positions(games: int, keep: int, seed: int, stream: str, guided: float = 0.0,
              model: GeisterValue | None = None, executor: Executor | None = None) -> tuple[Rows, Floats]:
    """Positions of `games` self-play games and their results, from a named stream of the seed (a share
    `guided` of the games played by the value `model`), in chunk order; `executor` runs the chunks
    (default: here)."""
    chunks = [(number, min(CHUNK, games - number * CHUNK)) for number in range(-(-games // CHUNK))]
    arrays = (model or GeisterValue.zeros(1)).kernel_arrays
    task = functools.partial(_chunk, keep, seed, stream, guided if model is not None else 0.0, arrays)
    with given_or_local(executor) as runner:
        played = dict(runner.run(task, chunks))
    return (np.concatenate([played[c][0] for c in chunks]).reshape(-1, fast.FIELDS),
            np.concatenate([played[c][1] for c in chunks]))
