"""Build exact Geister positions for scenario tests through `game.load`."""

from __future__ import annotations

from typing import Any

from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import START, parse_square

GAME = get_game("geister")


def position(
    ghosts: dict[str, tuple[int, str]],
    turn: int = 0,
    options: dict[str, Any] | None = None,
) -> GeisterState:
    """`ghosts` maps square -> (owner, "good"/"bad"). Ghosts not on the board count as captured earlier,
    with the colours that make 4 good and 4 bad per side. Ids are given out in order per owner."""
    pos = [-1] * 16
    good: list[bool | None] = [None] * 16
    next_id = [0, 8]
    for square, (owner, colour) in ghosts.items():
        g = next_id[owner]
        next_id[owner] += 1
        pos[g] = parse_square(square)
        good[g] = colour == "good"
    for owner in (0, 1):
        on_board = [good[g] for g in range(owner * 8, next_id[owner])]
        missing = [True] * (4 - on_board.count(True)) + [False] * (4 - on_board.count(False))
        for colour in missing:
            g = next_id[owner]
            next_id[owner] += 1
            good[g] = colour
    assert next_id == [8, 16], "at most 4 good and 4 bad ghosts per side"
    opts = {"exit": "reach", "max_plies": None, "disclose": False, "first": None, **(options or {})}
    state = GAME.load(
        {
            "game": "geister", "options": opts, "seed": 1, "first": turn, "turn": turn, "ply": 10,
            "pos": pos, "good": good, "set_up": [True, True], "moves": [], "outcome": None,
        }
    )
    assert isinstance(state, GeisterState)
    return state



def escape_at_hand() -> GeisterState:
    """Seat 0 to move under `escape` with a good ghost on its exit corner a6: leaving the board wins at once,
    and nothing else on the board is close to deciding the game."""
    return position(
        {
            "a6": (0, "good"), "b2": (0, "good"), "c2": (0, "good"), "d2": (0, "good"),
            "b1": (0, "bad"), "c1": (0, "bad"), "d1": (0, "bad"), "e1": (0, "bad"),
            "b5": (1, "good"), "c5": (1, "good"), "d5": (1, "good"), "e5": (1, "good"),
            "b6": (1, "bad"), "c6": (1, "bad"), "d6": (1, "bad"), "e6": (1, "bad"),
        },
        turn=0,
        options={"exit": "escape"},
    )

def start_squares(seat: int) -> list[str]:
    from ghostgames.games.geister.board import square_name

    return [square_name(s) for s in START[seat]]
