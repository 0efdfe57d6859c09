"""The compiled opponents (bots/geister/fast_opponents.py) against their Python bots, position by position.

Each Python bot draws at most once, `rng.choice(candidates)`; a Random that keeps that list shows what the
bot chooses among. The compiled bot must offer exactly the same moves (so each with the same chance), or
the same sure move when the Python bot draws nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister import charge, defender, rules
from ghostgames.bots.geister.fast_opponents import KINDS, SCRATCH, candidates
from ghostgames.bots.random_bot import RandomBot
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState, fast
from ghostgames.rules.contract import Action

GAME = get_game("geister")


class Keeping(random.Random):
    """A Random that remembers the lists it chose from."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.lists: list[list[Any]] = []

    def choice(self, seq: Sequence[Any]) -> Any:
        self.lists.append(list(seq))
        return super().choice(seq)


def _python_choose(name: str, knowledge: SeatKnowledge, rng: random.Random) -> Action:
    if name == "random":
        return RandomBot().choose(knowledge, rng)
    module = {"charge": charge, "rules": rules, "defender": defender}[name]
    action: Action = module.choose(knowledge, rng)
    return action


def _positions(games: int, seed: int, options: dict[str, Any]) -> list[GeisterState]:
    """Play-phase positions of games where each move comes from one of the four bots (varied positions,
    with captures and near-won games, as in play against them)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = GAME.new(2, {**options, "max_plies": 200}, seed=seed * 1000 + g)
        assert isinstance(state, GeisterState)
        for seat in (0, 1):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        while state.outcome() is None:
            seat = state.turn
            out.append(state.clone())
            name = rng.choice(list(KINDS))
            state.apply(seat, _python_choose(name, SeatKnowledge(state, seat), random.Random(rng.random())))
    return out


@pytest.mark.parametrize("options", [{"exit": "escape"}, {"exit": "reach"}])
def test_each_compiled_opponent_offers_the_moves_its_python_bot_chooses_among(options: dict[str, Any]) -> None:
    positions = _positions(20, 5 if options["exit"] == "escape" else 6, options)
    assert len(positions) > 300
    scratch = np.zeros(SCRATCH, dtype=np.int32)
    drawn = dict.fromkeys(KINDS, 0)
    for state in positions:
        row = fast.from_state(state)
        seat = state.turn
        for name, kind in KINDS.items():
            rng = Keeping(len(drawn))
            picked = _python_choose(name, SeatKnowledge(state, seat), rng)
            count = candidates(kind, row, scratch)
            compiled = sorted(str(GAME.action_at(int(fast.move_index(int(c), seat)), seat))
                              for c in scratch[40 : 40 + count])
            assert len(rng.lists) <= 1, name
            expected = sorted(str(a) for a in rng.lists[0]) if rng.lists else [str(picked)]
            assert compiled == expected, (name, state.to_json())
            drawn[name] += len(expected) > 1
    assert all(n > 50 for n in drawn.values()), drawn  # the random choices were compared, not only sure moves
