"""The Ghooost! and The Last lessons: each position loads through the game, the learner is to act, "show"
is legal and meets the goal, the scripted replies are legal after every action that meets it, every hint
answers a wrong try that really happens, the lesson's own wrong try is wrong, and every text is there in
the five languages."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ghostgames.games import get_game
from ghostgames.rules.contract import IllegalAction, State
from tests.tutorial.card_lessons import LESSONS, lesson_files

GAMES = ("ghooost", "thelast")
LANGUAGES = ("en", "fr", "de", "ko", "uk")
I18N = Path(__file__).resolve().parents[2] / "src" / "ghostgames" / "web" / "i18n"
FILES = sorted(path for game in GAMES for path in (LESSONS / game).glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def goal_check(game: str, goal: dict[str, Any]) -> Callable[[State[Any], int, Any, State[Any]], bool]:
    """The lesson's goal as one test: an action of the set (read by the game), or the named predicate."""
    rules = get_game(game)
    if "actions" in goal:
        wanted = {rules.parse_action(text) for text in goal["actions"]}
        return lambda before, seat, action, after: action in wanted
    predicate = getattr(importlib.import_module(f"ghostgames.tutorial.goals.{game}"), goal["predicate"])
    args = goal.get("args", {})
    return lambda before, seat, action, after: bool(predicate(before, seat, action, after, **args))


def tries(game: str, state: State[Any], seat: int) -> list[str]:
    """Every action a learner could click or type here, legal or not: each card or group of the hand,
    the game's other actions, and the plays the rules cannot even read (Miss Copy alone, Kitty mixed)."""
    view = state.view(seat)
    hand: list[str] = view["hand"]
    if game == "thelast":
        return [f"play {c}" for c in hand] + ["keep"] + [f"swap {c}" for c in hand]
    found = ["take", "gamble", "turn", "pass", "done", "play X", "play K 5"]
    copies = hand.count("X")
    for card in sorted(set(hand) - {"X"}):
        for n in range(1, hand.count(card) + 1):
            for m in range(0 if card == "K" else copies + 1):
                found.append(" ".join(["play", *[card] * n, *["X"] * m]))
    return found


def outcome_of(state: State[Any], seat: int, text: str, game: str) -> tuple[str | None, State[Any] | None]:
    """(refusal code, None) when the rules refuse `text`, else (None, the state after it)."""
    after = state.clone()
    try:
        after.apply(seat, get_game(game).parse_action(text))
    except IllegalAction as refused:
        return refused.code, None
    return None, after


def test_the_lesson_files_are_what_the_builder_writes() -> None:
    built = lesson_files()
    assert sorted(built) == FILES, "run: PYTHONPATH=src:. python -m tests.tutorial.card_lessons"
    for path, text in built.items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name}: rebuild it with tests/tutorial/card_lessons.py"


def test_the_courses_have_the_lessons_the_issue_names() -> None:
    names = {game: [load(p)["id"] for p in FILES if p.parent.name == game] for game in GAMES}
    assert names["ghooost"] == ["equal-values", "climbing", "after-three", "miss-copy", "kitty", "jack", "quartet",
                                "take", "gamble", "replay-may", "replay-must", "midnight", "bouh"]
    assert names["thelast"] == ["follow", "last-player", "points-card", "keep-swap", "penalties", "ghost"]
    for game in GAMES:
        numbers = [p.name.split("-", 1)[0] for p in FILES if p.parent.name == game]
        assert numbers == [f"{n:02d}" for n in range(1, len(numbers) + 1)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_lesson_is_a_real_position_with_a_reachable_goal_and_legal_replies(path: Path) -> None:
    lesson = load(path)
    game = path.parent.name
    rules = get_game(game)
    rules.options(lesson["players"], lesson["options"])
    state = rules.load(lesson["position"])
    assert state.to_json() == lesson["position"], "the position must load exactly as written"
    assert state.players == lesson["players"] and state.outcome() is None
    seat = lesson["seat"]
    assert state.to_act() == {seat}, "the learner is the one to act"
    meets = goal_check(game, lesson["goal"])
    legal = state.legal_actions(seat)
    show = rules.parse_action(lesson["show"])
    assert show in legal
    reaching = []
    for action in legal:
        after = state.clone()
        after.apply(seat, action)
        if meets(state, seat, action, after):
            reaching.append((action, after))
    assert show in [a for a, _ in reaching], "show me must meet the goal"
    if "actions" in lesson["goal"]:
        assert {rules.parse_action(t) for t in lesson["goal"]["actions"]} == {a for a, _ in reaching}
    for action, after in reaching:  # the replies fit whichever correct action the learner found
        for who, reply in lesson["replies"]:
            assert after.to_act() == {who}, f"after {action}: {who} is not to act for {reply!r}"
            after.apply(who, reply)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_wrong_try_exists_and_every_hint_answers_one(path: Path) -> None:
    lesson = load(path)
    game = path.parent.name
    state = get_game(game).load(lesson["position"])
    seat = lesson["seat"]
    meets = goal_check(game, lesson["goal"])
    refused: set[str] = set()
    missed: list[str] = []  # legal, but not what the lesson asks: the default hint explains those
    for text in tries(game, state, seat):
        code, after = outcome_of(state, seat, text, game)
        if code is not None:
            refused.add(code)
        elif after is not None and not meets(state, seat, get_game(game).parse_action(text), after):
            missed.append(text)
    hints = dict(lesson["hints"])
    assert "default" in hints
    hinted = set(hints) - {"default"}
    assert hinted <= refused, f"hints for refusals no try gets: {sorted(hinted - refused)}"
    code, after = outcome_of(state, seat, lesson["wrong"], game)  # the wrong try the browser test plays
    if code is None:
        assert lesson["wrong"] in missed, "the lesson's wrong try meets its goal"
    else:
        assert code in hinted or code == "unreadable" or code.startswith(("ghooost.", "thelast.")), code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_text_is_in_every_language(lang: str) -> None:
    texts = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    wanted: set[str] = set()
    for path in FILES:
        lesson = load(path)
        wanted |= {f"{lesson['text']}.{part}" for part in ("title", "intro", "done")} | set(lesson["hints"].values())
    assert sorted(k for k in wanted if not texts.get(k, "").strip()) == []
    ours = {k for k in texts if k.startswith(("tutorial.ghooost.", "tutorial.thelast."))}
    assert sorted(ours - wanted) == [], "texts no lesson uses"
