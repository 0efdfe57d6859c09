"""Goals of The Last's lessons that are about what an action leads to: who takes the trick, what a swap
lays face down. Any action with that result counts, so a learner is never tied to one scripted card."""

from __future__ import annotations

from typing import Literal

from ghostgames.games.thelast.actions import Swap, TheLastAction
from ghostgames.games.thelast.cards import VALUE_OF
from ghostgames.games.thelast.state import TheLastState


def trick_won_by(
    before: TheLastState, seat: int, action: TheLastAction, after: TheLastState, *, who: Literal["me", "other", "ghost"]
) -> bool:
    """The action finished a trick and `who` took it: the learner ("me"), anybody else ("other", the ghost
    included) or the two-player game's ghost ("ghost")."""
    if len(after.tricks) <= len(before.tricks):
        return False
    winner = after.tricks[len(before.tricks)][3]
    if who == "me":
        return winner == seat
    if who == "ghost":
        return winner == after.ghost >= 0
    return winner != seat


def swaps_lower(before: TheLastState, seat: int, action: TheLastAction, after: TheLastState) -> bool:
    """The winner took the points card into the hand and laid a lower card face down in its place."""
    return isinstance(action, Swap) and VALUE_OF[action.card] < VALUE_OF[before.points_card]
