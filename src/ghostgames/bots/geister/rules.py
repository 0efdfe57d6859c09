"""Geister by rules of thumb: leave when you can, guard your exits, capture when it is safe, push the
good ghosts forward where nobody can take them, and send the bad ones at the enemy."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.picture import BAD, GOOD, Picture, distance, exit_distance, read
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS, OFF_BOARD
from ghostgames.rules.contract import Action


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    moves = [a for a in legal if isinstance(a, Move)]
    if len(moves) != len(legal):
        return rng.choice(legal)  # setup: any placement is as good a bluff as another
    picture = read(knowledge.view())
    for rule in (leave_now, _guard_exits, _safe_capture, _push_good, _send_bad):
        picked = rule(picture, moves, rng)
        if picked is not None:
            return picked
    safe = [m for m in moves if not _exposes_good(picture, m)]
    return rng.choice(safe or moves)


def leave_now(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Win now: leave by an exit, or (reach rule) step a good ghost onto one."""
    for m in moves:
        if m.target == OFF_BOARD:
            return m
        if not p.escape and m.target in EXITS[p.me] and p.colour[p.board[m.origin]] == GOOD:
            return m
    return None


def _guard_exits(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """An enemy ghost on or next to our corners may be about to leave: take it."""
    home = EXITS[p.enemy]
    urgent = []
    for m in moves:
        if m.target < 0:
            continue
        victim = p.board[m.target]
        if victim >= 0 and victim >> 3 == p.enemy and p.may_capture(m.target):
            d = min(distance(m.target, e) for e in home)
            if d <= 1:
                urgent.append((d, m))
    if urgent:
        urgent.sort(key=lambda item: item[0])
        return urgent[0][1]
    return None


def _safe_capture(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Capture when the capturer cannot be taken back, or when losing it costs nothing (a bad ghost)."""
    options = []
    for m in moves:
        if m.target < 0:
            continue
        victim = p.board[m.target]
        if victim < 0 or victim >> 3 != p.enemy or not p.may_capture(m.target):
            continue
        mine = p.board[m.origin]
        if p.colour[mine] == BAD or not p.attacked_by(m.target, p.enemy, ignore=victim):
            options.append(m)
    return rng.choice(options) if options else None


def _exposes_good(p: Picture, m: Move) -> bool:
    return m.target >= 0 and p.colour[p.board[m.origin]] == GOOD and p.attacked_by(m.target, p.enemy)


def _push_good(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """Bring a good ghost closer to an exit along squares no enemy can reach."""
    best: list[Move] = []
    best_distance = 99
    for m in moves:
        if m.target < 0 or p.colour[p.board[m.origin]] != GOOD or p.board[m.target] >= 0:
            continue
        if p.attacked_by(m.target, p.enemy):
            continue
        after = exit_distance(m.target, p.me)
        if after >= exit_distance(m.origin, p.me):
            continue
        if after < best_distance:
            best, best_distance = [m], after
        elif after == best_distance:
            best.append(m)
    return rng.choice(best) if best else None


def _send_bad(p: Picture, moves: Sequence[Move], rng: random.Random) -> Move | None:
    """March a bad ghost towards the nearest enemy: it blocks, threatens, and is happy to be taken."""
    enemies = [p.square[g] for g in p.ghosts(p.enemy)]
    if not enemies:
        return None
    closer = []
    for m in moves:
        if m.target < 0 or p.colour[p.board[m.origin]] != BAD or p.board[m.target] >= 0:
            continue
        before = min(distance(m.origin, e) for e in enemies)
        after = min(distance(m.target, e) for e in enemies)
        if after < before:
            closer.append(m)
    return rng.choice(closer) if closer else None
