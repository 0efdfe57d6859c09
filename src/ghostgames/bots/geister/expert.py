"""The Geister expert's policy: the v1 search knowledge (`search.GeisterPolicy`: playouts, evaluation) with
worlds dealt from the fitted belief (`belief.py`) and a guard in front of the search.

- Worlds: the enemy's hidden colours are drawn from the belief, a distribution over the colourings that
  are still possible, instead of v1's hand-set weights.
- Guard: an enemy ghost one move from winning by an exit (under `escape` standing on its owner's exit
  corner, under `reach` next to one) must be answered. When one of our ghosts can take it, the search
  chooses only among such captures, unless taking it could be the fourth bad ghost (which loses at once)
  and the belief says it is more likely bad than good.
"""

from __future__ import annotations

import random
from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.belief import belief
from ghostgames.bots.geister.picture import exit_distance
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS
from ghostgames.rules.contract import Action, State


class BeliefPolicy(GeisterPolicy):
    def __init__(self, knowledge: SeatKnowledge) -> None:
        super().__init__(knowledge)
        view = knowledge.view()
        self.belief = belief(self.picture, list(view["moves"]), over=view.get("outcome") is not None)
        self.good_probability = self.belief.good_probability()

    def determinize(self, rng: random.Random) -> State[Any]:
        world = self.knowledge.sample_world(rng)
        if not self.belief.hidden or not getattr(world, "set_up", [True, True])[self.picture.enemy]:
            return world
        goods = self.belief.sample(rng)
        good: list[bool | None] = world.good  # type: ignore[attr-defined]
        for g in self.belief.hidden:
            good[g] = g in goods
        return world

    def threats(self) -> list[int]:
        """Enemy ghosts (not known to be bad) that can win by an exit with their next move."""
        p = self.picture
        enemy = p.enemy
        out = []
        for g in p.ghosts(enemy):
            if self.good_probability.get(g, 1.0) <= 0.0:
                continue  # certainly bad: let it stand there
            square = p.square[g]
            one_move = square in EXITS[enemy] if p.escape else exit_distance(square, enemy) == 1
            if one_move:
                out.append(g)
        return out

    def answers(self, legal: list[Action]) -> list[Action]:
        """Our captures of a threatening ghost that we may make."""
        p = self.picture
        targets = {p.square[g]: g for g in self.threats()}
        if not targets:
            return []
        fourth_bad = p.captured[p.enemy]["bad"] >= 3
        out: list[Action] = []
        for m in legal:
            if not isinstance(m, Move) or m.target not in targets:
                continue
            ghost = targets[m.target]
            if fourth_bad and self.good_probability.get(ghost, 1.0) <= 0.5:
                continue
            out.append(m)
        return out

    def allowed(self, legal: list[Action]) -> list[Action]:
        answers = self.answers(legal)
        if answers:
            return answers
        return super().allowed(legal)
