"""The same server on PostgreSQL: the event log's unique sequence and a complete game over WebSockets.
(Skipped when PostgreSQL cannot be installed; `make test` installs it.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ghostgames.storage import Repository, SeqConflict
from tests.infra.services import Postgres
from tests.server.harness import Client, ServerProcess
from tests.server.players import assert_only_own_views, play_until_over, record_of


def test_postgresql_refuses_a_taken_sequence_number_cleanly(postgres_db: Postgres) -> None:
    url = postgres_db.fresh_database("seqtest")
    first, second = Repository(url), Repository(url)
    first.create_table("t1", "thelast", 2, {"kind": "created", "id": "t1"})
    first.append("t1", 2, [{"kind": "joined", "seat": 0, "name": "a"}])
    with pytest.raises(SeqConflict):
        second.append("t1", 2, [{"kind": "joined", "seat": 1, "name": "b"}], status="started")
    assert [e["kind"] for e in second.events("t1")] == ["created", "joined"]
    assert second.table_status("t1") == "open"
    first.close()
    second.close()


def test_an_append_on_postgresql_is_one_statement_and_all_or_nothing(postgres_db: Postgres) -> None:
    """The hot path's append (storage/postgres.py): several events get consecutive numbers and the table its
    status in one statement; their data comes back exactly; a batch whose second number is taken stores
    nothing of it (SeqConflict); an append that carries a game record takes the general path."""
    from sqlalchemy import event

    url = postgres_db.fresh_database("onestatement")
    repo = Repository(url)
    repo.create_table("t2", "thelast", 2, {"kind": "created", "id": "t2"})
    statements: list[str] = []
    event.listen(repo.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: statements.append(statement))
    batch = [{"kind": "joined", "seat": 0, "name": "Zoë"}, {"kind": "chat", "name": "Zoë", "text": "안녕 \"quoted\"",
                                                            "seat": 0, "time": 1.5},
             {"kind": "option", "name": "x", "value": {"nested": [1, 2.5, None, True]}}]
    repo.append("t2", 2, batch, status="started")
    assert len(statements) == 1
    assert repo.events("t2") == [{"kind": "created", "id": "t2"}, *batch]
    assert repo.table_status("t2") == "started"
    repo.append("t2", 5, [{"kind": "chat", "name": "Zoë", "text": "no status change", "seat": 0, "time": 2.0}])
    assert repo.table_status("t2") == "started"
    with pytest.raises(SeqConflict):  # seq 6 is free, seq 5 is taken: neither is stored
        repo.append("t2", 5, [{"kind": "left", "seat": 0}, {"kind": "closed", "reason": "x"}], status="closed")
    assert len(repo.events("t2")) == 5
    assert repo.table_status("t2") == "started"
    repo.close()


def test_the_event_loop_append_on_postgresql_refuses_a_taken_number_and_outlives_a_dropped_connection(
        postgres_db: Postgres) -> None:
    """`append_async` (psycopg's asyncio connections, no thread): concurrent appends to many tables all land
    with their numbers; a taken number is SeqConflict and stores nothing; when PostgreSQL drops the kept
    connections (as a restart does), the next append goes through on a new one."""
    import psycopg

    url = postgres_db.fresh_database("asyncappend")
    repo = Repository(url)
    tables = [f"a{n}" for n in range(20)]
    for table_id in tables:
        repo.create_table(table_id, "thelast", 2, {"kind": "created", "id": table_id})

    async def scenario() -> None:
        async def play(table_id: str) -> None:
            for seq in range(2, 7):
                await repo.append_async(table_id, seq, [{"kind": "chat", "text": f"{table_id} {seq}"}])

        await asyncio.gather(*(play(t) for t in tables))
        with pytest.raises(SeqConflict):
            await repo.append_async("a0", 6, [{"kind": "chat", "text": "late"}, {"kind": "chat", "text": "later"}],
                                    status="closed")
        with psycopg.connect(postgres_db.plain_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s AND pid <> pg_backend_pid()", (url.rsplit("/", 1)[1],))
        await repo.append_async("a0", 7, [{"kind": "chat", "text": "after the drop"}], status="started")
        await repo.close_async()

    asyncio.run(scenario())
    for table_id in tables:
        texts = [e.get("text") for e in repo.events(table_id)[1:]]
        assert texts == [f"{table_id} {seq}" for seq in range(2, 7)] + (["after the drop"] if table_id == "a0" else [])
    assert repo.table_status("a0") == "started"
    repo.close()


def test_a_complete_game_on_postgresql(postgres_db: Postgres, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, db_url=postgres_db.fresh_database("gametest")).start()

    async def scenario() -> None:
        alice = await Client.connect(server, "PgAlice")
        bob = await Client.connect(server, "PgBob")
        table_id = await alice.create("thelast", 2)
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        await alice.command(table_id, "/start", version=None)
        await asyncio.gather(play_until_over(alice, table_id, 1), play_until_over(bob, table_id, 2))
        stored = record_of(server.db_url, table_id)
        assert stored.outcome is not None
        assert_only_own_views(alice, table_id, stored, 0)
        await alice.close()
        await bob.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_review_6_confusable_names_are_refused_on_postgresql(postgres_db: Postgres) -> None:
    """The skeleton column's migration runs on PostgreSQL too, and a look-alike name is refused there."""
    from datetime import timedelta

    from ghostgames.server.confusables import skeleton
    from ghostgames.storage import NameConfusable

    url = postgres_db.fresh_database("skeletons")
    repo = Repository(url)
    with repo.engine.begin() as connection:  # a name from before the migration: no skeleton yet
        connection.exec_driver_sql("INSERT INTO users (name, name_key, guest, created_at) "
                                   "VALUES ('Veteran', 'veteran', false, now())")
    assert repo.fill_skeletons(skeleton) == 1
    week = timedelta(days=7)
    repo.claim_guest("alice", week, skeleton("alice"))
    for lookalike in ("\u0430lice", "\uff41lice", "V\u0435teran"):
        with pytest.raises(NameConfusable):
            repo.claim_guest(lookalike, week, skeleton(lookalike))
    assert repo.create_account("alice2", "hash", week, skeleton("alice2")).name == "alice2"
    repo.close()
