"""A bot sees only its seat: two states that differ only in what the seat cannot know give the same
choice for the same random seed, for every bot and every game. And every choice is legal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from tests.bots.positions import TABLES, positions

# Search bots get tiny iteration budgets: enough to search, and a pure function of (knowledge, seed).
BOTS = ["random", "rules", "charge", "defender", "rush", "runner", "runner-2", "runner-3", "mixture", "ismcts:24",
        "expert:24", "expert-v6:24", "expert-v5:24", "expert-v4:24", "expert-v3:24", "expert-hand:24",
        "expert-learned:24"]


@pytest.mark.parametrize(("game", "players", "options"), TABLES, ids=lambda v: str(v))
@pytest.mark.parametrize("bot_name", BOTS)
def test_a_bot_chooses_the_same_in_worlds_its_seat_cannot_tell_apart(
    game: str, players: int, options: dict[str, Any], bot_name: str
) -> None:
    bot = get_bot(bot_name)
    checked = 0
    for seed in (1, 2):
        for state, seat in positions(game, players, options, seed, every=7):
            twin = state.sample_world(seat, random.Random(seed * 1000 + checked))
            assert twin.view(seat) == state.view(seat)
            first = bot.choose(SeatKnowledge(state, seat), random.Random(99))
            second = bot.choose(SeatKnowledge(twin, seat), random.Random(99))
            assert str(first) == str(second), f"{bot_name} at {state.view(seat)}"
            assert str(first) in state.legal_texts(seat)
            checked += 1
            if checked % 6 == 5:
                break
    assert checked >= 4
