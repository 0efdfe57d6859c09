"""The memory of the opponent's setups across a match (bots/geister/memory.py)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.memory import SETUPS, SetupMemory, setup_seen
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState


def finished(bots: tuple[str, str], seed: int, disclose: bool) -> GeisterState:
    """A game between two simple bots played to its end."""
    state = get_game("geister").new(2, {"exit": "escape", "disclose": disclose}, seed=seed)
    assert isinstance(state, GeisterState)
    players = [get_bot(name) for name in bots]
    rng = random.Random(seed)
    while state.to_act():
        seat = min(state.to_act())
        state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), rng))
    return state


def true_setup(state: GeisterState, owner: int) -> frozenset[int]:
    return frozenset(g & 7 for g in range(owner * 8, owner * 8 + 8) if state.good[g])


def test_a_disclosed_final_view_shows_the_opponents_whole_setup() -> None:
    for seed in range(6):
        state = finished(("rules", "random"), seed, disclose=True)
        for seat in (0, 1):
            assert setup_seen(state.view(seat)) == true_setup(state, 1 - seat)


def test_without_disclose_a_setup_is_read_only_when_four_of_a_colour_are_seen() -> None:
    read = skipped = 0
    for seed in range(30):
        state = finished(("rules", "random"), seed, disclose=False)
        for seat in (0, 1):
            view: dict[str, Any] = state.view(seat)
            seen = setup_seen(view)
            shown = [g for g in view["ghosts"] if g["owner"] != seat and g["colour"] is not None]
            goods = sum(g["colour"] == "good" for g in shown)
            if goods == 4 or len(shown) - goods == 4:
                assert seen == true_setup(state, 1 - seat)
                read += 1
            else:
                assert seen is None
                skipped += 1
    assert read > 0 and skipped > 0


def test_the_same_ghost_number_is_the_same_start_square_for_either_seat() -> None:
    """runner-3 plays one setup (benchmarks/runner_setups.py): read from either seat's side, its numbers agree."""
    seen = set()
    for seed in range(4):
        runner_seat = seed % 2
        names = ("runner-3", "random") if runner_seat == 0 else ("random", "runner-3")
        state = finished(names, seed, disclose=True)
        seen.add(setup_seen(state.view(1 - runner_seat)))
    assert seen == {frozenset({1, 5, 6, 7})}


def test_no_game_or_one_game_leaves_the_prior_uniform() -> None:
    memory = SetupMemory()
    assert set(memory.prior().values()) == {1 / 70}
    memory.add(frozenset({0, 1, 5, 6}))
    assert memory.concentration() == math.inf
    assert not memory.informative()
    assert memory.chance(frozenset({0, 1, 5, 6})) == 1 / 70


def test_an_opponent_that_repeats_is_trusted_at_once() -> None:
    setup = frozenset({1, 3, 4, 6})
    memory = SetupMemory([setup, setup])
    assert memory.concentration() == min(c for c in (0.1, 1.0, 10.0))
    assert memory.chance(setup) > 0.9
    assert sum(memory.prior().values()) == pytest.approx(1.0)
    memory.add(frozenset({0, 1, 2, 3}))  # one change: still mostly the repeated setup
    assert max(memory.prior(), key=memory.prior().__getitem__) == setup


def test_an_opponent_that_draws_its_setups_leaves_the_prior_near_uniform() -> None:
    """Nine setups drawn at random: the prior stays uniform unless some repeat by chance, and even then no
    setup gets a sixth of the 0.95 a repeating opponent's gets."""
    rng = random.Random(7)
    uniform = 0
    for _ in range(20):
        memory = SetupMemory(rng.choice(SETUPS) for _ in range(9))
        assert max(memory.prior().values()) < 0.15
        uniform += not memory.informative()
    assert uniform >= 10


def test_a_partly_seen_game_is_ignored_and_a_memory_survives_json() -> None:
    memory = SetupMemory()
    view = {"seat": 0, "ghosts": [{"id": g, "colour": "good" if g in (8, 9) else None} for g in range(16)]}
    assert not memory.learn(view)
    assert memory.setups == []
    memory.add(frozenset({0, 1, 5, 6}))
    assert SetupMemory(memory.to_json()).setups == memory.setups
    with pytest.raises(ValueError):
        memory.add(frozenset({0, 1, 2}))
