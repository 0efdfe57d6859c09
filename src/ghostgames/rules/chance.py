"""Seeded randomness. Every chance event is drawn from a generator derived from the game's seed and a
label (e.g. "deal", round number), so a state never has to store a generator's internal state and a
(game, options, seed, actions) record replays exactly."""

from __future__ import annotations

import hashlib
import random


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A generator for one purpose of one game: same seed and labels, same numbers."""
    key = ":".join([str(seed), *(str(label) for label in labels)]).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))
