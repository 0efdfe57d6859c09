"""The per-player frame, the board string and the message reading, checked against the issue's facts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghostgames.competition.frames import (
    board_text,
    from_xy,
    our_direction,
    parse_board,
    protocol_direction,
    protocol_letter,
    to_xy,
)
from ghostgames.competition.messages import BadMessage, MessageSplitter, parse_move, parse_set
from ghostgames.games.geister.board import START, parse_square, step
from tests.competition.helpers import START_BOARD


def test_own_ghosts_a_to_d_start_on_row_4_and_e_to_h_on_row_5_for_both_seats() -> None:
    for seat in (0, 1):
        assert [to_xy(START[seat][k], seat) for k in range(8)] == [
            (1, 4), (2, 4), (3, 4), (4, 4), (1, 5), (2, 5), (3, 5), (4, 5)
        ]


def test_the_opponent_is_turned_180_degrees_their_a_at_4_1_their_h_at_1_0() -> None:
    for seat in (0, 1):
        enemy = START[1 - seat]
        assert to_xy(enemy[0], seat) == (4, 1)
        assert to_xy(enemy[7], seat) == (1, 0)


@given(st.integers(0, 35), st.integers(0, 1))
def test_from_xy_undoes_to_xy(square: int, seat: int) -> None:
    assert from_xy(*to_xy(square, seat), seat) == square


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("letter", ["N", "E", "S", "W"])
def test_a_protocol_direction_moves_the_same_way_in_the_movers_frame(seat: int, letter: str) -> None:
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[letter]
    square = parse_square("c3")
    x, y = to_xy(square, seat)
    assert to_xy(step(square, our_direction(letter, seat)), seat) == (x + dx, y + dy)
    assert protocol_letter(our_direction(letter, seat), seat) == letter


def test_the_first_board_after_set_abcd_by_both_is_exactly_the_issues_board() -> None:
    pos = [START[g >> 3][g & 7] for g in range(16)]
    good = [k >= 4 for k in range(8)] * 2
    assert board_text(pos, good, 0, reveal=False) == START_BOARD
    assert board_text(pos, good, 1, reveal=False) == START_BOARD


def test_captured_ghosts_are_99_escaped_88b_and_the_end_shows_opponent_colours_in_lower_case() -> None:
    pos = [START[g >> 3][g & 7] for g in range(16)]
    good = [k >= 4 for k in range(8)] * 2
    pos[0], pos[4], pos[8], pos[15] = -1, -2, -1, -1
    text = board_text(pos, good, 0, reveal=True)
    assert text == "99r24R34R44R88b25B35B45B99r31r21r11r40b30b20b99b"
    ghosts = parse_board(text)
    assert ghosts[0].captured and ghosts[0].good is False
    assert ghosts[4].escaped and ghosts[4].good is True
    assert ghosts[9].square == START[1][1] and ghosts[9].good is False


@pytest.mark.parametrize("word", ["N", "n", "north", "NORTH", "North", "nOrTh"])
def test_directions_are_letters_or_full_words_in_any_case(word: str) -> None:
    assert protocol_direction(word) == "N"
    assert parse_move(f"MOV:A,{word}").direction == "N"


@pytest.mark.parametrize("line", ["MOV:A,N ", " MOV:A,N", "MOV:i,N", "MOV:I,N", "MOV:A N", "MOV:A,NE", "MOV:A,",
                                  "MOV:AB,N", "mov:A,N", "MOV:A,,N", "MOV:A,N\t"])
def test_anything_but_mov_letter_comma_direction_is_refused(line: str) -> None:
    with pytest.raises(BadMessage):
        parse_move(line)


def test_set_names_the_four_red_ghosts() -> None:
    assert parse_set("SET:BDEH") == frozenset({1, 3, 4, 7})


def test_set_letters_are_read_in_either_case_as_the_reference_reads_them() -> None:
    assert parse_set("SET:bdeh") == parse_set("SET:BdEh") == frozenset({1, 3, 4, 7})


@pytest.mark.parametrize("line", ["SET:ABC", "SET:ABCDE", "SET:AABC", "SET:aABC", "SET:ABCI", "SET:abci",
                                  "SET:ABCD ", "SET ABCD"])
def test_a_set_naming_a_letter_twice_or_not_four_letters_a_to_h_is_refused(line: str) -> None:
    with pytest.raises(BadMessage):
        parse_set(line)


def test_the_client_splits_messages_however_they_are_chunked_and_with_or_without_crlf() -> None:
    stream = "SET?\r\nOK \r\nMOV?" + START_BOARD + "\r\nOKR" + "NG " + "WON:" + START_BOARD
    expected = ["SET?", "OK ", "MOV?" + START_BOARD, "OKR", "NG ", "WON:" + START_BOARD]
    whole = MessageSplitter()
    assert whole.feed(stream) == expected
    byte_by_byte = MessageSplitter()
    got = [m for ch in stream for m in byte_by_byte.feed(ch)]
    assert got == expected
