"""A sparring partner that plays for the exits from the first move, the way learned programs win.

The 2021 competition winner beat our search only by escapes: a good ghost that heads for a corner early
and fast. `charge` sends one ghost at a time along the shortest path and walks into guards; the rush
keeps several runners going and covers them:

- setup: the two front wing squares (b2 and e2 for the first seat) always hold good ghosts, the other
  two good ghosts go on the wings too half the time and anywhere the rest, so a runner starts five
  steps from a corner without the setup being always the same;
- every move is scored, the best taken (ties at random): a good ghost's step nearer its corner counts
  most, more for the ghost nearest its way out; a step onto a square an enemy ghost touches costs a
  runner, unless it stands on the corner and leaves next; taking an enemy ghost that touches one of our
  good ghosts (the mover may be that ghost) pays, other captures a little, a possible fourth bad one is
  never taken; a bad ghost that closes in on the enemies around our best runner is an escort.

Like every sparring style it reads the seat's view only (`picture.read`).
"""

from __future__ import annotations

import random

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.charge import UNREACHABLE, steps_to_exit
from ghostgames.bots.geister.picture import GOOD, Picture, distance, read
from ghostgames.bots.geister.rules import leave_now
from ghostgames.games.geister.actions import Move, Setup
from ghostgames.games.geister.board import NEIGHBOURS, START
from ghostgames.rules.contract import Action

# START[seat] lists the front row from the seat's left, then the back row: 0 and 3 are the front
# wings, 4 and 7 the back wings.
FRONT_WINGS, BACK_WINGS = (0, 3), (4, 7)

RUNNER_STEP, OTHER_STEP = 10.0, 6.0  # a step nearer the corner, by the nearest good ghost / another
EXPOSED = 8.0  # a good ghost stepping where an enemy ghost can take it
EXPOSED_ON_CORNER = 3.0  # ... on its corner, from where it leaves next move unless taken now
COVER = 6.0  # taking an enemy ghost that touches a good ghost of ours
CAPTURE = 2.0  # any other capture that cannot be the fourth bad ghost
ESCORT = 2.0  # a bad ghost a step nearer the enemies around our best runner
FORBIDDEN = -100.0  # a capture that might be the fourth bad ghost (that loses)


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    legal = knowledge.legal_actions()
    moves = [a for a in legal if isinstance(a, Move)]
    if len(moves) != len(legal):
        return rush_setup(knowledge.seat, rng)
    p = read(knowledge.view())
    winning = leave_now(p, moves, rng)
    if winning is not None:
        return winning
    to_exit = steps_to_exit(p)
    runner = _runner_square(p, to_exit)
    scored = [(score(p, m, to_exit, runner), m) for m in moves]
    best = max(s for s, _ in scored)
    return rng.choice([m for s, m in scored if s == best])


def rush_setup(seat: int, rng: random.Random) -> Setup:
    """Good ghosts on both front wings, and on both back wings half the time (else two other squares)."""
    squares = START[seat]
    good = [squares[i] for i in FRONT_WINGS]
    if rng.random() < 0.5:
        good += [squares[i] for i in BACK_WINGS]
    else:
        good += rng.sample([squares[i] for i in range(8) if i not in FRONT_WINGS], 2)
    return Setup(frozenset(good))


def score(p: Picture, move: Move, to_exit: list[int], runner: int | None) -> float:
    """What the rush thinks of `move` (higher is better), `runner` the square of our good ghost nearest its
    way out; see the module's docstring."""
    ghost = p.board[move.origin]
    target_ghost = p.board[move.target]
    value = 0.0
    if target_ghost >= 0:  # a capture
        if not p.may_capture(move.target):
            return FORBIDDEN
        value += COVER if _threatens(p, move.target) else CAPTURE
    if p.colour[ghost] == GOOD:
        before, after = _way_out(move.origin, to_exit), to_exit[move.target]
        if after < UNREACHABLE and before < UNREACHABLE:
            nearest = UNREACHABLE if runner is None else _way_out(runner, to_exit)
            weight = RUNNER_STEP if before == nearest else OTHER_STEP
            value += weight * (before - after)
        if p.attacked_by(move.target, p.enemy, ignore=target_ghost):
            value -= EXPOSED_ON_CORNER if after == 0 else EXPOSED
    elif runner is not None:
        value += ESCORT * (_gap(p, move.origin, runner) - _gap(p, move.target, runner))
    return value


def _way_out(square: int, to_exit: list[int]) -> int:
    """Steps from a square holding one of our ghosts to a corner (`to_exit` counts our squares as
    walls): one more than from its best neighbour."""
    if to_exit[square] < UNREACHABLE:
        return to_exit[square]
    return min(UNREACHABLE, 1 + min(to_exit[near] for _, near in NEIGHBOURS[square]))


def _runner_square(p: Picture, to_exit: list[int]) -> int | None:
    goods = [p.square[g] for g in p.ghosts(p.me) if p.colour[g] == GOOD]
    return min(goods, key=lambda s: _way_out(s, to_exit)) if goods else None


def _threatens(p: Picture, square: int) -> bool:
    """Whether the enemy ghost on `square` touches one of our good ghosts, so could take it next."""
    return any(p.colour[g] == GOOD and distance(p.square[g], square) == 1 for g in p.ghosts(p.me))


def _gap(p: Picture, square: int, runner: int) -> int:
    """Steps from `square` to the nearest enemy ghost within two steps of the runner (0 when none)."""
    near = [p.square[g] for g in p.ghosts(p.enemy) if distance(p.square[g], runner) <= 2]
    return min((distance(square, s) for s in near), default=0)
