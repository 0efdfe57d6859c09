"""The batched environment's kernels when the learner plays against an opponent (envs/vector.py).

A learner's step plays its action, then the opponent's turns until the learner is to act again or the game
is over (`settle`). A finished game gives the learner its reward (+1, -1, 0) on that step, whoever made the
last move, keeps the learner's last observation of it (`final_*`), and starts again at once; in the new game
the opponent plays until the learner is to act, so the learner never sees a position it does not decide.

With a Python opponent (`kind` EXTERNAL) `settle` stops where the opponent is to act and marks the game
`pending`; the environment asks the callable and calls the step kernel again with the opponent's action for
the pending games and -1 (nothing to do) for the others. Each kernel comes twice, spread over numba's threads
and in the calling thread alone, as fast.py's batch kernels do.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import fast_opponents
from ghostgames.bots.geister.fast_opponents import opponent_action
from ghostgames.games.geister import fast
from ghostgames.games.geister.fast import DRAW, RUNNING, WINNER, Board, Rng
from ghostgames.jit import compiled, compiled_parallel, forget_stale_kernels

EXTERNAL = -1  # the opponent is a Python callable: the environment plays its turns
SELF = -2  # self-play: each game's learner is its seat to act, step by step


@compiled
def start_game(s: Board, rng: Rng, i: int, rules: NDArray[np.int32]) -> None:
    """A new game before the setups; `rules` = (escape, max_plies, disclose, first seat or -1 for random)."""
    first = np.int64(rules[3]) if rules[3] >= 0 else np.int64(fast.random_below(rng, i, 2))  # one int type
    fast.new_game(s, rules[0], rules[1], rules[2], int(first))


@compiled
def settle(s: Board, rng: Rng, i: int, kind: int, learner: NDArray[np.int8], alternate: int,
           rules: NDArray[np.int32], scratch: NDArray[np.int32], rewards: NDArray[np.float32],
           done: NDArray[np.bool_], winners: NDArray[np.int8], final_boards: NDArray[np.float32],
           final_vectors: NDArray[np.float32], final_masks: NDArray[np.int8], pending: NDArray[np.bool_],
           boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    """Play the opponent's turns of game i until its learner is to act, ending and restarting the game on
    the way if it ends; then write the learner's observation (or mark the game pending for a Python
    opponent)."""
    while True:
        if kind == SELF and s[WINNER] == RUNNING:
            learner[i] = fast.seat_to_act(s)
        me = learner[i]
        while s[WINNER] == RUNNING and fast.seat_to_act(s) != me:
            if kind == EXTERNAL:
                pending[i] = True
                return
            fast.apply_index(s, fast.seat_to_act(s), int(opponent_action(kind, s, rng, i, scratch[i])))
        winner = s[WINNER]
        if winner == RUNNING:
            break
        done[i] = True
        winners[i] = winner
        rewards[i] = 0.0 if winner == DRAW else (1.0 if winner == me else -1.0)
        fast.encode(s, me, final_boards[i], final_vectors[i])
        fast.legal_mask(s, me, final_masks[i])
        if alternate == 1:
            learner[i] = 1 - me
        start_game(s, rng, i, rules)
    pending[i] = False
    fast.encode(s, learner[i], boards[i], vectors[i])
    fast.legal_mask(s, learner[i], masks[i])


@compiled
def _one(states: Board, rng: Rng, actions: NDArray[np.int64], i: int, kind: int, learner: NDArray[np.int8],
         alternate: int, rules: NDArray[np.int32], scratch: NDArray[np.int32], rewards: NDArray[np.float32],
         done: NDArray[np.bool_], winners: NDArray[np.int8], final_boards: NDArray[np.float32],
         final_vectors: NDArray[np.float32], final_masks: NDArray[np.int8], pending: NDArray[np.bool_],
         boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    """Game i: start it (action -2), play an action of its seat to act (0..213), or nothing (-1)."""
    a = actions[i]
    if a == -1:
        return
    s = states[i]
    if a == -2:
        start_game(s, rng, i, rules)
    else:
        fast.apply_index(s, fast.seat_to_act(s), int(a))
    settle(s, rng, i, kind, learner, alternate, rules, scratch, rewards, done, winners, final_boards,
           final_vectors, final_masks, pending, boards, vectors, masks)


@compiled_parallel
def _batch_spread(states: Board, rng: Rng, actions: NDArray[np.int64], kind: int, learner: NDArray[np.int8],
                  alternate: int, rules: NDArray[np.int32], scratch: NDArray[np.int32],
                  rewards: NDArray[np.float32], done: NDArray[np.bool_], winners: NDArray[np.int8],
                  final_boards: NDArray[np.float32], final_vectors: NDArray[np.float32],
                  final_masks: NDArray[np.int8], pending: NDArray[np.bool_], boards: NDArray[np.float32],
                  vectors: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    for i in numba.prange(states.shape[0]):
        _one(states, rng, actions, i, kind, learner, alternate, rules, scratch, rewards, done, winners,
             final_boards, final_vectors, final_masks, pending, boards, vectors, masks)


@compiled
def _batch_here(states: Board, rng: Rng, actions: NDArray[np.int64], kind: int, learner: NDArray[np.int8],
                alternate: int, rules: NDArray[np.int32], scratch: NDArray[np.int32],
                rewards: NDArray[np.float32], done: NDArray[np.bool_], winners: NDArray[np.int8],
                final_boards: NDArray[np.float32], final_vectors: NDArray[np.float32],
                final_masks: NDArray[np.int8], pending: NDArray[np.bool_], boards: NDArray[np.float32],
                vectors: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    for i in range(states.shape[0]):
        _one(states, rng, actions, i, kind, learner, alternate, rules, scratch, rewards, done, winners,
             final_boards, final_vectors, final_masks, pending, boards, vectors, masks)


def batch_play(states: Board, rng: Rng, actions: NDArray[np.int64], kind: int, learner: NDArray[np.int8],
               alternate: int, rules: NDArray[np.int32], scratch: NDArray[np.int32], rewards: NDArray[np.float32],
               done: NDArray[np.bool_], winners: NDArray[np.int8], final_boards: NDArray[np.float32],
               final_vectors: NDArray[np.float32], final_masks: NDArray[np.int8], pending: NDArray[np.bool_],
               boards: NDArray[np.float32], vectors: NDArray[np.float32], masks: NDArray[np.int8]) -> None:
    """`_one` for every game of the batch, on numba's current number of threads."""
    kernel = _batch_spread if numba.get_num_threads() > 1 else _batch_here
    kernel(states, rng, actions, kind, learner, alternate, rules, scratch, rewards, done, winners, final_boards,
           final_vectors, final_masks, pending, boards, vectors, masks)


KERNELS = (start_game, settle, _one, _batch_spread, _batch_here)
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, fast_opponents))  # they inline both
