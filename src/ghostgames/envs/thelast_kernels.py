"""TheLastVectorEnv's kernels (envs/thelast_vector.py): a batch of matches on The Last's compiled core, the
learner's action and then the other seats' turns, compiled, in one call on the calling thread.

The other seats play uniformly random actions (RANDOM), a Python callable that the environment asks between
calls (EXTERNAL), the `rules` bot compiled (RULES,
bots/thelast/fast_rules.py), or nobody (SELF: self-play, the learner is the seat to act). A match that ends
gives every seat's reward, keeps the shown seat's last observation and starts again; with an opponent, the
new match is played on until its learner is to act.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.thelast import fast_rules
from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.envs import batched, card_vector
from ghostgames.envs.batched import NOTHING, START_GAME
from ghostgames.envs.card_vector import EXTERNAL, RANDOM, REWARD_OF, SELF
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.fast import TOTAL, Rng, compiled
from ghostgames.jit import forget_stale_kernels

Row = NDArray[np.int64]
Floats = NDArray[np.float32]


@compiled
def _start(s: Row, rng: Rng, i: int, table: NDArray[np.int64]) -> None:
    """A new match: table = (players, colours, values, cards a hand, rounds)."""
    fast.new_game(s, table[0], table[1], table[2], table[3], table[4])
    fast.random_deal(s, rng, i)


@compiled
def _others_play(s: Row, rng: Rng, i: int, kind: int, learner: int) -> bool:
    """The other seats play (random or `rules`) until the learner is to act or the game is over; True where
    a Python opponent (EXTERNAL) is to act instead: the environment asks it."""
    while True:
        seat = fast.seat_to_act(s)
        if seat < 0 or seat == learner:
            return False
        if kind == EXTERNAL:
            return True
        fast.step(s, fast.random_action(s, rng, i) if kind == RANDOM else rules_action(s), rng, i)


@compiled
def batch_play(states: Row, rng: Rng, actions: NDArray[np.int64], kind: int, learners: NDArray[np.int8],
               table: NDArray[np.int64], obs: Floats, masks: NDArray[np.int8], seats: NDArray[np.int8],
               rewards: NDArray[np.float32], seat_rewards: NDArray[np.float32], done: NDArray[np.bool_],
               scores: NDArray[np.int64], final_obs: Floats, final_masks: NDArray[np.int8],
               pending: NDArray[np.bool_]) -> None:
    """Per game i: START_GAME deals a new match, NOTHING leaves it, an action index is played by the seat to act
    (legal: the caller checked it). With an opponent the other seats then play until learners[i] is to act; a Python
    opponent's game stops where it is to act, marked `pending`, and the next call brings that seat's action.
    rewards, seat_rewards and done are the caller's to clear before a step's first call. A match that ends reports
    every seat's reward (+1 win, -1 loss, 0 draw) in seat_rewards, the acting seat's in rewards, each seat's total
    penalty in scores, the shown seat's last observation and mask in final_obs and final_masks, and starts again at
    once. Then the shown seat's observation and mask are written: learners[i] with an opponent, the seat to act in
    self-play."""
    players = table[0]
    results = np.empty(players, dtype=np.int64)
    ranks = np.empty(players, dtype=np.int64)
    for i in range(states.shape[0]):
        s = states[i]
        action = actions[i]
        if action == NOTHING and pending[i]:
            continue
        pending[i] = False
        if action == START_GAME:
            _start(s, rng, i, table)
        elif action >= 0:
            acting = fast.seat_to_act(s)
            fast.step(s, action, rng, i)
            if kind != SELF and _others_play(s, rng, i, kind, learners[i]):
                pending[i] = True
                continue
            if fast.outcome(s, results, ranks):
                done[i] = True
                for p in range(players):
                    seat_rewards[i, p] = REWARD_OF[results[p]]
                    scores[i, p] = s[TOTAL + p]
                shown = acting if kind == SELF else learners[i]
                rewards[i] = seat_rewards[i, shown]
                fast.encode(s, shown, final_obs[i])
                fast.legal_mask(s, shown, final_masks[i])
                _start(s, rng, i, table)
        if kind != SELF and action != NOTHING and _others_play(s, rng, i, kind, learners[i]):
            pending[i] = True  # (a new match always reaches each seat's turn)
            continue
        seat = learners[i] if kind != SELF else fast.seat_to_act(s)
        seats[i] = seat
        fast.encode(s, seat, obs[i])
        fast.legal_mask(s, seat, masks[i])


@compiled
def batch_random_actions(states: Row, rng: Rng, out: NDArray[np.int64]) -> None:
    """random_action for every game of the batch (stream i of `rng` for game i)."""
    for i in range(states.shape[0]):
        out[i] = fast.random_action(states[i], rng, i)


KERNELS = (_start, _others_play, batch_play, batch_random_actions)
# numba checks a cached kernel against its own file only: compile afresh when what they inline changes
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, fast_rules, batched, card_vector))
