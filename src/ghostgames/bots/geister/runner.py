"""`runner` and its twins (`runner-2`, ...): sparring partners whose moves come from a small network trained by PPO
(learn/geister/runner_training.py), one network per training seed.

The strongest published Geister programs are learned policies that win by escapes; our hand-written `rush`
imitates the style, this bot learns its own. The network reads the seat's observation arrays
(`knowledge.encode()`: nothing the seat may not know), gives a score to every action index, and the bot
samples among the legal ones with its seeded generator, so a game repeats from its seed and a search facing it
meets varied play. Inference is numpy only: playing needs no torch; only training does.

Each bot's weights (NETWORKS, files next to this one) are what `ghostgames train geister-runner --seed S` writes,
S being the number in the bot's name (1 for `runner`). The belief's learned-runner model was fitted on games of
`runner`; its twins are the same recipe with other seeds, held out: a gain that holds against
them is not a fit to one network.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.base import SeatKnowledge
from ghostgames.rules.contract import Action

# bot name -> its weight file, next to this module
NETWORKS = {"runner": "runner-weights.npz", "runner-2": "runner-2-weights.npz", "runner-3": "runner-3-weights.npz"}
WEIGHTS = Path(__file__).with_name(NETWORKS["runner"])
LAYERS = ("body1", "body2", "actor")  # the policy's layers, in order; the value head is training's only


@dataclass(frozen=True)
class RunnerPolicy:
    """A tanh MLP from the flattened observation (board planes, then the vector) to one logit per action."""

    weights: tuple[NDArray[np.float32], ...]  # w1, b1, w2, b2, w_actor, b_actor; w as (in, out)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> RunnerPolicy:
        with np.load(path) as held:
            arrays = [held[f"{layer}.{part}"].astype(np.float32) for layer in LAYERS for part in ("w", "b")]
        return cls(tuple(arrays))

    def save(self, path: Path, **about: object) -> None:
        """Write the layers (and `about`: the recipe, as 0-d arrays) to a numpy archive."""
        arrays: dict[str, Any] = {f"{layer}.{part}": self.weights[2 * i + j]
                                  for i, layer in enumerate(LAYERS) for j, part in enumerate(("w", "b"))}
        arrays.update((key, np.array(value)) for key, value in about.items())
        np.savez_compressed(path, **arrays)

    def logits(self, x: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
        """Scores of every action index for a batch (or one) of flattened observations; illegal ones -inf."""
        w1, b1, w2, b2, wa, ba = self.weights
        h = np.tanh(np.tanh(x @ w1 + b1) @ w2 + b2)
        out = (h @ wa + ba).astype(np.float64)
        return np.where(mask, out, -np.inf)

    def probabilities(self, x: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
        logits = self.logits(x, mask)
        shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
        probs: NDArray[np.float64] = shifted / shifted.sum(axis=-1, keepdims=True)
        return probs


def flatten(observation: dict[str, NDArray[np.float32]]) -> NDArray[np.float32]:
    """The board planes and the vector side by side, for one observation or a batch."""
    board, vector = observation["board"], observation["vector"]
    flat = np.concatenate([board.reshape(*vector.shape[:-1], -1), vector], axis=-1)
    return flat.astype(np.float32, copy=False)


def sample(probs: NDArray[np.float64], draw: float) -> int:
    """The index whose share of the cumulative probabilities holds `draw` (uniform in [0, 1))."""
    index = int(np.searchsorted(np.cumsum(probs), draw * probs.sum(), side="right"))
    return min(index, int(np.flatnonzero(probs)[-1]))


@cache
def packaged(name: str = "runner") -> RunnerPolicy:
    """The shipped network of the bot `name` (a key of NETWORKS)."""
    return RunnerPolicy.load(Path(__file__).with_name(NETWORKS[name]))


def play(policy: RunnerPolicy, knowledge: SeatKnowledge, rng: random.Random) -> Action:
    """The action `policy` draws for the seat."""
    mask = knowledge.legal_mask()
    probs = policy.probabilities(flatten(knowledge.encode()), mask)
    return knowledge.action_at(sample(probs, rng.random()))


def choose(knowledge: SeatKnowledge, rng: random.Random, name: str = "runner") -> Action:
    return play(packaged(name), knowledge, rng)
