"""Table events as values: each kind reads from and writes to exactly the JSON stored before these types
existed, a table stored back then loads as it did (an English-only outcome reason gains its code), and
what decide makes is what the database has always held."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghostgames.tables import Context, Table, creation_event, parse_command
from ghostgames.tables.events import (
    KINDS,
    Chatted,
    Finished,
    Joined,
    Played,
    Resigned,
    Started,
    event_from_json,
    event_to_json,
)

# A table as the server stored it before events were typed: a Geister game that Ben resigned.
OLD_GAME: list[dict[str, Any]] = [
    {"kind": "created", "id": "t1", "game": "geister", "seats": 2, "settings": {}, "clock": "300+5", "by": "ann",
     "rated": True},
    {"kind": "joined", "seat": 0, "name": "ann"},
    {"kind": "joined", "seat": 1, "name": "ben"},
    {"kind": "vote", "name": "disclose", "seat": 0, "value": True},
    {"kind": "option", "name": "first", "value": 0},
    {"kind": "chat", "name": "ann", "seat": 0, "text": "hi", "time": 1700000000.0},
    {"kind": "started", "seed": 7, "options": {"first": 0, "disclose": False}, "round": 1},
    {"kind": "action", "seat": 0, "text": "setup b1 c1 d1 e1", "by": "player", "bank": 305.0},
    {"kind": "action", "seat": 1, "text": "setup b6 c6 d6 e6", "by": "player", "bank": 305.0},
    {"kind": "action", "seat": 0, "text": "b2 n", "by": "player", "bank": 310.0},
    {"kind": "resigned", "seat": 1},
    {"kind": "finished", "outcome": {"results": [{"result": "win", "rank": 1, "score": 1.0},
                                                 {"result": "loss", "rank": 2, "score": 0.0}],
                                     "reason": "seat 1 resigned"},
     "names": ["ann", "ben"], "takeovers": {}},
]
# The other kinds, in the forms the table wrote them.
OLD_OTHERS: list[dict[str, Any]] = [
    {"kind": "left", "seat": 1, "name": "ben"},
    {"kind": "left", "seat": 1, "name": None},
    {"kind": "bot_added", "seat": 1, "level": "easy"},
    {"kind": "bot_removed", "seat": 1},
    {"kind": "option", "name": "max_plies", "value": None, "reset": True},
    {"kind": "option", "name": "clock", "value": "none"},
    {"kind": "option", "name": "rated", "value": False,
     "because": [{"code": "no_clock", "args": {}, "message": "a rated game needs a clock, so that every game ends"}]},
    {"kind": "action", "seat": 1, "text": "play R4", "by": "clock"},
    {"kind": "timeout", "seat": 2},
    {"kind": "takeover", "seat": 2, "reason": "timeouts"},
    {"kind": "closed", "reason": "nobody sat or watched for 300 s"},
    {"kind": "claimed", "seat": 0, "against": 1, "claim": "draw"},
    {"kind": "rematch_asked", "seat": 0},
    {"kind": "rematch", "round": 2, "freed": [1], "first": None},
    {"kind": "finished", "outcome": {"results": [{"result": "draw", "rank": 1, "score": 0.5}] * 2,
                                     "reason": "claimed draw: idle", "code": "claimed_draw", "args": {}},
     "names": ["ann", "easy bot"], "takeovers": {"1": "left"}},
]


def _stored(data: dict[str, Any]) -> str:
    return json.dumps(data)  # key order included, as a JSON column keeps it


@pytest.mark.parametrize("data", [e for e in OLD_GAME + OLD_OTHERS if e["kind"] != "finished"] + [OLD_OTHERS[-1]])
def test_each_stored_event_reads_as_its_type_and_writes_back_byte_for_byte(data: dict[str, Any]) -> None:
    event = event_from_json(data)
    assert type(event) is KINDS[data["kind"]]
    assert _stored(event_to_json(event)) == _stored(data)
    assert event_from_json(json.loads(_stored(event_to_json(event)))) == event


def test_every_kind_has_one_type_and_an_unknown_kind_is_refused() -> None:
    assert {e["kind"] for e in OLD_GAME + OLD_OTHERS} == set(KINDS)
    with pytest.raises(ValueError, match="unknown table event 'dance'"):
        event_from_json({"kind": "dance"})


def test_older_shapes_still_load_with_the_values_they_always_meant() -> None:
    assert event_from_json({"kind": "action", "seat": 1, "text": "b5 s"}) == Played(1, "b5 s", "player")
    assert event_from_json({"kind": "started", "seed": 3, "options": {}}) == Started(3, {}, None)
    assert event_from_json({"kind": "chat", "name": "ann", "text": "hi"}) == Chatted("ann", None, "hi", None)
    assert event_to_json(event_from_json({"kind": "closed"})) == {"kind": "closed", "reason": ""}
    assert event_to_json(event_from_json({"kind": "rematch", "round": 3})) == \
        {"kind": "rematch", "round": 3, "freed": [], "first": None}
    table = Table.from_events([{"kind": "created", "id": "t0", "game": "thelast", "seats": 3}])
    assert table.rated is True and table.created_by is None and table.settings == {}


def test_an_english_only_resignation_gains_its_code_and_the_old_table_loads_as_it_did() -> None:
    finished = event_from_json(OLD_GAME[-1])
    assert isinstance(finished, Finished)
    assert finished.outcome["reason"] == "seat 1 resigned"  # the words stay, for old clients and logs
    assert finished.outcome["code"] == "resigned" and finished.outcome["args"] == {"seat": 1}
    claimed = event_from_json({**OLD_GAME[-1], "outcome": {**OLD_GAME[-1]["outcome"], "reason": "claimed win: idle"}})
    assert isinstance(claimed, Finished) and claimed.outcome["code"] == "claimed_win"
    game = event_from_json({**OLD_GAME[-1], "outcome": {**OLD_GAME[-1]["outcome"], "reason": "a good ghost escaped"}})
    assert isinstance(game, Finished) and game.outcome["code"] == "escaped"  # a game's own words, read back too
    unknown = event_from_json({**OLD_GAME[-1], "outcome": {**OLD_GAME[-1]["outcome"], "reason": "escape"}})
    assert isinstance(unknown, Finished) and unknown.outcome["code"] == "legacy"
    assert unknown.outcome["args"] == {"text": "escape"} and unknown.outcome["reason"] == "escape"

    table = Table.from_events(OLD_GAME, now=5.0)
    assert table.status == "finished" and table.version == 11 and table.seq == 12
    assert table.actions == [(0, "setup b1 c1 d1 e1"), (1, "setup b6 c6 d6 e6"), (0, "b2 n")]
    assert table.result is not None and table.result["names"] == ["ann", "ben"]
    assert table.result["outcome"]["code"] == "resigned" and table.result["outcome"]["args"] == {"seat": 1}
    assert [r["result"] for r in table.result["outcome"]["results"]] == ["win", "loss"]
    assert table.state is not None and table.state.is_over()  # the resignation ended the game itself too
    chat = [entry for entry in table.history if entry["kind"] == "chat"]
    assert chat == [{"kind": "chat", "name": "ann", "seat": 0, "text": "hi", "time": 1700000000.0}]


def test_what_decide_makes_is_stored_as_before() -> None:
    """The same commands as OLD_GAME, decided now: the stored JSON is the old log, but for the outcome's
    reason code (the English reason is kept beside it)."""
    created = creation_event("t1", "geister", 2, {}, None, "ann")
    table, stored = Table(created), [created]
    context = Context(now=5.0, new_seed=lambda: 7, wall=1700000000.0)
    for user, text in (("ann", "/join 1"), ("ben", "/join 2"), ("ann", "/option disclose"),
                       ("ann", "/option first 1"), ("ann", "hi"), ("ann", "/start"), ("ann", "/setup b1 c1 d1 e1"),
                       ("ben", "/setup b6 c6 d6 e6"), ("ann", "/b2 n"), ("ben", "/resign")):
        for event in table.decide(user, parse_command(text), None, context).events:
            table.apply(event, 5.0)
            stored.append(event_to_json(event))
    old_finished = event_to_json(event_from_json(OLD_GAME[-1]))
    assert [_stored(e) for e in stored] == [_stored(e) for e in [*OLD_GAME[:-1], old_finished]]
    assert isinstance(event_from_json(stored[1]), Joined) and isinstance(event_from_json(stored[-2]), Resigned)


def _geister_at_setup() -> Table:
    table = Table(creation_event("t1", "geister", 2, {"rated": False}, "none", "ann"))
    context = Context(now=0.0, new_seed=lambda: 7)
    for user, text in (("ann", "/join 1"), ("ben", "/join 2"), ("ann", "/start")):
        for event in table.decide(user, parse_command(text), None, context).events:
            table.apply(event, 0.0)
    return table


def test_deciding_an_action_changes_nothing_and_applying_it_takes_the_worked_out_position() -> None:
    table = _geister_at_setup()
    context = Context(now=0.0, new_seed=lambda: 7)
    before, state, version = table.summary(0.0), table.state, table.version
    assert state is not None
    seen = state.to_json()
    (played,) = table.decide("ann", parse_command("/setup b1 c1 d1 e1"), None, context).events
    thrown_away = table.decide("ben", parse_command("/setup b6 c6 d6 e6"), None, context).events
    assert thrown_away and table.state is state and state.to_json() == seen  # nothing hidden, nothing changed
    assert table.summary(0.0) == before and table.version == version
    assert isinstance(played, Played) and played.precomputed is not None
    assert "precomputed" not in event_to_json(played)  # never stored: a rebuild plays the action again
    table.apply(played, 0.0)
    assert table.state is played.precomputed.after  # not played a second time


def test_an_action_decided_before_the_table_moved_on_is_played_again_on_the_new_position() -> None:
    """Geister's setups are simultaneous: both may be decided on one position; whichever is applied second
    meets a table that moved on, so its worked-out position (without the other setup) is not taken."""
    table = _geister_at_setup()
    context = Context(now=0.0, new_seed=lambda: 7)
    (ann,) = table.decide("ann", parse_command("/setup b1 c1 d1 e1"), None, context).events
    (ben,) = table.decide("ben", parse_command("/setup b6 c6 d6 e6"), None, context).events
    table.apply(ben, 0.0)
    table.apply(ann, 0.0)
    assert isinstance(ann, Played) and ann.precomputed is not None and table.state is not ann.precomputed.after
    assert table.state is not None and len(table.state.to_act()) == 1  # both set up: one of them moves
    assert table.actions == [(1, "setup b6 c6 d6 e6"), (0, "setup b1 c1 d1 e1")]
    rebuilt = _geister_at_setup()
    for event in (ben, ann):
        rebuilt.apply(event_from_json(event_to_json(event)), 0.0)
    assert rebuilt.state is not None and rebuilt.state.to_json() == table.state.to_json()


def test_log_lines_say_what_happened_by_code_and_args_beside_the_english_text() -> None:
    """A reader names a resignation, a claim or another's secret move from the line's code and args (seats
    from 0), never by parsing the English text."""
    table = _geister_at_setup()
    context = Context(now=0.0, new_seed=lambda: 7)
    lines = []
    for user, text in (("ann", "/setup b1 c1 d1 e1"), ("ben", "/resign")):
        for event in table.decide(user, parse_command(text), None, context).events:
            lines.extend(table.apply(event, 0.0))
    setup, resigned, finished = lines
    assert setup.for_reader(1)["code"] == "action_secret" and setup.for_reader(1)["args"]["action"] is None
    assert setup.for_reader(None)["code"] == "action_secret"
    assert setup.for_reader(0)["code"] == "action" and setup.for_reader(0)["args"]["action"] == "setup b1 c1 d1 e1"
    assert resigned.for_reader(None) | {"names": []} == {
        "kind": "resigned", "code": "resigned", "text": "ben resigned", "args": {"name": "ben", "seat": 1},
        "events": [], "names": []}
    said = finished.for_reader(None)
    assert said["code"] == "finished" and said["args"]["reason_code"] == "resigned"
    assert said["args"]["reason_args"] == {"seat": 1} and said["args"]["winner_seats"] == [0]
    assert said["args"]["reason"] == "seat 1 resigned"  # the words stay for old clients

    rebuilt = Table.from_events(OLD_GAME)  # stored before codes: the line gets them all the same
    assert rebuilt.history[-1]["line"]["args"]["reason_code"] == "resigned"
    assert rebuilt.history[-1]["line"]["args"]["reason_args"] == {"seat": 1}
