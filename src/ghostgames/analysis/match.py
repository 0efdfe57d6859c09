"""Ghooost!'s match points for the analysis: in a match (3 or more players, option `match`) a round's
result is not all that counts, the points do (+1 for going out, +1 more for the first out, +2 more for
the last one out before the loser; scoring.round_points). The search's estimate stays the round's [0, 1]
share, which the labels read; beside it each decision gets the seat's expected match points at the end
of the round being played, after a move.

How: playouts as the search's (its policy's playout moves, cut after `rollout_limit` actions, 20), each in
a world drawn from the reader's knowledge; a playout that ends the round counts the points it gave, one
cut short the points expected from the places its cards left promise, each other player finishing first
with the chance the search's own evaluation gives (a logistic of the difference of cards left,
bots/ghooost/search.py), as if independently. Played to the round's end instead, playouts of random
plays take hundreds of actions (a third of them reach a 1000-turn draw): too slow and no truer.

Only the seat's own knowledge (or the public one) and an rng seeded from it go in, as in the search, so
the figure keeps the analysis's secrecy."""

from __future__ import annotations

import math
import random

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.ghooost.scoring import round_points
from ghostgames.games.ghooost.state import GhooostState
from ghostgames.rules.contract import Action

TRIES = 4  # a spectator's world may lack the move (it is a hand's card): up to this many worlds per playout
SCALE = 3.0  # cards: the logistic's scale, as GhooostPolicy.evaluate's


def applies(knowledge: SeatKnowledge) -> bool:
    """A Ghooost! match, where match points exist."""
    return knowledge.game.name == "ghooost" and bool(knowledge.view().get("match"))


def playouts(budget: int) -> int:
    """Playouts per move at a search budget: a twentieth of it, at least 8 (a mean of 0-4 points from 100
    playouts is good to about a third of a point)."""
    return max(8, budget // 20)


def expected_points(knowledge: SeatKnowledge, policy: SearchPolicy, action: Action, count: int,
                    rng: random.Random) -> float | None:
    """The seat's expected match points at the end of this round after `action`, a mean over `count`
    playouts (None when no world drawn holds the move, which only a spectator's can fail to)."""
    seat = knowledge.seat
    total = 0.0
    done = 0
    for _ in range(count * TRIES):
        if done == count:
            break
        world = knowledge.sample_world(rng)
        if not isinstance(world, GhooostState) or action not in world.legal_actions(seat):
            continue
        total += _round_end_points(world, seat, action, policy, rng)
        done += 1
    return total / done if done else None


def _round_end_points(world: GhooostState, seat: int, action: Action, policy: SearchPolicy,
                      rng: random.Random) -> float:
    start = world.round
    world.apply_legal(seat, action)  # type: ignore[arg-type]
    for _ in range(policy.rollout_limit or 0):
        if world.outcome() is not None or world.round != start:
            break
        actor = world.turn
        world.apply_legal(actor, policy.rollout_action(world, actor, rng))  # type: ignore[arg-type]
    if world.outcome() is not None or world.round != start:
        return float(world.points[seat])  # the round is over: its points are counted
    return world.points[seat] + expected_gain(world, seat)


def expected_gain(world: GhooostState, seat: int) -> float:
    """The points `seat` may expect from the round under way: its place (1 = first out) from the players
    already out and, for each other one still in, the chance of finishing first by the cards left."""
    players = world.players
    out = world.out_order
    if seat in out:
        places = {out.index(seat) + 1: 1.0}
    else:
        left = [world.sizes[s] + len(world.mansions[s]) for s in range(players)]
        ahead = [0.0] * players  # ahead[j]: the chance that j of the others still in finish first
        ahead[0] = 1.0
        for other in range(players):
            if other != seat and other not in out:
                first = 1.0 / (1.0 + math.exp((left[other] - left[seat]) / SCALE))
                ahead = [ahead[j] * (1 - first) + (ahead[j - 1] * first if j else 0.0) for j in range(players)]
        places = {len(out) + 1 + j: chance for j, chance in enumerate(ahead) if chance}
    return sum(chance * _points_at(players, seat, place) for place, chance in places.items())


def _points_at(players: int, seat: int, place: int) -> int:
    """`seat`'s round points when it finishes at `place` (the last place loses)."""
    others = [s for s in range(players) if s != seat]
    order = [*others[: place - 1], seat, *others[place - 1 :]]
    return round_points(players, order[:-1], order[-1])[seat]
