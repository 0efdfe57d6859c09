"""Goal predicates every game can use."""

from __future__ import annotations

from typing import Any

from ghostgames.rules.contract import Action, State


def won(before: State[Any], seat: int, action: Action, after: State[Any], reason: str | None = None) -> bool:
    """The action wins the game for the learner (for the reason with that code, when one is named)."""
    outcome = after.outcome()
    if outcome is None or outcome.results[seat].result != "win":
        return False
    return reason is None or outcome.code == reason


def ends(before: State[Any], seat: int, action: Action, after: State[Any], reason: str) -> bool:
    """The action ends the game for the named reason, whoever wins."""
    outcome = after.outcome()
    return outcome is not None and outcome.code == reason


def any_action(before: State[Any], seat: int, action: Action, after: State[Any]) -> bool:
    """Every legal action: a lesson about how to act at all (its wrong tries are the refused ones)."""
    return True
