"""The event append on PostgreSQL in one round trip (the hot path of every action on a shared database).

The general append (storage/repository.py) is BEGIN, INSERT, UPDATE, COMMIT: four round trips and four
statements for PostgreSQL to parse and run, on a pool thread. Here the events travel as one JSON array and a
single statement inserts them and stamps the table, run in autocommit (one statement is its own
transaction): all or nothing, as before, and the unique (table_id, seq) key still refuses a number that
another writer took (an IntegrityError, or psycopg's UniqueViolation, which the repository turns into
SeqConflict). The statement's text never changes, so psycopg prepares it on each connection after a few uses,
and PostgreSQL stops parsing and planning it.

`AsyncAppender` runs that statement from the event loop on psycopg's own asyncio connections: no hand-off
to a thread and back for each action, and no SQLAlchemy layer around one fixed statement.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

APPEND_SQL = """
WITH added AS (
    INSERT INTO events (table_id, seq, kind, data, created_at)
    SELECT %(table_id)s, %(first_seq)s + item.ord - 1, item.value ->> 'kind', item.value, %(now)s
    FROM json_array_elements(CAST(%(events)s AS json)) WITH ORDINALITY AS item(value, ord)
)
UPDATE tables SET updated_at = %(now)s, status = COALESCE(CAST(%(status)s AS varchar), status)
WHERE id = %(table_id)s
"""
APPEND = text(APPEND_SQL.replace("%(", ":").replace(")s", ""))
Taken = psycopg.errors.IntegrityError  # what AsyncAppender.append raises when a seq is taken
CONNECTIONS = 8  # appends in flight at once per process (one per table being changed; more wait their turn)


def _parameters(table_id: str, first_seq: int, events: Sequence[dict[str, Any]], status: str | None,
                now: datetime) -> dict[str, Any]:
    return {"table_id": table_id, "first_seq": first_seq, "now": now, "status": status,
            "events": json.dumps(list(events), separators=(",", ":"))}


def autocommit(engine: Engine) -> Engine:
    """The engine's pool, used one statement at a time without BEGIN and COMMIT."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def append(engine: Engine, table_id: str, first_seq: int, events: Sequence[dict[str, Any]], status: str | None,
           now: datetime) -> None:
    """Store `events` as seq first_seq, first_seq+1, … and the table's new status (when given) at once.
    `engine` must be in autocommit (see `autocommit`). Raises IntegrityError when a seq is taken."""
    with engine.connect() as connection:
        connection.execute(APPEND, _parameters(table_id, first_seq, events, status, now))


class AsyncAppender:
    """Up to CONNECTIONS psycopg asyncio connections in autocommit, made when first needed and kept.

    A kept connection that turns out broken (PostgreSQL restarted meanwhile) is dropped with the others kept
    beside it, and the append is tried once more on a new one: a connection the server closed took no
    statement. Connections belong to
    the event loop that made them; a new loop (another `asyncio.run`) starts afresh."""

    def __init__(self, sqlalchemy_url: str) -> None:
        self.conninfo = make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def append(self, table_id: str, first_seq: int, events: Sequence[dict[str, Any]],
                     status: str | None) -> None:
        """Like `append`; raises `Taken` when a seq is taken."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._slots is None:
            self._loop, self._slots, self._idle = loop, asyncio.Semaphore(CONNECTIONS), []
        parameters = _parameters(table_id, first_seq, events, status, datetime.now(UTC))
        async with self._slots:
            for attempt in range(2):
                kept = bool(self._idle)
                connection = self._idle.pop() if kept else await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True)
                try:
                    await connection.execute(APPEND_SQL, parameters)
                except psycopg.errors.IntegrityError:
                    self._idle.append(connection)  # a clean refusal: the connection is fine
                    raise
                except psycopg.OperationalError as err:
                    # The server closed it while it was idle (a restart, an administrator), and so took no
                    # statement from it: once more on a new connection.
                    died = connection.broken or isinstance(err, psycopg.errors.AdminShutdown)
                    with contextlib.suppress(Exception):
                        await connection.close()
                    if kept and died and attempt == 0:
                        await self.close()  # the others kept beside it are likely gone too
                        continue
                    raise
                except BaseException:  # cancelled mid-statement, say: its state is unknown, drop it
                    with contextlib.suppress(Exception):
                        await connection.close()
                    raise
                self._idle.append(connection)
                return

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            with contextlib.suppress(Exception):
                await connection.close()
