"""Migration 0003 on a database with games stored before it: they show on their players' profiles."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import column, insert, table

from ghostgames.bench.records import random_record
from ghostgames.storage import Repository
from ghostgames.storage.models import UserRow
from ghostgames.storage.repository import MIGRATIONS, make_engine


def test_games_stored_before_the_ratings_migration_show_on_profiles(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    earlier = datetime.now(UTC) - timedelta(days=3)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(insert(UserRow.__table__), [  # type: ignore[arg-type]
            {"name": "Olga", "name_key": "olga", "guest": False, "password_hash": "x", "created_at": earlier}])
        record, outcome = random_record("geister", 2, 77)
        old_records = table("records", *(column(name) for name in (  # the columns of revision 0001
            "game", "players", "options", "seed", "actions", "names", "outcome", "source", "table_id", "created_at")))
        connection.execute(insert(old_records).values(
            game="geister", players=2, options=json.dumps(record.options), seed=str(record.seed),
            actions=json.dumps([[s, a] for s, a in record.actions]), names=json.dumps(["Olga", "hard bot"]),
            outcome=json.dumps(outcome.to_json()), source="table", table_id=None,
            created_at=earlier + timedelta(hours=1)))
    engine.dispose()
    repo = Repository(url)  # migrates to the head
    assert repo.profile("olga")["games"] == {"geister": 1}  # type: ignore[index]
    page = repo.player_games("bot:hard")
    assert page is not None and [item["seat"] for item in page["items"]] == [1]
    assert page["items"][0]["rated"] is False
    assert repo.rebuild_ratings() == 0  # earlier games are unrated: ratings start with this revision
    repo.close()
