"""Ghooost!'s compiled `rules` (bots/ghooost/fast_rules.py) chooses as the Python `rules` bot on every position
of random games (2 to 6 players, both decks, `replay` may and must), and each of the bot's cases is met."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.ghooost.fast_rules import rules_action
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.encoding import action_index
from tests.bots.positions import positions

SCRATCH = np.empty(fast.MAX_ACTIONS, dtype=np.int32)
NAMES = {fast.TAKE_ACTION: "take", fast.GAMBLE_ACTION: "gamble", fast.TURN_ACTION: "turn",
         fast.PASS_ACTION: "pass", fast.DONE_ACTION: "done"}


@pytest.mark.parametrize(("players", "options"), [
    (2, {"max_turns": 300, "replay": "may"}), (3, {"max_turns": 300, "deck": "original", "replay": "must"}),
    (4, {"max_turns": 300, "replay": "may", "match": True, "max_rounds": 2}), (6, {"max_turns": 300})])
def test_the_compiled_rules_choose_as_the_rules_bot(players: int, options: dict[str, Any]) -> None:
    rules = get_bot("rules")
    kinds: Counter[str] = Counter()
    for seed in range(3):
        since = None  # the last row and its log's length: from_state reads only the log's new entries
        for state, seat in positions("ghooost", players, options, seed, every=1):
            expected = action_index(rules.choose(SeatKnowledge(state, seat), random.Random(0)))  # type: ignore[arg-type]
            row = fast.from_state(state, since)
            assert rules_action(row, SCRATCH) == expected, state.view(seat)
            since = (row, len(state.moves))
            kinds[NAMES.get(expected, "play")] += 1
    needed = ["play", "take", "gamble", "turn"] + (["done"] if options.get("replay") == "may" else [])
    assert sum(kinds.values()) > 500 and all(kinds[k] for k in needed), kinds
