"""The `value` bot's Geister play: one ply of look-ahead on the learned value (`value.py`), averaged over
worlds dealt from the seat's belief.

For every legal move it plays the move in K worlds, each a `sample_world` whose hidden enemy colours
are redrawn from the expert's belief (`BeliefPolicy.determinize`), and averages the value of the result
for its seat; the best average wins (the first in the legal order on a tie). Before that, as the expert
does, it leaves or steps onto an exit when it can (`forced`) and keeps to the expert's guard
(`BeliefPolicy.allowed`: take an enemy ghost about to leave, never a possible fourth bad ghost while
another move exists). Setups are uniformly random. It reads nothing but the seat's knowledge and its rng.
"""

from __future__ import annotations

import random

import numpy as np

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.value import GeisterValue, move_values
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import Action

WORLDS = 16  # belief worlds each move is scored in


def choose(knowledge: SeatKnowledge, rng: random.Random, model: GeisterValue, worlds: int = WORLDS) -> Action:
    legal = knowledge.legal_actions()
    if not isinstance(legal[0], Move):
        return rng.choice(legal)  # setup: a uniformly random placement gives nothing away
    if len(legal) == 1:
        return legal[0]
    policy = BeliefPolicy(knowledge)
    forced = policy.forced(legal, rng)
    if forced is not None:
        return forced
    moves = [m for m in policy.allowed(legal) or legal if isinstance(m, Move)]
    if len(moves) == 1:
        return moves[0]
    rows = np.empty((worlds, fast.FIELDS), dtype=np.int32)
    for k in range(worlds):
        world = policy.determinize(rng)
        assert isinstance(world, GeisterState)
        rows[k] = fast.from_state(world)
    codes = np.array([fast.code_of(m) for m in moves], dtype=np.int32)
    values = move_values(rows, codes, knowledge.seat, *model.kernel_arrays)
    return moves[int(np.argmax(values))]
