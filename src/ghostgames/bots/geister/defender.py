"""Geister played from behind its own lines: the defender guards the corners the enemy leaves by.

In order: leave when it can (that wins); take an enemy ghost that comes within two steps of one of
those corners (unless it could be the fourth bad ghost); post a guard next to each corner that has none;
otherwise bring a good ghost closer to its own exits over a square no enemy can reach, and failing that
make a move that neither takes a guard off its post nor puts a good ghost next to an enemy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.picture import GOOD, Picture, distance, exit_distance, read
from ghostgames.bots.geister.rules import leave_now
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS
from ghostgames.rules.contract import Action

DANGER = 2  # an enemy ghost this many steps from our corner can leave within three of its moves
POST = 1  # a guard stands on the corner or next to it, so it can take whatever steps onto the corner


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    moves = [a for a in legal if isinstance(a, Move)]
    if len(moves) != len(legal):
        return rng.choice(legal)  # setup: any placement
    p = read(knowledge.view())
    for rule in (leave_now, _take_intruder, _post_guard, _advance_safely, _keep_formation):
        picked = rule(p, moves, rng)
        if picked is not None:
            return picked
    return rng.choice(moves)


def _corners(p: Picture) -> frozenset[int]:
    """The corners on our side, by which the enemy leaves."""
    return EXITS[p.enemy]


def _corner_distance(p: Picture, square: int) -> int:
    return min(distance(square, c) for c in _corners(p))


def _is_guard(p: Picture, square: int) -> bool:
    return _corner_distance(p, square) <= POST


def _take_intruder(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Capture the enemy ghost nearest to one of our corners, if one is within DANGER steps."""
    options: list[tuple[int, Move]] = []
    for m in moves:
        if m.target < 0:
            continue
        victim = p.board[m.target]
        if victim < 0 or victim >> 3 != p.enemy or not p.may_capture(m.target):
            continue
        near = _corner_distance(p, m.target)
        if near <= DANGER:
            options.append((near, m))
    if not options:
        return None
    nearest = min(near for near, _ in options)
    return rng.choice([m for near, m in options if near == nearest])


def _post_guard(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Walk the nearest free ghost towards a corner that has no guard, onto an empty square."""
    mine = [p.square[g] for g in p.ghosts(p.me)]
    for corner in sorted(_corners(p)):
        if any(distance(square, corner) <= POST for square in mine):
            continue
        closer = [m for m in moves if m.target >= 0 and p.board[m.target] < 0 and not _is_guard(p, m.origin)
                  and distance(m.target, corner) < distance(m.origin, corner)
                  and not (p.colour[p.board[m.origin]] == GOOD and p.attacked_by(m.target, p.enemy))]
        if closer:
            nearest = min(distance(m.origin, corner) for m in closer)
            return rng.choice([m for m in closer if distance(m.origin, corner) == nearest])
    return None


def _advance_safely(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """A good ghost that is not a guard one step nearer its exits, onto an empty square no enemy reaches."""
    options = [m for m in moves if m.target >= 0 and p.board[m.target] < 0 and not _is_guard(p, m.origin)
               and p.colour[p.board[m.origin]] == GOOD and not p.attacked_by(m.target, p.enemy)
               and exit_distance(m.target, p.me) < exit_distance(m.origin, p.me)]
    if not options:
        return None
    nearest = min(exit_distance(m.target, p.me) for m in options)
    return rng.choice([m for m in options if exit_distance(m.target, p.me) == nearest])


def _keep_formation(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Any move that keeps every guard at its post and no good ghost next to an enemy."""
    options = [m for m in moves if m.target >= 0 and not _is_guard(p, m.origin)
               and not (p.colour[p.board[m.origin]] == GOOD and p.attacked_by(m.target, p.enemy))
               and (p.board[m.target] < 0 or p.may_capture(m.target))]
    return rng.choice(options) if options else None
