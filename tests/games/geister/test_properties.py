"""Contract properties of Geister over random games (hypothesis picks the seeds)."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests import contract_checks as checks

SEEDS = st.integers(min_value=0, max_value=2**32)
OPTIONS = st.sampled_from(
    [
        {"exit": "escape", "max_plies": 300},
        {"exit": "reach"},
        {"exit": "escape", "max_plies": 40, "disclose": True},
        {"exit": "reach", "max_plies": 7, "first": 1},
    ]
)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_legal_actions_never_raise_and_games_end(seed: int, options: dict[str, object]) -> None:
    checks.check_legal_never_raises_and_ends("geister", 2, options, seed)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_illegal_actions_raise_and_change_nothing(seed: int, options: dict[str, object]) -> None:
    checks.check_illegal_raises_and_changes_nothing("geister", 2, options, seed)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_apply_legal_is_apply_without_the_checks(seed: int, options: dict[str, object]) -> None:
    checks.check_apply_legal_is_apply_without_the_checks("geister", 2, options, seed)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, limit=st.integers(min_value=1, max_value=400))
def test_every_game_with_max_plies_ends_within_it(seed: int, limit: int) -> None:
    state, _ = checks.play_out("geister", 2, {"exit": "escape", "max_plies": limit}, seed)
    assert state.ply <= limit  # type: ignore[attr-defined]
    assert state.outcome() is not None


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_load_of_to_json_round_trips(seed: int, options: dict[str, object]) -> None:
    checks.check_json_round_trip("geister", 2, options, seed)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_a_record_replays_to_an_identical_state(seed: int, options: dict[str, object]) -> None:
    checks.check_record_replays("geister", 2, options, seed)


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_action_text_and_json_round_trip(seed: int, options: dict[str, object]) -> None:
    checks.check_action_forms_round_trip("geister", 2, options, seed)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
@example(seed=1, options={"exit": "escape", "max_plies": 300})  # an escape: a spectator who saw it knows it was good
def test_views_are_the_same_in_every_sampled_world(seed: int, options: dict[str, object]) -> None:
    checks.check_information_set_invariance("geister", 2, options, seed)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_a_view_never_holds_an_enemy_colour_the_seat_has_not_seen(seed: int, options: dict[str, object]) -> None:
    """Shown colours of enemy ghosts are exactly the captured/escaped ones (and all, after a disclosed end)."""
    for state, _seat, _action in checks.random_positions("geister", 2, options, seed):
        for seat in (None, 0, 1):
            view = state.view(seat)
            for ghost in view["ghosts"]:
                own = seat is not None and ghost["owner"] == seat
                revealed = ghost["status"] != "board"
                disclosed = view["phase"] == "over" and options.get("disclose", False)
                if not (own or revealed or disclosed):
                    assert ghost["colour"] is None, (seat, ghost)
            assert "seed" not in view


def test_sample_world_deals_the_unseen_enemy_colours_consistently() -> None:
    """Each sampled world keeps revealed colours and gives the enemy exactly 4 good and 4 bad ghosts."""
    state, _ = checks.play_out("geister", 2, {"exit": "escape", "max_plies": 30}, seed=11)
    rng = random.Random(3)
    for seat in (0, 1):
        enemy = 1 - seat
        seen = set()
        for _ in range(40):
            world = state.sample_world(seat, rng)
            colours = world.good[enemy * 8 : enemy * 8 + 8]  # type: ignore[attr-defined]
            assert colours.count(True) == 4 and colours.count(False) == 4
            for g in range(enemy * 8, enemy * 8 + 8):
                if state.colour_known(g, seat):  # type: ignore[attr-defined]
                    assert world.good[g] == state.good[g]  # type: ignore[attr-defined]
            seen.add(tuple(colours))
        assert len(seen) > 1, "sampling should vary the unseen colours"
