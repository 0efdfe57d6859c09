"""Whether a try meets a lesson's goal, and what the other seats answer after a good one."""

from __future__ import annotations

import importlib
import random
import zlib
from collections.abc import Callable
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.games import get_game
from ghostgames.rules.contract import Action, Event, State
from ghostgames.tutorial.lessons import Lesson

Predicate = Callable[..., bool]
MAX_BOT_REPLIES = 40  # a bot answer runs until the learner is to act again; this stops a lesson that never does


def predicate(game: str, name: str) -> Predicate:
    """The named goal function: `goals/<game>.py` first, then `goals/common.py`; KeyError when neither has it."""
    for module_name in (f"ghostgames.tutorial.goals.{game}", "ghostgames.tutorial.goals.common"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        found = getattr(module, name, None)
        if callable(found) and not name.startswith("_"):
            return found  # type: ignore[no-any-return]
    raise KeyError(f"no goal predicate {name!r} for {game} (goals/{game}.py or goals/common.py)")


def same_action(game: str, one: Action, text: str) -> bool:
    """Two actions are the same when the game reads them alike ('b2-b3' is 'b2 n')."""
    return bool(one.to_json() == get_game(game).parse_action(text).to_json())


def meets_goal(lesson: Lesson, before: State[Any], action: Action, after: State[Any]) -> bool:
    """Whether `action` (legal, already applied to `after`) is what the lesson asks for."""
    goal = lesson.goal
    if "actions" in goal:
        return any(same_action(lesson.game, action, text) for text in goal["actions"])
    check = predicate(lesson.game, str(goal["predicate"]))
    return bool(check(before, lesson.seat, action, after, **dict(goal.get("args") or {})))


def replies(lesson: Lesson, state: State[Any]) -> list[tuple[int, Action, list[Event]]]:
    """Play the others' answer on `state`: the lesson's scripted actions in order, or its bot until the
    learner is to act again or the game is over. The bot is seeded by the lesson's id, so an answer is the
    same every time; it decides from its own seat's knowledge only."""
    played: list[tuple[int, Action, list[Event]]] = []
    game = get_game(lesson.game)
    if isinstance(lesson.replies, list):
        for seat, text in lesson.replies:
            action = game.parse_action(text)
            played.append((seat, action, state.apply(seat, action)))
        return played
    bot = get_bot(str(lesson.replies["bot"]))
    rng = random.Random(zlib.crc32(f"{lesson.game}/{lesson.id}".encode()))
    while not state.is_over() and lesson.seat not in state.to_act():
        if len(played) >= MAX_BOT_REPLIES:
            raise RuntimeError(f"{lesson.game}/{lesson.id}: the bot replies never hand the turn back")
        seat = min(state.to_act())
        action = bot.choose(SeatKnowledge(state, seat), rng)
        played.append((seat, action, state.apply(seat, action)))
    return played
