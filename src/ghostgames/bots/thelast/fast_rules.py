"""The Last's `rules` bot (rules.py) compiled on the fast core, for code that plays many of its moves: the
expert's opponent-aware playouts (fast_search.py) and the batched environment's `rules` opponents
(envs/thelast_vector.py). It reads only what the seat to act knows: its hand, the trick and the points card.

rules.py never draws at random, so one action is the whole answer; tests/bots/test_thelast_fast_rules.py
holds the two to the same choice on many positions.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import KEEP_INDEX, SWAP_BASE
from ghostgames.jit import forget_stale_kernels, own_kernels

_PHASE, _ACTOR, _DECIDE, _HAND, _POINTS_CARD = fast.PHASE, fast.ACTOR, fast.DECIDE, fast.HAND, fast.POINTS_CARD
_COUNT, _TRICK_N, _TRICK_CARD = fast.COUNT, fast.TRICK_N, fast.TRICK_CARD


@fast.compiled
def _lowest(cards: int) -> int:
    """The card of lowest value (then lowest id) of a non-empty mask."""
    best, best_value = -1, 99
    while cards:
        low = cards & -cards
        card = fast.lowest_card(low)
        if fast.VALUE[card] < best_value:
            best, best_value = card, fast.VALUE[card]
        cards ^= low
    return best


@fast.compiled
def _highest(cards: int) -> int:
    """The card of highest value (then highest id) of a non-empty mask."""
    best, best_value = -1, -1
    while cards:
        low = cards & -cards
        card = fast.lowest_card(low)
        if fast.VALUE[card] >= best_value:
            best, best_value = card, fast.VALUE[card]
        cards ^= low
    return best


@fast.compiled
def _top_card(cards: int) -> int:
    top = -1
    while cards:
        low = cards & -cards
        top = fast.lowest_card(low)
        cards ^= low
    return top


@fast.compiled
def rules_action(s: NDArray[np.int64]) -> int:
    """`rules`' choice (bots/thelast/rules.py) for the seat to act: swap the lowest card under the points
    card; last in a trick, the highest card that hands it on; lead low; follow under the top if possible."""
    seat = s[_ACTOR]
    if s[_PHASE] == _DECIDE:
        low = _lowest(s[_HAND + seat])
        return SWAP_BASE + low if fast.VALUE[low] < fast.VALUE[s[_POINTS_CARD]] else KEEP_INDEX
    cards = fast.playable(s)
    n = s[_TRICK_N]
    if n == 0:
        return _lowest(cards)
    if n == s[_COUNT] - 1:
        ducking = 0
        rest = cards
        while rest:
            low = rest & -rest
            card = fast.lowest_card(low)
            for k in range(n):
                other = s[_TRICK_CARD + k]
                if fast.COLOUR[other] == fast.COLOUR[card] and other > card:
                    ducking |= low
                    break
            rest ^= low
        return _highest(ducking if ducking else cards)
    led = fast.COLOUR[s[_TRICK_CARD]]
    following = cards & fast.COLOUR_CARDS[1 << led]
    if following:
        top = -1
        for k in range(n):
            if fast.COLOUR[s[_TRICK_CARD + k]] == led:
                top = max(top, s[_TRICK_CARD + k])
        under = following & ((1 << top) - 1)
        if under:
            return _top_card(under)
        return fast.lowest_card(following)
    return _lowest(cards)


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast,))
