"""The tutorial's answers to the browser, made from the lesson file each time (nothing is kept between
requests). Everything the learner gets is the game's `view(seat)` of a position and the events as that
seat saw them: the position's hidden parts (the opponent's colours, the others' cards) stay here."""

from __future__ import annotations

from typing import Any

from ghostgames.games import get_game
from ghostgames.rules.contract import JSON, Action, Event, IllegalAction, State
from ghostgames.tutorial.judge import meets_goal, replies
from ghostgames.tutorial.lessons import Lesson, course, courses, next_lesson


def catalogue() -> JSON:
    """Every course: per game, its lessons in order (ids and text keys, no positions)."""
    return {"courses": [{"game": game, "lessons": [lesson.summary() for lesson in lessons]}
                        for game, lessons in courses().items()]}


def lesson_page(lesson: Lesson) -> JSON:
    """What the page needs to show a lesson: its words' keys, where it sits in the course, and the
    learner's view of the position."""
    lessons = course(lesson.game)
    following = next_lesson(lesson)
    return {
        "game": lesson.game,
        "id": lesson.id,
        "number": lesson.number,
        "count": len(lessons),
        "text": lesson.text,
        "seat": lesson.seat,
        "players": lesson.players,
        "next": following.id if following else None,
        "previous": lessons[lesson.number - 2].id if lesson.number > 1 else None,
        "view": lesson.state().view(lesson.seat),
    }


def try_action(lesson: Lesson, text: str) -> JSON:
    """Judge the learner's action on a fresh copy of the position.

    - `refused`: the rules do not allow it: the refusal's `code`, English `message` and `args` (the page
      says `rule.<code>`), and the lesson's hint for that code when it has one;
    - `wrong`: allowed but not what the lesson asks: the `hint` key (for the outcome's code when the try
      ended the game, else the default one); the position is not changed;
    - `done`: the `steps` (the learner's action, then each reply, each with the learner's view after it).
    """
    state = lesson.state()
    before = state.clone()
    try:
        action = get_game(lesson.game).parse_action(text)
        events = state.apply(lesson.seat, action)
    except IllegalAction as refused:
        hint = lesson.hints.get(refused.code or "")
        return {"result": "refused", **refused.to_json(), "hint": hint}
    if not meets_goal(lesson, before, action, state):
        ended = state.outcome()
        return {"result": "wrong", "action": str(action), "hint": lesson.hint_for(ended.code if ended else None)}
    steps = [_step(lesson, state, lesson.seat, action, events)]
    steps += [_step(lesson, state, seat, reply, reply_events) for seat, reply, reply_events in replies(lesson, state)]
    following = next_lesson(lesson)
    return {"result": "done", "action": str(action), "steps": steps, "next": following.id if following else None}


def show(lesson: Lesson) -> JSON:
    """"Show me": the lesson's own answer, played as a try (the validator checks that it meets the goal)."""
    return try_action(lesson, lesson.show)


def _step(lesson: Lesson, state: State[Any], seat: int, action: Action, events: list[Event]) -> JSON:
    """One action as the learner saw it: who, what (the text, public in every game once played), the
    events for the learner's seat, and the learner's view after it."""
    return {
        "seat": seat,
        "action": str(action) if seat == lesson.seat else None,
        "events": [event.for_seat(lesson.seat) for event in events],
        "view": state.view(lesson.seat),
    }
