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


def test_the_sqlite_sync_level_is_normal_unless_the_environment_asks_for_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import text

    def level(repo: Repository) -> int:
        with repo.engine.connect() as connection:
            return int(connection.execute(text("PRAGMA synchronous")).scalar_one())

    monkeypatch.delenv("GHOSTGAMES_SQLITE_SYNC", raising=False)
    assert level(Repository(f"sqlite:///{tmp_path / 'a.db'}")) == 1  # NORMAL
    monkeypatch.setenv("GHOSTGAMES_SQLITE_SYNC", "full")
    assert level(Repository(f"sqlite:///{tmp_path / 'b.db'}")) == 2  # FULL
    monkeypatch.setenv("GHOSTGAMES_SQLITE_SYNC", "sometimes")
    with pytest.raises(ValueError, match="GHOSTGAMES_SQLITE_SYNC"):
        Repository(f"sqlite:///{tmp_path / 'c.db'}")
