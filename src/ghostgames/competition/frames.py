"""The AI-competition's per-player frame and board string, mapped onto our Geister squares.

Each player sees the board from its own side: x 0..5 left to right, y 0..5 top to bottom, its own start
rows at y = 4 and 5. Our squares are row * 6 + column from seat 0's side, so seat 0 sees x = column,
y = 5 - row, and seat 1 (sitting opposite) sees x = 5 - column, y = row. Ghost k of a seat is letter
"ABCDEFGH"[k] in its owner's frame. Directions: the protocol's N is towards the opponent (y - 1), which
is our n for seat 0 and our s for seat 1 (E and W swap the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ghostgames.games.geister.board import SIZE

LETTERS = "ABCDEFGH"
CAPTURED_X = 9  # "99r" / "99b": a captured ghost
ESCAPED_X = 8  # "88b": a ghost that left the board
BOARD_LENGTH = 16 * 3

# Protocol direction letter -> our absolute direction, per seat.
_DIRECTIONS: tuple[dict[str, str], dict[str, str]] = (
    {"N": "n", "E": "e", "S": "s", "W": "w"},
    {"N": "s", "E": "w", "S": "n", "W": "e"},
)
_DIRECTION_WORDS = {"N": "N", "NORTH": "N", "E": "E", "EAST": "E", "S": "S", "SOUTH": "S", "W": "W", "WEST": "W"}


def to_xy(square: int, seat: int) -> tuple[int, int]:
    """Our square as (x, y) in `seat`'s frame."""
    row, col = divmod(square, SIZE)
    return (col, SIZE - 1 - row) if seat == 0 else (SIZE - 1 - col, row)


def from_xy(x: int, y: int, seat: int) -> int:
    """(x, y) in `seat`'s frame as our square (the inverse of `to_xy`)."""
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        raise ValueError(f"({x},{y}) is not on the board")
    row, col = (SIZE - 1 - y, x) if seat == 0 else (y, SIZE - 1 - x)
    return row * SIZE + col


def protocol_direction(word: str) -> str | None:
    """N / E / W / S or NORTH / EAST / WEST / SOUTH in any case as one letter; None if it is none of them."""
    return _DIRECTION_WORDS.get(word.upper()) if word.isascii() else None


def our_direction(letter: str, seat: int) -> str:
    """The protocol direction letter (N/E/S/W, in `seat`'s frame) as our absolute direction."""
    return _DIRECTIONS[seat][letter]


def protocol_letter(direction: str, seat: int) -> str:
    """Our absolute direction as the protocol letter in `seat`'s frame."""
    for letter, ours in _DIRECTIONS[seat].items():
        if ours == direction:
            return letter
    raise ValueError(f"no direction {direction!r}")


@dataclass(frozen=True, slots=True)
class Ghost:
    """One group of the board string. `square` is ours (None when captured or escaped)."""

    square: int | None
    captured: bool
    escaped: bool
    good: bool | None  # None: the colour is not shown


def board_text(pos: Sequence[int], good: Sequence[bool | None], viewer: int, reveal: bool) -> str:
    """The 48-character board for `viewer`: its ghosts A..H, then the opponent's a..h.

    `pos[g]` is a square, or negative when captured (-1) / escaped (-2); `good[g]` the colour. Opponent
    ghosts still on the board show `u` unless `reveal` (the end of the game: their colour in lower case).
    """
    groups: list[str] = []
    for owner in (viewer, 1 - viewer):
        for k in range(8):
            ghost = owner * 8 + k
            square = pos[ghost]
            colour = "b" if good[ghost] else "r"
            if square == -2:
                groups.append(f"{ESCAPED_X}{ESCAPED_X}{colour}")
            elif square < 0:
                groups.append(f"{CAPTURED_X}{CAPTURED_X}{colour}")
            else:
                x, y = to_xy(square, viewer)
                shown = colour.upper() if owner == viewer else (colour if reveal else "u")
                groups.append(f"{x}{y}{shown}")
    return "".join(groups)


def parse_board(text: str, viewer: int = 0) -> list[Ghost]:
    """The 16 ghosts of a board string seen by `viewer` (own A..H first), squares in our numbering."""
    if len(text) != BOARD_LENGTH:
        raise ValueError(f"a board is {BOARD_LENGTH} characters, not {len(text)}: {text!r}")
    ghosts: list[Ghost] = []
    for i in range(16):
        group = text[3 * i : 3 * i + 3]
        if not (group[0].isdigit() and group[1].isdigit()):
            raise ValueError(f"bad board group {group!r}")
        x, y, mark = int(group[0]), int(group[1]), group[2]
        if mark.lower() not in "rbu":
            raise ValueError(f"bad colour in board group {group!r}")
        good = None if mark.lower() == "u" else mark.lower() == "b"
        if x == CAPTURED_X and y == CAPTURED_X:
            ghosts.append(Ghost(None, True, False, good))
        elif x == ESCAPED_X and y == ESCAPED_X:
            ghosts.append(Ghost(None, False, True, good))
        else:
            ghosts.append(Ghost(from_xy(x, y, viewer), False, False, good))
    return ghosts
