"""Information-set Monte-Carlo tree search (single observer), generic over every game of the contract.

Each iteration samples one world that the seat cannot tell from the truth, walks the shared tree with
only the actions legal in that world (UCB with availability counts), adds one node, plays out with the
policy and backs each seat's reward up the path. The tree's nodes are action sequences, so everything it
learns is about what the seat can see, never about one particular hidden deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.policy import SearchPolicy
from ghostgames.rules.contract import Action, State

PolicyFactory = Callable[[SeatKnowledge], SearchPolicy]


class Node:
    """Statistics of one action sequence; `reward` is summed for `actor`, the seat that chose it."""

    __slots__ = ("actor", "avail", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[Action, Node] = {}


class IsmctsBot(Bot):
    """ISMCTS with a pluggable `SearchPolicy`; deterministic given the rng under an iteration budget."""

    name = "ismcts"

    def __init__(self, budget: Budget, policy: PolicyFactory = SearchPolicy, exploration: float = 0.7) -> None:
        self.budget = budget
        self.policy = policy
        self.exploration = exploration
        self.last_iterations = 0

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        legal = knowledge.legal_actions()
        if not legal:
            raise ValueError(f"seat {knowledge.seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        policy = self.policy(knowledge)
        forced = policy.forced(legal, rng)
        if forced is not None:
            return forced
        legal = policy.allowed(legal) or legal
        if len(legal) == 1:
            return legal[0]
        return self.search_among(knowledge, policy, legal, rng)

    def search_among(self, knowledge: SeatKnowledge, policy: SearchPolicy, legal: list[Action],
                     rng: random.Random) -> Action:
        """The most visited of `legal` (two or more, none forced) after a search of the budget (the policy's
        compiled search where its game has one)."""
        compiled = policy.compiled_choice(legal, self.budget, self.exploration, rng)
        if compiled is not None:
            choice, self.last_iterations = compiled
            return choice
        root = self.search(knowledge.seat, policy, rng)
        best: Action = legal[0]
        best_visits = -1
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = action, visits
        return best

    def search(self, seat: int, policy: SearchPolicy, rng: random.Random) -> Node:
        root = Node(seat)
        clock = self.budget.clock()
        while clock.more():
            self._iterate(root, seat, policy, rng)
        self.last_iterations = clock.done
        return root

    def search_more(self, root: Node, seat: int, policy: SearchPolicy, rng: random.Random, first: Action,
                    iterations: int) -> None:
        """`iterations` more iterations into `root` that all begin with `first`: the analysis uses it so
        that the move played gets a sample large enough to judge even when the search shunned it."""
        for _ in range(iterations):
            self._iterate(root, seat, policy, rng, first)

    def _iterate(self, root: Node, seat: int, policy: SearchPolicy, rng: random.Random,
                 first: Action | None = None) -> None:
        world = policy.determinize(rng)
        node = root
        path: list[Node] = []
        c = self.exploration
        actor = seat
        while world.outcome() is None:
            actor = seat if node is root else min(world.to_act())
            legal = world.legal_actions(actor)
            children = node.children
            untried = [a for a in legal if a not in children]
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.avail += 1
            if first is not None and node is root:
                legal = [first]
                untried = [a for a in legal if a not in children]
            if untried:
                action = rng.choice(untried)
                node = children[action] = Node(actor)
                world.apply_legal(actor, action)
                path.append(node)
                break
            chosen: Action = legal[0]
            best = -math.inf
            for action in legal:
                child = children[action]
                score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best:
                    best, chosen = score, action
            node = children[chosen]
            world.apply_legal(actor, chosen)
            path.append(node)
        rewards = self._playout(world, policy, rng)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.actor]

    @staticmethod
    def _playout(world: State[Any], policy: SearchPolicy, rng: random.Random) -> list[float]:
        quick = policy.playout(world, rng)
        if quick is not None:
            return quick
        limit = policy.rollout_limit
        steps = 0
        while True:
            outcome = world.outcome()
            if outcome is not None:
                return policy.rewards(outcome)
            if limit is not None and steps >= limit:
                return policy.evaluate(world)
            actor = min(world.to_act())
            world.apply_legal(actor, policy.rollout_action(world, actor, rng))
            steps += 1
