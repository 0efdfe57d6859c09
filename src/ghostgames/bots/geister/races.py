"""Exit races (issue 39): whether a good ghost will leave by an exit before the other side can take it, solved
exactly for one runner against one keeper and read from a table; `expert` walks its own races won on without
search (`expert.run_on`).

Under `escape` the race is a small game of its own:

- the runner (a good ghost) leaves when it is to move standing on one of its owner's exit corners; it may
  step, take the keeper by stepping onto it, or spend the move elsewhere (its side has other ghosts);
- the keeper (any ghost of the other side, of either colour) takes the runner when it is to move standing
  next to it; it may step, or spend the move elsewhere.

`RUNNER_WINS[j, r, k, m]` says whether the runner on square r forces its way out by corner j (`CORNERS[j]`)
against a keeper on square k, with the runner to move (m = 0) or the keeper (m = 1), on a board with
nothing else on it. It is solved once at import by backward induction (the positions the runner can force,
grown from "on the corner, to move" until nothing changes); nothing in it is fitted.

A runner's race is won (`race_moves`) when, at one of its two corners, it beats every ghost of the other
side alone, and no two of them are in time for that corner (a keeper is in time when it can step onto the
corner by the time the runner stands there: the runner can take at most one of two keepers on its way).
The rest of the board is left out: the runner's own ghosts do not block it, and a keeper the runner takes
is not counted as a bad ghost taken. `race_winner` says which side has a race won (both: the one that leaves
first).
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import heuristic
from ghostgames.bots.geister.heuristic import FAR
from ghostgames.games.geister import fast
from ghostgames.games.geister.board import EXITS, NEIGHBOURS, SIZE, SQUARES
from ghostgames.jit import compiled, forget_stale_kernels, own_kernels

# The four exit corners, seat s's at 2s and 2s + 1 (seat 0 leaves by a6 / f6, seat 1 by a1 / f1).
CORNERS = np.array([*sorted(EXITS[0]), *sorted(EXITS[1])], dtype=np.int32)
RUNNER_TO_MOVE, KEEPER_TO_MOVE = 0, 1
# DISTANCE[a, b]: steps between two squares (the rows apart plus the files apart).
DISTANCE = np.array([[abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SQUARES)]
                     for a in range(SQUARES)], dtype=np.int32)


def solve(corner: int) -> NDArray[np.int8]:
    """[r, k, m] = 1 when a runner on r forces its way out by `corner` against a keeper on k alone (m: who
    moves, `RUNNER_TO_MOVE` or `KEEPER_TO_MOVE`); r == k is no position (0)."""
    near = DISTANCE == 1
    runner = near.copy()  # runner to move: it takes a keeper next to it, and then nothing stops it
    runner[corner, :] = True  # ...or stands on its corner and leaves
    keeper = np.zeros((SQUARES, SQUARES), dtype=bool)
    while True:
        # keeper to move: lost when it cannot take the runner and every move (stay, or step) loses
        new_keeper = ~near & runner
        for k in range(SQUARES):
            for _, n in NEIGHBOURS[k]:
                new_keeper[:, k] &= runner[:, n]
        # runner to move: won when some move (stay, or step) reaches a position the keeper loses
        new_runner = runner | new_keeper
        for r in range(SQUARES):
            for _, n in NEIGHBOURS[r]:
                new_runner[r, :] |= new_keeper[n, :]
        np.fill_diagonal(new_runner, False)
        np.fill_diagonal(new_keeper, False)
        if (new_runner == runner).all() and (new_keeper == keeper).all():
            break
        runner, keeper = new_runner, new_keeper
    return np.stack([runner, keeper], axis=-1).astype(np.int8)


RUNNER_WINS = np.stack([solve(int(c)) for c in CORNERS])


@compiled
def race_moves(row: fast.Board, seat: int) -> int:
    """The moves `seat`'s quickest good ghost with a race won needs to leave the board (`FAR`: none), in a
    world whose colours are all dealt (under `escape`)."""
    best = FAR
    m = RUNNER_TO_MOVE if row[fast.TURN] == seat else KEEPER_TO_MOVE
    other = 1 - seat
    for g in range(seat * 8, seat * 8 + 8):
        r = row[fast.POS + g]
        if r < 0 or row[fast.GOOD + g] != 1:
            continue
        for j in range(2 * seat, 2 * seat + 2):
            corner = CORNERS[j]
            steps = DISTANCE[r, corner]
            if steps + 1 >= best:
                continue
            held = False
            in_time = 0
            for h in range(other * 8, other * 8 + 8):
                k = row[fast.POS + h]
                if k < 0:
                    continue
                if RUNNER_WINS[j, r, k, m] == 0:
                    held = True
                    break
                if DISTANCE[k, corner] <= steps + m:  # the keeper moving first has one move more
                    in_time += 1
            if not held and in_time < 2:
                best = steps + 1
    return best


BOTH = 3  # `race_winner`'s seats: a bit per seat whose races are read (1 << seat: that seat's only)


@compiled
def race_winner(row: fast.Board, seats: int) -> int:
    """The seat whose race is won and ends first (the seat to move first on equal moves), or -1 when neither
    side has a race won or the exit rule is `reach`. Only the races of the seats in the bits of `seats` are
    read (`BOTH`; 1 << s: seat s's)."""
    if row[fast.ESCAPE_RULE] != 1:
        return -1
    mover = row[fast.TURN]
    mine = race_moves(row, mover) if (seats >> mover) & 1 else FAR
    theirs = race_moves(row, 1 - mover) if (seats >> (1 - mover)) & 1 else FAR
    if mine == FAR and theirs == FAR:
        return -1
    return int(mover) if mine <= theirs else int(1 - mover)


forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast, heuristic))
