"""The Last's compiled `rules` (bots/thelast/fast_rules.py) chooses as the Python `rules` bot on every position
of random matches at every player count: the same action, since neither draws at random."""

from __future__ import annotations

import random
from collections import Counter

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import KEEP_INDEX, SWAP_BASE, action_index
from tests.bots.positions import positions


def test_the_compiled_rules_choose_as_the_rules_bot() -> None:
    rules = get_bot("rules")
    kinds: Counter[str] = Counter()
    for players in (2, 3, 4, 5):
        for seed in range(6):
            for state, seat in positions("thelast", players, {}, seed, every=1):
                expected = action_index(rules.choose(SeatKnowledge(state, seat), random.Random(0)))  # type: ignore[arg-type]
                assert rules_action(fast.from_state(state)) == expected, state.view(seat)
                kinds["keep" if expected == KEEP_INDEX else "swap" if expected >= SWAP_BASE else "play"] += 1
    assert sum(kinds.values()) > 500 and all(kinds[k] for k in ("keep", "swap", "play")), kinds
