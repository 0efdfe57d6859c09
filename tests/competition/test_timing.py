"""Time and disconnects: a silent player loses on time, a player who hangs up loses."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from dataclasses import replace

import pytest

from ghostgames.competition.server import Connection, _begin_setup
from tests.competition.helpers import FAST, Player, connect_pair, move, running_server, set_up

QUICK_TIMEOUT = replace(FAST, timeout=0.3)


def test_a_silent_client_loses_on_time_and_the_other_wins() -> None:
    with running_server(QUICK_TIMEOUT) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        assert first.receive().startswith("MOV?")  # and no answer
        assert first.receive().startswith("LST:")
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (1, "time")


def test_a_client_silent_at_set_loses_on_time() -> None:
    with running_server(QUICK_TIMEOUT) as server:
        first, second = connect_pair(server)
        assert first.receive() == "SET?"
        assert second.receive() == "SET?"  # both are asked at once
        second.send("SET:ABCD")
        assert second.receive() == "OK "
        assert first.receive().startswith("LST:")
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (1, "time")


def test_running_out_of_budget_loses_even_within_the_per_move_timeout() -> None:
    with running_server(replace(FAST, budget=0.3, timeout=30.0)) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        assert first.receive().startswith("MOV?")
        assert first.receive().startswith("LST:")
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (1, "time")


def test_the_whole_seconds_a_move_took_are_taken_from_the_budget() -> None:
    with running_server(replace(FAST, budget=3.0, timeout=30.0)) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        assert first.receive().startswith("MOV?")
        time.sleep(1.05)
        first.send("MOV:A,N")
        assert first.receive() == "OK "
        _, ack = move(second, "MOV:A,E")  # onto its own B: illegal, ends the game
        assert ack == "NG "
        (result,) = server.wait_results(1)
    assert result.budget_left[1] == 3.0  # quick answers cost nothing
    assert result.budget_left[0] in (1.0, 2.0)  # 1 s (2 s only on a machine stalled for a second)


def test_a_disconnect_of_the_player_to_move_gives_the_other_won() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        assert first.receive().startswith("MOV?")
        first.close()
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (1, "disconnected")


def test_a_disconnect_of_the_waiting_player_gives_the_player_to_move_won() -> None:
    with running_server(replace(FAST, timeout=30.0)) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        second.close()
        messages = [first.receive()]
        if messages[0].startswith("MOV?"):
            messages.append(first.receive())
        assert messages[-1].startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (0, "disconnected")


def test_a_disconnect_during_set_loses() -> None:
    """Both players are in their SET phase (each has been asked) when the first hangs up. (A player that hangs up
    before its opponent is in line is passed over instead: the test below.)"""
    with running_server() as server:
        first, second = connect_pair(server)
        assert first.receive() == "SET?"
        assert second.receive() == "SET?"
        first.close()
        assert second.receive().startswith("WON:")


def test_a_client_that_hung_up_while_waiting_for_its_game_is_passed_over(caplog: pytest.LogCaptureFixture) -> None:
    """...and its SET phase's end is read, so nothing is logged as never retrieved when the task is collected (on
    Python 3.11 such a log, written while another compile runs, broke every later compile in the process)."""
    with caplog.at_level(logging.ERROR, logger="asyncio"), running_server() as server:
        gone = Player(server.ports[0])
        time.sleep(0.1)
        gone.close()
        time.sleep(0.2)
        first, second = connect_pair(server)
        set_up(first, second)
        _, ack = move(first, "MOV:A,N")
        assert ack == "OK "
    gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def test_a_line_too_long_to_be_an_answer_counts_as_a_disconnect() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        assert first.receive().startswith("MOV?")
        first.send("MOV:" + "A" * 5000)
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason) == (1, "disconnected")


def test_a_set_phase_that_ends_in_a_forfeit_nobody_awaits_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """A SET phase is started so that its end is always read: one that ends in a forfeit (here a hang-up) and is
    then let go without anyone awaiting it leaves no "never retrieved" log when collected, whatever path let go."""

    async def hang_up_unread() -> None:
        accepted: asyncio.Queue[Connection] = asyncio.Queue()
        listener = await asyncio.start_server(lambda r, w: accepted.put_nowait(Connection(r, w)), "127.0.0.1", 0)
        port = listener.sockets[0].getsockname()[1]
        _, client = await asyncio.open_connection("127.0.0.1", port)
        conn = await accepted.get()
        task = _begin_setup(conn, 0, FAST)
        client.close()
        await asyncio.wait({task})  # waits for its end without reading it
        assert not task.cancelled()  # it ended by itself, in a forfeit
        conn.setup = None  # let go without reading its end: only the done-callback has read it
        del task
        await conn.close()
        listener.close()
        await listener.wait_closed()

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(hang_up_unread())
        gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
