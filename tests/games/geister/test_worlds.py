"""Sampled worlds respect every colour the rules let each seat deduce (issue 14, point 10).

The deductions are made here from the events of the real game, not with the engine's own helper: a
ghost that lands on one of its owner's exits under `reach` and the game goes on is bad, for ever after.
"""

from __future__ import annotations

import random

from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import EXITS
from tests import contract_checks as checks
from tests.games.geister.positions import position

GAME = get_game("geister")


def test_review_10_geister_a_ghost_on_its_own_exit_is_bad_in_every_world() -> None:
    checked = 0
    for seed in range(60):
        state = GAME.new(2, {"exit": "reach"}, seed=seed)
        assert isinstance(state, GeisterState)
        rng = random.Random(seed)
        known_bad: set[int] = set()
        while state.to_act():
            seat = rng.choice(sorted(state.to_act()))
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            for event in events:
                ghost = event.public.get("ghost") if event.kind == "move" else None
                if ghost is not None and state.outcome() is None and state.pos[ghost] in EXITS[ghost >> 3]:
                    known_bad.add(ghost)
            for viewer in (0, 1):
                hidden = [g for g in known_bad if g >> 3 != viewer and not state.colour_known(g, viewer)]
                for _ in range(4 if hidden else 0):
                    world = state.sample_world(viewer, rng)
                    assert isinstance(world, GeisterState)
                    for g in hidden:
                        assert world.good[g] is False, (seed, state.moves, g)
                        checked += 1
                    enemy = world.good[(1 - viewer) * 8 : (2 - viewer) * 8]
                    assert enemy.count(True) == 4 and enemy.count(False) == 4
    assert checked > 200, checked  # the check bites: such ghosts are common in random games


def test_review_10_geister_the_ghost_that_won_by_reaching_an_exit_is_good_in_every_world() -> None:
    won = 0
    for seed in range(80):
        state, _ = checks.play_out("geister", 2, {"exit": "reach"}, seed)
        assert isinstance(state, GeisterState)
        outcome = state.outcome()
        assert outcome is not None
        if "reached an exit" not in outcome.reason:
            continue
        winner = next(s for s in (0, 1) if outcome.results[s].result == "win")
        loser = 1 - winner
        ghost = next(g for g in range(winner * 8, winner * 8 + 8) if state.pos[g] in EXITS[winner] and state.good[g])
        if state.colour_known(ghost, loser):
            continue
        won += 1
        rng = random.Random(seed)
        for _ in range(10):
            world = state.sample_world(loser, rng)
            assert world.good[ghost] is True  # type: ignore[attr-defined]
    assert won > 5


def test_review_10_geister_a_bad_ghost_that_left_its_exit_is_still_known_bad() -> None:
    state = GAME.new(2, {"exit": "reach", "first": 1}, seed=3)
    assert isinstance(state, GeisterState)
    state.apply(0, "setup b1 c1 d1 e1")
    state.apply(1, "setup c6 d6 e6 b6")  # seat 1's front row b5..e5 is bad
    for seat, move in [(1, "b5 w"), (0, "b2 n"), (1, "a5 s"), (0, "b3 n"), (1, "a4 s"), (0, "b4 e"), (1, "a3 s"),
                       (0, "c4 w"), (1, "a2 s"), (0, "b4 e")]:
        state.apply(seat, move)
    assert state.pos[11] == 0 and state.outcome() is None  # seat 1's ghost 11 stands on its exit a1
    state.apply(1, "a1 e")  # and walks off it, taking seat 0's good ghost on b1
    assert state.pos[11] == 1 and state.outcome() is None
    rng = random.Random(1)
    for _ in range(30):
        assert state.sample_world(0, rng).good[11] is False  # type: ignore[attr-defined]


def test_review_10_geister_under_escape_a_ghost_on_an_exit_may_be_either() -> None:
    state = position({"a6": (0, "good"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad"), "a1": (0, "bad"),
                      "f1": (1, "good"), "e6": (1, "bad"), "f5": (1, "bad"), "e5": (1, "bad"), "d6": (1, "bad")},
                     turn=1, options={"exit": "escape"})
    rng = random.Random(2)
    colours = {state.sample_world(1, rng).good[0] for _ in range(60)}  # type: ignore[attr-defined]
    assert colours == {True, False}


def test_review_10_geister_the_expert_bot_keeps_deduced_colours_in_its_weighted_worlds() -> None:
    """The expert re-deals hidden colours by its belief; a colour the rules give away is no belief."""
    from ghostgames.bots import SeatKnowledge
    from ghostgames.bots.geister.search import GeisterPolicy

    state = position({"a1": (0, "good"), "b1": (0, "bad"), "a2": (0, "bad"), "b2": (0, "bad"), "c1": (0, "bad"),
                      "a6": (1, "good"), "f1": (1, "bad"), "e6": (1, "bad"), "f5": (1, "bad"), "e5": (1, "bad")},
                     turn=1)
    # Seat 1's ghost 9 stands on f1, its own exit, with the game going on: bad. Its ghost 8 on a6 is free.
    policy = GeisterPolicy(SeatKnowledge(state, 0))
    rng = random.Random(5)
    seen = set()
    for _ in range(60):
        world = policy.determinize(rng)
        assert world.good[9] is False  # type: ignore[attr-defined]
        enemy = world.good[8:16]  # type: ignore[attr-defined]
        assert enemy.count(True) == 4
        seen.add(world.good[8])  # type: ignore[attr-defined]
    assert seen == {True, False}
