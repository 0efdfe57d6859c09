"""`runner-2`: the learned runner trained with another seed (`ghostgames train geister-runner --seed 2`,
runner-2-weights.npz next to this file), played exactly as `runner` is. The belief's learned-runner model is
fitted on games of `runner` (seed 1) only, so this one is the opponent it has never seen: a gain that holds
against it is not a fit to one network."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.runner import RunnerPolicy, play
from ghostgames.rules.contract import Action

WEIGHTS = Path(__file__).with_name("runner-2-weights.npz")


@cache
def packaged() -> RunnerPolicy:
    return RunnerPolicy.load(WEIGHTS)


def choose(knowledge: SeatKnowledge, rng: random.Random) -> Action:
    return play(packaged(), knowledge, rng)
