"""The tutorial's part of the HTTP API. The lessons are stateless: every answer is made from the lesson
file (see ghostgames.tutorial.play), so a lesson needs no table, no seat and no name, and a reload starts
it again. Only an account's progress (which lessons it solved) is stored (storage/tutorial_progress.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ghostgames.games import GAMES
from ghostgames.server.api import _grant, _hub, error_response
from ghostgames.storage.tutorial_progress import add_progress, read_progress
from ghostgames.tables import TableError
from ghostgames.tutorial import play
from ghostgames.tutorial.lessons import Lesson, course, find

router = APIRouter(prefix="/api/tutorial")


class TryIn(BaseModel):
    action: str = Field(max_length=200)


class ProgressIn(BaseModel):
    game: str = Field(max_length=32)
    lessons: list[str] = Field(max_length=100)


def _lesson(game: str, lesson_id: str) -> Lesson | JSONResponse:
    """The lesson the path names, or the 404 that says what there is."""
    if game not in GAMES:
        return error_response(TableError(
            "unknown_game", f"there is no game {game[:40]!r}; the games are: {', '.join(GAMES)}",
            game=game[:40], games=list(GAMES)), status=404)
    found = find(game, lesson_id)
    if found is None:
        ids = [lesson.id for lesson in course(game)]
        return error_response(TableError(
            "no_such_lesson", f"{game} has no lesson {lesson_id[:40]!r}; its lessons are: {', '.join(ids) or 'none'}",
            game=game, lesson=lesson_id[:40], lessons=ids), status=404)
    return found


@router.get("")
async def catalogue() -> Any:
    """Every game's course: its lessons in order (ids and text keys)."""
    return play.catalogue()


@router.get("/progress")
async def progress(request: Request, authorization: str | None = Header(None)) -> Any:
    """The lessons an account has solved, per game. A guest's progress lives in its browser only:
    `stored` is false and the lists are empty."""
    try:
        grant = await _grant(request, authorization)
    except TableError as err:
        return error_response(err)
    if grant.guest:
        return {"progress": {}, "stored": False}
    found = await asyncio.to_thread(read_progress, _hub(request).repo, grant.user_id)
    return {"progress": found, "stored": True}


@router.post("/progress")
async def add_solved(body: ProgressIn, request: Request, authorization: str | None = Header(None)) -> Any:
    """Add solved lessons to an account's progress (each must be a lesson of the game); answers as GET."""
    try:
        grant = await _grant(request, authorization)
    except TableError as err:
        return error_response(err)
    for lesson_id in body.lessons:
        found = _lesson(body.game, lesson_id)
        if isinstance(found, JSONResponse):
            return found
    if grant.guest:
        return {"progress": {}, "stored": False}
    stored = await asyncio.to_thread(add_progress, _hub(request).repo, grant.user_id, body.game, body.lessons)
    return {"progress": stored, "stored": True}


@router.get("/{game}/{lesson_id}")
async def lesson(game: str, lesson_id: str) -> Any:
    """A lesson as the learner sees it: text keys, place in the course, and the learner's view (never the
    whole position)."""
    found = _lesson(game, lesson_id)  # loading the position and making its view is off the loop, as a try is
    return found if isinstance(found, JSONResponse) else await asyncio.to_thread(play.lesson_page, found)


@router.post("/{game}/{lesson_id}/try")
async def try_action(game: str, lesson_id: str, body: TryIn) -> Any:
    """Judge an action (its text form): `refused` (the rule's code), `wrong` (the lesson's hint) or `done`
    (the views after it and after each reply)."""
    found = _lesson(game, lesson_id)
    if isinstance(found, JSONResponse):
        return found
    return await asyncio.to_thread(play.try_action, found, body.action)


@router.post("/{game}/{lesson_id}/show")
async def show(game: str, lesson_id: str) -> Any:
    """"Show me": the lesson's own answer played, answered as a successful try."""
    found = _lesson(game, lesson_id)
    return found if isinstance(found, JSONResponse) else await asyncio.to_thread(play.show, found)
