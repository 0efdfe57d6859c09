"""Storage: SQLAlchemy models, Alembic migrations and the small repository the server uses.

Other programs store finished games with `save_record(db_url, record, source)` and read them back with
`list_records` / `get_record`; the table server shows them as spectator-only replays.
"""

from ghostgames.storage.replay import final_position, public_replay, seat_replay
from ghostgames.storage.repository import (
    DEFAULT_URL,
    Append,
    IdTaken,
    NameConfusable,
    NameTaken,
    Repository,
    SeqConflict,
    StoredRecord,
    User,
    get_record,
    list_records,
    migrate,
    open_repository,
    save_record,
)

__all__ = [
    "DEFAULT_URL",
    "Append",
    "IdTaken",
    "NameConfusable",
    "NameTaken",
    "Repository",
    "SeqConflict",
    "StoredRecord",
    "User",
    "final_position",
    "get_record",
    "list_records",
    "migrate",
    "open_repository",
    "public_replay",
    "save_record",
    "seat_replay",
]
