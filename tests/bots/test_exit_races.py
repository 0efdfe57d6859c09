"""The expert's race guard (bots/geister/expert.py, `RacePolicy.blocks`; `expert-v3` has none): a runner a
few steps from an exit corner is met by a keeper that stays in time, not one that steps up to it and is
taken. And `expert-wary`'s worlds lean towards runners (`WaryPolicy.world_probabilities`; `expert` has none)."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import BeliefPolicy, RacePolicy, WaryPolicy
from ghostgames.games.geister.board import parse_square
from tests.games.geister.positions import position

# Our bad ghost keeps f1; the enemy's f3 (even odds of being good) is three moves from leaving by f1; none
# of ours can take it now. Stepping the keeper up (f1 n) lets f3 take it and walk on: f2, f1, off.
KEEPER = {
    "f1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e6": (1, "bad"),
}  # fmt: skip


def test_the_keeper_may_not_step_up_to_a_runner() -> None:
    knowledge = SeatKnowledge(position(KEEPER, turn=0, options={"exit": "escape"}), 0)
    legal = knowledge.legal_actions()
    policy = RacePolicy(knowledge)
    assert policy.races() and policy.races()[0][1:] == (parse_square("f1"), 2)
    allowed = {str(m) for m in policy.allowed(legal)}
    assert "f1 n" not in allowed and "f1 w" in allowed and len(allowed) < len(legal)
    assert "f1 n" in {str(m) for m in BeliefPolicy(knowledge).allowed(legal)}  # `expert-v3`'s guard allows it


def test_the_search_keeps_the_race() -> None:
    """Whatever the search prefers, it never lets the runner through."""
    knowledge = SeatKnowledge(position(KEEPER, turn=0, options={"exit": "escape"}), 0)
    chosen = {str(get_bot("expert:300").choose(knowledge, random.Random(s))) for s in range(4)}
    assert "f1 n" not in chosen


def test_a_runner_two_moves_from_leaving_is_taken_even_when_it_looks_bad() -> None:
    """f2 is a step from the corner f1 and our keeper can take it. Say the belief gives it 0.15 of being good
    (as it did to `rush`'s runners that took one of ours on their way): `expert-v3`'s guard lets it be, the
    expert's takes a ghost that close from a tenth of a chance."""
    knowledge = SeatKnowledge(position({**{k: v for k, v in KEEPER.items() if k != "f3"}, "f2": (1, "good")},
                                       turn=0, options={"exit": "escape"}), 0)
    policy = RacePolicy(knowledge)
    policy.good_probability = {g: 0.15 for g in policy.good_probability}
    assert {str(m) for m in policy.allowed(knowledge.legal_actions())} == {"f1 n"}
    expert = BeliefPolicy(knowledge)
    expert.good_probability = dict(policy.good_probability)
    assert expert.threats() == [] and len(expert.allowed(knowledge.legal_actions())) > 1


def _marginal(policy: BeliefPolicy, probabilities: list[float]) -> dict[int, float]:
    out = dict.fromkeys(policy.belief.hidden, 0.0)
    for colouring, p in zip(policy.belief.colourings, probabilities, strict=True):
        for g in colouring:
            out[g] += p
    return out


def test_the_worlds_lean_towards_the_runner_and_read_only_what_the_seat_knows() -> None:
    """In the keeper's position the enemy's f3, two steps from our corner f1, is good in more of the search's
    worlds than the belief says, and the ghosts far from our exits in fewer; a world the seat cannot tell
    apart (other hidden colours) gives the same leaning."""
    state = position(KEEPER, turn=0, options={"exit": "escape"})
    policy = WaryPolicy(SeatKnowledge(state, 0))
    runner = policy.picture.board[parse_square("f3")]
    leaning = policy.world_probabilities()
    assert abs(sum(leaning) - 1.0) < 1e-9
    assert policy.runner_tilt > 0 and RacePolicy(SeatKnowledge(state, 0)).world_probabilities() == \
        list(policy.belief.probabilities)  # `expert` deals from the belief as it is
    before, after = policy.good_probability, _marginal(policy, leaning)
    assert after[runner] > before[runner] + 0.1
    assert all(after[g] < before[g] for g in policy.belief.hidden if g != runner)
    for seed in range(3):
        twin = state.sample_world(0, random.Random(seed))
        assert WaryPolicy(SeatKnowledge(twin, 0)).world_probabilities() == leaning
