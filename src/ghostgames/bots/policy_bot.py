"""A bot made from a policy function over arrays, the shape a learned policy (a network) has.

`PolicyBot(fn)` calls `fn(obs, mask)` with `obs = knowledge.encode()` (the environments' observation
arrays) and `mask = knowledge.legal_mask()` (a boolean flag per action index), and plays the action at
the index `fn` returns. So an agent trained on the Gymnasium or PettingZoo environments plays in
tournaments, `ghostgames.evaluate`, the competition client and (as a plug-in) the table server unchanged.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.rules.contract import Action, IllegalAction

Observation = dict[str, NDArray[np.float32]]
Policy = Callable[..., Any]  # (obs, mask) -> index, or (obs, mask, rng) -> index


class PolicyBot(Bot):
    """Plays `fn(obs, mask)` (or `fn(obs, mask, rng)` when `fn` takes three arguments, so sampling can use
    the bot's seeded generator and a tournament stays reproducible). The index must be legal: a policy
    that picks a masked-out index raises IllegalAction rather than being corrected silently."""

    def __init__(self, fn: Policy, name: str = "policy") -> None:
        if not callable(fn):
            raise TypeError(f"PolicyBot wraps a function (obs, mask) -> index, not {type(fn).__name__}")
        try:
            takes = len(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            takes = 2
        self.fn = fn
        self.name = name
        self._with_rng = takes >= 3

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        obs = knowledge.encode()
        mask = knowledge.legal_mask()
        picked = self.fn(obs, mask, rng) if self._with_rng else self.fn(obs, mask)
        try:
            index = int(picked)
        except (TypeError, ValueError):
            raise TypeError(f"{self.name}: the policy returned {picked!r}, not an action index") from None
        if not 0 <= index < len(mask) or not mask[index]:
            raise IllegalAction(f"{self.name}: the policy picked index {index}, which the mask rules out "
                                f"({int(mask.sum())} of {len(mask)} are legal)")
        return knowledge.action_at(index)
