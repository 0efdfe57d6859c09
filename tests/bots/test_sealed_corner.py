"""A corner our last bad ghost holds (bots/geister/expert.py, `SealedPolicy`): with three of our bad ghosts taken, an
enemy ghost can leave by that corner only after taking the ghost standing on it, the fourth of our bad ones taken,
which loses it the game. So a ghost a step from that corner is no threat there, and the guard need not gamble on
taking it when it may be the enemy's last bad ghost; and the seal lasts while its keeper stays on the corner
(docs/research/geister-expert.md, "A corner our last bad ghost holds")."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import CornerPolicy, SealedPolicy
from ghostgames.bots.geister.picture import distance
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.actions import Move, parse_action
from ghostgames.games.geister.board import parse_square
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


def test_the_keeper_stays_on_its_corner_while_an_enemy_ghost_is_near() -> None:
    """Our last bad ghost on f1 could step to e1 or take the walker on f2; neither is allowed while the walker is near
    (either would open the corner); with no enemy ghost within three steps of f1 it may go."""
    legal_moves = _walked(BOTH_LAST_BAD).legal_actions()
    keeper_moves = [str(m) for m in legal_moves if isinstance(m, Move) and m.origin == parse_square("f1")]
    assert keeper_moves  # it could move
    allowed = [str(m) for m in SealedPolicy(_walked(BOTH_LAST_BAD)).allowed(legal_moves)]
    assert not set(keeper_moves) & set(allowed)
    away = {square: ghost for square, ghost in BOTH_LAST_BAD.items() if square != "f3"}
    far = _walked({**away, "d4": (1, "good")}, step="d4 n")  # every enemy ghost four steps or more from f1
    assert all(distance(square, parse_square("f1")) > 3 for square in (parse_square(s) for s in ("d5", "c5", "e6")))
    far_keeper = [str(m) for m in far.legal_actions() if isinstance(m, Move) and m.origin == parse_square("f1")]
    assert set(far_keeper) & {str(m) for m in SealedPolicy(far).allowed(far.legal_actions())}


def test_the_expert_reads_the_sealed_corner_from_what_it_may_know() -> None:
    """Worlds that differ only in the enemy's colours we have not seen give the same move where the seal decides."""
    state = _walked_state(BOTH_LAST_BAD)
    twin = _walked_state({**BOTH_LAST_BAD, "f3": (1, "bad"), "e6": (1, "good")})
    first = get_bot("expert-sealed:200").choose(SeatKnowledge(state, 0), random.Random(5))
    second = get_bot("expert-sealed:200").choose(SeatKnowledge(twin, 0), random.Random(5))
    assert first == second
