"""The table option `rated`: on by default, set at creation or with /option, kept across a rebuild."""

from __future__ import annotations

import pytest

from ghostgames.tables import Context, Table, TableError, creation_event, parse_command


def ctx() -> Context:
    return Context(now=0.0, new_seed=lambda: 7)


def test_rated_is_on_by_default_and_off_when_asked() -> None:
    assert Table(creation_event("t1", "geister", 2, {}, None, "ann")).rated is True
    assert Table(creation_event("t2", "geister", 2, {"rated": "off"}, None, "ann")).rated is False
    with pytest.raises(TableError) as err:
        creation_event("t3", "geister", 2, {"rated": "maybe"}, None, "ann")
    assert err.value.code == "bad_option" and "on or off" in err.value.message


def test_the_option_command_turns_it_off_and_a_rebuilt_table_agrees() -> None:
    events = [creation_event("t1", "geister", 2, {}, None, "ann")]
    table = Table.from_events(events)
    for text in ("/join", "/option rated off"):
        decided = table.decide("ann", parse_command(text), None, ctx()).events
        for event in decided:
            table.apply(event, 0.0)
        events.extend(decided)
    assert table.rated is False and table.summary(0.0)["rated"] is False
    assert Table.from_events(events).rated is False
    listing = table.decide("ann", parse_command("/option"), None, ctx()).reply
    assert listing is not None and "rated = off" in listing.text
