"""The Geister belief (what the enemy's moves reveal) and the expert's exit guard."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.belief import (
    LEARNED_WEIGHTS,
    MODELS,
    RUNNER_WEIGHTS,
    SEARCH_WEIGHTS,
    WEIGHTS,
    Model,
    belief,
    belief_of_view,
    model_shares,
)
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.picture import read
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import parse_square
from tests.bots.positions import positions
from tests.games.geister.positions import position

TABLES = [{"exit": "escape", "max_plies": 300}, {"exit": "reach"}]


def recoloured(state: GeisterState, seat: int) -> GeisterState | None:
    """The same position with two hidden enemy ghosts of different colours swapped (None: no such pair)."""
    enemy = 1 - seat
    hidden = [g for g in range(enemy * 8, enemy * 8 + 8) if not state.colour_known(g, seat)]
    good = [g for g in hidden if state.good[g]]
    bad = [g for g in hidden if not state.good[g]]
    if not good or not bad:
        return None
    twin = state.clone()
    twin.good[good[0]], twin.good[bad[0]] = False, True
    return twin


def beliefs_compared_in_recoloured_twins(policy: type[BeliefPolicy], options: dict[str, Any],
                                        seeds: tuple[int, ...]) -> int:
    """Along real games, `policy`'s belief in each position and in its twin with two hidden enemy colours swapped
    (the same view) must be the same; returns how many pairs were compared."""
    compared = 0
    for seed in seeds:
        for state, seat in positions("geister", 2, options, seed, every=5):
            assert isinstance(state, GeisterState)
            if state.setup_phase() or state.outcome() is not None:
                continue
            twin = recoloured(state, seat)
            if twin is None:
                continue
            assert twin.good != state.good and twin.view(seat) == state.view(seat)
            mine = policy(SeatKnowledge(state, seat)).belief
            theirs = policy(SeatKnowledge(twin, seat)).belief
            assert mine.colourings == theirs.colourings
            assert mine.probabilities == theirs.probabilities
            compared += 1
    return compared


@pytest.mark.parametrize("options", TABLES, ids=lambda o: str(o["exit"]))
def test_two_worlds_that_differ_only_in_hidden_colours_give_the_same_belief(options: dict[str, Any]) -> None:
    assert beliefs_compared_in_recoloured_twins(BeliefPolicy, options, (1, 2, 3)) >= 10


@pytest.mark.parametrize("options", TABLES, ids=lambda o: str(o["exit"]))
def test_the_belief_deals_only_colourings_that_are_still_possible(options: dict[str, Any]) -> None:
    for state, seat in positions("geister", 2, options, 4, every=3):
        assert isinstance(state, GeisterState)
        if state.setup_phase() or state.outcome() is not None:
            continue
        enemy = 1 - seat
        hidden = [g for g in range(enemy * 8, enemy * 8 + 8) if not state.colour_known(g, seat) and state.pos[g] >= 0]
        goods = sum(1 for g in hidden if state.good[g])
        b = belief_of_view(state.view(seat))
        assert sorted(b.hidden) == hidden
        assert all(len(c) == goods for c in b.colourings)
        assert abs(sum(b.probabilities) - 1) < 1e-9
        assert abs(sum(b.good_probability().values()) - goods) < 1e-9
        # the true colouring is never ruled out
        assert frozenset(g for g in hidden if state.good[g]) in b.colourings


def test_under_reach_a_ghost_on_its_owners_exit_is_never_dealt_good() -> None:
    ghosts = {
        "c2": (0, "good"), "d2": (0, "bad"), "b3": (0, "good"), "e3": (0, "bad"),
        "a1": (1, "bad"), "c5": (1, "good"), "d5": (1, "good"), "e5": (1, "bad"),
    }  # fmt: skip
    state = position(ghosts, turn=0)
    policy = BeliefPolicy(SeatKnowledge(state, 0))
    on_exit = state.board[0]  # a1 is one of the exits seat 1 plays towards
    assert policy.good_probability[on_exit] == 0.0
    worlds = [policy.determinize(random.Random(seed)) for seed in range(40)]
    assert not any(w.good[on_exit] for w in worlds)  # type: ignore[attr-defined]
    assert {sum(bool(w.good[g]) for g in range(8, 16)) for w in worlds} == {4}  # type: ignore[attr-defined]


def _marched() -> tuple[GeisterState, int]:
    """A game where seat 1's ghost on b5 has walked to a3, towards its exit a1; the ghost's id."""
    state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300, "first": 0}, seed=5)
    assert isinstance(state, GeisterState)
    state.apply(0, "setup b2 c2 d2 e2")
    state.apply(1, "setup b5 c5 d6 e6")
    # seat 1's ghost on b5 walks down the a/b files towards a1; seat 0 shuffles at the back
    for ours, theirs in [("b1 w", "b5 s"), ("a1 e", "b4 s"), ("b1 w", "b3 w")]:
        state.apply(0, ours)
        state.apply(1, theirs)
    return state, state.board[parse_square("a3")]


def test_read_as_the_simple_bots_play_a_ghost_that_marched_at_its_exit_looks_more_likely_good() -> None:
    state, runner = _marched()
    p = belief_of_view(state.view(0), WEIGHTS).good_probability()
    never_moved = [g for g in p if g != runner]
    assert WEIGHTS["forward"] > 0
    assert p[runner] > 0.5 > min(p[g] for g in never_moved)


def test_read_as_search_bots_play_the_same_ghost_looks_more_likely_bad() -> None:
    """Search bots send bad ghosts ahead and keep good ones back: the other model reads the runner the
    other way, and the expert's belief, a mixture of the two, gives it a chance in between."""
    state, runner = _marched()
    simple = belief_of_view(state.view(0), WEIGHTS).good_probability()[runner]
    search = belief_of_view(state.view(0), SEARCH_WEIGHTS).good_probability()[runner]
    mixed = belief_of_view(state.view(0)).good_probability()[runner]
    assert search < 0.5 < simple
    assert search < mixed < simple


def test_read_as_the_learned_runners_play_a_ghost_that_marched_at_its_exit_looks_good() -> None:
    """The learned runners' weights (fitted on games of the PPO `runner` and `rush`) read steps towards the
    exit as good."""
    state, runner = _marched()
    view = state.view(0)
    assert LEARNED_WEIGHTS["forward"] > 0
    assert belief_of_view(view, LEARNED_WEIGHTS).good_probability()[runner] > 0.5


def _expert_choice(ghosts: dict[str, tuple[int, str]], options: dict[str, Any], seed: int, bot: str = "expert") -> str:
    state = position(ghosts, turn=0, options=options)
    return str(get_bot(f"{bot}:60").choose(SeatKnowledge(state, 0), random.Random(seed)))


def test_the_expert_takes_an_enemy_ghost_standing_on_its_exit_under_escape() -> None:
    ghosts = {
        "b1": (0, "bad"), "c2": (0, "good"), "d3": (0, "good"), "e2": (0, "bad"),
        "a1": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e5": (1, "bad"),
    }  # fmt: skip
    assert {_expert_choice(ghosts, {"exit": "escape"}, seed) for seed in range(6)} == {"b1 w"}


def test_the_expert_takes_an_enemy_ghost_next_to_its_exit_under_reach() -> None:
    ghosts = {
        "a3": (0, "bad"), "b4": (0, "good"), "d3": (0, "good"), "e2": (0, "bad"),
        "a2": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e5": (1, "bad"),
    }  # fmt: skip
    assert {_expert_choice(ghosts, {"exit": "reach"}, seed) for seed in range(6)} == {"a3 s"}


def test_the_expert_takes_a_ghost_that_may_be_good_two_steps_from_its_exit_before_it_gets_out_of_reach() -> None:
    ghosts = {
        "b3": (0, "bad"), "c2": (0, "good"), "d4": (0, "good"), "e2": (0, "bad"),
        "a3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e5": (1, "bad"),
    }  # fmt: skip
    # a3 is two steps from a1 and nothing of ours is in time to stand next to a1 when it gets there: once it
    # moves it is gone unless we take it now (`expert-v5`) or, with two of its bad ghosts taken already, bring
    # a keeper in time out of its reach and take it on the corner (`expert` since `expert-v6`: b3 s or c2 w
    # to b2, c2 s to c1); never a move that leaves it its way
    assert {_expert_choice(ghosts, {"exit": "escape"}, seed, "expert-v5") for seed in range(6)} == {"b3 w"}
    assert {_expert_choice(ghosts, {"exit": "escape"}, seed) for seed in range(6)} <= {"b3 w", "b3 s", "c2 w", "c2 s"}


def test_with_three_bad_ghosts_taken_the_guard_does_not_take_a_likely_fourth() -> None:
    ghosts = {
        "b3": (0, "bad"), "c2": (0, "good"), "d4": (0, "good"), "e2": (0, "bad"),
        "a3": (1, "bad"), "c5": (1, "good"), "d5": (1, "good"), "e5": (1, "good"), "f5": (1, "good"),
    }  # fmt: skip
    # seat 1 has lost three bad ghosts: any hidden ghost taken may be the fourth, and a3 is not about to leave
    state = position(ghosts, turn=0, options={"exit": "escape"})
    assert BeliefPolicy(SeatKnowledge(state, 0)).answers(state.legal_actions(0)) == []


def test_expert_v1_is_still_there_and_differs_from_the_expert() -> None:
    assert get_bot("expert-v1").name == "expert-v1"
    assert get_bot("expert-v1:50").name == "expert-v1"
    assert get_bot("expert:50").name == "expert"
    assert get_bot("hard").name == "expert"


def _played(bots: tuple[str, str], seed: int) -> GeisterState:
    state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300}, seed=seed)
    assert isinstance(state, GeisterState)
    players = [get_bot(name) for name in bots]
    rng = random.Random(seed)
    while state.to_act():
        seat = min(state.to_act())
        state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**63))))
    return state


def test_against_charge_the_belief_comes_to_trust_the_runner_model() -> None:
    """`charge` marches one ghost at a time (it moves the same ghost again nearly always), and each ghost
    seat 0 took had the colour the runner's weights foretold, so Bayes' rule moves the belief's trust from
    the prior 0.1 to the runner model."""
    assert MODELS[0].share == 0.1 and MODELS[0].weights == RUNNER_WEIGHTS and MODELS[0].repeats > 0.9
    for seed in (0, 1, 2):
        state = _played(("rules", "charge"), seed)
        view = state.view(0)
        assert sum(view["captured"][1].values()) >= 2
        shares = model_shares(read(view), list(view["moves"]), MODELS)
        assert shares[0] > 0.9 and sum(shares) == pytest.approx(1.0)


def test_two_equal_models_keep_their_shares_and_read_as_one() -> None:
    state = _played(("rules", "rules"), 3)
    taken = 0
    for seat in (0, 1):
        view = state.view(seat)
        taken += sum(view["captured"][1 - seat].values())
        picture, moves = read(view), list(view["moves"])
        twins = (Model(0.3, WEIGHTS, 0.4), Model(0.7, WEIGHTS, 0.4))
        assert model_shares(picture, moves, twins) == pytest.approx([0.3, 0.7])
        one = belief(picture, moves, WEIGHTS)
        two = belief(picture, moves, twins)
        assert one.colourings == two.colourings
        assert two.probabilities == pytest.approx(one.probabilities)
    assert taken >= 2  # the shares were put to the test by ghosts taken


def test_a_player_that_keeps_moving_one_ghost_is_read_as_a_runner_before_any_capture() -> None:
    """Only the repeats speak here: no ghost was taken yet. The enemy's moves were all the same ghost,
    which a runner does far more often than the others (MODELS' `repeats`), so its model gains trust;
    with equal repeat rates every share stays at its prior."""
    state, _ = _marched()
    view = state.view(0)
    assert not any(view["captured"][1].values())
    shares = model_shares(read(view), list(view["moves"]), MODELS)
    assert MODELS[0].repeats > MODELS[1].repeats > MODELS[2].repeats
    assert shares[0] > MODELS[0].share and shares[2] < MODELS[2].share
    even = tuple(model._replace(repeats=0.5) for model in MODELS)
    assert model_shares(read(view), list(view["moves"]), even) == pytest.approx([m.share for m in MODELS])
