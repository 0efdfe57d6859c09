"""Ghooost!'s `rules` bot (rules.py) compiled on the fast core, for code that plays many of its moves: the
batched environment's `rules` opponents (envs/ghooost_vector.py). It reads only what the seat to act knows:
its legal actions, the top value and run, the cemetery's size.

rules.py keeps a random pick for a position with none of its cases, which no legal position reaches (every
legal list holds a play, take, gamble, turn, pass or done); here that pick is the first legal action.
tests/bots/test_ghooost_fast_rules.py holds the two to the same choice on many positions.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.ghooost.rules import BIG_CEMETERY
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.actions import MAX_SAME
from ghostgames.games.ghooost.cards import JACK, KITTY, SCOOTY
from ghostgames.jit import forget_stale_kernels, own_kernels

_PER_VALUE, _KITTY_BASE = fast.PER_VALUE, fast.KITTY_BASE
_TAKE, _GAMBLE, _TURN, _PASS, _DONE = (fast.TAKE_ACTION, fast.GAMBLE_ACTION, fast.TURN_ACTION, fast.PASS_ACTION,
                                       fast.DONE_ACTION)
_TOP_VALUE, _TOP_RUN, _CEMETERY_COUNT, _KITTY_COUNT = (fast.TOP_VALUE, fast.TOP_RUN, fast.CEMETERY_COUNT,
                                                       fast.KITTY_COUNT)


@fast.compiled
def _reserve_order(value: int, size: int, quartet: bool) -> int:
    """rules._reserve_rank's first key: a quartet, a jack, a 1, Miss Copy help, Kitty last."""
    if value != KITTY and quartet:
        return 0
    if value == JACK:
        return 1
    if value == SCOOTY:
        return 2
    if value != KITTY:
        return 3
    return 4


@fast.compiled
def rules_action(s: NDArray[np.int32], legal: NDArray[np.int32]) -> int:
    """`rules`' choice (bots/ghooost/rules.py) for the seat to act (`legal`: scratch room for MAX_ACTIONS):
    shed the lowest ordinary value, as many as held; else end an optional extra turn; else spend a reserve
    card on a big cemetery (or when no gamble is left), gamble, turn the mansion, take or pass."""
    n = fast.legal_actions(s, legal)
    top, run = s[_TOP_VALUE], s[_TOP_RUN]
    shed, shed_key = -1, 1 << 30
    reserve, reserve_key = -1, 1 << 30
    take = gamble = turn = passing = done = False
    for j in range(n):
        action = legal[j]
        if action < _TAKE:
            if action < _KITTY_BASE:
                value = action // _PER_VALUE + 1
                count = action % _PER_VALUE // 5 + 1
                copies = action % 5
            else:
                value, count, copies = KITTY, action - _KITTY_BASE + 1, 0
            size = count + copies
            quartet = size >= MAX_SAME or (value == top and run + size >= MAX_SAME)
            if value in (SCOOTY, JACK, KITTY) or copies > 0 or quartet:
                key = _reserve_order(value, size, quartet) * 16 - size  # (order, -size): size is at most 8
                if key < reserve_key:  # the first of equals, as a stable sort keeps them
                    reserve, reserve_key = action, key
            else:
                key = value * 8 - count  # (value, -count)
                if key < shed_key:
                    shed, shed_key = action, key
        elif action == _TAKE:
            take = True
        elif action == _GAMBLE:
            gamble = True
        elif action == _TURN:
            turn = True
        elif action == _PASS:
            passing = True
        else:
            done = True
    if shed >= 0:
        return int(shed)
    if done:
        return int(_DONE)
    if reserve >= 0 and (s[_CEMETERY_COUNT] + s[_KITTY_COUNT] >= BIG_CEMETERY or not gamble):
        return int(reserve)
    if gamble:
        return int(_GAMBLE)
    if turn:
        return int(_TURN)
    if reserve >= 0:
        return int(reserve)
    if take:
        return int(_TAKE)
    if passing:
        return int(_PASS)
    return int(legal[0])


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast,))
