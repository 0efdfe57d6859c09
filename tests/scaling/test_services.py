"""The private services the scaling tests stand on: they start, answer, and keep their promises."""

from __future__ import annotations

import psycopg
import pytest
import redis

from tests.infra.services import Postgres, Redis


def test_postgres_refuses_a_second_event_with_the_same_table_and_sequence(postgres: Postgres) -> None:
    url = postgres.fresh_database("services_check")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE events (table_id text, seq int, PRIMARY KEY (table_id, seq))")
        conn.execute("INSERT INTO events VALUES ('t1', 1)")
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO events VALUES ('t1', 1)")
        conn.execute("INSERT INTO events VALUES ('t2', 1)")
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (2,)


def test_redis_delivers_a_published_message_to_a_subscriber(redis_server: Redis) -> None:
    client = redis.Redis.from_url(redis_server.url)
    pubsub = client.pubsub()
    pubsub.subscribe("table:t1")
    assert pubsub.get_message(timeout=2)["type"] == "subscribe"  # type: ignore[index]
    assert client.publish("table:t1", b"hello") == 1
    message = pubsub.get_message(timeout=2)
    assert message is not None and message["data"] == b"hello"
    pubsub.close()
    client.close()
