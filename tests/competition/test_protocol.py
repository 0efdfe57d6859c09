"""The wire protocol against a real server on loopback: one scripted client per seat."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ghostgames.competition.frames import parse_board
from ghostgames.rules.record import GameRecord
from tests.competition.helpers import (
    FAST,
    START_BOARD,
    alternate,
    connect_pair,
    move,
    running_server,
    set_up,
    shuffle,
)

RETRY = replace(FAST, ng_terminates=False)

# Both SET:ABCD. First: A up the b-file takes d (red) then h (blue); second's A takes first's D (red);
# first's E walks up the a-file and escapes by N while second's B steps to and fro.
GOLDEN_FIRST = [
    "SET?", "OK ",
    "MOV?14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u", "OK ",
    "MOV?13R24R34R44R15B25B35B45B42u31u21u11u40u30u20u10u", "OK ",
    "MOV?12R24R34R44R15B25B35B45B43u31u21u11u40u30u20u10u", "OKR",
    "MOV?11R24R34R99r15B25B35B45B44u31u21u99r40u30u20u10u", "OKB",
    "MOV?10R24R34R99r15B25B35B45B44u41u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r05B25B35B45B44u31u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r04B25B35B45B44u41u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r03B25B35B45B44u31u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r02B25B35B45B44u41u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r01B25B35B45B44u31u21u99r40u30u20u99b", "OK ",
    "MOV?10R24R34R99r00B25B35B45B44u41u21u99r40u30u20u99b", "OK ",
    "WON:10R24R34R99r88b25B35B45B44r41r21r99r40b30b20b99b",
]  # fmt: skip
GOLDEN_SECOND = [
    "SET?", "OK ",
    "MOV?14R24R34R44R15B25B35B45B42u31u21u11u40u30u20u10u", "OK ",
    "MOV?13R24R34R44R15B25B35B45B43u31u21u11u40u30u20u10u", "OK ",
    "MOV?12R24R34R99r15B25B35B45B44u31u21u11u40u30u20u10u", "OKR",
    "MOV?11R24R34R99r15B25B35B99b45u31u21u99r40u30u20u10u", "OK ",
    "MOV?11R14R34R99r15B25B35B99b45u31u21u99r50u30u20u10u", "OK ",
    "MOV?11R24R34R99r15B25B35B99b45u31u21u99r51u30u20u10u", "OK ",
    "MOV?11R14R34R99r15B25B35B99b45u31u21u99r52u30u20u10u", "OK ",
    "MOV?11R24R34R99r15B25B35B99b45u31u21u99r53u30u20u10u", "OK ",
    "MOV?11R14R34R99r15B25B35B99b45u31u21u99r54u30u20u10u", "OK ",
    "MOV?11R24R34R99r15B25B35B99b45u31u21u99r55u30u20u10u", "OK ",
    "LST:11R14R34R99r15B25B35B99b45r31r21r99r88b30b20b10b",
]  # fmt: skip


def test_golden_transcript_of_a_game_with_captures_of_both_colours_and_an_escape() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        first_script = ["MOV:A,N"] * 4 + ["MOV:E,W"] + ["MOV:E,N"] * 6
        second_script = ["MOV:A,N"] * 3 + shuffle("B", "W", "E", 7)
        alternate(first, second, first_script, second_script)
        assert first.receive().startswith("WON:")
        assert second.receive().startswith("LST:")
        assert first.received == GOLDEN_FIRST
        assert second.received == GOLDEN_SECOND
        assert first.hung_up() and second.hung_up()
        (result,) = server.wait_results(1)
    assert (result.winner, result.reason, result.plies) == (0, "a good ghost escaped", 21)
    replayed = GameRecord.from_json(result.record.to_json()).replay()
    outcome = replayed.outcome()
    assert outcome is not None and outcome.results[0].result == "win"


# escaping player -> (its route, the other's ghost that marks time and how)
ESCAPES = {
    "first by N from (0,0)": (0, ["MOV:A,W"] + ["MOV:A,N"] * 4 + ["MOV:A,N"], ("A", "W", "E")),
    "second by W from (0,0)": (1, ["MOV:A,W"] + ["MOV:A,N"] * 4 + ["MOV:A,W"], ("A", "W", "E")),
    "first by E from (5,0)": (0, ["MOV:D,E"] + ["MOV:D,N"] * 4 + ["MOV:D,E"], ("D", "E", "W")),
    "second by N from (5,0)": (1, ["MOV:D,E"] + ["MOV:D,N"] * 4 + ["MOV:D,N"], ("D", "E", "W")),
}


@pytest.mark.parametrize("case", list(ESCAPES))
def test_a_blue_ghost_on_0_0_escapes_with_n_or_w_and_on_5_0_with_n_or_e_and_its_owner_wins(case: str) -> None:
    escaper, route, (letter, there, back) = ESCAPES[case]
    marking_time = shuffle(letter, there, back, len(route) - 1 if escaper == 0 else len(route))
    with running_server() as server:
        players = connect_pair(server)
        set_up(*players, first_set="SET:EFGH", second_set="SET:EFGH")  # A-D are blue
        scripts = (route, marking_time) if escaper == 0 else (marking_time, route)
        alternate(players[0], players[1], *scripts)
        won = players[escaper].receive()
        lost = players[1 - escaper].receive()
        assert won.startswith("WON:") and lost.startswith("LST:")
        letter = "A" if route[0].startswith("MOV:A") else "D"
        index = "ABCDEFGH".index(letter)
        assert won[4:][3 * index : 3 * index + 3] == "88b"
        assert lost[4:][3 * (8 + index) : 3 * (8 + index) + 3] == "88b"
        (result,) = server.wait_results(1)
    assert result.winner == escaper


def test_a_red_ghost_trying_to_escape_gets_ng_and_then_loses() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)  # A is red
        alternate(first, second, ["MOV:A,W"] + ["MOV:A,N"] * 4, shuffle("A", "W", "E", 5))
        board, ack = move(first, "MOV:A,N")
        assert parse_board(board)[0].square is not None and board.startswith("00R")
        assert ack == "NG "
        assert first.receive().startswith("LST:")
        assert second.receive().startswith("WON:")
        (result,) = server.wait_results(1)
    assert result.winner == 1 and "illegal" in result.reason


def test_moving_onto_your_own_ghost_is_ng_and_loses_by_default() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        _, ack = move(first, "MOV:A,E")  # B stands on (2,4)
        assert ack == "NG "
        assert first.receive().startswith("LST:")
        assert second.receive().startswith("WON:")


def test_with_no_ng_terminate_an_illegal_move_is_refused_and_the_player_asked_again() -> None:
    with running_server(RETRY) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        board, ack = move(first, "MOV:A,E")
        assert (board, ack) == (START_BOARD, "NG ")
        again, ack = move(first, "MOV:A,N")
        assert (again, ack) == (START_BOARD, "OK ")
        board, _ = move(second, "MOV:A,N")
        assert board.startswith("14R") and board[24:27] == "42u"


def test_lower_case_and_full_word_directions_are_accepted() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        acks = alternate(
            first, second,
            ["MOV:A,w", "MOV:A,nOrTh", "MOV:A,east", "MOV:A,n"],
            ["MOV:A,WEST", "MOV:A,e", "MOV:A,west", "MOV:A,NORTH"],
        )  # fmt: skip
        assert acks == ["OK "] * 8
        board, _ = move(first, "MOV:A,N")
        assert board == "12R24R34R44R15B25B35B45B52u31u21u11u40u30u20u10u"


def test_a_lower_case_ghost_letter_is_that_ghost_as_on_the_reference_server() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        acks = alternate(first, second, ["MOV:a,N", "MOV:a,n"], ["MOV:c,N", "MOV:A,N"])
        assert acks == ["OK "] * 4
        board, _ = move(first, "MOV:A,N")
        assert board[:3] == "12R"  # our A went up twice
        assert board[24:27] == "42u" and board[30:33] == "22u"  # the opponent's A and C moved


@pytest.mark.parametrize("answer", ["MOV:A,N ", "MOV:i,N", "MOV:A,NE", "MOV: A,N", "MOV:A", "hello"])
def test_a_trailing_space_or_any_other_malformed_move_is_ng(answer: str) -> None:
    with running_server(RETRY) as server:
        first, second = connect_pair(server)
        set_up(first, second)
        _, ack = move(first, answer)
        assert ack == "NG "
        _, ack = move(first, "MOV:A,N")
        assert ack == "OK "


def test_the_draw_comes_after_exactly_150_moves_each() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        alternate(first, second, shuffle("A", "W", "E", 150), shuffle("A", "W", "E", 150))
        first_end, second_end = first.receive(), second.receive()
        assert first_end.startswith("DRW:") and second_end.startswith("DRW:")
        assert first_end[4 + 24 :] == "41r31r21r11r40b30b20b10b"  # colours revealed at the end
        assert sum(m.startswith("MOV?") for m in first.received) == 150
        assert sum(m.startswith("MOV?") for m in second.received) == 150
        (result,) = server.wait_results(1)
    assert (result.winner, result.plies) == (None, 300)


def test_the_game_is_not_drawn_one_ply_earlier() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        alternate(first, second, shuffle("A", "W", "E", 150), shuffle("A", "W", "E", 149))
        assert second.receive().startswith("MOV?")


@pytest.mark.parametrize("bad", ["SET:ABC", "SET:ABCDE", "SET:AABC", "SET:ABCI", "SET:abcz", "SET:ABCD ", "SET ABCD"])
def test_a_bad_set_gets_ng_and_the_question_again_then_a_good_set_is_accepted(bad: str) -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        assert first.receive() == "SET?"
        first.send(bad)
        assert first.receive() == "NG "
        assert first.receive() == "SET?"
        first.send("SET:BCDE")
        assert first.receive() == "OK "
        assert second.receive() == "SET?"
        second.send("SET:ABCD")
        assert second.receive() == "OK "
        board, ack = move(first, "MOV:A,N")
        assert board.startswith("14B24R34R44R15R25B35B45B") and ack == "OK "


def test_bad_sets_do_not_end_the_game_even_when_illegal_moves_do() -> None:
    assert FAST.ng_terminates
    with running_server(FAST) as server:
        first, second = connect_pair(server)
        assert first.receive() == "SET?"
        for bad in ("SET:AAAA", "SET:XYZW"):
            first.send(bad)
            assert first.receive() == "NG "
            assert first.receive() == "SET?"
        set_answer = "SET:ABCD"
        first.send(set_answer)
        assert first.receive() == "OK "
        assert second.receive() == "SET?"


def test_a_new_try_sent_right_after_ng_counts_as_the_answer_to_the_repeated_question() -> None:
    with running_server(RETRY) as server:
        first, second = connect_pair(server)
        assert first.receive() == "SET?"
        first.send("SET:AAAA")
        assert first.receive() == "NG "
        first.send("SET:ABCD")  # before the repeated SET? arrives
        assert first.receive() == "SET?"
        assert first.receive() == "OK "
        assert second.receive() == "SET?"


def test_lines_sent_before_being_asked_are_not_taken_as_answers() -> None:
    with running_server() as server:
        first, second = connect_pair(server)
        set_up(first, second)
        second.send("MOV:A,N")  # out of turn: ignored
        _, ack = move(first, "MOV:A,N")
        assert ack == "OK "
        _, ack = move(second, "MOV:A,E")  # its real answer, illegal: B is there
        assert ack == "NG "
