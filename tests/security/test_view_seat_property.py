"""Who reads which seat's view, as a property of the pure table (issue 31, hole 1): whatever people do at
a finished table (leave, sit down, move seats, in any order), a connection reads a seat's view only when
its person played that seat in the game shown, and the spectator's view otherwise."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.tables import Context, Table, TableError, creation_event, parse_command
from ghostgames.tables.events import event_to_json

NAMES = ["ann", "ben", "cat", "dan"]
PLAYED = {"ann": 0, "ben": 1}  # who played which seat of the game below


def _finished_geister(log: list[dict[str, Any]]) -> Table:
    log.append(creation_event("t", "geister", 2, {"first": 0}, None, "ann"))
    table = Table(log[0])
    for user, text in (("ann", "/join 1"), ("ben", "/join 2"), ("ann", "/start"),
                       ("ann", "/setup b1 c1 d1 e1"), ("ben", "/setup b6 c6 d6 e6"), ("ann", "/resign")):
        _do(table, log, user, text)
    assert table.status == "finished"
    return table


def _do(table: Table, log: list[dict[str, Any]], user: str, text: str) -> None:
    for event in table.decide(user, parse_command(text), None, Context(now=0.0, new_seed=lambda: 7)).events:
        table.apply(event, 0.0)
        log.append(event_to_json(event))  # as stored


moves = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(["/leave", "/join 1", "/join 2"])), max_size=12)


@settings(max_examples=150, deadline=None)
@given(moves)
def test_only_the_player_of_a_seat_reads_its_view_at_a_finished_table(steps: list[tuple[str, str]]) -> None:
    log: list[dict[str, Any]] = []
    table = _finished_geister(log)
    for user, text in steps:
        try:
            _do(table, log, user, text)
        except TableError:
            continue  # a seat taken, nobody to leave: refused, nothing changes
        rebuilt = Table.from_events(log)  # a restart folds the same answer from the log
        for name in NAMES:
            assert table.view_seat(name) == PLAYED.get(name), (name, steps)
            assert table.view_seat(name.upper()) == PLAYED.get(name)  # names are one ignoring case
            assert rebuilt.view_seat(name) == PLAYED.get(name)
    assert Table(log[0]).view_seat("ann") is None  # before any game nobody reads a seat
