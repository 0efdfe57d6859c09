"""Reading lesson files: a course per game, its lessons in the order of their file names' numbers."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ghostgames.games import GAMES, get_game
from ghostgames.rules.contract import State

LESSONS = Path(__file__).parent / "lessons"
FILE_NAME = re.compile(r"^(\d{2})-([a-z0-9][a-z0-9_-]*)\.json$")


class LessonError(ValueError):
    """A lesson file that cannot be read as a lesson (the validator reports the finer problems)."""


@dataclass(frozen=True)
class Lesson:
    """One lesson as its file says it. `number` counts from 1 in the course (the order of the files)."""

    game: str
    id: str
    number: int
    path: Path
    players: int
    options: Mapping[str, Any]
    position: Mapping[str, Any]
    seat: int
    text: str
    goal: Mapping[str, Any]
    hints: Mapping[str, str]
    show: str
    replies: list[tuple[int, str]] | Mapping[str, Any]
    extra: Mapping[str, Any] = field(default_factory=dict)

    def state(self) -> State[Any]:
        """A fresh copy of the position (every try starts from the file, so nothing is kept between tries)."""
        return get_game(self.game).load(self.position)

    def text_keys(self) -> list[str]:
        """Every catalog key the lesson shows: its title, instruction, the words after success, its hints."""
        return [f"{self.text}.title", f"{self.text}.intro", f"{self.text}.done", *self.hints.values()]

    def hint_for(self, code: str | None) -> str:
        """The hint for a refusal or an outcome code, else the lesson's default hint."""
        return self.hints.get(code or "", self.hints["default"])

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "number": self.number, "text": self.text}


KNOWN = {"id", "players", "options", "position", "seat", "text", "goal", "hints", "show", "replies"}


def read_lesson(game: str, path: Path, number: int) -> Lesson:
    """One file as a Lesson; LessonError names the file and what is missing or of the wrong kind."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise LessonError(f"{path.name}: not readable JSON ({err})") from err
    if not isinstance(data, dict):
        raise LessonError(f"{path.name}: a lesson is a JSON object")
    missing = sorted(KNOWN - set(data) - {"replies", "options"})
    if missing:
        raise LessonError(f"{path.name}: missing {', '.join(missing)}")
    hints = data["hints"]
    if not isinstance(hints, dict) or not isinstance(hints.get("default"), str):
        raise LessonError(f"{path.name}: 'hints' needs at least a 'default' key")
    replies = data.get("replies", [])
    if isinstance(replies, list):
        replies = [(int(seat), str(text)) for seat, text in replies]
    elif not isinstance(replies, dict) or "bot" not in replies:
        raise LessonError(f"{path.name}: 'replies' is a list of [seat, action] or {{\"bot\": NAME}}")
    goal = data["goal"]
    if not isinstance(goal, dict) or ("actions" in goal) == ("predicate" in goal):
        raise LessonError(f"{path.name}: 'goal' has either 'actions' or 'predicate'")
    return Lesson(
        game=game, id=str(data["id"]), number=number, path=path, players=int(data["players"]),
        options=dict(data.get("options") or {}), position=data["position"], seat=int(data["seat"]),
        text=str(data["text"]), goal=goal, hints={str(k): str(v) for k, v in hints.items()},
        show=str(data["show"]), replies=replies, extra={k: v for k, v in data.items() if k not in KNOWN},
    )


def lesson_files(game: str) -> list[Path]:
    """The game's lesson files in course order (the NN of `NN-slug.json`)."""
    folder = LESSONS / game
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if FILE_NAME.match(p.name)), key=lambda p: p.name)


@cache
def course(game: str) -> tuple[Lesson, ...]:
    """A game's lessons, read once per process (the files are part of the package)."""
    return tuple(read_lesson(game, path, number) for number, path in enumerate(lesson_files(game), start=1))


def courses() -> dict[str, tuple[Lesson, ...]]:
    """Every game that has lessons, in the games' order."""
    return {game: found for game in GAMES if (found := course(game))}


def find(game: str, lesson_id: str) -> Lesson | None:
    if game not in GAMES:
        return None
    return next((lesson for lesson in course(game) if lesson.id == lesson_id), None)


def next_lesson(lesson: Lesson) -> Lesson | None:
    lessons = course(lesson.game)
    return lessons[lesson.number] if lesson.number < len(lessons) else None
