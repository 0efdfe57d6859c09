"""The Ghooost! and The Last courses beyond what the validator checks (tests/tutorial/test_lessons.py): the
files are what tests/tutorial/card_lessons.py builds, they cover the rules the issue names, every hint for
a refusal answers a try the rules really refuse that way, and no catalog text is left over from a lesson."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghostgames.games import get_game
from ghostgames.rules.contract import IllegalAction, State
from ghostgames.tutorial.lessons import Lesson, course
from tests.tutorial.card_lessons import BUILDERS, LESSONS, lesson_files

GAMES = tuple(BUILDERS)
LANGUAGES = ("en", "fr", "de", "ko", "uk")
I18N = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n"
CARD_LESSONS = [lesson for game in GAMES for lesson in course(game)]


def tries(lesson: Lesson, state: State[object]) -> list[str]:
    """Every action a learner could click or type here, legal or not: each card or group of the hand,
    the game's other actions, and plays the rules cannot even read (Miss Copy alone, Kitty mixed)."""
    hand: list[str] = state.view(lesson.seat)["hand"]
    if lesson.game == "thelast":
        return [f"play {c}" for c in hand] + ["keep"] + [f"swap {c}" for c in hand]
    found = ["take", "gamble", "turn", "pass", "done", "play X", "play K 5"]
    copies = hand.count("X")
    for card in sorted(set(hand) - {"X"}):
        for n in range(1, hand.count(card) + 1):
            for m in range(0 if card == "K" else copies + 1):
                found.append(" ".join(["play", *[card] * n, *["X"] * m]))
    return found


def test_the_lesson_files_are_what_the_builder_writes() -> None:
    built = lesson_files()
    on_disk = sorted(path for game in GAMES for path in (LESSONS / game).glob("*.json"))
    assert sorted(built) == on_disk, "rebuild: PYTHONPATH=src:. python -m tests.tutorial.card_lessons"
    for path, text in built.items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name}: rebuild it with tests/tutorial/card_lessons.py"


def test_the_courses_have_the_lessons_the_issue_names() -> None:
    assert [lesson.id for lesson in course("ghooost")] == [
        "equal-values", "climbing", "after-three", "miss-copy", "kitty", "jack", "quartet", "take", "gamble",
        "replay-may", "replay-must", "midnight", "bouh"]
    assert [lesson.id for lesson in course("thelast")] == [
        "follow", "last-player", "points-card", "keep-swap", "penalties", "ghost"]
    assert {lesson.id: dict(lesson.options) for lesson in course("ghooost")}["replay-must"] == {"replay": "must"}
    players = {lesson.id: lesson.players for lesson in CARD_LESSONS}
    assert players["kitty"] == players["bouh"] == 3 and players["ghost"] == 2  # a skipped seat, a match, the ghost


@pytest.mark.parametrize("lesson", CARD_LESSONS, ids=[f"{x.game}/{x.id}" for x in CARD_LESSONS])
def test_every_hint_for_a_refusal_answers_a_try_the_rules_refuse_that_way(lesson: Lesson) -> None:
    state = lesson.state()
    refused: set[str] = set()
    for text in tries(lesson, state):
        try:
            state.clone().apply(lesson.seat, get_game(lesson.game).parse_action(text))
        except IllegalAction as refusal:
            refused.add(str(refusal.code))
    hinted = set(lesson.hints) - {"default"}
    assert hinted <= refused, f"hints for refusals no try gets: {sorted(hinted - refused)}"
    assert isinstance(lesson.extra.get("wrong"), str), "a wrong try for the browser test"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_card_lesson_text_is_left_over(lang: str) -> None:
    texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    used = {key for lesson in CARD_LESSONS for key in lesson.text_keys()}
    ours = {key for key in texts if key.startswith(tuple(f"tutorial.{game}." for game in GAMES))}
    assert sorted(ours - used) == []
