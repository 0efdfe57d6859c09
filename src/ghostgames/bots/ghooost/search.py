"""Ghooost! knowledge for the search: playouts that play a card whenever they can (uniform play takes
the cemetery back and forth for hundreds of turns), cut after `rollout_limit` actions and scored by the
cards each seat still has to get rid of. Without a play, a playout ends an optional extra turn (`done`)
before it gambles or turns a mansion card."""

from __future__ import annotations

import math
import random
from typing import Any

from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.ghooost.actions import DONE, Play, Simple
from ghostgames.rules.contract import Action, State


class GhooostPolicy(SearchPolicy):
    # Short playouts and many iterations beat long playouts: measured 12 of 16 against 8 of 16 (limit 120)
    # and 7 of 16 (limit 8, with 6 draws) over the same games against `rules`.
    rollout_limit = 20

    def rollout_action(self, world: State[Any], seat: int, rng: random.Random) -> Action:
        legal: list[Action] = world.legal_actions(seat)
        plays = [a for a in legal if type(a) is Play]
        if plays and rng.random() < 0.9:
            return rng.choice(plays)
        if legal[-1] is DONE:  # the state lists `done` last when it is legal
            return DONE
        for a in legal:
            if type(a) is Simple and a.kind in ("gamble", "turn"):
                return a
        return rng.choice(legal)

    def evaluate(self, world: State[Any]) -> list[float]:
        sizes: list[int] = world.sizes  # type: ignore[attr-defined]
        mansions: list[list[int]] = world.mansions  # type: ignore[attr-defined]
        out: list[bool] = world.is_out  # type: ignore[attr-defined]
        left = [0.0 if out[s] else sizes[s] + len(mansions[s]) for s in range(world.players)]
        players = world.players
        rewards = []
        for s in range(players):
            # Chance of not being the last holding cards, from how far behind the others we are.
            share = 0.0
            for o in range(players):
                if o != s:
                    share += 1.0 / (1.0 + math.exp((left[s] - left[o]) / 3.0))
            rewards.append(share / (players - 1))
        return rewards
