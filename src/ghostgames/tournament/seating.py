"""Who sits where in a tournament's game i: the bots rotated in the order they are named, or every cyclic order
of them in turn.

Rotating keeps the bots' cyclic order: the same bot always plays right after the same other. In a game of three
or more players that is not neutral (in The Last the winner leads the next trick and the player before the winner
plays it last, picking the winning colour; a weak player's gifts go to whoever sits where they fall), so `cycle`
seats every cyclic order alike: the first `players` games are the rotations of the order named, the next ones the
rotations of the next order, and so on, so a multiple of `players` times the number of orders seats every order
equally often.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

SEATINGS = ("rotations", "cycle")


def cyclic_orders(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct cyclic order of the bots, the order named first; orders that are rotations of one another
    (possible when a bot is named twice) are one order. Four different bots have 6, five 24, five with one named
    twice 12."""
    n = len(bots)
    found: dict[tuple[str, ...], tuple[str, ...]] = {}
    for rest in [tuple(bots[1:]), *itertools.permutations(bots[1:])]:
        order = (bots[0], *rest)
        found.setdefault(min(order[r:] + order[:r] for r in range(n)), order)
    return list(found.values())


def seating(bots: Sequence[str], players: int, index: int, kind: str = "rotations") -> list[str]:
    """The bot of each seat in game `index`. `rotations`: seat s gets bot (s + index) mod (number of bots), so each
    bot sits in each seat equally often over a multiple of that many games (the bots may be more or fewer than the
    seats). `cycle` (one bot a seat): the same rotation within the cyclic order number (index // players) mod
    (number of orders)."""
    if kind == "rotations":
        return [bots[(seat + index) % len(bots)] for seat in range(players)]
    if kind != "cycle":
        raise ValueError(f"unknown seating {kind!r}: choose one of {', '.join(SEATINGS)}")
    if len(bots) != players:
        raise ValueError(f"seating 'cycle' needs one bot a seat: {len(bots)} bots named for {players} players")
    orders = cyclic_orders(bots)
    order = orders[(index // players) % len(orders)]
    return [order[(seat + index) % players] for seat in range(players)]
