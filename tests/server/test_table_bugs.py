"""Issue 15's table bugs below the browser: seats typed and told from 1, a log line that keeps the names it
was written with, resigning after leaving, colours disclosed after a resignation, a rematch that waits for
every seated person to accept. Each test failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from ghostgames.tables import Context, Table, TableError, creation_event, parse_command


def ctx() -> Context:
    seeds = iter(range(1000, 2000))
    return Context(now=0.0, new_seed=lambda: next(seeds))


def _table(game: str = "geister", seats: int = 2, options: dict[str, Any] | None = None) -> Table:
    return Table(creation_event("t", game, seats, options, None, "alice"))


def _do(table: Table, user: str, text: str) -> list[dict[str, Any]]:
    """Carry out `text` by `user`; the public log lines it wrote."""
    decision = table.decide(user, parse_command(text), None, ctx())
    lines = []
    for event in decision.events:
        lines += [line.for_reader(None) for line in table.apply(event, 0.0)]
    return lines


def _refused(table: Table, user: str, text: str) -> TableError:
    with pytest.raises(TableError) as err:
        table.decide(user, parse_command(text), None, ctx())
    return err.value


def test_bug_1_seats_count_from_one_in_commands() -> None:
    table = _table()
    _do(table, "alice", "/join 2")  # the second seat of two, as the screen numbers it
    assert table.seats[1].name == "alice" and table.seats[0].name is None
    refused = _refused(table, "bob", "/join 3")
    assert refused.code == "bad_argument" and "seats are numbered 1 to 2" in refused.message
    assert _refused(table, "bob", "/join 0").code == "bad_argument"
    assert "seat 2" in _refused(table, "bob", "/join 2").message  # taken: told as typed
    assert "seat 2" in _refused(table, "alice", "/join").message  # you already sit in seat 2
    _do(table, "alice", "/bot add hard")  # takes seat 1
    assert table.seats[0].bot == "hard"
    assert "seat 2" in _refused(table, "alice", "/bot remove 2").message  # no bot sits in seat 2
    _do(table, "alice", "/bot remove 1")
    assert table.seats[0].kind == "empty"
    who = table.decide("alice", parse_command("/who"), None, ctx()).reply
    assert who is not None and who.text.splitlines()[:2] == ["seat 1: - (empty)", "seat 2: alice (connected)"]


def test_bug_1_the_option_first_is_typed_and_told_from_one() -> None:
    table = _table()
    _do(table, "alice", "/join")
    lines = _do(table, "alice", "/option first 1")
    assert table.settings["first"] == 0  # the game's own index of the first seat
    assert lines[0]["args"]["value"] == 1 and lines[0]["text"] == "option first is now 1"
    _do(table, "alice", "/option first 2")
    assert table.settings["first"] == 1
    for bad in ("0", "3", "x"):
        refused = _refused(table, "alice", f"/option first {bad}")
        assert refused.code == "bad_option"
        assert refused.message == "first takes a seat from 1 to 2, or none for random"
    reply = table.decide("alice", parse_command("/option first"), None, ctx()).reply
    assert reply is not None and reply.text.startswith("first = 2 (a seat from 1 to 2")
    _do(table, "alice", "/option first none")
    assert "first" not in table.settings
    # The lobby sends the game's index (from 0); a wrong one is told from 1 too, for every game.
    for game, seats in (("geister", 2), ("ghooost", 3)):
        with pytest.raises(TableError) as err:
            creation_event("u", game, seats, {"first": seats}, None, "alice")
        assert err.value.message == f"first takes a seat from 1 to {seats}, or none for random"
    table3 = _table("ghooost", 3)
    _do(table3, "alice", "/join")
    _do(table3, "alice", "/option first 3")
    assert table3.settings["first"] == 2


def test_bug_2_a_log_line_keeps_the_names_it_was_written_with() -> None:
    table = _table()
    joined = _do(table, "alice", "/join")
    left = _do(table, "alice", "/leave")
    _do(table, "bob", "/join 2")
    bot = _do(table, "bob", "/bot add hard")
    assert joined[0]["names"][0] == {"name": "alice", "bot": None}
    assert joined[0]["text"] == "alice sits in seat 1" and left[0]["text"] == "alice left seat 1"
    assert bot[0]["names"][0] == {"name": "hard bot", "bot": "hard"}
    # what the history holds (and a reload shows) is the same
    history = [entry["line"] for entry in table.history if entry["kind"] == "log"]
    assert [h["kind"] for h in history][1:3] == ["joined", "left"]
    assert history[1]["names"][0]["name"] == "alice" and history[1]["args"]["name"] == "alice"


def _play_to_setups(table: Table) -> None:
    for user in ("alice", "bob"):
        seat = table.seat_of(user)
        assert seat is not None and table.state is not None
        _do(table, user, "/" + table.state.legal_texts(seat.index)[0])


def test_bug_7_resign_after_leaving_is_refused_as_not_seated() -> None:
    table = _table("thelast", 3)
    for user in ("alice", "bob", "carol"):
        _do(table, user, "/join")
    _do(table, "alice", "/start")
    _do(table, "carol", "/leave")
    refused = _refused(table, "carol", "/resign")
    assert refused.code == "not_seated" and "you left this game" in refused.message
    _do(table, "bob", "/resign")
    assert _refused(table, "bob", "/resign").code == "not_seated"


def test_bug_8_a_resignation_ends_the_game_so_disclosed_colours_are_shown() -> None:
    table = _table("geister", 2)
    _do(table, "alice", "/join")
    _do(table, "bob", "/join")
    _do(table, "alice", "/option disclose on")
    _do(table, "bob", "/option disclose on")
    _do(table, "alice", "/start")
    _play_to_setups(table)
    view = table.view_for(None)
    assert view is not None and all(g["colour"] is None for g in view["ghosts"])
    _do(table, "bob", "/resign")
    assert table.status == "finished"
    for reader in (None, 0, 1):
        view = table.view_for(reader)
        assert view is not None and view["phase"] == "over"
        assert all(g["colour"] in ("good", "bad") for g in view["ghosts"])
    # without the vote nothing is disclosed after a resignation
    other = _table("geister", 2)
    _do(other, "alice", "/join")
    _do(other, "bob", "/join")
    _do(other, "alice", "/start")
    _play_to_setups(other)
    _do(other, "bob", "/resign")
    spectator = other.view_for(None)
    assert spectator is not None and all(g["colour"] is None for g in spectator["ghosts"] if g["status"] == "board")


def test_bug_9_a_rematch_is_a_proposal_the_other_people_accept() -> None:
    table = _table("thelast", 3)
    _do(table, "alice", "/join")
    _do(table, "bob", "/join")
    _do(table, "alice", "/bot add hard")
    _do(table, "alice", "/start")
    _do(table, "alice", "/resign")  # three seats: a bot finishes Alice's game
    assert table.status == "started"
    _do(table, "bob", "/resign")
    while table.status == "started":
        (seat, _level, by), *_ = table.bot_turns()
        assert table.state is not None
        for event in table.decide_bot(seat, table.state.legal_texts(seat)[0], by, ctx()):
            table.apply(event, 0.0)
    asked = _do(table, "alice", "/rematch")
    assert table.status == "finished" and table.summary(0.0)["rematch"] == [0]
    assert asked[0]["kind"] == "rematch_asked" and asked[0]["args"]["waiting"] == ["bob"]
    pending = _refused(table, "alice", "/rematch")
    assert pending.code == "rematch_pending" and pending.args_["names"] == ["bob"]
    _do(table, "bob", "/rematch")  # the bot accepted at once; Bob was the last to agree
    assert table.status == "started" and table.round == 2 and table.summary(0.0)["rematch"] == []


def test_bug_9_a_rematch_against_bots_only_starts_at_once() -> None:
    table = _table("geister", 2)
    _do(table, "alice", "/join")
    _do(table, "alice", "/bot add easy")
    _do(table, "alice", "/start")
    _do(table, "alice", "/resign")
    _do(table, "alice", "/rematch")
    assert table.status == "started" and table.round == 2
