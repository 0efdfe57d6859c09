"""The Last by rules of thumb: never take a trick you can leave to someone else, duck under the
winning colour, and when a trick is yours anyway dump your highest card into it; swap a won points
card for a lower card from the hand.

Everything comes from the view and the legal actions: the trick so far, the order, the points card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ghostgames.bots.base import SeatKnowledge
from ghostgames.games.thelast.actions import Keep, Play, Swap
from ghostgames.games.thelast.cards import COLOUR_OF, VALUE_OF, parse_card
from ghostgames.rules.contract import Action


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    view = knowledge.view()
    if any(isinstance(a, Keep) for a in legal):
        return _keep_or_swap(view["points_card"], [a for a in legal if isinstance(a, Swap)], legal)
    plays = [a for a in legal if isinstance(a, Play)]
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    last = len(trick) == len(view["order"]) - 1
    if last:
        return _play_last(knowledge.seat, trick, plays, [entry["who"] for entry in view["trick"]])
    if not trick:
        return _lead(plays)
    return _follow(trick, plays)


def _keep_or_swap(points_name: str | None, swaps: Sequence[Swap], legal: Sequence[Action]) -> Action:
    """Lay down the cheapest card: the points card itself, or a lower one from the hand."""
    keep = next(a for a in legal if isinstance(a, Keep))
    if points_name is None or not swaps:
        return keep
    lowest = min(swaps, key=lambda s: (VALUE_OF[s.card], s.card))
    return lowest if VALUE_OF[lowest.card] < VALUE_OF[parse_card(points_name)] else keep


def _winner(trick: list[int], who: list[int | str], card: int, me: int) -> int | str:
    """Who takes the trick if `card` is played last."""
    colour = COLOUR_OF[card]
    best = card
    winner: int | str = me
    for c, w in zip(trick, who, strict=True):
        if COLOUR_OF[c] == colour and c > best:
            best, winner = c, w
    return winner


def _play_last(me: int, trick: list[int], plays: Sequence[Play], who: list[int | str]) -> Play:
    """Last in the trick: hand it to somebody else with the highest card that does so; if every card
    wins it, the trick is lost anyway, so throw in the highest card."""
    ducking = [p for p in plays if _winner(trick, who, p.card, me) != me]
    pool = ducking or list(plays)
    return max(pool, key=lambda p: (VALUE_OF[p.card], p.card))


def _lead(plays: Sequence[Play]) -> Play:
    """Lead low: a low card rarely ends up the highest of the winning colour."""
    return min(plays, key=lambda p: (VALUE_OF[p.card], p.card))


def _follow(trick: list[int], plays: Sequence[Play]) -> Play:
    """Follow the led colour under its highest card if possible (highest such card), else as low as
    possible; without the colour, drop the lowest card (the last player may still pick its colour)."""
    led = COLOUR_OF[trick[0]]
    following = [p for p in plays if COLOUR_OF[p.card] == led]
    if following:
        top = max(c for c in trick if COLOUR_OF[c] == led)
        under = [p for p in following if p.card < top]
        if under:
            return max(under, key=lambda p: p.card)
        return min(following, key=lambda p: p.card)
    return min(plays, key=lambda p: (VALUE_OF[p.card], p.card))
