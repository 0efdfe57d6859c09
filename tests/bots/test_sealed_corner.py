"""A corner our last bad ghost holds (bots/geister/expert.py, `SealedPolicy`): with three of our bad ghosts taken, an
enemy ghost can leave by that corner only after taking the ghost standing on it, the fourth of our bad ones taken,
which loses it the game. So a ghost a step from that corner is no threat there, and the guard need not gamble on
taking it when it may be the enemy's last bad ghost (docs/research/geister-expert.md, "A corner our last bad ghost
holds")."""

from __future__ import annotations

import pytest

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister import fast_search
from ghostgames.bots.geister.expert import CornerPolicy, SealedPolicy
from ghostgames.bots.geister.heuristic import HEURISTIC
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.games.geister import GeisterState, fast
from ghostgames.games.geister.actions import Move, parse_action
from ghostgames.games.geister.board import EXITS, parse_square
from tests.games.geister.positions import position

# Both sides one bad ghost from losing: our last bad ghost on f1, the enemy's corner; the enemy's f3 (it and c5 are
# good, e6 is its last bad ghost) walks to f2, a step from f1, where our e2 and f1 could take it.
BOTH_LAST_BAD = {
    "f1": (0, "bad"), "e2": (0, "good"), "a2": (0, "good"), "b3": (0, "good"),
    "f3": (1, "good"), "c5": (1, "good"), "e6": (1, "bad"),
}  # fmt: skip


def _walked(ghosts: dict[str, tuple[int, str]], step: str = "f3 s") -> SeatKnowledge:
    return SeatKnowledge(_walked_state(ghosts, step), 0)


def _walked_state(ghosts: dict[str, tuple[int, str]], step: str = "f3 s") -> GeisterState:
    state = position(ghosts, turn=1, options={"exit": "escape"})
    state.apply(1, parse_action(step))
    return state


def _captures_of(square: str, moves: list[str]) -> list[str]:
    return [m for m in moves if isinstance(parse_action(m), Move) and parse_action(m).target == parse_square(square)]


def test_a_walker_next_to_the_corner_our_last_bad_ghost_holds_is_not_taken_on_a_gamble() -> None:
    knowledge = _walked(BOTH_LAST_BAD)
    sealed, open_corner = SealedPolicy(knowledge), CornerPolicy(knowledge)
    for policy in (sealed, open_corner):  # read as more likely good than bad: the guard would take it if it threatened
        policy.good_probability = dict.fromkeys(policy.good_probability, 0.7)
    assert sealed.picture.captured[0]["bad"] == 3 and sealed.picture.captured[1]["bad"] == 3
    legal = knowledge.legal_actions()
    before = [str(m) for m in open_corner.allowed(legal)]
    after = [str(m) for m in sealed.allowed(legal)]
    assert sorted(before) == ["e2 e", "f1 n"]  # the corner read as open: the guard's only moves are the gamble
    assert sealed.open_exits() == [parse_square("a1")]
    assert not _captures_of("f2", after) and len(after) > 2  # no gamble; the search chooses among the rest
    walker = sealed.picture.board[parse_square("f2")]
    assert walker not in sealed.threats() and walker in open_corner.threats()


def test_the_corner_is_open_when_its_keeper_is_good_or_our_fourth_bad_ghost_is_still_out() -> None:
    """A good keeper may be taken safely; with two of our bad ghosts taken, taking one more does not lose."""
    good_keeper = {**BOTH_LAST_BAD, "f1": (0, "good"), "e2": (0, "bad")}
    two_taken = {**BOTH_LAST_BAD, "c1": (0, "bad")}
    for ghosts in (good_keeper, two_taken):
        knowledge = _walked(ghosts)
        sealed, open_corner = SealedPolicy(knowledge), CornerPolicy(knowledge)
        both = sorted([parse_square("a1"), parse_square("f1")])
        assert sealed.open_exits() == open_corner.open_exits() == both
        legal = knowledge.legal_actions()
        assert sealed.allowed(legal) == open_corner.allowed(legal)


def test_the_hand_evaluation_counts_only_open_exits_with_sealed_exits_and_the_kernel_agrees() -> None:
    """With `sealed_exits`, the enemy's walker a step from f1 is five steps from its one open exit (a1): the position
    is worth more to us. The compiled evaluation reads it exactly as the Python one, sealed or not."""
    state = _walked_state(BOTH_LAST_BAD)
    row = fast.from_state(state)
    policy = GeisterPolicy(SeatKnowledge(state, 0))
    values = {}
    for sealed in (0.0, 1.0):
        policy.heuristic = HEURISTIC._replace(sealed_exits=sealed)
        values[sealed] = policy.evaluate(state)[0]
        kernel = fast_search.leaf_value(row, 0, fast_search.HAND, policy.heuristic, fast_search.shipped_value())
        assert kernel == pytest.approx(values[sealed], abs=1e-12)
    assert values[1.0] > values[0.0]
    assert fast_search.sealed_exit(row, 1) == sorted(EXITS[1]).index(parse_square("f1"))
    assert fast_search.sealed_exit(row, 0) == -1  # the enemy's last bad ghost, e6, is on no exit of ours
