"""Geister's two kinds of action and their text forms.

- `setup b1 c1 d2 e2`: the four squares of your start area that get your good ghosts (the other four
  are bad).
- `b2 n`: move the ghost on b2 one square north (n/e/s/w, absolute, from seat 0's side; the words
  north/up etc. work too); `b2-b3` and `b2b3` say the same. From an exit corner under the `escape` rule,
  the direction off the board (or `out`) leaves the board: `a6 n`, `f6 out`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, final

from ghostgames.games.geister.board import (
    DIRECTION_WORDS,
    DIRECTIONS,
    NEIGHBOURS,
    OUT_DIRECTION,
    SIZE,
    parse_square,
    square_name,
    step,
)
from ghostgames.rules.contract import JSON, Action, IllegalAction
from ghostgames.rules.reasons import UNREADABLE

FORMS = (
    "setup followed by the 4 squares of your good ghosts (e.g. 'setup b1 c1 d2 e2'), "
    "or a move as square and direction (e.g. 'b2 n', 'b2-b3'; 'a6 out' leaves by an exit)"
)


@dataclass(frozen=True, slots=True)
class Setup(Action):
    """Which four start squares hold good ghosts."""

    good: frozenset[int]

    def __str__(self) -> str:
        return "setup " + " ".join(square_name(s) for s in sorted(self.good))

    def to_json(self) -> JSON:
        return {"type": "setup", "good": [square_name(s) for s in sorted(self.good)]}


@final
@dataclass(frozen=True, slots=True)
class Move(Action):
    """One step of the ghost on `origin`; `target` is OFF_BOARD for an escape."""

    origin: int
    direction: str
    target: int
    text: str = field(compare=False)
    squares: int = field(init=False, compare=False)  # bits of origin and target: one XOR moves the ghost

    def __post_init__(self) -> None:
        target_bit = 1 << self.target if self.target >= 0 else 0
        object.__setattr__(self, "squares", (1 << self.origin) | target_bit)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> JSON:
        return {"type": "move", "from": square_name(self.origin), "dir": self.direction}


# One shared Move object per (square, direction): move generation allocates nothing.
MOVES: tuple[dict[str, Move], ...] = tuple(
    {d: Move(sq, d, step(sq, d), f"{square_name(sq)} {d}") for d in DIRECTIONS} for sq in range(SIZE * SIZE)
)
STEPS: tuple[tuple[tuple[int, Move], ...], ...] = tuple(
    tuple((dest, MOVES[sq][d]) for d, dest in NEIGHBOURS[sq]) for sq in range(SIZE * SIZE)
)


def parse_action(text: str) -> Setup | Move:
    words = text.strip().lower().replace(",", " ").split()
    try:
        if words and words[0] == "setup":
            squares = frozenset(parse_square(w) for w in words[1:])
            if len(squares) != 4 or len(words) != 5:
                raise ValueError("setup names exactly 4 different squares for your good ghosts")
            return Setup(squares)
        if len(words) == 1 and "-" in words[0]:
            words = words[0].split("-")
        elif len(words) == 1 and len(words[0]) == 4:
            words = [words[0][:2], words[0][2:]]
        if len(words) == 2:
            origin = parse_square(words[0])
            if words[1] == "out":
                if origin not in OUT_DIRECTION:
                    raise ValueError("only a ghost on an exit corner can go out")
                return MOVES[origin][OUT_DIRECTION[origin]]
            if words[1] in DIRECTION_WORDS:
                return MOVES[origin][DIRECTION_WORDS[words[1]]]
            target = parse_square(words[1])
            for direction, dest in NEIGHBOURS[origin]:
                if dest == target:
                    return MOVES[origin][direction]
            raise ValueError(f"{words[1]} is not next to {words[0]}; ghosts move one square, not diagonally")
    except ValueError as err:
        raise IllegalAction(f"{err}. Type {FORMS}", UNREADABLE) from None
    raise IllegalAction(f"cannot read {text!r}. Type {FORMS}", UNREADABLE)


def _one_word(data: Any) -> bool:
    return isinstance(data, str) and len(data.replace(",", " ").split()) == 1


def action_from_json(data: Mapping[str, Any]) -> Setup | Move:
    kind = data.get("type")
    good = data.get("good")
    # each entry one square name (a string: `true` or `1` is no square, "b1 c1" is two entries' worth)
    if kind == "setup" and isinstance(good, list) and all(_one_word(s) for s in good):
        return parse_action("setup " + " ".join(good))
    if kind == "move" and _one_word(data.get("from")) and _one_word(data.get("dir")):
        return parse_action(f"{data['from']} {data['dir']}")
    raise IllegalAction(
        'a Geister action is {"type": "setup", "good": ["b1", ...]} or {"type": "move", "from": "b2", "dir": "n"}',
        UNREADABLE,
    )

