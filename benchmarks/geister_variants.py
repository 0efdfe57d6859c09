"""Variants of Geister's expert that the research log measures (docs/research/geister-expert.md), as tournament
plug-ins at a fixed iteration budget:

    PYTHONPATH=src:. ghostgames tournament --game geister --option exit=escape --workers 1 --seed 22 --games 400 \\
        --bots benchmarks.geister_variants:learned_1000,runner-3

`learned_N`: today's `expert` (the memory over `SealedPolicy`: bots/search_bots.py) whose playouts end on the
information-state value learned from games against the runners (`info_value.py`, the leaf of `expert-learned`)
instead of the hand evaluation. `expert-learned` keeps the guard it was measured with (`expert-v5`'s); this is the
same leaf under today's guard. The variants measured before and not kept replay at the commits the log names.
"""

from __future__ import annotations

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.fast_search import FastExpertBot


def learned_at(iterations: int) -> Bot:
    """Today's expert at `iterations` a move (`search_bots.expert`), its playouts ending on the learned
    information-state value: the one setting changed."""
    from ghostgames.bots.geister import info_value
    from ghostgames.bots.geister.fast_search import INFO
    from ghostgames.bots.search_bots import expert

    bot = expert(Budget(iterations=iterations))
    assert isinstance(bot, FastExpertBot)
    bot.evaluator, bot.value = INFO, info_value.shipped_arrays()
    bot.name = f"learned_{iterations}"
    return bot


def learned_1000() -> Bot:
    return learned_at(1000)


def learned_150000() -> Bot:
    return learned_at(150_000)
