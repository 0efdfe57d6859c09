"""Goal predicates of the Geister lessons."""

from __future__ import annotations

from typing import Any

from ghostgames.games.geister.actions import Move
from ghostgames.rules.contract import Action, State


def moved(before: State[Any], seat: int, action: Action, after: State[Any], direction: str) -> bool:
    """A ghost stepped in that direction (n = towards row 6)."""
    return isinstance(action, Move) and action.direction == direction


def captured(before: State[Any], seat: int, action: Action, after: State[Any]) -> bool:
    """The move took an enemy ghost (the view then shows its colour to both sides)."""
    taken = before.view(seat)["captured"][1 - seat]
    now = after.view(seat)["captured"][1 - seat]
    return bool(now["good"] + now["bad"] > taken["good"] + taken["bad"])
