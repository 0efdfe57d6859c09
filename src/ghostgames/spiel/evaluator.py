"""Our Ghooost! playout as an OpenSpiel evaluator, so that OpenSpiel's own `ISMCTSBot` can be measured
against our bots on fair terms.

OpenSpiel's `RandomRolloutEvaluator` plays uniformly to the end of the round: in Ghooost! that is hundreds
of turns of taking the cemetery back and forth, so each of its simulations is slow and says little. This
evaluator plays what our search plays (`GhooostPolicy`: a card 90% of the time, `done`, then gamble or
turn, cut after its `rollout_limit` actions) and turns the cut world's score, each seat's chance of not
being the last holding cards, into OpenSpiel's returns for the round (win_returns: the one loser pays 1,
the others share it), so values from finished and from cut playouts are on one scale.
"""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray
from open_spiel.python.algorithms import mcts

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.ghooost.search import GhooostPolicy
from ghostgames.spiel.adapter import SpielState


class GhooostPlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel has no type information
    """`evaluate` plays one `GhooostPolicy` playout from the state; `prior` is uniform, as OpenSpiel's."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.playouts = 0  # how many it played: the benchmark and the test check that it was asked

    def evaluate(self, state: SpielState) -> NDArray[np.float64]:
        self.playouts += 1
        if state.is_terminal() or state.inner is None:
            return np.array(state.returns())
        world = state.inner.clone()
        seat = min(world.to_act())
        policy = GhooostPolicy(SeatKnowledge(world, seat))  # the knowledge is not used by a playout
        limit = policy.rollout_limit
        steps = 0
        while world.outcome() is None and (limit is None or steps < limit):
            actor = min(world.to_act())
            world.apply_legal(actor, policy.rollout_action(world, actor, self.rng))
            steps += 1
        outcome = world.outcome()
        game = state.spiel_game
        if outcome is not None:
            return np.array(game.spec.returns(outcome, game.params))
        players = world.players
        # not being the loser pays 1 / (players - 1), being it pays -1: the expectation of a chance p
        return np.array([p * players / (players - 1) - 1.0 for p in policy.evaluate(world)])

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal: list[int] = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]

