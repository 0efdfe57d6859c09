"""The client's mirror: from the boards alone it must offer the bot exactly the real legal moves."""

from __future__ import annotations

import random

import pytest

from ghostgames.bots import get_bot
from ghostgames.bots.random_bot import RandomBot
from ghostgames.competition.frames import board_text, from_xy, our_direction, protocol_letter, to_xy
from ghostgames.competition.messages import parse_move, parse_set
from ghostgames.competition.mirror import Mirror
from ghostgames.competition.server import OPTIONS
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState, Move
from ghostgames.games.geister.board import START, parse_square, square_name

TURN = {"n": "s", "s": "n", "e": "w", "w": "e"}


def in_mirror_frame(move: Move, seat: int) -> tuple[int, str]:
    """A real move of `seat` as (square, direction) in that seat's mirror, where it is seat 0."""
    square = from_xy(*to_xy(move.origin, seat), 0)
    return square, our_direction(protocol_letter(move.direction, seat), 0)


def rotated(text: str) -> str:
    """A move text of our board as seat 1's mirror writes it (the board turned 180 degrees)."""
    square, direction, *rest = text.split()
    return " ".join([square_name(35 - parse_square(square)), TURN[direction], *rest])


@pytest.mark.parametrize("seed", range(12))
def test_the_mirror_offers_exactly_the_real_legal_moves_and_keeps_the_real_history(seed: int) -> None:
    real = get_game("geister").new(2, OPTIONS, seed)
    assert isinstance(real, GeisterState)
    mirrors = [Mirror(RandomBot(), random.Random(seed * 2 + s)) for s in (0, 1)]
    for seat in (0, 1):
        red = parse_set(mirrors[seat].set_answer())
        real.apply(seat, "setup " + " ".join(square_name(START[seat][k]) for k in range(8) if k not in red))
    while not real.is_over():
        seat = real.turn
        board = board_text(real.pos, real.good, seat, reveal=False)
        mirror_state = mirrors[seat].state_from(board)
        mirror_legal = {(a.origin, a.direction) for a in mirror_state.legal_actions(0) if isinstance(a, Move)}
        real_legal = {in_mirror_frame(a, seat) for a in real.legal_actions(seat) if isinstance(a, Move)}
        assert mirror_legal == real_legal
        answer = parse_move(mirrors[seat].move_answer(board))
        expected = real.moves if seat == 0 else [rotated(t) for t in real.moves]
        assert mirrors[seat].history == expected
        origin = real.pos[seat * 8 + answer.ghost]
        events = real.apply(seat, f"{square_name(origin)} {our_direction(answer.direction, seat)}")
        colour = events[0].public.get("colour")
        mirrors[seat].acknowledged("OKB" if colour == "good" else "OKR" if colour == "bad" else "OK ")
    assert real.ply == sum(m.moves_made for m in mirrors)


def test_the_mirror_hides_nothing_from_its_own_seat_and_guesses_only_enemy_colours() -> None:
    mirror = Mirror(RandomBot(), random.Random(1))
    board = "14R24R34R44R15B25B35B45B41u31u21u99b40u30u20u99r"
    state = mirror.state_from(board)
    view = state.view(0)
    own = [g["colour"] for g in view["ghosts"][:8]]
    assert own == ["bad"] * 4 + ["good"] * 4
    enemy = view["ghosts"][8:]
    assert [g["colour"] for g in enemy] == [None, None, None, "good", None, None, None, "bad"]
    goods = sum(1 for g in state.to_json()["good"][8:] if g)
    assert goods == 4  # three guessed good among the unknown six, plus the captured one
    pos = state.to_json()["pos"]
    assert pos[8] == parse_square("e5") and pos[11] == -1 and pos[15] == -1  # a at (4,1); d, h captured


def test_an_escape_acknowledged_okb_is_not_taken_for_a_capture() -> None:
    mirror = Mirror(get_bot("charge"), random.Random(1))  # charge leaves at once from a corner
    board = "00B24R34R44R15R25B35B45B41u31u21u11u40u30u20u10u"
    answer = mirror.move_answer(board)
    assert answer in ("MOV:A,N", "MOV:A,W")
    mirror.acknowledged("OKB")  # what the reference server says if A's previous move took a blue ghost
    assert mirror.history == [{"MOV:A,N": "a6 n", "MOV:A,W": "a6 w"}[answer]]
    assert mirror.moves_made == 1
