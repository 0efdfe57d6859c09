"""Scripted players for server tests: each decides from its own table messages only (its view's
`legal` list), and checks of what a reader was sent against the record the server kept."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from ghostgames.storage import StoredRecord, list_records
from tests.server.harness import Client

Policy = Callable[[list[str], random.Random], str]


def random_policy(legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def eager_policy(legal: list[str], rng: random.Random) -> str:
    """Plays rather than takes, the biggest play first: Ghooost! rounds end sooner this way."""
    plays = [a for a in legal if not a.startswith("take")]
    if not plays:
        return rng.choice(legal)
    most = max(len(a.split()) for a in plays)
    return rng.choice([a for a in plays if len(a.split()) == most])


def my_turn_or_over(message: dict[str, Any]) -> bool:
    table = message["table"]
    if table["status"] == "finished":
        return True
    view = message.get("view")
    return (table["status"] == "started" and message.get("seat") in table["to_act"]
            and view is not None and bool(view.get("legal")))


async def play_until_over(client: Client, table_id: str, seed: int, policy: Policy = random_policy,
                          max_actions: int = 5000) -> list[str]:
    """Act whenever this client's seat may act, until the game is over; returns the acknowledged actions.
    (A refusal because the state moved on meanwhile - another seat, a bot, a clock - just means: look again.)"""
    rng = random.Random(seed)
    acknowledged: list[str] = []
    for _ in range(max_actions):
        message = await client.until_table(table_id, my_turn_or_over, timeout=60)
        if message["table"]["status"] == "finished":
            return acknowledged
        choice = policy(list(message["view"]["legal"]), rng)
        seen = message["table"]["version"]
        answer = await client.act(table_id, choice, version=seen)
        if answer["type"] == "ack":
            acknowledged.append(choice)
        elif answer.get("code") in ("stale_version", "not_your_turn", "bot_playing"):
            await client.until_table(table_id, lambda m, seen=seen: m["table"]["version"] != seen, timeout=60)
        else:
            raise AssertionError(f"refused: {answer}")
    raise AssertionError("the game did not end")


def record_of(db_url: str, table_id: str) -> StoredRecord:
    for stored in list_records(db_url, limit=500):
        if stored.table_id == table_id:
            return stored
    raise AssertionError(f"no record for table {table_id}")


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def views_sent(client: Client, table_id: str) -> list[tuple[int | None, Any]]:
    """(seat, view) of every table message (and error's fresh table) this client got for the table."""
    out = []
    for message in client.received:
        if message.get("type") == "error" and isinstance(message.get("fresh"), dict):
            message = message["fresh"]
        if message.get("type") == "table" and message["table"]["id"] == table_id and message.get("view"):
            out.append((message.get("seat"), message["view"]))
    return out


def assert_only_own_views(client: Client, table_id: str, stored: StoredRecord, seat: int | None) -> int:
    """Every view this client received is exactly view(seat) of some position of the real game:
    so it never held anything that reader may not know. Returns how many views were checked."""
    allowed = {canonical(state.view(seat)) for state in stored.record.states()}
    sent = views_sent(client, table_id)
    assert sent, "the client received no views at all"
    for sent_seat, view in sent:
        assert sent_seat == seat
        assert canonical(view) in allowed, f"a view for seat {seat} that is no view({seat}) of the game"
    text = "\n".join(canonical(m) for m in client.received)
    assert str(stored.record.seed) not in text, "the seed was sent"
    return len(sent)


def assert_log_honest(client: Client, table_id: str, stored: StoredRecord, seat: int | None) -> int:
    """The action log lines this reader got are the game's events redacted for it, in order; an action's
    text shows only for the reader's own actions or when the game's public events tell it anyway."""
    from ghostgames.tables.log import action_is_public

    lines = [line for m in client.received if m.get("type") == "log" and m["table"] == table_id
             for line in m["lines"] if line["kind"] == "action"]
    state = stored.record.new_state()
    assert len(lines) == len(stored.record.actions)
    for line, (actor, text) in zip(lines, stored.record.actions, strict=True):
        events = state.apply(actor, text)
        assert line["events"] == [event.for_seat(seat) for event in events]
        assert line["args"]["seat"] == actor
        shown = line["args"]["action"]
        if actor == seat or action_is_public(text, events):
            assert shown == text
        else:
            assert shown is None and text not in line["text"]
    return len(lines)
