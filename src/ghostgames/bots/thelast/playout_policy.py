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

Playouts draw from `learned_action_tabled`, not `learned_action`: a score splits into factors that depend on
one card and its situation, tabled once per set of weights (`score_tables`), which gives the same draws
without the features of every legal action (the fit and the tests keep the features as the definition).
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
def logit_scores(s: NDArray[np.int64], legal: NDArray[np.int64], n: int, weights: Floats, scores: Floats) -> float:
    """exp(weights . features - the largest) of each of the first n `legal` actions into `scores`; returns their
    sum (an action's probability under the logit is its score over the sum)."""
    features = np.empty(K, dtype=np.float64)
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
    return total


@fast.compiled
def learned_action(s: NDArray[np.int64], weights: Floats, rng: fast.Rng) -> int:
    """An action of the seat to act drawn from the logit: probability proportional to exp(weights . features)."""
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    scores = np.empty(fast.MAX_ACTIONS, dtype=np.float64)
    n = fast.legal_actions(s, legal)
    total = logit_scores(s, legal, n, weights, scores)
    pick = fast.random_below(rng, 0, 1 << 30) / float(1 << 30) * total
    for j in range(n):
        pick -= scores[j]
        if pick < 0.0:
            return int(legal[j])
    return int(legal[n - 1])


# Rows of `score_tables`: exp of a feature score's part that depends on one card only, for each situation.
LEAD, DISCARD, OVER, UNDER, TAKES, DUCKS, TAKES_POINTS, SWAP_CARD, SWAP_POINTS = range(9)
TABLES = 9


@fast.compiled
def score_tables(weights: Floats) -> Floats:
    """exp(weights . features) split into per-card factors, once per set of weights: row LEAD holds, for each
    card c, the exp of the score of leading with c; DISCARD, OVER, UNDER of following with it (another colour,
    over the led colour's top, under it); TAKES and DUCKS of playing it last in the trick (taking it: times
    TAKES_POINTS[points card]); SWAP_CARD of laying c down in a swap (times SWAP_POINTS[points card]). Keeping
    scores 0, so its factor is 1. `learned_action_tabled` then draws as `learned_action` does with a product
    of two looked-up numbers per action instead of twelve features and an exp."""
    w = weights
    out = np.empty((TABLES, fast.VALUE.shape[0]), dtype=np.float64)
    for c in range(fast.VALUE.shape[0]):
        v = fast.VALUE[c] / 12.0
        out[LEAD, c] = np.exp((w[0] + w[1]) * v)
        out[DISCARD, c] = np.exp((w[0] + w[7]) * v)
        out[OVER, c] = np.exp(w[0] * v + w[2])
        out[UNDER, c] = np.exp((w[0] + w[3]) * v)
        out[TAKES, c] = np.exp((w[0] + w[8]) * v + w[4])
        out[DUCKS, c] = np.exp((w[0] + w[6]) * v)
        out[TAKES_POINTS, c] = np.exp(w[5] * v)
        out[SWAP_CARD, c] = np.exp((w[11] - w[10]) * v)
        out[SWAP_POINTS, c] = np.exp(w[9] + w[10] * v)
    return out


@fast.compiled
def _card_weight(c: int, first: int, second: int, factor: float, tables: Floats, mask: int) -> float:
    return float(tables[first, c] if (mask >> c) & 1 else tables[second, c] * factor)


@fast.compiled
def learned_action_tabled(s: NDArray[np.int64], tables: Floats, rng: fast.Rng) -> int:
    """`learned_action` with the weights' `score_tables`: the same distribution and, on the same random stream,
    the same draw (up to float rounding; tests/bots/test_thelast_playout_policy.py holds them equal). A
    decision's cards fall into at most two situations told apart by one mask (`split`: under/over the led
    colour's top, ducking/taking when last, one of them empty otherwise), so the playable cards are walked
    twice, once to total the factors and once to draw, with nothing allocated."""
    seat = s[_ACTOR]
    if s[_PHASE] == _DECIDE:
        cards = s[_HAND + seat]
        first, second, split, factor = SWAP_CARD, SWAP_CARD, 0, tables[SWAP_POINTS, s[_POINTS_CARD]]
        total = 1.0  # keeping
    else:
        cards = fast.playable(s)
        total = 0.0
        n = s[_TRICK_N]
        factor = 1.0
        if n == 0:
            first, second, split = LEAD, LEAD, 0
        elif n == s[_COUNT] - 1:
            split = 0  # the cards that duck: under a card of their colour in the trick
            for k in range(n):
                other = s[_TRICK_CARD + k]
                split |= fast.COLOUR_CARDS[1 << fast.COLOUR[other]] & ((1 << other) - 1)
            first, second, factor = DUCKS, TAKES, tables[TAKES_POINTS, s[_POINTS_CARD]]
        else:
            led = fast.COLOUR[s[_TRICK_CARD]]
            top = -1
            for k in range(n):
                if fast.COLOUR[s[_TRICK_CARD + k]] == led:
                    top = max(top, s[_TRICK_CARD + k])
            first, second = UNDER, OVER
            split = fast.COLOUR_CARDS[1 << led] & ((1 << top) - 1)
            if not cards & fast.COLOUR_CARDS[1 << led]:
                first, second, split = DISCARD, DISCARD, 0
    rest = cards
    while rest:
        low = rest & -rest
        total += _card_weight(fast.lowest_card(low), first, second, factor, tables, split)
        rest ^= low
    pick = fast.random_below(rng, 0, 1 << 30) / float(1 << 30) * total
    if s[_PHASE] == _DECIDE:
        pick -= 1.0
        if pick < 0.0:
            return KEEP_INDEX
    base = SWAP_BASE if s[_PHASE] == _DECIDE else 0
    last = -1
    rest = cards
    while rest:
        low = rest & -rest
        last = fast.lowest_card(low)
        pick -= _card_weight(last, first, second, factor, tables, split)
        if pick < 0.0:
            return base + last
        rest ^= low
    return base + last if last >= 0 else KEEP_INDEX


@cache
def shipped_weights() -> Floats:
    """The packaged weights (K floats, in FEATURES' order)."""
    data = json.loads(WEIGHTS_FILE.read_text())
    return np.array([float(data["weights"][name]) for name in FEATURES], dtype=np.float64)


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast,))
