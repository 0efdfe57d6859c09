"""A learned playout policy for The Last's expert: a multinomial logit over a few features of each legal
action, fitted to the moves a search made (`learn/thelast/playout_fit.py`, `ghostgames train thelast-playout`).

Uniform playouts make every other seat throw its cards at random, so a search learns what a card is worth
against players who never duck; the `rules` playout is deterministic and was no better. A logit fitted to
the search's own choices plays like the search, with the search's spread. Each feature reads only what the
seat to act knows (its hand, the trick, the points card): a playout is a world where every seat plays as it
would without seeing the others' cards.

The features of a card played (`card_features`): its value; leading with it; following over or under the
led colour's top; last in the trick, whether it takes the trick, and the points card's and its own value
then; dropping another colour. Of a decision after a trick taken: swapping (against keeping), by how much the
card laid down is under the points card, and its value.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import KEEP_INDEX, SWAP_BASE
from ghostgames.jit import forget_stale_kernels, own_kernels

K = 12  # features of one action
FEATURES = ("value", "lead_value", "over_top", "under_value", "last_takes", "last_takes_points",
            "last_ducks_value", "discard_value", "last_takes_value", "swap", "swap_gain", "swap_value")
WEIGHTS_FILE = Path(__file__).with_name("playout-weights.json")
Floats = NDArray[np.float64]
_PHASE, _ACTOR, _DECIDE, _HAND, _POINTS_CARD = fast.PHASE, fast.ACTOR, fast.DECIDE, fast.HAND, fast.POINTS_CARD
_COUNT, _TRICK_N, _TRICK_CARD = fast.COUNT, fast.TRICK_N, fast.TRICK_CARD


@fast.compiled
def action_features(s: NDArray[np.int64], action: int, out: Floats) -> None:
    """The K features of `action` (legal for the seat to act) into `out`."""
    out[:] = 0.0
    if action >= KEEP_INDEX:
        if action > KEEP_INDEX:
            card = action - SWAP_BASE
            out[9] = 1.0
            out[10] = (fast.VALUE[s[_POINTS_CARD]] - fast.VALUE[card]) / 12.0
            out[11] = fast.VALUE[card] / 12.0
        return
    value = fast.VALUE[action] / 12.0
    out[0] = value
    n = s[_TRICK_N]
    if n == 0:
        out[1] = value
        return
    colour = fast.COLOUR[action]
    if n == s[_COUNT] - 1:
        takes = True  # the last card's colour wins: the highest of that colour takes the trick
        for k in range(n):
            other = s[_TRICK_CARD + k]
            if fast.COLOUR[other] == colour and other > action:
                takes = False
                break
        if takes:
            out[4] = 1.0
            out[5] = fast.VALUE[s[_POINTS_CARD]] / 12.0
            out[8] = value
        else:
            out[6] = value
        return
    led = fast.COLOUR[s[_TRICK_CARD]]
    if colour != led:
        out[7] = value
        return
    top = -1
    for k in range(n):
        if fast.COLOUR[s[_TRICK_CARD + k]] == led:
            top = max(top, s[_TRICK_CARD + k])
    if action > top:
        out[2] = 1.0
    else:
        out[3] = value


@fast.compiled
def learned_action(s: NDArray[np.int64], weights: Floats, rng: fast.Rng) -> int:
    """An action of the seat to act drawn from the logit: probability proportional to exp(weights . features)."""
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    scores = np.empty(fast.MAX_ACTIONS, dtype=np.float64)
    features = np.empty(K, dtype=np.float64)
    n = fast.legal_actions(s, legal)
    top = -np.inf
    for j in range(n):
        action_features(s, legal[j], features)
        score = 0.0
        for f in range(K):
            score += weights[f] * features[f]
        scores[j] = score
        top = max(top, score)
    total = 0.0
    for j in range(n):
        scores[j] = np.exp(scores[j] - top)
        total += scores[j]
    pick = fast.random_below(rng, 0, 1 << 30) / float(1 << 30) * total
    for j in range(n):
        pick -= scores[j]
        if pick < 0.0:
            return int(legal[j])
    return int(legal[n - 1])


@cache
def shipped_weights() -> Floats:
    """The packaged weights (K floats, in FEATURES' order)."""
    data = json.loads(WEIGHTS_FILE.read_text())
    return np.array([float(data["weights"][name]) for name in FEATURES], dtype=np.float64)


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast,))
