"""Variants of the Geister expert that the research log measures (docs/research/geister-expert.md, "Our last bad
ghost parked on a corner"), as tournament plug-ins at fixed iteration budgets, so that a game replays move for move
and two bots that differ in a rule play the same game wherever the rule does not fire:

    PYTHONPATH=src:. ghostgames tournament --game geister --games 400 --workers 1 --seed 21 --option exit=escape \\
        --bots benchmarks.geister_variants:parked_1000,runner-3

`parked_N` is `expert:N` (the memory over `SealedPolicy`, exploration 0.5, the shipped playouts) that, with three of
our bad ghosts taken, walks our last bad ghost to the nearest free exit corner of the enemy's and keeps it there
(`ParkedPolicy`); `parked_mutual_N` does so only when we have taken three of the enemy's bad ghosts as well
(`MutualParkedPolicy`). N is 1000 or 150000 (`hard`'s budget).
"""

from __future__ import annotations

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert_memory import MemoryExpertBot, SealedMemoryPolicy
from ghostgames.bots.geister.picture import BAD, distance
from ghostgames.bots.geister.playout_policy import shipped_table
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import EXITS
from ghostgames.rules.contract import Action


class ParkedPolicy(SealedMemoryPolicy):
    """`SealedMemoryPolicy` that parks our last bad ghost on a corner. With the enemy holding three of our bad ghosts,
    a corner our last one stands on is sealed (`SealedPolicy`); traced against `runner-3`, in 8 of the 9 games lost in
    the endgame where both sides stood a bad ghost from losing, our ghost on the corner was good and our last bad
    ghost 3 to 9 steps away, so the guard had two corners to defend and took a decoy at one of them. So while no corner
    is sealed and the guard makes no capture, the moves allowed are those of our last bad ghost that bring it a step
    nearer the nearest exit corner no ghost stands on (when the guard's other rules allow any); and once it is there,
    its moves off the corner are not allowed, enemy near or not (unless nothing else is)."""

    def parking(self) -> bool:
        """Whether the rule is on in this position: the enemy holds three of our bad ghosts."""
        p = self.picture
        return p.captured[p.me]["bad"] >= 3

    def allowed(self, legal: list[Action]) -> list[Action]:
        moves = super().allowed(legal)
        if not self.parking():
            return moves
        p = self.picture
        corner = self.sealed_corner()
        if corner >= 0:
            staying = [m for m in moves if not (isinstance(m, Move) and m.origin == corner)]
            return staying or moves
        if self.answers(legal):
            return moves
        bad = [g for g in p.ghosts(p.me) if p.colour[g] == BAD]
        if not bad:
            return moves
        square = p.square[bad[0]]
        free = [c for c in sorted(EXITS[p.enemy]) if p.board[c] < 0]
        if not free:
            return moves
        steps = min(distance(square, c) for c in free)
        nearest = [c for c in free if distance(square, c) == steps]
        walking = [m for m in moves if isinstance(m, Move) and m.origin == square and m.target >= 0
                   and min(distance(m.target, c) for c in nearest) < steps]
        return walking or moves


class MutualParkedPolicy(ParkedPolicy):
    """`ParkedPolicy` only in the endgame where both sides stand a bad ghost from losing: the enemy holds three of our
    bad ghosts and we hold three of its own (where a decoy at our corner is a gamble the guard must take or not)."""

    def parking(self) -> bool:
        p = self.picture
        return p.captured[p.me]["bad"] >= 3 and p.captured[p.enemy]["bad"] >= 3


def _bot(policy: type[SealedMemoryPolicy], name: str, iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=policy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"{name}:{iterations}"
    return bot


def parked_1000() -> Bot:
    return _bot(ParkedPolicy, "parked", 1000)


def parked_150000() -> Bot:
    return _bot(ParkedPolicy, "parked", 150000)


def parked_mutual_1000() -> Bot:
    return _bot(MutualParkedPolicy, "parked-mutual", 1000)


def parked_mutual_150000() -> Bot:
    return _bot(MutualParkedPolicy, "parked-mutual", 150000)
