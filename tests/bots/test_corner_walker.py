"""The expert's reading of the corner walker (bots/geister/expert.py, `CornerPolicy`, adopted the evening of
5 December 2026): with the enemy's last bad ghost left, a ghost that has just stepped onto our exit corner leaves
next move if it is good and loses us the game if we take it and it is bad. The belief reads such walkers low; the
expert reads them at the chance calibrated on them (`CORNER_SHIFT`), and only them."""

from __future__ import annotations

import math
import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import CORNER_SHIFT, CornerPolicy, RunOnPolicy, shifted
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.actions import parse_action
from ghostgames.games.geister.board import parse_square
from tests.games.geister.positions import position

# Three of the enemy's bad ghosts taken: f2 (good), c5 (good) and e6 (bad) are all it has left, two of three
# hidden ghosts good. Our e1 can take whatever stands on the corner f1.
LAST_BAD = {
    "e1": (0, "bad"), "a2": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
    "f2": (1, "good"), "c5": (1, "good"), "e6": (1, "bad"),
}  # fmt: skip


def _after(ghosts: dict[str, tuple[int, str]], step: str) -> SeatKnowledge:
    """Our seat (0) to move just after the enemy's `step`."""
    return SeatKnowledge(_state_after(ghosts, step), 0)


def _state_after(ghosts: dict[str, tuple[int, str]], step: str) -> GeisterState:
    state = position(ghosts, turn=1, options={"exit": "escape"})
    state.apply(1, parse_action(step))
    return state


def _read_at(policy: RunOnPolicy, chance: float) -> RunOnPolicy:
    policy.good_probability = dict.fromkeys(policy.good_probability, chance)
    return policy


def test_the_walker_on_our_corner_with_the_last_bad_ghost_left_is_read_as_calibrated_and_taken() -> None:
    """Read at 0.25 by the belief: `expert-run-on` moves it halfway to the even guess (0.46, under even odds) and
    lets the search weigh the gamble; the expert reads it at 0.70 and its guard takes it."""
    knowledge = _after(LAST_BAD, "f2 s")
    corner, before = _read_at(CornerPolicy(knowledge), 0.25), _read_at(RunOnPolicy(knowledge), 0.25)
    walker = corner.picture.board[parse_square("f1")]
    assert corner.arrival == walker and corner.picture.captured[1]["bad"] == 3
    assert abs(before.guard_chance(walker) - (0.25 + 0.5 * (2 / 3 - 0.25))) < 1e-9
    assert abs(corner.guard_chance(walker) - shifted(0.25, CORNER_SHIFT)) < 1e-9
    assert 0.69 < corner.guard_chance(walker) < 0.71
    legal = knowledge.legal_actions()
    assert {str(m) for m in corner.allowed(legal)} == {"e1 e"}
    assert {str(m) for m in before.allowed(legal)} != {"e1 e"}


def test_a_walker_a_step_out_or_with_two_bad_ghosts_left_is_read_as_before() -> None:
    """The shift is fitted on the corner itself with one bad ghost left; elsewhere the expert reads as
    `expert-run-on` does."""
    a_step_out = _after({**{k: v for k, v in LAST_BAD.items() if k != "f2"}, "f3": (1, "good")}, "f3 s")
    two_bad_left = _after({**LAST_BAD, "d6": (1, "bad")}, "f2 s")
    for knowledge in (a_step_out, two_bad_left):
        corner, before = _read_at(CornerPolicy(knowledge), 0.25), _read_at(RunOnPolicy(knowledge), 0.25)
        assert corner.arrival >= 0 and corner.arrival == before.arrival
        assert corner.guard_chance(corner.arrival) == before.guard_chance(before.arrival)


def test_the_shift_keeps_the_order_and_the_certain_readings() -> None:
    readings = [0.01, 0.07, 0.25, 0.5, 0.9]
    moved = [shifted(p, CORNER_SHIFT) for p in readings]
    assert moved == sorted(moved) and all(m > p for m, p in zip(moved, readings, strict=True))
    assert shifted(0.0, CORNER_SHIFT) == 0.0 and shifted(1.0, CORNER_SHIFT) == 1.0
    assert abs(shifted(0.5, CORNER_SHIFT) - 1 / (1 + math.exp(-CORNER_SHIFT))) < 1e-12


def test_the_expert_chooses_the_same_whatever_the_hidden_colours_behind_the_walker() -> None:
    """The reading is the seat's own (the move list, the captures, the belief): worlds that differ only in the
    enemy's colours the seat has not seen give the same move, here where the corner reading decides."""
    state = _state_after(LAST_BAD, "f2 s")
    chosen, recoloured = set(), 0
    for seed in range(3):
        twin = state.sample_world(0, random.Random(seed))
        assert isinstance(twin, GeisterState) and twin.view(0) == state.view(0)
        recoloured += twin.good != state.good
        first = get_bot("expert-corner:200").choose(SeatKnowledge(state, 0), random.Random(5))
        second = get_bot("expert-corner:200").choose(SeatKnowledge(twin, 0), random.Random(5))
        assert str(first) == str(second)
        chosen.add(str(first))
    assert chosen == {"e1 e"} and recoloured > 0  # the guard takes the walker, whatever colours were dealt
