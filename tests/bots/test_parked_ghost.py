"""Our last bad ghost parked on a corner (bots/geister/expert.py, `ParkedPolicy`): with the enemy holding three of our
bad ghosts, a corner our last one stands on is sealed (the enemy would lose by taking it), so while no corner is
sealed and the guard has nothing to take, that ghost walks to the nearest free corner, and once there it stays
(docs/research/geister-expert.md, "Our last bad ghost parked on a corner")."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import ParkedPolicy, SealedPolicy
from ghostgames.bots.geister.picture import distance
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.actions import Move, parse_action
from ghostgames.games.geister.board import parse_square
from tests.games.geister.positions import position

# The enemy holds three of our bad ghosts: our last one on d3, four steps from f1 and five from a1 (the enemy's exit
# corners); every enemy ghost far from them. After the enemy's c5 steps to c4 it is our move.
LAST_BAD_AWAY = {
    "d3": (0, "bad"), "b2": (0, "good"), "e2": (0, "good"),
    "c5": (1, "good"), "d6": (1, "good"), "e5": (1, "bad"), "b6": (1, "bad"),
}  # fmt: skip


def _after(ghosts: dict[str, tuple[int, str]], step: str = "c5 s") -> GeisterState:
    state = position(ghosts, turn=1, options={"exit": "escape"})
    state.apply(1, parse_action(step))
    return state


def _moves(policy: ParkedPolicy | SealedPolicy, knowledge: SeatKnowledge) -> list[str]:
    return sorted(str(m) for m in policy.allowed(knowledge.legal_actions()))


def test_our_last_bad_ghost_walks_towards_the_nearest_free_corner() -> None:
    knowledge = SeatKnowledge(_after(LAST_BAD_AWAY), 0)
    parked, sealed = ParkedPolicy(knowledge), SealedPolicy(knowledge)
    assert parked.picture.captured[0]["bad"] == 3 and not parked.threats()
    walking = _moves(parked, knowledge)
    assert walking == ["d3 e", "d3 s"]  # each a step nearer f1: to e3 or d2
    assert all(distance(parse_action(m).target, parse_square("f1")) == 3 for m in walking)  # type: ignore[attr-defined]
    assert len(_moves(sealed, knowledge)) > len(walking)  # without the rule the search chooses among every move


def test_a_corner_another_ghost_stands_on_is_not_walked_to() -> None:
    """Our good ghost on f1: the walk goes to a1, the free one, although f1 is nearer."""
    knowledge = SeatKnowledge(_after({**LAST_BAD_AWAY, "f1": (0, "good")}), 0)
    walking = _moves(ParkedPolicy(knowledge), knowledge)
    assert walking == ["d3 s", "d3 w"]  # to d2 or c3: four steps from a1


def test_once_on_the_corner_it_stays_even_with_no_enemy_near() -> None:
    """`SealedPolicy` lets the keeper go when no enemy ghost is within three steps; the parked ghost stays."""
    ghosts = {**{s: g for s, g in LAST_BAD_AWAY.items() if s != "d3"}, "f1": (0, "bad")}
    knowledge = SeatKnowledge(_after(ghosts), 0)
    keeper = {str(m) for m in knowledge.legal_actions() if isinstance(m, Move) and m.origin == parse_square("f1")}
    assert keeper and keeper <= set(_moves(SealedPolicy(knowledge), knowledge))
    parked = _moves(ParkedPolicy(knowledge), knowledge)
    assert parked and not keeper & set(parked)


def test_with_fewer_of_our_bad_ghosts_taken_nothing_changes() -> None:
    """Two of our bad ghosts taken: a third may be taken without losing, so no corner is sealed nor walked to."""
    knowledge = SeatKnowledge(_after({**LAST_BAD_AWAY, "a3": (0, "bad")}), 0)
    assert _moves(ParkedPolicy(knowledge), knowledge) == _moves(SealedPolicy(knowledge), knowledge)


def test_the_guards_captures_come_first() -> None:
    """An enemy ghost on our corner a1 leaves next move if good: the guard's capture of it is what is allowed."""
    ghosts = {**LAST_BAD_AWAY, "a2": (1, "good"), "b1": (0, "good")}
    knowledge = SeatKnowledge(_after(ghosts, step="a2 s"), 0)
    parked = ParkedPolicy(knowledge)
    assert parked.answers(knowledge.legal_actions())
    assert _moves(parked, knowledge) == _moves(SealedPolicy(knowledge), knowledge) == ["b1 w"]


def test_the_walk_is_read_from_what_the_seat_may_know() -> None:
    """Worlds that differ only in the enemy's colours we have not seen give the same move."""
    twin = {**LAST_BAD_AWAY, "c5": (1, "bad"), "e5": (1, "good")}
    first = get_bot("expert-parked:200").choose(SeatKnowledge(_after(LAST_BAD_AWAY), 0), random.Random(5))
    second = get_bot("expert-parked:200").choose(SeatKnowledge(_after(twin), 0), random.Random(5))
    assert first == second
