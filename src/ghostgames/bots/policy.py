"""What a search may know about a game beyond its rules: how to sample worlds, play out, and score.

`SearchPolicy` is the plain default that knows nothing (uniform playouts to the end, rank rewards);
game-specific policies override pieces of it. A policy is made fresh for every decision from the
seat's knowledge, so it can hold per-decision beliefs without leaking anything between seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.rules.contract import Action, Outcome, State


def rank_rewards(outcome: Outcome) -> list[float]:
    """Each seat's share of the others it beat (ties count half): 1 for a lone winner, 0.5 for a draw."""
    ranks = [r.rank for r in outcome.results]
    players = len(ranks)
    if players < 2:
        return [1.0] * players
    out = []
    for rank in ranks:
        beaten = sum(1 for other in ranks if other > rank)
        tied = sum(1 for other in ranks if other == rank) - 1
        out.append((beaten + 0.5 * tied) / (players - 1))
    return out


class SearchPolicy:
    """The knowledge-free default: fresh `sample_world` each iteration, uniform playouts, rank rewards."""

    # Actions a playout may take before it is scored with `evaluate` (None: play to the end).
    rollout_limit: int | None = 2000

    def __init__(self, knowledge: SeatKnowledge) -> None:
        self.knowledge = knowledge

    def determinize(self, rng: random.Random) -> State[Any]:
        """One full world consistent with what the seat knows."""
        return self.knowledge.sample_world(rng)

    def forced(self, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """An action to take without searching (e.g. a move that wins at once), or None."""
        return None

    def allowed(self, legal: list[Action]) -> list[Action]:
        """The root actions the bot may pick (a game may rule out known blunders); never empty."""
        return legal

    def compiled_choice(self, legal: Sequence[Action], budget: Budget, exploration: float,
                        rng: random.Random) -> tuple[Action, int] | None:
        """A game whose whole search runs on its compiled core decides here: the action among `legal` and
        the iterations it took. None (the default): the Python ISMCTS searches with this policy."""
        return None

    def playout(self, world: State[Any], rng: random.Random) -> list[float] | None:
        """Play `world` out in one go and return the rewards, or None to play it action by action with
        `rollout_action` (a game with a compiled core can do the whole playout there)."""
        return None

    def rollout_action(self, world: State[Any], seat: int, rng: random.Random) -> Action:
        """The action `seat` plays in a playout: one of `world.legal_actions(seat)` (the search carries it
        out with `apply_legal`, unchecked)."""
        legal: list[Action] = world.legal_actions(seat)
        return rng.choice(legal)

    def rewards(self, outcome: Outcome) -> list[float]:
        """Each seat's reward in [0, 1] for a finished world."""
        return rank_rewards(outcome)

    def evaluate(self, world: State[Any]) -> list[float]:
        """Rewards for a world whose playout was cut short: even chances unless a game knows better."""
        return [0.5] * world.players
