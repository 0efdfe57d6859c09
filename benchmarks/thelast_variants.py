"""The variants of The Last's expert screened in docs/research/thelast-multiplayer.md, as tournament plug-ins:

    PYTHONPATH=src:. ghostgames tournament --game thelast --players 3 --games 60 --workers 2 --seed 11 \\
        --bots benchmarks.thelast_variants:paranoid,expert:4000,rules

Each is `expert:4000` (TheLastExpertPolicy, exploration 0.5) with one setting changed; `opp_mix` was adopted
(5 December 2026: the expert's playouts from 4 players), the rest are not shipped. The screens before it ran
against the expert of uniform playouts at every table, now `uniform_playout` (the same at 2-3 players). The
result files record the names of the screens (the comment after each factory: `tlv:rp25` is `rules_playout`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search
from ghostgames.bots.thelast.belief_search import BeliefExpertPolicy

ITERATIONS = 4000


def _variant(name: str, base: type[fast_search.TheLastExpertPolicy] = fast_search.UniformPlayoutPolicy,
             exploration: float = 0.5, **settings: Any) -> Callable[[float | None], Bot]:
    policy = type(name, (base,), settings)

    # `seconds` without a default: the plug-in loader passes `--seconds-per-move` only to a factory whose
    # parameter is required (with a default it calls it with nothing, and the variant ran 4,000 iterations)
    def factory(seconds: float | None) -> Bot:
        budget = Budget(seconds=seconds) if seconds else Budget(iterations=ITERATIONS)
        bot = IsmctsBot(budget, policy, exploration)
        bot.name = name
        return bot

    return factory


RULES = fast_search.RULES
rules_playout = _variant("rules_playout", playout_kind=RULES, playout_explore=0.25)  # screen "rp25"
penalty_only = _variant("penalty_only", rank_weight=0.0)  # "rank0"
explore_08 = _variant("explore_08", exploration=0.8)  # "c08"
one_world_each = _variant("one_world_each", pool=128, reuse=1)  # a fresh world every iteration, as `ismcts`
belief = _variant("belief", BeliefExpertPolicy)  # "bel": 32 worlds a chunk, 4 iterations each
belief_16 = _variant("belief_16", BeliefExpertPolicy, pool=16, reuse=8)  # "bel16"
paranoid = _variant("paranoid", paranoid=True)  # "para"
modelled = _variant("modelled", modelled=True, playout_kind=RULES, playout_explore=0.25)  # "mod"
# 5 December 2026 (docs/research/thelast-multiplayer.md, "Why the expert is not ahead at 4 players")
own_penalty = _variant("own_penalty", own_penalty=True)  # reward: the seat's own penalty, linearly
shallow_4 = _variant("shallow_4", max_depth=4)  # the tree no deeper than 4 actions
shallow_2 = _variant("shallow_2", max_depth=2)  # the tree no deeper than 2 actions
shallow_4_own = _variant("shallow_4_own", max_depth=4, own_penalty=True)  # both
learned_playout = _variant("learned_playout", playout_kind=fast_search.LEARNED)  # the fitted logit's playouts
# 5 December 2026, later (research log, "Opponent-aware playouts"): the searching seat plays its playouts
# uniformly, the other seats as players do
OPPONENTS = fast_search.OPPONENTS
# others: `rules`, a quarter uniform
opp_rules = _variant("opp_rules", playout_kind=OPPONENTS, opponent_rules=0.75, opponent_learned=0.0)
# others: the fitted logit
opp_learned = _variant("opp_learned", playout_kind=OPPONENTS, opponent_rules=0.0, opponent_learned=1.0)
opp_mix = _variant("opp_mix", playout_kind=OPPONENTS, opponent_rules=0.4, opponent_learned=0.4)  # both, a fifth uniform
# the seats whose moves this round fit `rules` (bots/thelast/opponents.py) play `rules`, the others uniformly
opp_detect = _variant("opp_detect", playout_kind=OPPONENTS, detect_rules=True, opponent_rules=0.0,
                      opponent_learned=0.0)
uniform_playout = _variant("uniform_playout")  # the expert before opp_mix was adopted
# 5 December 2026, after "The worlds dealt in the compiled core": the shipped expert (`expert`, opp_mix from
# 4 players) dealing its worlds as states converted one by one (`state_worlds`), the path before WorldRows
expert_states = _variant("expert_states", fast_search.TheLastExpertPolicy, state_worlds=True)
