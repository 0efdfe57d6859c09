"""Every lesson file of every game passes the validator (so a new lesson is checked by `make test` as soon
as it exists), and the validator does find what a broken lesson gets wrong."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from ghostgames.games import GAMES
from ghostgames.tutorial.judge import meets_goal
from ghostgames.tutorial.lessons import Lesson, course, find, lesson_files
from ghostgames.tutorial.validate import all_problems, catalogs, lesson_problems

PROBLEMS = all_problems()


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_lesson_passes_the_validator(name: str) -> None:
    assert PROBLEMS[name] == []


def test_every_lesson_file_is_read_in_the_order_of_its_number() -> None:
    for game in GAMES:
        files = lesson_files(game)
        assert [lesson.path for lesson in course(game)] == files
        assert [lesson.number for lesson in course(game)] == list(range(1, len(files) + 1))


def test_geister_has_a_course_of_six_to_eight_lessons_covering_the_issue() -> None:
    ids = [lesson.id for lesson in course("geister")]
    assert 6 <= len(ids) <= 8
    for needed in ("moving", "capturing", "exit-reach", "exit-escape", "capture-good", "lose-bad", "bluffing",
                   "move-limit"):
        assert needed in ids
    options = {lesson.id: dict(lesson.options) for lesson in course("geister")}
    assert options["exit-reach"]["exit"] == "reach" and options["exit-escape"]["exit"] == "escape"
    assert options["move-limit"]["max_plies"] == 60


def _broken(lesson: Lesson, **changes: Any) -> list[str]:
    return lesson_problems(dataclasses.replace(lesson, **changes), catalogs())


def _position(lesson: Lesson, **changes: Any) -> dict[str, Any]:
    return {**lesson.position, **changes}


def test_the_validator_finds_a_broken_lesson() -> None:
    lesson = find("geister", "exit-reach")
    assert lesson is not None
    assert _broken(lesson) == []
    assert any("'show'" in p and "does not meet the goal" in p for p in _broken(lesson, show="f5 n"))
    assert any("not legal" in p for p in _broken(lesson, show="e1 n"))  # e2 holds the learner's own ghost
    pos = list(lesson.position["pos"])
    pos[1] = pos[0]  # two of the learner's ghosts on one square
    assert any("share a square" in p for p in _broken(lesson, position=_position(lesson, pos=pos)))
    assert any("not to act" in p for p in _broken(lesson, position=_position(lesson, turn=1)))
    assert any("missing in" in p for p in _broken(lesson, text="tutorial.geister.nothing-here"))
    unreachable = _broken(lesson, goal={"predicate": "won", "args": {"reason": "escaped"}})
    assert any("no legal action of the learner meets the goal" in p for p in unreachable)
    assert any("no goal predicate" in p for p in _broken(lesson, goal={"predicate": "fly"}))


def test_the_validator_checks_the_replies_after_every_action_that_meets_the_goal() -> None:
    lesson = find("geister", "capturing")
    assert lesson is not None
    # Their e4 s is legal after the lesson's own answer (d4 n takes d5), but not after d4 e, which meets the
    # goal too and takes the ghost on e4 itself: the validator must try every action that meets the goal.
    problems = _broken(lesson, replies=[(1, "e4 s")])
    assert problems == ["after d4 e the replies are not legal: you have no ghost on e4"]


def test_a_goal_given_as_actions_accepts_every_spelling_of_them() -> None:
    lesson = find("geister", "lose-bad")
    assert lesson is not None
    state = lesson.state()
    for text in ("c3 n", "c3-c4", "c3c4", "c3 north"):
        after = state.clone()
        action = state.game.parse_action(text)
        after.apply(lesson.seat, action)
        assert meets_goal(lesson, state, action, after), text


def test_the_validator_lets_a_reply_play_the_learner_only_where_there_is_no_choice() -> None:
    penalties = find("thelast", "penalties")  # its replies end with the learner's last card, the only one left
    lesson = find("thelast", "last-player")
    assert penalties is not None and lesson is not None
    assert _broken(penalties) == [] and any(seat == penalties.seat for seat, _ in penalties.replies)
    # after the learner's B4 the blue 9 wins; its owner keeps, leads G2, and the learner holds five greens
    choosing = _broken(lesson, replies=[(1, "keep"), (1, "play G2"), (2, "play G1")])
    assert choosing == ["the reply 'play G1' chooses for the learner, who has a choice there"]


def test_the_validator_finds_a_ghooost_position_no_game_reaches() -> None:
    lesson = find("ghooost", "climbing")
    assert lesson is not None and _broken(lesson) == []
    hands = [list(hand) for hand in lesson.position["hands"]]
    hands[1][14] += 1  # a fifth 14
    assert any("exactly one place" in p for p in _broken(lesson, position=_position(lesson, hands=hands)))
    crypt = list(lesson.position["crypt"])
    short = [list(hand) for hand in lesson.position["hands"]]
    short[0][4] -= 1  # the learner's 4 goes to the crypt: three cards in hand before midnight
    bad_hand = _position(lesson, hands=short, crypt=[*crypt, 4])
    assert any("at least 4 cards" in p for p in _broken(lesson, position=bad_hand))
    assert any("8 lies on 3" in p for p in _broken(lesson, position=_position(lesson, cemetery=[3, 8])))
