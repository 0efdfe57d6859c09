"""An account's tutorial progress: which lessons of which game it has solved.

Kept in the `settings` table under `tutorial:<user id>` as a small JSON object (game -> lesson ids), so
it needs no table of its own; a user id names one creation of a name, so a later holder of a freed name
starts afresh."""

from __future__ import annotations

import json
from collections.abc import Iterable

from sqlalchemy.exc import IntegrityError

from ghostgames.storage.models import SettingRow
from ghostgames.storage.repository import Repository

Progress = dict[str, list[str]]


def _key(user_id: int) -> str:
    return f"tutorial:{user_id}"


def read_progress(repo: Repository, user_id: int) -> Progress:
    with repo.sessions.begin() as session:
        row = session.get(SettingRow, _key(user_id))
        return _parse(row.value) if row is not None else {}


def add_progress(repo: Repository, user_id: int, game: str, lessons: Iterable[str]) -> Progress:
    """Add solved lessons (already checked to exist) and answer the whole progress."""
    wanted = set(lessons)
    try:
        return _add(repo, user_id, game, wanted)
    except IntegrityError:  # another request made the row first: add to it
        return _add(repo, user_id, game, wanted)


def _add(repo: Repository, user_id: int, game: str, lessons: set[str]) -> Progress:
    with repo.sessions.begin() as session:
        row = session.get(SettingRow, _key(user_id))
        progress = _parse(row.value) if row is not None else {}
        progress[game] = sorted(set(progress.get(game, [])) | lessons)
        text = json.dumps(progress, sort_keys=True)
        if row is None:
            session.add(SettingRow(key=_key(user_id), value=text))
        else:
            row.value = text
    return progress


def _parse(text: str) -> Progress:
    data = json.loads(text)
    return {str(game): [str(lesson) for lesson in lessons] for game, lessons in data.items()}
