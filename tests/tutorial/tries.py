"""What the API and browser tests try in a lesson besides its answer."""

from __future__ import annotations

from ghostgames.tutorial.judge import meets_goal
from ghostgames.tutorial.lessons import Lesson


def wrong_try(lesson: Lesson) -> str:
    """The lesson's own example of a wrong try, else a legal action that misses the goal, else words no game reads."""
    example = lesson.extra.get("wrong")
    if isinstance(example, str):
        return example
    state = lesson.state()
    for action in state.legal_actions(lesson.seat):
        after = state.clone()
        after.apply(lesson.seat, action)
        if not meets_goal(lesson, state, action, after):
            return str(action)
    return "no such move"
