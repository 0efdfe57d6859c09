"""The small repository the server (and the competition server) talk to: users, table event logs,
game records. Synchronous SQLAlchemy 2; SQLite (WAL) by default, PostgreSQL by URL.

The event log's guarantee: `append` writes a batch of events with consecutive per-table sequence
numbers in one transaction, or nothing; if another writer took one of those numbers first (the unique
(table_id, seq) key), it raises `SeqConflict` and the caller reloads the table.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, bindparam, create_engine, event, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ghostgames.rules.record import GameRecord
from ghostgames.storage import analysis_jobs, postgres, profiles, quickplay, ratings
from ghostgames.storage.models import EventRow, RecordRow, SettingRow, TableRow, UserRow

MIGRATIONS = Path(__file__).parent / "migrations"
DEFAULT_URL = "sqlite:///ghostgames.db"
EVENTS = EventRow.metadata.tables["events"]  # the Core tables, for the hot path (no ORM unit of work)
TABLES = TableRow.metadata.tables["tables"]
SQLITE_SYNC = ("NORMAL", "FULL", "EXTRA")  # PRAGMA synchronous values GHOSTGAMES_SQLITE_SYNC may choose


class SeqConflict(Exception):
    """Another writer appended to this table first; reload its events and try again."""


class NameTaken(Exception):
    pass


class NameConfusable(NameTaken):
    """The name looks like a live one (the same skeleton): `existing` is that name."""

    def __init__(self, name: str, existing: str) -> None:
        super().__init__(name)
        self.existing = existing


def _live(row: UserRow, now: datetime, free_after: timedelta) -> bool:
    """An account, or a guest whose sessions may still be valid."""
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    return not row.guest or created > now - free_after


class IdTaken(Exception):
    """A new table's id is in use already."""


@dataclass(frozen=True, slots=True)
class Append:
    """One table's change for `Repository.append_many`: the arguments of `Repository.append`."""

    table_id: str
    first_seq: int
    events: Sequence[dict[str, Any]]
    status: str | None = None
    record: tuple[GameRecord, list[str], dict[str, Any] | None] | None = None
    seat_keys: list[str] | None = None
    rated: bool = False
    own_moves: list[int] | None = None  # each seat's moves by its own player (ghostgames/tables/fair_play.py)


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    guest: bool
    password_hash: str | None
    created_at: datetime  # when the name was claimed (again, for a guest name taken after it was free)
    logouts: int = 0  # how often its holder logged out (see UserRow.logouts)


@dataclass(frozen=True, slots=True)
class StoredRecord:
    id: int
    record: GameRecord
    names: list[str]
    outcome: dict[str, Any] | None
    source: str
    table_id: str | None
    created_at: datetime
    seat_keys: list[str] | None = None  # who sat where (storage/ratings.py keys), for "my seat" replays
    rated: bool = False  # played as rated (a rated table, every person with an account)
    fair_play: dict[str, Any] | None = None  # a rated record's verdict: whether it counted, and why not

    @property
    def counted(self) -> bool:
        """Whether the game moved ratings: rated, and no fair-play rule stopped it (a record rated before
        verdicts were kept counted)."""
        return self.rated and (self.fair_play is None or bool(self.fair_play.get("counts")))

    def summary(self) -> dict[str, Any]:
        """What anybody may see about a record: no seed, no actions."""
        return {
            "id": self.id, "game": self.record.game, "players": self.record.players, "names": self.names,
            "options": self.record.options, "outcome": self.outcome, "source": self.source,
            "table": self.table_id, "created": self.created_at.astimezone(UTC).isoformat(), "rated": self.counted,
            **profiles.fair_play_json(self.rated, self.fair_play),
        }


def normalise_url(url: str) -> str:
    """A plain path means an SQLite file; postgres:// is the usual spelling of postgresql://; a plain
    postgresql:// URL uses psycopg 3 when that is the driver installed."""
    if "://" not in url:
        return f"sqlite:///{url}"
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://") and importlib.util.find_spec("psycopg2") is None \
            and importlib.util.find_spec("psycopg") is not None:
        url = "postgresql+psycopg://" + url[len("postgresql://"):]  # psycopg 3 when psycopg2 is not installed
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        # FULL (the default) syncs the WAL on every commit, so an acknowledged action survives even an OS
        # crash or power loss; group commit (server/group_commit.py) shares one sync among all the actions
        # waiting. NORMAL keeps every commit across a crash of the process (SIGKILL included) but an OS crash
        # or power loss may lose the last ones (docs/server.md, "Database").
        sync = os.environ.get("GHOSTGAMES_SQLITE_SYNC", "FULL").upper()
        if sync not in SQLITE_SYNC:
            raise ValueError(f"GHOSTGAMES_SQLITE_SYNC must be one of {', '.join(SQLITE_SYNC)}, not {sync!r}")
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sync}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # several workers may start at once: one migrates, the others wait and then find nothing to do
            connection.execute(text("SELECT pg_advisory_xact_lock(740211)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Repository:
    """Everything the server stores. Each method is one short transaction."""

    def __init__(self, url: str = DEFAULT_URL, *, run_migrations: bool = True) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        if run_migrations:
            migrate(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite takes one writer at a time; a second writer thread is refused and sleeps in SQLite's busy
        # handler (1, 2, 5, … 100 ms steps), which made the tail of the server's round trips. Writers of
        # this process queue on a lock instead and start the moment the previous one commits.
        self._write_lock: threading.Lock | None = threading.Lock() if self.url.startswith("sqlite") else None
        # PostgreSQL: an action's events are stored by one statement in one round trip (storage/postgres.py),
        # from the event loop when the caller is async (append_async).
        on_postgres = self.engine.dialect.name == "postgresql"
        self._append_at_once = postgres.autocommit(self.engine) if on_postgres else None
        self._appender = postgres.AsyncAppender(self.url) if on_postgres else None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold this process's SQLite write turn (nothing to hold on PostgreSQL)."""
        if self._write_lock is None:
            yield
            return
        with self._write_lock:
            yield

    def close(self) -> None:
        self.engine.dispose()

    async def close_async(self) -> None:
        """Close what `append_async` opened in the running event loop (call before `close`)."""
        if self._appender is not None:
            await self._appender.close()

    # --- server settings ------------------------------------------------------------------------
    def secret(self) -> str:
        """The token-signing secret, made once and shared by every worker on this database."""
        with self.sessions.begin() as session:
            row = session.get(SettingRow, "secret")
            if row is not None:
                return row.value
        value = secrets.token_urlsafe(32)
        try:
            with self.sessions.begin() as session:
                session.add(SettingRow(key="secret", value=value))
        except IntegrityError:
            pass  # another worker made it first
        with self.sessions.begin() as session:
            row = session.get(SettingRow, "secret")
            assert row is not None
            return row.value

    # --- users ----------------------------------------------------------------------------------
    def get_user(self, name: str) -> User | None:
        with self.sessions.begin() as session:
            row = session.scalar(select(UserRow).where(UserRow.name_key == name.lower()))
            return None if row is None else _user(row)

    def claim_guest(self, name: str, free_after: timedelta, skeleton: str | None = None) -> User:
        """A guest name: free when nobody has it, or only a guest whose sessions have all expired, and no
        live name has the same `skeleton` (NameConfusable)."""
        return self._claim(name, free_after, skeleton, None)

    def create_account(self, name: str, password_hash: str, free_after: timedelta, skeleton: str | None = None
                       ) -> User:
        """A registered name; may take over a guest name whose sessions have expired."""
        return self._claim(name, free_after, skeleton, password_hash)

    def _claim(self, name: str, free_after: timedelta, skeleton: str | None, password_hash: str | None) -> User:
        guest = password_hash is None
        with self.sessions.begin() as session:
            row = session.scalar(select(UserRow).where(UserRow.name_key == name.lower()))
            now = datetime.now(UTC)
            if row is not None and _live(row, now, free_after):
                raise NameTaken(name)
            if skeleton is not None:
                alike = session.scalars(select(UserRow).where(UserRow.skeleton == skeleton,
                                                              UserRow.name_key != name.lower()))
                for other in alike:
                    if _live(other, now, free_after):
                        raise NameConfusable(name, other.name)
            if row is not None:
                row.name, row.guest, row.password_hash, row.created_at = name, guest, password_hash, now
                row.skeleton = skeleton
                session.flush()
                return _user(row)
        try:
            with self.sessions.begin() as session:
                row = UserRow(name=name, name_key=name.lower(), guest=guest, password_hash=password_hash,
                              created_at=now, skeleton=skeleton, logouts=0)
                session.add(row)
                session.flush()
                return _user(row)
        except IntegrityError:
            raise NameTaken(name) from None

    def log_out(self, user_id: int, created_at: datetime) -> int | None:
        """End every session token of this creation of the name (server/auth.py): count one more logout,
        and return the count. None when the name was re-created since (its tokens are refused for that)."""
        with self._writing(), self.sessions.begin() as session:
            row = session.get(UserRow, user_id, with_for_update=True)
            if row is None or _aware(row.created_at) != created_at:
                return None
            count = session.scalar(update(UserRow).where(UserRow.id == user_id)
                                   .values(logouts=UserRow.logouts + 1).returning(UserRow.logouts))
            return None if count is None else int(count)

    def fill_skeletons(self, skeleton: Callable[[str], str], batch: int = 500) -> int:
        """Give every stored name without a skeleton its skeleton (names stored before they existed)."""
        filled = 0
        while True:
            with self._writing(), self.sessions.begin() as session:
                rows = list(session.scalars(select(UserRow).where(UserRow.skeleton.is_(None)).limit(batch)))
                for row in rows:
                    row.skeleton = skeleton(row.name)
            filled += len(rows)
            if len(rows) < batch:
                return filled

    # --- tables and their event logs ----------------------------------------------------------------
    def create_table(self, table_id: str, game: str, seats: int, created: dict[str, Any]) -> None:
        """The table row and its first event (seq 1) together; IdTaken when the id is in use."""
        try:
            with self._writing(), self.sessions.begin() as session:
                now = datetime.now(UTC)
                session.add(TableRow(id=table_id, game=game, seats=seats, status="open", created_at=now,
                                     updated_at=now))
                session.flush()
                session.add(EventRow(table_id=table_id, seq=1, kind=str(created["kind"]), data=created,
                                     created_at=now))
        except IntegrityError:
            raise IdTaken(table_id) from None

    def append(
        self,
        table_id: str,
        first_seq: int,
        events: Sequence[dict[str, Any]],
        status: str | None = None,
        record: tuple[GameRecord, list[str], dict[str, Any] | None] | None = None,
        seat_keys: list[str] | None = None,
        rated: bool = False,
        own_moves: list[int] | None = None,
    ) -> int | None:
        """Append `events` as seq first_seq, first_seq+1, … (and the table's new status, and a finished
        game's record, its players' keys and, when `rated` and allowed, its rating changes) in one
        transaction. Returns the record's id. Raises SeqConflict."""
        record_id: int | None = None
        try:
            if self._append_at_once is not None and record is None:
                postgres.append(self._append_at_once, table_id, first_seq, events, status, datetime.now(UTC))
                return None
            with self._writing(), self.sessions.begin() as session:
                now = datetime.now(UTC)
                # Core statements, not ORM objects: the unit of work's bookkeeping cost more than the write.
                if events:
                    session.execute(insert(EVENTS), [
                        {"table_id": table_id, "seq": first_seq + offset, "kind": str(data["kind"]), "data": data,
                         "created_at": now}
                        for offset, data in enumerate(events)
                    ])
                values: dict[str, Any] = {"updated_at": now}
                if status is not None:
                    values["status"] = status
                session.execute(update(TABLES).where(TABLES.c.id == table_id).values(**values))
                if record is not None:
                    record_id = _add_record(session, record[0], "table", record[1], record[2], table_id,
                                            seat_keys, rated, own_moves)
                session.flush()
        except IntegrityError as err:
            raise SeqConflict(f"table {table_id}: seq {first_seq} is taken") from err
        return record_id

    def append_many(self, appends: Sequence[Append]) -> list[int | Exception | None]:
        """Several tables' appends in one transaction (group commit: one COMMIT, and one sync when syncing,
        for all of them); for each, what `append` returns, or the exception it raised. When the shared
        transaction fails (one table's SeqConflict, say), each append is tried again alone, so one table's
        problem stays its own and nobody else's change is lost or doubled."""
        try:
            with self._writing(), self.sessions.begin() as session:
                now = datetime.now(UTC)
                connection = session.connection()
                if connection.dialect.name == "sqlite":
                    self._write_sqlite(connection, appends, now)
                else:
                    self._write_core(session, appends, now)
                results: list[int | Exception | None] = [
                    None if a.record is None else
                    _add_record(session, a.record[0], "table", a.record[1], a.record[2], a.table_id, a.seat_keys,
                                a.rated, a.own_moves)
                    for a in appends]
                session.flush()
            return results
        except Exception:
            return [self._append_one(a) for a in appends]

    def _write_core(self, session: Session, appends: Sequence[Append], now: datetime) -> None:
        rows = [{"table_id": a.table_id, "seq": a.first_seq + offset, "kind": str(data["kind"]), "data": data,
                 "created_at": now}
                for a in appends for offset, data in enumerate(a.events)]
        if rows:
            session.execute(insert(EVENTS), rows)
        touched = [{"b_id": a.table_id} for a in appends if a.status is None]
        if touched:
            session.execute(update(TABLES).where(TABLES.c.id == bindparam("b_id")).values(updated_at=now), touched)
        moved = [{"b_id": a.table_id, "b_status": a.status} for a in appends if a.status is not None]
        if moved:
            session.execute(update(TABLES).where(TABLES.c.id == bindparam("b_id"))
                            .values(updated_at=now, status=bindparam("b_status")), moved)

    def _write_sqlite(self, connection: Connection, appends: Sequence[Append], now: datetime) -> None:
        """The same rows as `_write_core`, through the driver's executemany: on SQLite the statement layer's
        Python cost more than the write, and it ran on the one writer thread, holding the GIL the event loop
        waits for. The values are made by the columns' own SQLAlchemy types, so they are stored exactly as
        the ORM and Core store and read them."""
        dialect = connection.dialect
        data_text = EVENTS.c.data.type.dialect_impl(dialect).bind_processor(dialect)
        when_text = EVENTS.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
        stamp = when_text(now) if when_text else now
        rows = [(a.table_id, a.first_seq + offset, str(data["kind"]), data_text(data) if data_text else data, stamp)
                for a in appends for offset, data in enumerate(a.events)]
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if rows:
                cursor.executemany(
                    "INSERT INTO events (table_id, seq, kind, data, created_at) VALUES (?, ?, ?, ?, ?)", rows)
            cursor.executemany("UPDATE tables SET updated_at = ?, status = COALESCE(?, status) WHERE id = ?",
                               [(stamp, a.status, a.table_id) for a in appends])
        finally:
            cursor.close()

    def _append_one(self, a: Append) -> int | Exception | None:
        try:
            return self.append(a.table_id, a.first_seq, a.events, a.status, a.record, a.seat_keys, a.rated,
                               a.own_moves)
        except Exception as err:
            return err

    def appends_on_the_loop(self, record: object | None) -> bool:
        """Whether such an append is stored from the event loop by `append_async` (PostgreSQL, no game
        record); the hub sends every other append through group commit."""
        return self._appender is not None and record is None

    async def append_async(self, table_id: str, first_seq: int, events: Sequence[dict[str, Any]],
                           status: str | None = None) -> None:
        """`append` of a plain append (no game record) on PostgreSQL, sent from the event loop itself
        (storage/postgres.py, no thread). Raises SeqConflict."""
        if self._appender is None:
            raise RuntimeError("append_async stores on PostgreSQL only; use append (or group commit)")
        try:
            await self._appender.append(table_id, first_seq, events, status)
        except postgres.Taken as err:
            raise SeqConflict(f"table {table_id}: seq {first_seq} is taken") from err

    def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        with self.sessions.begin() as session:
            rows = session.scalars(
                select(EventRow).where(EventRow.table_id == table_id, EventRow.seq > after).order_by(EventRow.seq)
            )
            return [dict(row.data) for row in rows]

    def last_seq(self, table_id: str) -> int:
        with self.sessions.begin() as session:
            value = session.scalar(select(func.max(EventRow.seq)).where(EventRow.table_id == table_id))
            return int(value or 0)

    def live_tables(self) -> list[str]:
        """Tables to rebuild on start: open, running and finished (a finished one may still rematch)."""
        with self.sessions.begin() as session:
            rows = session.scalars(
                select(TableRow.id).where(TableRow.status.in_(("open", "started", "finished")))
                .order_by(TableRow.created_at)
            )
            return list(rows)

    def table_status(self, table_id: str) -> str | None:
        with self.sessions.begin() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else row.status

    def set_status(self, table_id: str, status: str) -> None:
        with self._writing(), self.sessions.begin() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    # --- records ----------------------------------------------------------------------------------
    def save_record(
        self,
        record: GameRecord,
        source: str,
        names: Sequence[str] | None = None,
        outcome: dict[str, Any] | None = None,
        table_id: str | None = None,
        seat_keys: list[str] | None = None,
        rated: bool = False,
        own_moves: list[int] | None = None,
        created_at: datetime | None = None,
    ) -> int:
        """Store a finished game (judged and folded into the ratings when `rated`). `own_moves`: each seat's
        moves by its own player, when known; `created_at`: when it was played, for importing older games
        (the pair rule reads it), by default now."""
        with self._writing(), self.sessions.begin() as session:
            return _add_record(session, record, source, list(names or []), outcome, table_id, seat_keys, rated,
                               own_moves, created_at)

    def get_record(self, record_id: int) -> StoredRecord | None:
        with self.sessions.begin() as session:
            row = session.get(RecordRow, record_id)
            return None if row is None else _stored(row)

    def table_record(self, table_id: str) -> tuple[StoredRecord, dict[int, dict[str, Any]]] | None:
        """The last game finished at a table (its record) and the rating changes it made by seat; None
        when no game finished there. A table's address shows it once the table has closed."""
        with self.sessions.begin() as session:
            row = session.scalars(select(RecordRow).where(RecordRow.table_id == table_id)
                                  .order_by(RecordRow.id.desc()).limit(1)).first()
            if row is None:
                return None
            return _stored(row), profiles.record_ratings(session, int(row.id))

    def rebuild_ratings(self) -> int:
        """Fold every rated record again from nothing (`ghostgames ratings rebuild`)."""
        with self._writing(), self.sessions.begin() as session:
            if session.get_bind().dialect.name == "postgresql":
                session.execute(text("SELECT pg_advisory_xact_lock(740212)"))
            return ratings.rebuild(session)

    def ratings_snapshot(self) -> dict[str, Any]:
        with self.sessions.begin() as session:
            return ratings.snapshot(session)

    # --- profiles and leaderboards (reads of storage/profiles.py) ---------------------------------------
    def profile(self, key: str) -> dict[str, Any] | None:
        with self.sessions.begin() as session:
            return profiles.profile(session, key)

    def player_games(self, key: str, game: str | None = None, before: int | None = None,
                     limit: int = 20) -> dict[str, Any] | None:
        with self.sessions.begin() as session:
            return profiles.games(session, key, game, before, limit)

    def leaderboard(self, game: str, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        with self.sessions.begin() as session:
            return profiles.leaderboard(session, game, offset, limit)

    def own_records(self, key: str, limit: int = 200) -> dict[str, Any]:
        with self.sessions.begin() as session:
            return profiles.own_records(session, key, limit)

    # --- the quick-play queue (storage/quickplay.py) ------------------------------------------------
    def quick_join(self, game: str, key: str, name: str) -> quickplay.Entry:
        with self._writing(), self.sessions.begin() as session:
            return quickplay.join(session, game, key, name, datetime.now(UTC))

    def quick_look(self, key: str) -> quickplay.Entry | None:
        with self._writing(), self.sessions.begin() as session:
            return quickplay.look(session, key, datetime.now(UTC))

    def quick_leave(self, key: str) -> None:
        with self._writing(), self.sessions.begin() as session:
            quickplay.leave(session, key)

    def quick_claim(self, key: str) -> tuple[str, quickplay.Entry, quickplay.Entry] | None:
        with self._writing(), self.sessions.begin() as session:
            return quickplay.claim_opponent(session, key, datetime.now(UTC))

    def quick_settle(self, claim: str, table_id: str | None) -> None:
        with self._writing(), self.sessions.begin() as session:
            quickplay.settle(session, claim, table_id)

    def quick_bot(self, game: str, rating: float, levels: tuple[str, ...]) -> str:
        with self.sessions.begin() as session:
            return quickplay.bot_near(session, game, rating, levels)

    # --- the analysis queue (storage/analysis_jobs.py) -----------------------------------------------
    def analysis_job(self, record_id: int, reader: str, budget: int) -> analysis_jobs.Job | None:
        with self.sessions.begin() as session:
            return analysis_jobs.find(session, record_id, reader, budget)

    def ask_analysis(self, record_id: int, reader: str, budget: int,
                     max_waiting: int | None = None) -> analysis_jobs.Job | None:
        """The job for (record, reader, budget), queued when there was none; None when there was none and
        `max_waiting` jobs are queued already."""
        found = self.analysis_job(record_id, reader, budget)
        if found is not None:
            return found
        try:
            with self._writing(), self.sessions.begin() as session:
                if max_waiting is not None and analysis_jobs.waiting(session) >= max_waiting:
                    return None
                return analysis_jobs.add(session, record_id, reader, budget, datetime.now(UTC))
        except IntegrityError:  # asked for at the same moment elsewhere: that job it is
            found = self.analysis_job(record_id, reader, budget)
            assert found is not None
            return found

    def claim_analysis(self, worker: str, stale_after: float, max_budget: int | None = None,
                       now: datetime | None = None) -> analysis_jobs.Job | None:
        """The next job for `worker`, claimed (a running job counts as abandoned when its heartbeat is
        `stale_after` seconds old); None when there is nothing to do."""
        now = now or datetime.now(UTC)
        with self._writing(), self.sessions.begin() as session:
            return analysis_jobs.claim(session, worker, now, now - timedelta(seconds=stale_after), max_budget)

    def analysis_progress(self, job_id: int, worker: str, done: int, total: int,
                          now: datetime | None = None) -> bool:
        with self._writing(), self.sessions.begin() as session:
            return analysis_jobs.progress(session, job_id, worker, done, total, now or datetime.now(UTC))

    def finish_analysis(self, job_id: int, worker: str, result: dict[str, Any] | None = None,
                        error: dict[str, Any] | None = None) -> bool:
        with self._writing(), self.sessions.begin() as session:
            return analysis_jobs.finish(session, job_id, worker, datetime.now(UTC), result, error)

    def release_analysis(self, job_id: int, worker: str) -> bool:
        with self._writing(), self.sessions.begin() as session:
            return analysis_jobs.release(session, job_id, worker)

    def list_records(self, game: str | None = None, limit: int = 50, source: str | None = None) -> list[StoredRecord]:
        with self.sessions.begin() as session:
            query = select(RecordRow).order_by(RecordRow.id.desc()).limit(max(1, min(limit, 500)))
            if game is not None:
                query = query.where(RecordRow.game == game)
            if source is not None:
                query = query.where(RecordRow.source == source)
            return [_stored(row) for row in session.scalars(query)]


def _add_record(
    session: Session, record: GameRecord, source: str, names: list[str], outcome: dict[str, Any] | None,
    table_id: str | None, seat_keys: list[str] | None = None, rated: bool = False,
    own_moves: list[int] | None = None, created_at: datetime | None = None,
) -> int:
    rated = bool(rated and seat_keys and len(seat_keys) == record.players and ratings.may_rate(session, seat_keys))
    if rated and session.get_bind().dialect.name == "postgresql":
        # rated records must commit in id order (the fold's order): the id is drawn under this lock
        session.execute(text("SELECT pg_advisory_xact_lock(740212)"))
    if outcome is None:
        try:
            end = record.replay().outcome()
            outcome = end.to_json() if end is not None else None
        except Exception:  # an unfinished or foreign record: keep it without an outcome
            outcome = None
    row = RecordRow(
        game=record.game, players=record.players, options=dict(record.options), seed=str(record.seed),
        actions=[[seat, text] for seat, text in record.actions], names=names or [f"seat {i}" for i in
                                                                                range(record.players)],
        outcome=outcome, source=source, table_id=table_id, created_at=created_at or datetime.now(UTC),
        seat_keys=seat_keys, rated=bool(rated and outcome is not None),
        own_moves=None if own_moves is None else [int(m) for m in own_moves],
    )
    session.add(row)
    session.flush()
    keys = seat_keys or [ratings.person_key(str(name)) for name in row.names]
    ratings.index_players(session, int(row.id), record.game, keys)
    if row.rated and outcome is not None:
        verdict = ratings.judge_record(session, row, keys)
        row.fair_play = verdict.to_json()
        if verdict.counts:
            ratings.fold_record(session, int(row.id), record.game, keys, row.names, outcome)
    return int(row.id)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back the UTC times it was given without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _user(row: UserRow) -> User:
    return User(int(row.id), row.name, bool(row.guest), row.password_hash, _aware(row.created_at), int(row.logouts))


def _stored(row: RecordRow) -> StoredRecord:
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    record = GameRecord(row.game, int(row.players), dict(row.options), int(row.seed),
                        [(int(s), str(t)) for s, t in row.actions])
    keys = None if row.seat_keys is None else [str(k) for k in row.seat_keys]
    return StoredRecord(int(row.id), record, [str(n) for n in row.names], row.outcome, row.source, row.table_id,
                        created, keys, bool(row.rated), row.fair_play)


# --- a tiny module-level API for other programs (the Geister competition server) -----------------------
_repositories: dict[str, Repository] = {}
_lock = threading.Lock()


def open_repository(db_url: str = DEFAULT_URL) -> Repository:
    """One shared, migrated Repository per database URL in this process."""
    key = normalise_url(db_url)
    with _lock:
        if key not in _repositories:
            _repositories[key] = Repository(key)
        return _repositories[key]


def save_record(db_url: str, record: GameRecord, source: str, names: Sequence[str] | None = None,
                outcome: dict[str, Any] | None = None) -> int:
    """Store a finished game (e.g. source="competition"); returns its id, replayable at /api/records/{id}."""
    return open_repository(db_url).save_record(record, source, names, outcome)


def get_record(db_url: str, record_id: int) -> StoredRecord | None:
    return open_repository(db_url).get_record(record_id)


def list_records(
    db_url: str, game: str | None = None, limit: int = 50, source: str | None = None
) -> list[StoredRecord]:
    return open_repository(db_url).list_records(game, limit, source)
