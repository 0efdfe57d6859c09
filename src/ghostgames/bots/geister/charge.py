"""Geister's classic competition baseline, the charge: one ghost runs for the nearest exit by the
shortest path and takes whatever stands in its way.

The runner is the ghost with the shortest way out, a good one if any good ghost has a way at all (the
bot knows its own colours). Own ghosts block a path; enemy ghosts do not, since the runner takes them.
Nothing is remembered between moves: the runner is chosen afresh each time, which keeps the bot a pure
function of what its seat sees.
"""

from __future__ import annotations

import random
from collections import deque

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.picture import GOOD, Picture, read
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS, NEIGHBOURS, OFF_BOARD, SIZE
from ghostgames.rules.contract import Action

UNREACHABLE = SIZE * SIZE  # longer than any path on the board


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    moves = [a for a in legal if isinstance(a, Move)]
    if len(moves) != len(legal):
        return rng.choice(legal)  # setup: any placement
    picture = read(knowledge.view())
    leaving = [m for m in moves if m.target == OFF_BOARD]
    if leaving:
        return leaving[0]
    runs = charges(picture, moves)
    if not runs:
        return rng.choice(moves)  # every ghost is walled in by its own side
    return rng.choice(runs)


def charges(p: Picture, moves: list[Move]) -> list[Move]:
    """The first steps of the runner along its shortest paths (empty if no ghost can get closer)."""
    to_exit = steps_to_exit(p)
    best: tuple[bool, int] | None = None
    chosen: list[Move] = []
    for ghost in p.ghosts(p.me):
        origin = p.square[ghost]
        own = [m for m in moves if m.origin == origin and m.target >= 0]
        if not own or origin in EXITS[p.me]:
            continue  # stuck, or on an exit it cannot leave by (a bad ghost)
        nearest = min(to_exit[m.target] for m in own)
        if nearest >= UNREACHABLE:
            continue  # walled in by its own side
        key = (p.colour[ghost] != GOOD, nearest)
        if best is None or key < best:
            best, chosen = key, []
        if key == best:
            chosen.extend(m for m in own if to_exit[m.target] == nearest)
    return chosen


def steps_to_exit(p: Picture) -> list[int]:
    """For every square, the steps from it to the nearest own exit, walking around own ghosts (whose
    squares count as UNREACHABLE) and over enemy ones."""
    distance = [UNREACHABLE] * (SIZE * SIZE)
    queue: deque[int] = deque()
    for square in EXITS[p.me]:
        if not _own(p, square):
            distance[square] = 0
            queue.append(square)
    while queue:
        square = queue.popleft()
        for _, near in NEIGHBOURS[square]:
            if distance[near] == UNREACHABLE and not _own(p, near):
                distance[near] = distance[square] + 1
                queue.append(near)
    return distance


def _own(p: Picture, square: int) -> bool:
    ghost = p.board[square]
    return ghost >= 0 and ghost >> 3 == p.me
