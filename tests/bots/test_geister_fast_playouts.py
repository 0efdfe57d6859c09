"""The plain search's Geister playouts on the compiled core (bots/geister/playout.py) score worlds as the
step-by-step playouts through the contract do."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister.playout import GeisterFastPlayouts
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.policy import SearchPolicy, rank_rewards
from ghostgames.games import get_game
from tests.games.geister.positions import position

GAME = get_game("geister")


def test_a_finished_world_is_scored_by_its_outcome() -> None:
    state = position({"a5": (0, "good"), "c3": (1, "good"), "d3": (1, "bad"), "f3": (0, "bad")})
    state.apply(0, "a5 n")  # a good ghost reaches a6 under `reach`: seat 0 wins
    policy = GeisterFastPlayouts(SeatKnowledge(state, 0))
    assert state.outcome() is not None
    assert policy.playout(state, random.Random(1)) == rank_rewards(state.outcome())  # type: ignore[arg-type]


def test_fast_playouts_win_as_often_as_playouts_through_the_contract() -> None:
    """From an uneven position (seat 0 two good ghosts up), the mean reward of 1,500 playouts of each kind
    agrees within four standard errors; a world still in the setup is played out too."""
    state = position({"b4": (0, "good"), "c4": (0, "good"), "d4": (0, "good"), "e2": (0, "bad"),
                      "b5": (1, "good"), "c5": (1, "bad"), "d5": (1, "bad"), "e5": (1, "bad")},
                     options={"exit": "escape", "max_plies": 300})
    knowledge = SeatKnowledge(state, 0)
    fast_policy, plain = GeisterFastPlayouts(knowledge), SearchPolicy(knowledge)
    rng = random.Random(5)
    n = 1500
    fast_mean = sum(fast_policy.playout(state.clone(), rng)[0] for _ in range(n)) / n  # type: ignore[index]
    plain_mean = sum(IsmctsBot._playout(state.clone(), plain, rng)[0] for _ in range(n)) / n
    assert 0.55 < plain_mean < 0.95  # the position is uneven, so the comparison means something
    assert abs(fast_mean - plain_mean) < 4 * (0.25 / n) ** 0.5 * 2**0.5
    fresh = GAME.new(2, {"exit": "reach"}, seed=3)
    assert fast_policy.playout(fresh, rng) in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
