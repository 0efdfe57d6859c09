"""The lesson validator: every lesson must be playable as its file says. `make test` runs it over every
lesson file (tests/tutorial/test_lessons.py), so a new lesson is checked as soon as it exists.

A lesson passes when its position loads through the game and is a legal, running state with the learner
to act; a world the learner cannot tell apart from it looks the same to them; its goal is reachable (some
legal action meets it, "show me" meets it, and the replies are legal after every action that meets it);
and every text it shows is in all five catalogs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ghostgames.games import GAMES, get_game
from ghostgames.rules.contract import Action, IllegalAction, State
from ghostgames.tutorial.judge import meets_goal, predicate, replies
from ghostgames.tutorial.lessons import Lesson, LessonError, course, lesson_files, read_lesson
from ghostgames.tutorial.positions import position_problems

CATALOGS = Path(__file__).parents[1] / "web" / "i18n"
LANGUAGES = ("en", "fr", "de", "ko", "uk")


def catalogs() -> dict[str, dict[str, str]]:
    return {lang: json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES}


def lesson_problems(lesson: Lesson, texts: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Everything wrong with one lesson, in words (empty: it is fine)."""
    problems = _text_problems(lesson, texts)
    game = get_game(lesson.game)
    try:
        options = game.options(lesson.players, lesson.options)
        state = lesson.state()
    except (ValueError, KeyError, TypeError, IllegalAction) as err:
        return [*problems, f"the position does not load: {err}"]
    problems += _state_problems(lesson, options.model_dump(), state)
    if problems:
        return problems
    return _goal_problems(lesson, state)


def _text_problems(lesson: Lesson, texts: Mapping[str, Mapping[str, str]]) -> list[str]:
    problems = []
    if not lesson.text.startswith(f"tutorial.{lesson.game}."):
        problems.append(f"its text key {lesson.text!r} does not start with 'tutorial.{lesson.game}.'")
    for key in lesson.text_keys():
        missing = [lang for lang, catalog in texts.items() if not str(catalog.get(key, "")).strip()]
        if missing:
            problems.append(f"the text {key!r} is missing in {', '.join(missing)}")
    return problems


def _state_problems(lesson: Lesson, options: Mapping[str, Any], state: State[Any]) -> list[str]:
    problems = position_problems(lesson.game, state)
    if lesson.position.get("game", lesson.game) != lesson.game:
        problems.append(f"the position is of {lesson.position.get('game')!r}")
    if state.players != lesson.players:
        problems.append(f"the position has {state.players} players, the lesson says {lesson.players}")
    stated = lesson.position.get("options")
    if isinstance(stated, Mapping):
        for name, value in lesson.options.items():
            if stated.get(name) != options.get(name):
                problems.append(f"the option {name!r} is {stated.get(name)!r} in the position, {value!r} in the lesson")
    again = get_game(lesson.game).load(state.to_json())
    if again.to_json() != state.to_json():
        problems.append("the position does not survive to_json and load unchanged")
    if state.is_over():
        problems.append("the position is a finished game")
    elif lesson.seat not in state.to_act():
        problems.append(f"seat {lesson.seat} (the learner) is not to act")
    view = state.view(lesson.seat)
    json.dumps(view)
    for k in range(3):  # the learner must not be able to tell the position from a re-dealt one
        world = state.sample_world(lesson.seat, random.Random(k))
        if world.view(lesson.seat) != view:
            problems.append("a world sampled for the learner looks different to them: the position is inconsistent")
            break
    return problems


def _goal_problems(lesson: Lesson, state: State[Any]) -> list[str]:
    game = get_game(lesson.game)
    problems: list[str] = []
    if "predicate" in lesson.goal:
        try:
            predicate(lesson.game, str(lesson.goal["predicate"]))
        except KeyError as err:
            return [str(err.args[0])]
    else:
        for text in lesson.goal["actions"]:
            try:
                game.parse_action(text)
            except IllegalAction as err:
                problems.append(f"the goal action {text!r} is not readable: {err}")
    meeting = [action for action in state.legal_actions(lesson.seat) if _meets(lesson, state, action)]
    if not meeting:
        problems.append("no legal action of the learner meets the goal")
    try:
        shown = game.parse_action(lesson.show)
    except IllegalAction as err:
        return [*problems, f"'show' {lesson.show!r} is not readable: {err}"]
    if not any(a.to_json() == shown.to_json() for a in state.legal_actions(lesson.seat)):
        problems.append(f"'show' {lesson.show!r} is not legal in the position")
    elif not _meets(lesson, state, shown):
        problems.append(f"'show' {lesson.show!r} does not meet the goal")
    for action in meeting:
        after = state.clone()
        after.apply(lesson.seat, action)
        try:
            problems += _choices_for_the_learner(lesson, after.clone())
            replies(lesson, after)
        except (IllegalAction, RuntimeError) as err:
            problems.append(f"after {action} the replies are not legal: {err}")
    wrong = lesson.extra.get("wrong")
    if isinstance(wrong, str) and _wrong_problem(lesson, state, wrong):
        problems.append(f"'wrong' {wrong!r} meets the goal")
    return problems


def _choices_for_the_learner(lesson: Lesson, state: State[Any]) -> list[str]:
    """A scripted reply may play the learner's own seat only where it has a single legal action (the last
    card of a round, so that the lesson can show the round's end): a lesson never chooses for the learner."""
    if not isinstance(lesson.replies, list):
        return []
    game = get_game(lesson.game)
    for seat, text in lesson.replies:
        if seat == lesson.seat and seat in state.to_act() and len(state.legal_actions(seat)) != 1:
            return [f"the reply {text!r} chooses for the learner, who has a choice there"]
        state.apply(seat, game.parse_action(text))
    return []


def _meets(lesson: Lesson, state: State[Any], action: Action) -> bool:
    after = state.clone()
    after.apply(lesson.seat, action)
    return meets_goal(lesson, state, action, after)


def _wrong_problem(lesson: Lesson, state: State[Any], text: str) -> bool:
    """True when the lesson's example of a wrong try is in fact right."""
    try:
        action = get_game(lesson.game).parse_action(text)
        after = state.clone()
        after.apply(lesson.seat, action)
    except IllegalAction:
        return False
    return meets_goal(lesson, state, action, after)


def all_problems() -> dict[str, list[str]]:
    """`game/file` -> its problems, for every lesson file of every game (unreadable files included)."""
    texts = catalogs()
    found: dict[str, list[str]] = {}
    for game in GAMES:
        seen: set[str] = set()
        for number, path in enumerate(lesson_files(game), start=1):
            name = f"{game}/{path.name}"
            try:
                lesson = read_lesson(game, path, number)
            except LessonError as err:
                found[name] = [str(err)]
                continue
            problems = []
            if lesson.id != path.stem.split("-", 1)[1]:
                problems.append(f"its id {lesson.id!r} is not the file's slug")
            if lesson.id in seen:
                problems.append(f"a second lesson with the id {lesson.id!r}")
            seen.add(lesson.id)
            numbers = [p.name[:2] for p in lesson_files(game)]
            if numbers.count(path.name[:2]) > 1:
                problems.append(f"two files numbered {path.name[:2]}")
            found[name] = problems + lesson_problems(lesson, texts)
    return found


def every_lesson() -> list[Lesson]:
    return [lesson for game in GAMES for lesson in course(game)]
