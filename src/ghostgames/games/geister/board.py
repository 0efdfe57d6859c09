"""Geister's board geometry: square names, directions and the tables that make move generation fast.

Squares are numbered 0..35 as row * 6 + column, seen from seat 0's side: a1 = 0 (seat 0's left
corner), f6 = 35. Seat 0 sets up on b1..e2 and leaves by a6 / f6; seat 1 sets up on b5..e6 and leaves by
a1 / f1. Directions are absolute, from seat 0's side: n = towards row 6.
"""

from __future__ import annotations

SIZE = 6
SQUARES = SIZE * SIZE
GHOSTS_A_SEAT = 8
# Ghost ids: seat 0 owns 0..7 and seat 1 owns 8..15, so an id's owner is `ghost >> OWNER_SHIFT` and its
# number within the seat `ghost & GHOST_IN_SEAT` (an empty square's -1 >> 3 is -1, nobody's).
OWNER_SHIFT = 3
GHOST_IN_SEAT = GHOSTS_A_SEAT - 1
GHOSTS = 2 * GHOSTS_A_SEAT
FILES = "abcdef"
DIRECTIONS = ("n", "e", "s", "w")
DIRECTION_WORDS = {
    "n": "n", "north": "n", "up": "n",
    "e": "e", "east": "e", "right": "e",
    "s": "s", "south": "s", "down": "s",
    "w": "w", "west": "w", "left": "w",
}  # fmt: skip
_DELTA = {"n": (1, 0), "e": (0, 1), "s": (-1, 0), "w": (0, -1)}

OFF_BOARD = -1


def square_name(square: int) -> str:
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


def parse_square(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456":
        raise ValueError(f"{text!r} is not a square; squares are a1 to f6")
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])


def step(square: int, direction: str) -> int:
    """The square one step away, or OFF_BOARD."""
    drow, dcol = _DELTA[direction]
    row, col = divmod(square, SIZE)
    row, col = row + drow, col + dcol
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return row * SIZE + col
    return OFF_BOARD


# Start squares in ghost order: ghost k of a seat starts on START[seat][k]. Ghosts 0-3 are the front
# row from the owner's left to right, 4-7 the back row (the AI-competition letters A-H follow this).
START: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(parse_square(s) for s in ("b2", "c2", "d2", "e2", "b1", "c1", "d1", "e1")),
    tuple(parse_square(s) for s in ("e5", "d5", "c5", "b5", "e6", "d6", "c6", "b6")),
)
# The exits each seat may leave by (the far corners).
EXITS: tuple[frozenset[int], frozenset[int]] = (
    frozenset({parse_square("a6"), parse_square("f6")}),
    frozenset({parse_square("a1"), parse_square("f1")}),
)
# The direction that leaves the board from a corner (used by the alias "out").
OUT_DIRECTION = {parse_square("a6"): "n", parse_square("f6"): "n", parse_square("a1"): "s", parse_square("f1"): "s"}

# (direction, destination) for every on-board step from every square.
NEIGHBOURS: tuple[tuple[tuple[str, int], ...], ...] = tuple(
    tuple((d, step(sq, d)) for d in DIRECTIONS if step(sq, d) != OFF_BOARD) for sq in range(SIZE * SIZE)
)
# Directions that leave the board from each exit square, for its owner.
ESCAPE_DIRECTIONS: tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]] = (
    {sq: tuple(d for d in DIRECTIONS if step(sq, d) == OFF_BOARD and d in "new") for sq in EXITS[0]},
    {sq: tuple(d for d in DIRECTIONS if step(sq, d) == OFF_BOARD and d in "sew") for sq in EXITS[1]},
)
