"""Hidden colours that every seat can deduce from public facts alone (under the `reach` exit rule).

A good ghost that lands on one of its owner's exits wins at once, unless the same move took the enemy's
fourth good or fourth bad ghost (then the capture decides). So a ghost that landed on its own exit and
the game went on, or ended in a draw by the move limit, is bad, and stays known as bad after it walks
away; a ghost whose landing ended the game with a win, no capture deciding it, is good. Under `escape`
nothing follows: a good ghost may wait on an exit as long as it likes.

Pure functions of the move list and the board, so that a state (for `sample_world`) and a bot (from its
view) draw the same conclusions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ghostgames.games.geister.actions import MOVES, Move
from ghostgames.games.geister.board import EXITS, OFF_BOARD, START

Result = Literal["going", "win", "draw"]
# A move's text starts with its four-character form ("b2 n"); captures add " xgood" / " xbad".
_MOVE_BY_TEXT: dict[str, Move] = {m.text: m for by_direction in MOVES for m in by_direction.values()}


def exit_deductions(moves: Sequence[str], squares: Sequence[int], reach: bool, result: Result) -> dict[int, bool]:
    """Ghost id -> good, for every ghost whose colour follows from where it stood (see the module docstring).

    `squares` is where each of the 16 ghosts stands now (negative: off the board). The move list is only
    trusted when replaying it from the start squares leads to exactly that board (a position loaded
    without its history still yields what the board itself shows).
    """
    if not reach:
        return {}
    found: dict[int, bool] = {}
    if result == "going":
        for ghost, square in enumerate(squares):
            if square >= 0 and square in EXITS[ghost >> 3]:
                found[ghost] = False
    from_history = _replay(moves, result)
    if from_history is not None:
        replayed, deduced = from_history
        if replayed == [max(s, -1) for s in squares]:
            found.update(deduced)
    return found


def _replay(moves: Sequence[str], result: Result) -> tuple[list[int], dict[int, bool]] | None:
    """(where each ghost ends, -1 off the board; the colours learnt on the way), or None if unreadable."""
    pos = [START[g >> 3][g & 7] for g in range(16)]
    board = [-1] * 36
    for ghost, square in enumerate(pos):
        board[square] = ghost
    taken = [[0, 0], [0, 0]]  # taken[owner] = [good, bad] ghosts of `owner` captured so far
    deduced: dict[int, bool] = {}
    last = len(moves) - 1
    for ply, text in enumerate(moves):
        move = _MOVE_BY_TEXT.get(text[:4])
        if move is None:
            return None
        ghost = board[move.origin]
        if ghost < 0:
            return None
        owner = ghost >> 3
        board[move.origin] = -1
        if move.target == OFF_BOARD:
            pos[ghost] = -1
            continue
        decided = False
        victim = board[move.target]
        if victim >= 0:
            if victim >> 3 == owner:
                return None
            count = taken[1 - owner]
            kind = 0 if text.endswith("xgood") else 1
            count[kind] += 1
            decided = count[kind] == 4
            pos[victim] = -1
        board[move.target] = ghost
        pos[ghost] = move.target
        if move.target in EXITS[owner] and not decided:
            deduced[ghost] = ply == last and result == "win"
    return pos, deduced
