"""The event log and its schema on a real SQLite file: migrations match the models, a taken sequence
number fails cleanly and writes nothing, records come back exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from ghostgames.rules.record import GameRecord
from ghostgames.storage import Repository, SeqConflict
from ghostgames.storage.models import Base


def test_the_migrations_make_exactly_the_schema_of_the_models(tmp_path: Path) -> None:
    repo = Repository(f"sqlite:///{tmp_path / 'schema.db'}")
    with repo.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []
    Repository(repo.url)  # migrating an up-to-date database again changes nothing
    repo.close()


def test_two_writers_cannot_append_the_same_sequence_number_and_the_loser_writes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    first, second = Repository(url), Repository(url)
    first.create_table("t1", "geister", 2, {"kind": "created", "id": "t1"})
    first.append("t1", 2, [{"kind": "joined", "seat": 0, "name": "a"}])
    with pytest.raises(SeqConflict):
        second.append("t1", 2, [{"kind": "joined", "seat": 1, "name": "b"}, {"kind": "chat", "text": "x"}],
                      status="started")
    assert [e["kind"] for e in second.events("t1")] == ["created", "joined"]
    assert second.table_status("t1") == "open" and second.last_seq("t1") == 2
    second.append("t1", 3, [{"kind": "joined", "seat": 1, "name": "b"}])
    assert [e.get("name") for e in first.events("t1", after=1)] == ["a", "b"]


def test_a_finished_game_is_stored_with_its_last_event_in_one_transaction(tmp_path: Path) -> None:
    repo = Repository(f"sqlite:///{tmp_path / 'rec.db'}")
    repo.create_table("t2", "geister", 2, {"kind": "created", "id": "t2"})
    record = GameRecord("geister", 2, {"disclose": True}, 2**63 - 1, [(0, "setup b1 c1 d1 e1")])
    record_id = repo.append("t2", 2, [{"kind": "finished"}], status="finished",
                            record=(record, ["a", "b"], {"results": [], "reason": "test"}))
    assert record_id is not None
    stored = repo.get_record(record_id)
    assert stored is not None and stored.record.to_json() == record.to_json()
    assert stored.table_id == "t2" and stored.names == ["a", "b"] and repo.table_status("t2") == "finished"
    assert "seed" not in stored.summary() and "actions" not in stored.summary()


def test_many_threads_appending_at_once_all_land_in_order(tmp_path: Path) -> None:
    """The server appends from a thread pool; its writers queue on one lock: none is lost, reordered or stuck."""
    from concurrent.futures import ThreadPoolExecutor

    repo = Repository(f"sqlite:///{tmp_path / 'busy.db'}")
    tables = [f"t{i}" for i in range(8)]
    for table_id in tables:
        repo.create_table(table_id, "geister", 2, {"kind": "created", "id": table_id})

    def play(table_id: str) -> None:
        for seq in range(2, 52):
            repo.append(table_id, seq, [{"kind": "chat", "text": str(seq)}])

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(play, tables))
    for table_id in tables:
        assert [e["text"] for e in repo.events(table_id, after=1)] == [str(seq) for seq in range(2, 52)]
    repo.close()


def test_the_sqlite_sync_level_is_full_unless_the_environment_asks_for_normal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An acknowledged action survives a power loss by default (docs/server.md, "Database")."""
    from sqlalchemy import text

    def level(repo: Repository) -> int:
        with repo.engine.connect() as connection:
            return int(connection.execute(text("PRAGMA synchronous")).scalar_one())

    monkeypatch.delenv("GHOSTGAMES_SQLITE_SYNC", raising=False)
    assert level(Repository(f"sqlite:///{tmp_path / 'a.db'}")) == 2  # FULL
    monkeypatch.setenv("GHOSTGAMES_SQLITE_SYNC", "normal")
    assert level(Repository(f"sqlite:///{tmp_path / 'b.db'}")) == 1  # NORMAL
    monkeypatch.setenv("GHOSTGAMES_SQLITE_SYNC", "sometimes")
    with pytest.raises(ValueError, match="GHOSTGAMES_SQLITE_SYNC"):
        Repository(f"sqlite:///{tmp_path / 'c.db'}")


def test_a_group_of_appends_lands_together_and_one_tables_conflict_stays_its_own(tmp_path: Path) -> None:
    """Group commit (Repository.append_many): several tables' appends in one transaction; when one of them
    takes a sequence number that is already stored, it alone gets SeqConflict and the others land once."""
    from ghostgames.storage import Append

    url = f"sqlite:///{tmp_path / 'group.db'}"
    repo = Repository(url)
    for table_id in ("g1", "g2", "g3"):
        repo.create_table(table_id, "geister", 2, {"kind": "created", "id": table_id})
    record = GameRecord("geister", 2, {}, 7, [(0, "setup b1 c1 d1 e1")])
    results = repo.append_many([
        Append("g1", 2, [{"kind": "chat", "text": "one"}, {"kind": "chat", "text": "two"}]),
        Append("g2", 2, [{"kind": "joined", "seat": 1, "name": "b"}], status="started"),
        Append("g3", 2, [{"kind": "finished"}], status="finished", record=(record, ["a", "b"], None)),
    ])
    assert results[0] is None and results[1] is None and isinstance(results[2], int)
    assert [e.get("text") for e in repo.events("g1", after=1)] == ["one", "two"]
    assert repo.table_status("g2") == "started" and repo.table_status("g3") == "finished"
    stored = repo.get_record(int(results[2]))
    assert stored is not None and stored.table_id == "g3"

    # g1's seq 3 is taken by another writer meanwhile: its append fails, g2's and the new g1 one do not
    Repository(url).append("g1", 4, [{"kind": "chat", "text": "elsewhere"}])
    results = repo.append_many([
        Append("g2", 3, [{"kind": "chat", "text": "fine"}]),
        Append("g1", 4, [{"kind": "chat", "text": "late"}]),
        Append("g1", 5, [{"kind": "chat", "text": "next"}]),
    ])
    assert results[0] is None and isinstance(results[1], SeqConflict) and results[2] is None
    assert [e.get("text") for e in repo.events("g1", after=1)] == ["one", "two", "elsewhere", "next"]
    assert [e.get("text") for e in repo.events("g2", after=2)] == ["fine"]

    # the batch writes its rows as the one-by-one path does (same JSON text, same time format)
    from sqlalchemy import text

    repo.append("g2", 4, [{"kind": "chat", "text": "é"}])
    repo.append_many([Append("g2", 5, [{"kind": "chat", "text": "é"}]), Append("g3", 3, [{"kind": "x"}])])
    with repo.engine.connect() as connection:
        rows = connection.execute(text("SELECT data, typeof(created_at), length(created_at) FROM events "
                                       "WHERE table_id = 'g2' AND seq IN (4, 5) ORDER BY seq")).all()
        updated = connection.execute(text("SELECT typeof(updated_at), length(updated_at) FROM tables")).all()
    assert rows[0] == rows[1] and len(set(updated)) == 1
    repo.close()
