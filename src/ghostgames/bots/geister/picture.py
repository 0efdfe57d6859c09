"""A seat's picture of a Geister position, read from its view only (never from a state).

The board geometry comes from the rules module (public knowledge); positions, colours and the move
history come from `view()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ghostgames.games.geister.actions import Move, parse_action
from ghostgames.games.geister.board import EXITS, NEIGHBOURS, OFF_BOARD, SIZE, START, parse_square
from ghostgames.games.geister.deductions import Result, exit_deductions
from ghostgames.rules.contract import IllegalAction

UNKNOWN, GOOD, BAD = 0, 1, 2


def distance(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def exit_distance(square: int, owner: int) -> int:
    """Steps from `square` to the nearer exit of `owner`."""
    return min(distance(square, e) for e in EXITS[owner])


@dataclass
class GhostHistory:
    """What a ghost did in public: steps towards its exits, steps away, captures it made."""

    moves: int = 0
    forward: int = 0
    backward: int = 0
    captures: int = 0
    exposed: int = 0  # moves that ended next to an enemy ghost (a good ghost seldom offers itself)


@dataclass
class Picture:
    me: int
    escape: bool
    board: list[int]  # ghost id or -1
    square: list[int]  # per ghost: square, or -1 when off the board
    colour: list[int]  # UNKNOWN / GOOD / BAD as far as this seat knows
    captured: list[dict[str, int]]  # captured[s]: ghosts of seat s taken by the other side
    history: list[GhostHistory] = field(default_factory=list)

    @property
    def enemy(self) -> int:
        return 1 - self.me

    def ghosts(self, owner: int) -> list[int]:
        return [g for g in range(owner * 8, owner * 8 + 8) if self.square[g] >= 0]

    def attacked_by(self, square: int, owner: int, ignore: int = -1) -> bool:
        """Whether a ghost of `owner` (other than `ignore`) stands next to `square`."""
        for _, near in NEIGHBOURS[square]:
            ghost = self.board[near]
            if ghost >= 0 and ghost != ignore and ghost >> 3 == owner:
                return True
        return False

    def may_capture(self, square: int) -> bool:
        """Whether taking the enemy ghost on `square` cannot be taking the fourth bad ghost (which loses)."""
        return self.colour[self.board[square]] == GOOD or self.captured[self.enemy]["bad"] < 3

    def hidden_enemies(self) -> list[int]:
        return [g for g in self.ghosts(self.enemy) if self.colour[g] == UNKNOWN]


def read(view: dict[str, Any]) -> Picture:
    me = int(view["seat"])
    board = [-1] * (SIZE * SIZE)
    square = [-1] * 16
    colour = [UNKNOWN] * 16
    for ghost in view["ghosts"]:
        g = int(ghost["id"])
        if ghost["square"] is not None:
            square[g] = parse_square(ghost["square"])
            board[square[g]] = g
        if ghost["colour"] is not None:
            colour[g] = GOOD if ghost["colour"] == "good" else BAD
    picture = Picture(me, view["options"]["exit"] == "escape", board, square, colour, list(view["captured"]))
    picture.history = replay_history(view["moves"])
    return picture


def view_deductions(view: dict[str, Any]) -> dict[int, bool]:
    """Ghost id -> good for the colours anybody can work out from this view's public facts."""
    squares = [parse_square(g["square"]) if g["square"] is not None else -1 for g in view["ghosts"]]
    outcome = view["outcome"]
    result: Result = "going"
    if outcome is not None:
        result = "draw" if outcome["results"][0]["result"] == "draw" else "win"
    return exit_deductions(view["moves"], squares, view["options"]["exit"] == "reach", result)


def replay_history(moves: list[str]) -> list[GhostHistory]:
    """Follow the public move list from the start squares to see what every ghost did."""
    history = [GhostHistory() for _ in range(16)]
    board = [-1] * (SIZE * SIZE)
    for g in range(16):
        board[START[g >> 3][g & 7]] = g
    for text in moves:
        words = text.split()
        try:
            move = parse_action(" ".join(words[:2]))
        except IllegalAction:
            continue  # a history we cannot follow only makes the belief less sharp
        if not isinstance(move, Move):
            continue
        ghost = board[move.origin]
        if ghost < 0:
            continue
        owner = ghost >> 3
        record = history[ghost]
        record.moves += 1
        board[move.origin] = -1
        if move.target == OFF_BOARD:
            continue
        before = exit_distance(move.origin, owner)
        after = exit_distance(move.target, owner)
        if after < before:
            record.forward += 1
        elif after > before:
            record.backward += 1
        if board[move.target] >= 0:
            record.captures += 1
        board[move.target] = ghost
        if any(board[near] >= 0 and board[near] >> 3 != owner for _, near in NEIGHBOURS[move.target]):
            record.exposed += 1
    return history
