"""The Last knowledge for the search: what a finished world is worth. Rank alone ignores by how much
one loses; the penalty itself is what players are judged on, so the reward mixes both."""

from __future__ import annotations

import math

from ghostgames.bots.policy import SearchPolicy, rank_rewards
from ghostgames.rules.contract import Outcome


class TheLastPolicy(SearchPolicy):
    rollout_limit = None  # a round is short: play it out

    def rewards(self, outcome: Outcome) -> list[float]:
        ranks = rank_rewards(outcome)
        penalties = [r.score for r in outcome.results]
        players = len(penalties)
        out = []
        for s in range(players):
            others = (sum(penalties) - penalties[s]) / max(players - 1, 1)
            out.append(0.5 * ranks[s] + 0.5 / (1.0 + math.exp((penalties[s] - others) / 8.0)))
        return out
