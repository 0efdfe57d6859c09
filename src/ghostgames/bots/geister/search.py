"""Geister knowledge for the search: a belief over the enemy colours, a quick playout policy and an
evaluation for playouts cut short. Together with ISMCTS this is the strongest Geister bot.

- Belief: a ghost that keeps walking towards its exits is more likely good; one that hunts (captures)
  or steps next to our ghosts (offering itself) more likely bad; worlds are dealt with those weights
  instead of uniformly.
- Playouts: leave when you can, take a ghost standing on your own corner, otherwise move at random;
  after `rollout_limit` plies the position is scored.
- Evaluation: good ghosts alive, enemy good ghosts taken, danger of taking a fourth bad ghost, and how
  close the best good ghost is to leaving (`heuristic.seat_worth`, its weights named in `Heuristic`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.heuristic import FAR, HEURISTIC, Heuristic, seat_worth, win_chance
from ghostgames.bots.geister.picture import GOOD, UNKNOWN, Picture, exit_distance, read, view_deductions
from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS, OFF_BOARD, SIZE
from ghostgames.rules.contract import Action, State

EXIT_DISTANCE = tuple(tuple(exit_distance(sq, owner) for sq in range(SIZE * SIZE)) for owner in (0, 1))


def belief_weights(picture: Picture, forward: float = 0.2, exposed: float = 0.6) -> dict[int, float]:
    """Relative odds that each hidden enemy ghost is good, from what it did in public."""
    weights = {}
    for g in picture.hidden_enemies():
        h = picture.history[g]
        w = math.exp(forward * h.forward - 0.25 * h.backward) * (0.7**h.captures) * (exposed**h.exposed)
        if EXIT_DISTANCE[picture.enemy][picture.square[g]] <= 1:
            w *= 2.0
        weights[g] = w
    return weights


def weighted_pick(weights: dict[int, float], rng: random.Random) -> int:
    pick = rng.random() * sum(weights.values())
    last = -1
    for key, weight in weights.items():
        last = key
        pick -= weight
        if pick <= 0:
            break
    return last


class GeisterPolicy(SearchPolicy):
    rollout_limit = 14
    heuristic: Heuristic = HEURISTIC  # the playout's chances and the evaluation's weights (heuristic.py)
    belief_forward = 0.2  # log-odds of "good" gained per step a ghost took towards its exits
    belief_exposed = 0.6  # odds factor of "good" per move that ended next to one of our ghosts

    def __init__(self, knowledge: SeatKnowledge) -> None:
        super().__init__(knowledge)
        view = knowledge.view()
        self.picture = read(view)
        self.weights = belief_weights(self.picture, self.belief_forward, self.belief_exposed)
        enemy = self.picture.enemy
        known_good = sum(1 for g in range(enemy * 8, enemy * 8 + 8) if self.picture.colour[g] == GOOD)
        # Colours the rules give away (a ghost that stood on its own exit under `reach`) are not a belief:
        # sample_world already deals them, so the weighted re-deal leaves them alone.
        deduced = {g: good for g, good in view_deductions(view).items() if g in self.weights}
        for g in deduced:
            del self.weights[g]
        self.goods_hidden = 4 - known_good - sum(deduced.values())

    def determinize(self, rng: random.Random) -> State[Any]:
        world = self.knowledge.sample_world(rng)
        if not self.weights or not getattr(world, "set_up", [True, True])[self.picture.enemy]:
            return world
        pool = dict(self.weights)
        good = world.good  # type: ignore[attr-defined]
        for g in pool:
            good[g] = False
        for _ in range(min(self.goods_hidden, len(pool))):
            chosen = weighted_pick(pool, rng)
            good[chosen] = True
            del pool[chosen]
        return world

    def forced(self, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not isinstance(legal[0], Move):
            return rng.choice(legal)  # setup: a uniformly random placement gives nothing away
        p = self.picture
        for m in legal:
            if isinstance(m, Move) and m.target == OFF_BOARD:
                return m
            if isinstance(m, Move) and not p.escape and m.target in EXITS[p.me] and p.colour[p.board[m.origin]] == GOOD:
                return m
        return None

    def allowed(self, legal: list[Action]) -> list[Action]:
        """With three enemy bad ghosts taken, any hidden ghost may be the fourth (which loses at once):
        do not capture one while another move exists."""
        p = self.picture
        if p.captured[p.enemy]["bad"] < 3:
            return legal
        safe = [m for m in legal if not (isinstance(m, Move) and m.target >= 0 and self._hidden_at(m.target))]
        return safe or legal

    def _hidden_at(self, square: int) -> bool:
        ghost = self.picture.board[square]
        return ghost >= 0 and ghost >> 3 == self.picture.enemy and self.picture.colour[ghost] == UNKNOWN

    def rollout_action(self, world: State[Any], seat: int, rng: random.Random) -> Action:
        legal: list[Action] = world.legal_actions(seat)
        if not isinstance(legal[0], Move):
            return rng.choice(legal)
        board: list[int] = world.board  # type: ignore[attr-defined]
        good: list[bool] = world.good  # type: ignore[attr-defined]
        escape = world.options.exit == "escape"  # type: ignore[attr-defined]
        home = EXITS[1 - seat]
        distance = EXIT_DISTANCE[seat]
        forward: list[Action] = []
        captures: list[Action] = []
        for m in legal:
            assert isinstance(m, Move)
            target = m.target
            if target == OFF_BOARD:
                return m
            origin = m.origin
            if good[board[origin]]:
                if not escape and target in EXITS[seat]:
                    return m
                if distance[target] < distance[origin]:
                    forward.append(m)
            if target >= 0 and board[target] >= 0:
                if target in home:
                    return m
                captures.append(m)
        if captures and rng.random() < self.heuristic.hunt:
            return rng.choice(captures)
        if forward and rng.random() < self.heuristic.push:
            return rng.choice(forward)
        return rng.choice(legal)

    def evaluate(self, world: State[Any]) -> list[float]:
        """Each seat's chance to win: a logistic of the two seats' `seat_worth` (heuristic.py)."""
        pos: list[int] = world.pos  # type: ignore[attr-defined]
        good: list[bool] = world.good  # type: ignore[attr-defined]
        turn: int = world.turn  # type: ignore[attr-defined]
        escape = world.options.exit == "escape"  # type: ignore[attr-defined]
        worth = [0.0, 0.0]
        for s in (0, 1):
            goods = [pos[g] for g in range(s * 8, s * 8 + 8) if pos[g] >= 0 and good[g]]
            bads_left = sum(1 for g in range(s * 8, s * 8 + 8) if pos[g] >= 0 and not good[g])
            # moves the nearest good ghost needs to win: its steps to an exit, and one more to leave under `escape`
            moves_to_win = min((EXIT_DISTANCE[s][sq] for sq in goods), default=FAR) + (1 if escape else 0)
            worth[s] = seat_worth(len(goods), bads_left, moves_to_win, turn == s, self.heuristic)
        v0 = win_chance(worth[0], worth[1])
        return [v0, 1.0 - v0]
