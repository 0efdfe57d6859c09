"""The Last's information-state tensor: the observation plus the round's tricks in order, trick by trick.

Why beside the observation (encoding.py): its `played` says which cards each participant played this round but
not in which trick, who led it or who took it, so it loses who could not follow a colour (and so holds no card
of it any more): two histories with the same observation can call for different plays, and the observation
is not Markov for the seat. This tensor keeps each finished trick of the round as it was seen.

Made from one seat's view only; slots as in encoding.py (slot 0 the seat, then the others in turn order, with
2 players slot 2 the ghost; M participants). All float32 in [0, 1]:

- every array of the observation, unchanged (encoding.py);
- "trick_plays" (TRICKS, M, 48): row t = the round's t-th finished trick (0 the first), 1 for the card each
  slot put into it;
- "trick_info" (TRICKS, 2 M + 51): per finished trick, 0..M-1 its leader's slot, M..2M-1 its winner's slot,
  2M..2M+47 the points card it was played for, 2M+48 the winner kept it face down, 2M+49 swapped it into its
  hand, 2M+50 the row holds a trick.

The leader and the turn order give the order of play inside a trick. With the seat's hand and face-down cards
(the observation) that is the whole round as the seat saw it. What is collapsed: the order in which the seat
itself laid its own swapped cards face down (the set is kept; nothing later depends on the order), and the
tricks of finished rounds, which are dealt afresh: of those the penalties and the last round's piles are kept.
So it is Markov for the seat, and with one round (as the OpenSpiel adapter plays) perfect recall of what
matters for play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast.cards import DECK_SIZE
from ghostgames.games.thelast.encoding import (
    CARD_ID,
    GHOST,
    MAX_HAND,
    encode_view,
    observation_shapes,
    participant_count,
)

TRICKS = MAX_HAND  # a round has at most one trick per card of the largest hand
INFO_FIXED = DECK_SIZE + 3  # points card, kept, swapped, present


def info_state_shapes(players: int) -> dict[str, tuple[int, ...]]:
    m = participant_count(players)
    return {
        **observation_shapes(players),
        "trick_plays": (TRICKS, m, DECK_SIZE),
        "trick_info": (TRICKS, 2 * m + INFO_FIXED),
    }


def encode_info_state(view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
    """The arrays of the module docstring, from one seat's view (a spectator's is laid out as encode_view's)."""
    players = int(view["players"])
    m = participant_count(players)
    me = 0 if view["seat"] is None else int(view["seat"])
    plays = np.zeros((TRICKS, m, DECK_SIZE), dtype=np.float32)
    info = np.zeros((TRICKS, 2 * m + INFO_FIXED), dtype=np.float32)

    def slot(who: int | str) -> int:
        return m - 1 if who == GHOST else (int(who) - me) % players

    for t, trick in enumerate(view["tricks"]):
        for play in trick["plays"]:
            plays[t, slot(play["who"]), CARD_ID[play["card"]]] = 1.0
        row = info[t]
        row[slot(trick["leader"])] = 1.0
        row[m + slot(trick["winner"])] = 1.0
        row[2 * m + CARD_ID[trick["points"]]] = 1.0
        taken = trick["taken"]
        row[2 * m + DECK_SIZE] = taken == "keep"
        row[2 * m + DECK_SIZE + 1] = taken == "swap"
        row[2 * m + DECK_SIZE + 2] = 1.0
    return {**encode_view(view), "trick_plays": plays, "trick_info": info}
