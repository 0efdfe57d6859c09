"""What programs written against the reference server (the Java `geister_server`) rely on, against our
server on loopback: each player asked for its setup as soon as it connects and answered at once, a
`SET:` taken even when it comes before `SET?`, and the reference's acknowledgement of a ghost leaving
the board."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from tests.competition.helpers import (
    FAST,
    START_BOARD,
    Player,
    alternate,
    connect_pair,
    move,
    running_server,
    set_up,
    shuffle,
)


def test_a_single_threaded_client_may_answer_the_second_players_set_before_the_first() -> None:
    with running_server() as server:
        first, second = connect_pair(server)  # one thread drives both, and happens to read the second first
        assert second.receive() == "SET?"
        second.send("SET:EFGH")
        assert second.receive() == "OK "
        assert first.receive() == "SET?"
        first.send("SET:ABCD")
        assert first.receive() == "OK "
        board, ack = move(first, "MOV:A,N")
        assert board.startswith("14R24R34R44R15B25B35B45B") and ack == "OK "
        board, ack = move(second, "MOV:A,N")
        assert board.startswith("14B24B34B44B15R25R35R45R") and ack == "OK "
        first.close()
        second.close()
        (result,) = server.wait_results(1)
    assert [seat for seat, _ in result.record.actions[:2]] == [1, 0]  # the setups in the order they came
    assert result.record.replay().ply == 2


def test_a_set_sent_before_the_question_is_taken_as_the_answer() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        second.send("SET:EFGH")  # straight after connecting, before anything was asked
        assert first.receive() == "SET?"
        time.sleep(0.2)  # the second player's SET: is long in the server's hands before the first answers
        first.send("SET:ABCD")
        assert first.receive() == "OK "
        assert second.receive() == "SET?"
        assert second.receive() == "OK "
        board, ack = move(first, "MOV:A,N")
        assert board.startswith("14R24R34R44R15B25B35B45B") and ack == "OK "
        board, ack = move(second, "MOV:A,N")
        assert board.startswith("14B24B34B44B15R25R35R45R") and ack == "OK "


# The first player's blue A walks up the left file and takes the second player's H, which the second
# player moved onto that corner, then leaves the board. The second player's A steps to and fro.
CORNER_RUN = ["MOV:A,W", "MOV:A,N", "MOV:A,N", "MOV:A,N", "MOV:A,N", "MOV:A,N"]
CORNER_GUARD = ["MOV:H,E", *shuffle("A", "W", "E", 4)]


@pytest.mark.parametrize(("second_set", "taken"), [("SET:ABCD", "OKB"), ("SET:EFGH", "OKR")])
def test_a_ghost_that_captures_on_the_corner_and_then_leaves_gets_the_captures_ack_again(
    second_set: str, taken: str
) -> None:
    """The reference server acknowledges a ghost leaving the board with what that ghost's previous move
    got (it keeps each ghost's last capture and does not clear it on an escape): after taking a blue
    ghost on the corner the escape is acknowledged `OKB`, after a red one `OKR`."""
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second, first_set="SET:EFGH", second_set=second_set)  # first's A-D are blue
        acks = alternate(first, second, CORNER_RUN, CORNER_GUARD)
        won, lost = first.receive(), second.receive()
        (result,) = server.wait_results(1)
    first_acks = acks[0::2]
    assert first_acks == ["OK ", "OK ", "OK ", "OK ", taken, taken]
    assert won.startswith("WON:88b") and lost.startswith("LST:")
    assert (result.winner, result.reason) == (0, "a good ghost escaped")
    first_lines = [m for m in first.received if not m.startswith("MOV?")]
    assert first_lines == ["SET?", "OK ", "OK ", "OK ", "OK ", "OK ", taken, taken, won]


def test_a_ghost_whose_last_move_took_nothing_leaves_with_a_plain_ok() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second, first_set="SET:EFGH")
        # as above, but after taking the corner ghost the blue A steps back and returns, then leaves
        run = ["MOV:A,W", "MOV:A,N", "MOV:A,N", "MOV:A,N", "MOV:A,N", "MOV:A,S", "MOV:A,N", "MOV:A,N"]
        acks = alternate(first, second, run, ["MOV:H,E", *shuffle("A", "W", "E", 6)])
        assert first.receive().startswith("WON:")
    assert acks[0::2] == ["OK ", "OK ", "OK ", "OK ", "OKB", "OK ", "OK ", "OK "]


@pytest.mark.parametrize(("blocked_try", "escape_ack"), [(True, "OK "), (False, "OKB")])
def test_a_move_refused_because_an_own_ghost_is_in_the_way_clears_the_remembered_capture(
    blocked_try: bool, escape_ack: str
) -> None:
    """The reference server clears a ghost's remembered capture when a move of it is refused because
    its own ghost stands on the target square (with --no-ng-terminate the game goes on)."""
    with running_server(replace(FAST, ng_terminates=False)) as server:
        first, second = connect_pair(server)
        set_up(first, second, first_set="SET:EFGH")  # first's A-D blue, second's H blue
        # A to (0,1); B follows up the file to (0,2); A takes H on (0,0); B steps up to (0,1)
        run = ["MOV:A,W", *["MOV:A,N"] * 3, "MOV:B,W", "MOV:B,W", "MOV:B,N", "MOV:B,N", "MOV:A,N", "MOV:B,N"]
        acks = alternate(first, second, run, ["MOV:H,E", *shuffle("A", "W", "E", 9)])
        assert acks[0::2][8] == "OKB"
        if blocked_try:
            _, refused = move(first, "MOV:A,S")  # onto its own B
            assert refused == "NG "
        _, ack = move(first, "MOV:A,N")
        assert ack == escape_ack
        assert first.receive().startswith("WON:")


def test_a_player_is_asked_for_its_setup_as_soon_as_it_connects_and_answered_at_once() -> None:
    with running_server() as server:
        first = Player(server.ports[0])  # a client that plays its two sides from one thread, one at a time
        assert first.receive() == "SET?"
        first.send("SET:abcd")
        assert first.receive() == "OK "
        second = Player(server.ports[1])
        assert second.receive() == "SET?"
        second.send("SET:ABCD")
        assert second.receive() == "OK "
        board, ack = move(first, "MOV:A,N")
        assert board == START_BOARD and ack == "OK "
        first.close()
        second.close()
        (result,) = server.wait_results(1)
    assert [seat for seat, way, message in result.transcript[:3]] == [0, 0, 0]  # SET?, SET:abcd, OK
    assert [message for _, _, message in result.transcript[:3]] == ["SET?", "SET:abcd", "OK "]


def test_a_waiting_player_out_of_time_for_its_setup_is_let_go_without_a_game() -> None:
    with running_server(replace(FAST, timeout=0.3)) as server:
        silent = Player(server.ports[0])
        assert silent.receive() == "SET?"
        time.sleep(0.6)
        assert silent.hung_up()
        first, second = connect_pair(server)
        set_up(first, second)
        _, ack = move(first, "MOV:A,N")
        assert ack == "OK "
        first.close()
        second.close()
        (result,) = server.wait_results(1)
    assert result.reason == "disconnected" and len(result.record.actions) == 3
