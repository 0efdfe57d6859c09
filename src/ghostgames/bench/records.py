"""Finished games played with random legal moves, as records: filling for the profile bench and
material for the replay and rating tests."""

from __future__ import annotations

import random
from typing import Any

from ghostgames.bench.engine import DEFAULT_OPTIONS
from ghostgames.rules.contract import Outcome
from ghostgames.rules.record import GameRecord


def random_record(game: str, players: int, seed: int,
                  options: dict[str, Any] | None = None) -> tuple[GameRecord, Outcome]:
    """A whole game of uniformly random legal actions (seeded: the same seed, the same game)."""
    rng = random.Random(seed)
    chosen = dict(DEFAULT_OPTIONS.get(game, {}) if options is None else options)
    record = GameRecord(game, players, chosen, seed)
    state = record.new_state()
    while (outcome := state.outcome()) is None:
        seat = min(state.to_act())
        text = rng.choice(state.legal_texts(seat))
        state.apply(seat, text)
        record.actions.append((seat, text))
    return record, outcome
