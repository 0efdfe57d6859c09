"""The batch step of the card games' vector environments (envs/card_vector.py), written once for both games.

`play_batch` is the loop both card games step their batch with: the learner's action, the other seats' turns,
the report of a game that ended and its restart, the next observation. What differs per game comes in as
compiled functions (its core's, and a few lines of its own in envs/<game>_kernels.py), passed one by one:
numba inlines `play_batch` into each game's `batch_play` with that game's functions called directly, so it
runs as fast as a loop written for the game, and the game's kernel cache keeps it (jit.py's
`compiled_into_callers` says why it is inlined; a tuple of the functions would make them slow pointers).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.envs.batched import NOTHING, START_GAME
from ghostgames.envs.card_vector import EXTERNAL, RANDOM, REWARD_OF, SELF
from ghostgames.jit import Rng, compiled_into_callers

Row = NDArray[Any]  # one game of a core: int64 (The Last) or int32 (Ghooost!)
Floats = NDArray[np.float32]
Hook = Any  # one of the game's compiled functions
# The environment's arrays the step writes: obs, masks, seats, rewards, seat_rewards, done, scores, final_obs,
# final_masks, pending (envs/card_vector.py names them).
Outputs = tuple[Floats, NDArray[np.int8], NDArray[np.int8], NDArray[np.float32], NDArray[np.float32],
                NDArray[np.bool_], NDArray[np.int64], Floats, NDArray[np.int8], NDArray[np.bool_]]


@compiled_into_callers
def _others_play(act: Hook, seat_to_act: Hook, random_action: Hook, rules_action: Hook, s: Row, rng: Rng, i: int,
                 kind: int, learner: int, scratch: NDArray[Any]) -> bool:
    """The other seats play (random or `rules`) until the learner is to act or the game is over; True where
    a Python opponent (EXTERNAL) is to act instead: the environment asks it."""
    while True:
        seat = seat_to_act(s)
        if seat < 0 or seat == learner:
            return False
        if kind == EXTERNAL:
            return True
        act(s, random_action(s, rng, i) if kind == RANDOM else rules_action(s, scratch), rng, i)


@compiled_into_callers
def play_batch(start: Hook, act: Hook, seat_to_act: Hook, random_action: Hook, rules_action: Hook, ended: Hook,
               encode: Hook, legal_mask: Hook, scratch: NDArray[Any], states: Row, rng: Rng,
               actions: NDArray[np.int64], kind: int, learners: NDArray[np.int8], table: NDArray[np.int64],
               outputs: Outputs) -> None:
    """Per game i: START_GAME deals a new game, NOTHING leaves it, an action index is played by the seat to act
    (legal: the caller checked it). With an opponent the other seats then play until learners[i] is to act; a
    Python opponent's game stops where it is to act, marked `pending`, and the next call brings that seat's
    action. rewards, seat_rewards and done are the caller's to clear before a step's first call. A game that
    ends reports every seat's reward (+1 win, -1 loss, 0 draw) in seat_rewards, the acting seat's in rewards,
    each seat's score in scores, the shown seat's last observation and mask in final_obs and final_masks, and
    starts again at once; with an opponent, one that ends before its learner acted (a very short game) is
    dealt again without a report: its learner made no decision in it. Then the shown seat's observation and
    mask are written: learners[i] with an opponent, the seat to act in self-play.

    The game's compiled functions: start(s, rng, i, table) a new game (its options in `table`) dealt from stream
    i; act(s, action, rng, i) the seat to act plays (the next deal, if due, from stream i); seat_to_act(s), below
    0 once the game is over; random_action(s, rng, i) and rules_action(s, scratch), the random and `rules`
    opponents' choices; ended(s, results, scores, scratch), once over True with per seat its result (LOSS, WIN,
    DRAW) and score written; encode(s, seat, out) and legal_mask(s, seat, out). `scratch` is working room the
    game's functions share."""
    obs, masks, seats, rewards, seat_rewards, done, scores, final_obs, final_masks, pending = outputs
    players = table[0]
    results = np.empty(players, dtype=np.int64)
    for i in range(states.shape[0]):
        s = states[i]
        action = actions[i]
        learner = learners[i]
        if action == NOTHING and pending[i]:
            continue
        pending[i] = False
        if action == START_GAME:
            start(s, rng, i, table)
        elif action >= 0:
            acting = seat_to_act(s)
            act(s, action, rng, i)
            if kind != SELF and _others_play(act, seat_to_act, random_action, rules_action, s, rng, i, kind,
                                             learner, scratch):
                pending[i] = True
                continue
            if ended(s, results, scores[i], scratch):
                done[i] = True
                for p in range(players):
                    seat_rewards[i, p] = REWARD_OF[results[p]]
                shown = acting if kind == SELF else learner
                rewards[i] = seat_rewards[i, shown]
                encode(s, shown, final_obs[i])
                legal_mask(s, shown, final_masks[i])
                start(s, rng, i, table)
        if kind != SELF and action != NOTHING:
            while True:  # the others play on to the learner's turn
                if _others_play(act, seat_to_act, random_action, rules_action, s, rng, i, kind, learner, scratch):
                    pending[i] = True
                    break
                if seat_to_act(s) >= 0:
                    break
                start(s, rng, i, table)  # over before its learner acted: nothing to report, deal again
            if pending[i]:
                continue
        seat = learner if kind != SELF else seat_to_act(s)
        seats[i] = seat
        encode(s, seat, obs[i])
        legal_mask(s, seat, masks[i])
