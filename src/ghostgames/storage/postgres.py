"""The event append on PostgreSQL in one round trip (the hot path of every action on a shared database).

The general append (storage/repository.py) is BEGIN, INSERT, UPDATE, COMMIT: four round trips and four
statements for PostgreSQL to parse and run. Here the events travel as one JSON array and a single statement
inserts them and stamps the table, run in autocommit (one statement is its own transaction): all or nothing,
as before, and the unique (table_id, seq) key still refuses a number that another writer took (an
IntegrityError, which the repository turns into SeqConflict). The statement's text never changes, so psycopg
prepares it on each connection after a few uses, and PostgreSQL stops parsing and planning it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, text

APPEND = text("""
WITH added AS (
    INSERT INTO events (table_id, seq, kind, data, created_at)
    SELECT :table_id, :first_seq + item.ord - 1, item.value ->> 'kind', item.value, :now
    FROM json_array_elements(CAST(:events AS json)) WITH ORDINALITY AS item(value, ord)
)
UPDATE tables SET updated_at = :now, status = COALESCE(CAST(:status AS varchar), status)
WHERE id = :table_id
""")


def autocommit(engine: Engine) -> Engine:
    """The engine's pool, used one statement at a time without BEGIN and COMMIT."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def append(engine: Engine, table_id: str, first_seq: int, events: Sequence[dict[str, Any]], status: str | None,
           now: datetime) -> None:
    """Store `events` as seq first_seq, first_seq+1, … and the table's new status (when given) at once.
    `engine` must be in autocommit (see `autocommit`). Raises IntegrityError when a seq is taken."""
    with engine.connect() as connection:
        connection.execute(APPEND, {"table_id": table_id, "first_seq": first_seq, "now": now, "status": status,
                                    "events": json.dumps(list(events), separators=(",", ":"))})
