"""A match: several games in a row between the same two bot objects, each told how every game ended.

A tournament makes fresh bots for every game; a match keeps them, as the Geister AI competition's server
does with the program on one port, so a bot that remembers (`Bot.game_over`, e.g. `expert-memory`, which
learns the opponent's setups) can use the earlier games. After each game both bots get their own seat's
knowledge of the final position, nothing else. The seats swap every game (so the first player alternates:
the game's `first` option is seat 0) and every game and decision is seeded from (seed, game number).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.games import get_game
from ghostgames.rules.contract import State

# The competition's table: the escape rule, 300 plies, and every colour shown at the end.
OPTIONS: dict[str, Any] = {"exit": "escape", "max_plies": 300, "disclose": True}


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a match, for the two bots as given (index 0 and 1)."""

    number: int  # 1, 2, ... within the match
    first: int  # which bot moved first (sat in seat 0)
    result: tuple[str, str]  # "win" / "loss" / "draw" per bot
    reason: str  # the outcome's code (e.g. escaped, good_captured, bad_captured, ply_limit)
    plies: int

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "first": self.first, "result": list(self.result), "reason": self.reason,
                "plies": self.plies}


def play_match(bots: Sequence[Bot], games: int, seed: int | str,
               options: Mapping[str, Any] | None = None) -> list[MatchGame]:
    """`games` Geister games between `bots[0]` and `bots[1]`, bot n % 2 in seat 0 (moving first) in game n + 1;
    after each game every bot's `game_over` gets its own seat's final knowledge."""
    out = []
    for number in range(1, games + 1):
        first = (number - 1) % 2
        seated = [bots[first], bots[1 - first]]
        state: State[Any] = get_game("geister").new(2, {**(options or OPTIONS), "first": 0},
                                        seed=random.Random(f"{seed}:game:{number}").randrange(2**63))
        decisions = random.Random(f"{seed}:bots:{number}")
        while state.to_act():
            seat = min(state.to_act())
            action = seated[seat].choose(SeatKnowledge(state, seat), random.Random(decisions.randrange(2**63)))
            state.apply(seat, action)
        for seat in (0, 1):
            seated[seat].game_over(SeatKnowledge(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        results = [r.result for r in outcome.results]
        by_bot = (results[0], results[1]) if first == 0 else (results[1], results[0])
        out.append(MatchGame(number, first, by_bot, outcome.code, len(state.view(None)["moves"])))
    return out
