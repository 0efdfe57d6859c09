"""The sparring styles `charge`, `defender`, `rush`, `runner` and `mixture`: what each does in positions built
for it, that they finish games, and that every place that seats bots by name knows them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ghostgames.bots import SeatKnowledge, bot_names, get_bot
from ghostgames.bots.geister import mixture
from ghostgames.games import get_game
from ghostgames.games.geister.actions import parse_action
from ghostgames.games.geister.board import OFF_BOARD, parse_square
from ghostgames.tournament import TournamentSpec, run_tournament
from tests.bots.positions import play_to_the_end
from tests.games.geister.positions import position

ESCAPE = {"exit": "escape"}


def _choice(bot: str, ghosts: dict[str, tuple[int, str]], seed: int = 0, options: dict[str, Any] = ESCAPE) -> str:
    state = position(ghosts, turn=0, options=options)
    return str(get_bot(bot).choose(SeatKnowledge(state, 0), random.Random(seed)))


def test_charge_runs_its_nearest_good_ghost_along_a_shortest_path_to_an_exit() -> None:
    ghosts = {
        "c4": (0, "good"), "b2": (0, "good"), "e2": (0, "bad"), "d2": (0, "bad"),
        "e5": (1, "good"), "f4": (1, "good"), "e6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    # c4 is 4 steps from a6 (b2 is 5); c4 n and c4 w both start a shortest path
    assert {_choice("charge", ghosts, seed) for seed in range(12)} == {"c4 n", "c4 w"}


def test_charge_prefers_a_good_ghost_to_a_bad_one_nearer_the_exit() -> None:
    ghosts = {
        "a5": (0, "bad"), "e3": (0, "good"), "b2": (0, "good"), "c2": (0, "bad"),
        "e5": (1, "good"), "f4": (1, "good"), "e6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    assert {_choice("charge", ghosts, seed)[:2] for seed in range(12)} == {"e3"}


def test_charge_takes_the_enemy_ghost_that_stands_in_its_way() -> None:
    ghosts = {
        "a4": (0, "good"), "b4": (0, "bad"), "c2": (0, "good"), "d2": (0, "bad"),
        "a5": (1, "bad"), "e5": (1, "good"), "e6": (1, "good"), "d6": (1, "bad"),
    }  # fmt: skip
    # a4's only shortest way to a6 is through the enemy on a5 (its own b4 walls off the other)
    assert {_choice("charge", ghosts, seed) for seed in range(8)} == {"a4 n"}


def test_charge_walks_around_its_own_ghosts() -> None:
    ghosts = {
        "a4": (0, "good"), "a5": (0, "bad"), "c2": (0, "good"), "d2": (0, "bad"),
        "e5": (1, "good"), "f4": (1, "good"), "e6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    # its own a5 blocks the file: a4 goes round by b4, b5, b6 to a6
    assert _choice("charge", ghosts) == "a4 e"


def test_charge_leaves_the_board_when_a_good_ghost_stands_on_an_exit() -> None:
    ghosts = {
        "a6": (0, "good"), "c3": (0, "good"), "c2": (0, "bad"), "d2": (0, "bad"),
        "e5": (1, "good"), "f4": (1, "good"), "e6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    move = parse_action(_choice("charge", ghosts))
    assert move.origin == parse_square("a6") and move.target == OFF_BOARD  # type: ignore[union-attr]


def test_defender_takes_an_enemy_ghost_that_comes_within_two_steps_of_its_corner() -> None:
    ghosts = {
        "b3": (0, "bad"), "e1": (0, "good"), "d4": (0, "good"), "c1": (0, "bad"),
        "b2": (1, "good"), "d5": (1, "bad"), "e6": (1, "good"), "d6": (1, "bad"),
    }  # fmt: skip
    # b2 is two steps from a1; d4 could take d5 too, but the intruder comes first
    assert {_choice("defender", ghosts, seed) for seed in range(8)} == {"b3 s"}


def test_defender_posts_a_guard_beside_a_corner_that_has_none() -> None:
    ghosts = {
        "a2": (0, "bad"), "e3": (0, "bad"), "c4": (0, "good"), "c3": (0, "good"),
        "e6": (1, "good"), "f5": (1, "good"), "b6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    # a1 is guarded from a2; f1 has nobody, and e3 is the nearest ghost to it
    assert {_choice("defender", ghosts, seed) for seed in range(12)} == {"e3 s", "e3 e"}


def test_defender_never_takes_a_guard_off_its_post_while_another_move_is_safe() -> None:
    ghosts = {
        "b1": (0, "bad"), "e1": (0, "bad"), "c3": (0, "good"), "d3": (0, "good"),
        "e6": (1, "good"), "f5": (1, "good"), "b6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    origins = {_choice("defender", ghosts, seed)[:2] for seed in range(16)}
    assert origins and origins <= {"c3", "d3"}


def test_rush_sets_up_good_ghosts_on_both_front_wings_and_not_always_the_same_way() -> None:
    for seat, wings in ((0, {"b2", "e2"}), (1, {"b5", "e5"})):
        state = get_game("geister").new(2, ESCAPE, seed=1)
        setups = {str(get_bot("rush").choose(SeatKnowledge(state, seat), random.Random(seed))) for seed in range(24)}
        assert all(wings <= set(text.split()[1:]) for text in setups)
        assert len(setups) > 1


def test_rush_steps_its_nearest_good_ghost_towards_a_corner_over_a_square_no_enemy_touches() -> None:
    ghosts = {
        "b4": (0, "good"), "e2": (0, "good"), "c2": (0, "bad"), "d2": (0, "bad"),
        "c6": (1, "good"), "d6": (1, "good"), "e6": (1, "bad"), "c5": (1, "bad"),
    }  # fmt: skip
    # b4 is three steps from a6; b4 n (b5) would stand next to the enemy on c5, b4 w (a4) is as near and safe
    assert {_choice("rush", ghosts, seed) for seed in range(12)} == {"b4 w"}


def test_rush_takes_an_enemy_ghost_that_touches_its_runner_but_never_a_possible_fourth_bad_one() -> None:
    ghosts = {
        "a4": (0, "good"), "b5": (0, "bad"), "d2": (0, "good"), "e2": (0, "bad"),
        "a5": (1, "bad"), "e6": (1, "good"), "e5": (1, "good"), "d6": (1, "bad"),
    }  # fmt: skip
    # the enemy on a5 touches the runner on a4 and stands on its way: the runner takes it
    assert {_choice("rush", ghosts, seed) for seed in range(12)} == {"a4 n"}
    three_bad_taken = {**ghosts, "d6": (1, "good"), "f6": (1, "good")}
    del three_bad_taken["e6"]
    three_bad_taken["c6"] = (1, "good")  # four good and one bad left: a5 may be the fourth bad ghost
    chosen = {_choice("rush", three_bad_taken, seed) for seed in range(12)}
    assert chosen and not chosen & {"a4 n", "b5 w"}


def test_rush_leaves_the_board_when_a_good_ghost_stands_on_an_exit() -> None:
    ghosts = {
        "f6": (0, "good"), "c3": (0, "good"), "c2": (0, "bad"), "d2": (0, "bad"),
        "e5": (1, "good"), "f5": (1, "good"), "e6": (1, "bad"), "d6": (1, "bad"),
    }  # fmt: skip
    move = parse_action(_choice("rush", ghosts))
    assert move.origin == parse_square("f6") and move.target == OFF_BOARD  # type: ignore[union-attr]


@pytest.mark.parametrize("exit_rule", ["escape", "reach"])
@pytest.mark.parametrize("pair", [("charge", "defender"), ("defender", "random"), ("charge", "rules"),
                                  ("rush", "rules"), ("rush", "defender"), ("runner", "rules"),
                                  ("mixture", "runner"), ("runner-2", "rules"), ("runner-3", "rules")])
def test_the_styles_finish_geister_games_with_legal_moves_only(exit_rule: str, pair: tuple[str, str]) -> None:
    for seed in (1, 2, 3):
        state = get_game("geister").new(2, {"exit": exit_rule, "max_plies": 300}, seed=seed)
        play_to_the_end(state, [get_bot(name) for name in pair], random.Random(seed))


@pytest.mark.parametrize("style", ["charge", "defender", "rush", "runner", "runner-2", "runner-3", "mixture"])
def test_outside_geister_a_style_plays_exactly_like_rules(style: str) -> None:
    state = get_game("thelast").new(3, {}, seed=4)
    rng_seed = 17
    for _ in range(12):
        seat = min(state.to_act())
        knowledge = SeatKnowledge(state, seat)
        chosen = get_bot(style).choose(knowledge, random.Random(rng_seed))
        assert str(chosen) == str(get_bot("rules").choose(knowledge, random.Random(rng_seed)))
        state.apply(seat, chosen)


def test_the_styles_can_be_seated_by_name_in_tables_and_tournaments() -> None:
    # the names /bot add accepts
    assert {"charge", "defender", "rush", "runner", "runner-2", "runner-3", "mixture"} <= set(bot_names())
    spec = TournamentSpec("geister", ("charge", "defender"), games=2, players=2, seed=3)
    games = run_tournament(spec, 1)
    assert [g.seats for g in games] == [["charge", "defender"], ["defender", "charge"]]



def test_the_mixture_draws_every_style_and_plays_the_one_its_setup_names_all_game() -> None:
    fresh = get_game("geister").new(2, ESCAPE, seed=1)
    setups = [get_bot("mixture").choose(SeatKnowledge(fresh, 1), random.Random(seed)) for seed in range(80)]
    shares = Counter(mixture.style_of(mixture.setup_numbers(s, 1)) for s in setups)  # type: ignore[arg-type]
    assert set(shares) == set(mixture.STYLES) and min(shares.values()) >= 10  # a quarter each: 20 expected
    for seed in (1, 2, 3):
        state = get_game("geister").new(2, {"exit": "escape", "max_plies": 40}, seed=seed)
        bots = [get_bot("mixture"), get_bot("rules")]
        rng = random.Random(seed)
        checked = 0
        while state.to_act():
            seat = min(state.to_act())
            knowledge = SeatKnowledge(state, seat)
            style = mixture.own_style(knowledge.view(), seat)
            if seat == 0 and style is not None:
                mine = bots[0].choose(knowledge, random.Random(checked))
                assert str(mine) == str(get_bot(style).choose(knowledge, random.Random(checked)))
                checked += 1
            state.apply(seat, bots[seat].choose(knowledge, rng))
        assert checked > 0


def test_each_learned_runner_is_a_bot_playing_its_own_network() -> None:
    """One module serves every seed (runner.NETWORKS): each name is a bot, and the networks differ, so the
    held-out runners are not the fitted-on one under another name."""
    import numpy as np

    from ghostgames.bots.geister.runner import NETWORKS, flatten, packaged

    assert set(NETWORKS) <= set(bot_names())
    state = get_game("geister").new(2, ESCAPE, seed=5)
    while state.setup_phase():
        seat = min(state.to_act())
        state.apply(seat, get_bot("rules").choose(SeatKnowledge(state, seat), random.Random(seat)))
    knowledge = SeatKnowledge(state, min(state.to_act()))
    x, mask = flatten(knowledge.encode()), knowledge.legal_mask()
    probs = [packaged(name).probabilities(x, mask) for name in NETWORKS]
    assert all(np.isclose(p.sum(), 1.0) and np.all(p[~mask] == 0) for p in probs)
    assert all(not np.allclose(a, b) for i, a in enumerate(probs) for b in probs[i + 1:])
