"""Variants of the Geister expert that the research log measures (docs/research/geister-expert.md), as tournament
plug-ins at fixed iteration budgets, so that a game replays move for move and two bots that differ in a rule play
the same game wherever the rule does not fire:

    PYTHONPATH=src:. ghostgames tournament --game geister --games 400 --workers 1 --seed 3 --option exit=escape \\
        --bots benchmarks.geister_variants:sealed_1000,runner-3

`sealed_N` is `expert:N` (the memory over `CornerPolicy`, exploration 0.5, the shipped playouts) whose guard reads a
corner held by our last bad ghost as sealed (`expert.SealedPolicy`); N 1000 or 150000 (`hard`'s budget).
`sealed_evaluation_N` also scores the search's leaves with only the open exits (`Heuristic.sealed_exits`);
`keeper_stays_N` keeps the ghost that seals a corner on it while an enemy ghost is near.
"""

from __future__ import annotations

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import SealedPolicy
from ghostgames.bots.geister.expert_memory import MemoryExpertBot, MemoryPolicy
from ghostgames.bots.geister.heuristic import HEURISTIC
from ghostgames.bots.geister.picture import distance
from ghostgames.bots.geister.playout_policy import shipped_table
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS
from ghostgames.rules.contract import Action


class SealedMemoryPolicy(MemoryPolicy, SealedPolicy):
    """`SealedPolicy` reading the belief times the memory's prior of the enemy's setup, as `expert` does."""


def _sealed(iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=SealedMemoryPolicy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"sealed:{iterations}"
    return bot


def sealed_1000() -> Bot:
    return _sealed(1000)


def sealed_150000() -> Bot:
    return _sealed(150000)


class SealedEvaluationPolicy(SealedMemoryPolicy):
    """`SealedMemoryPolicy` whose hand evaluation also counts only open exits (`Heuristic.sealed_exits`): a seat's
    good ghosts are not near an exit where the enemy's last bad ghost stands, so the search sees what parking our
    last bad ghost on the corner a runner walks to is worth."""

    heuristic = HEURISTIC._replace(sealed_exits=1.0)


def _sealed_evaluation(iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=SealedEvaluationPolicy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"sealed-evaluation:{iterations}"
    return bot


def sealed_evaluation_1000() -> Bot:
    return _sealed_evaluation(1000)


def sealed_evaluation_150000() -> Bot:
    return _sealed_evaluation(150000)


class KeeperStaysPolicy(SealedMemoryPolicy):
    """`SealedMemoryPolicy` whose keeper stays: a corner is sealed only while our last bad ghost stands on it, so
    while an enemy ghost is within `race_steps` of that corner the keeper's moves off it are not among the moves
    allowed (unless nothing else is). Without it, traced against `rush` (seed 21, game 280), the search walked the
    keeper off the corner the guard no longer defended, and a ghost two steps away left by it."""

    def allowed(self, legal: list[Action]) -> list[Action]:
        moves = super().allowed(legal)
        p = self.picture
        sealed = sorted(EXITS[p.enemy] - set(self.open_exits()))
        if not sealed or not any(distance(p.square[g], sealed[0]) <= self.race_steps for g in p.ghosts(p.enemy)):
            return moves
        staying = [m for m in moves if not (isinstance(m, Move) and m.origin == sealed[0])]
        return staying or moves


def _keeper_stays(iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=KeeperStaysPolicy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"keeper-stays:{iterations}"
    return bot


def keeper_stays_1000() -> Bot:
    return _keeper_stays(1000)


def keeper_stays_150000() -> Bot:
    return _keeper_stays(150000)
