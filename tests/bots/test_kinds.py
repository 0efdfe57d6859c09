"""The belief's kinds of learned runner (bots/geister/kinds.py, `expert-kinds`): the features it adds read the
public record only, the old models read over them give the same numbers, and the mixture is blind to hidden
colours."""

from __future__ import annotations

from typing import Any

import pytest

from ghostgames.bots.geister.belief import FEATURES, MODELS, belief, features
from ghostgames.bots.geister.expert_kinds import KindsPolicy
from ghostgames.bots.geister.kinds import EXTRA, KIND_FEATURES, kind_belief, kind_features, kind_models, padded
from ghostgames.bots.geister.picture import read
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import parse_square
from tests.bots.test_belief import TABLES, beliefs_compared_in_recoloured_twins


def _opening() -> GeisterState:
    """Seat 1 moves its ghost on b5 twice, then the one on e5 once; seat 0 shuffles at the back."""
    state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300, "first": 0}, seed=5)
    assert isinstance(state, GeisterState)
    state.apply(0, "setup b2 c2 d2 e2")
    state.apply(1, "setup b5 c5 d6 e6")
    for ours, theirs in [("b1 w", "b5 s"), ("a1 e", "b4 s"), ("b1 w", "e5 s")]:
        state.apply(0, ours)
        state.apply(1, theirs)
    return state


def _named(x: list[float]) -> dict[str, float]:
    return dict(zip(KIND_FEATURES, x, strict=True))


def test_the_kind_features_start_with_the_beliefs_and_count_who_set_off_first_and_who_moved_last() -> None:
    state = _opening()
    view = state.view(0)
    picture = read(view)
    moves = list(view["moves"])
    seen = kind_features(picture, moves)
    assert KIND_FEATURES[:len(FEATURES)] == FEATURES and len(KIND_FEATURES) == len(FEATURES) + len(EXTRA)
    assert {g: x[:len(FEATURES)] for g, x in seen.items()} == features(picture, moves)
    first, second = state.board[parse_square("b3")], state.board[parse_square("e4")]
    a, b = _named(seen[first]), _named(seen[second])
    assert (a["moved_first"], a["first_rank"], a["last_moved"], a["pace"]) == (1.0, 0.0, 0.0, 1.0)
    assert (b["moved_first"], b["first_rank"], b["last_moved"], b["streak"]) == (0.0, 1 / 7, 1.0, 1 / 4)
    assert a["start_front"] == 1.0 and a["last_bad"] == 0.0
    still = [g for g in seen if g not in (first, second)]
    assert all(_named(seen[g])["first_rank"] == 1.0 for g in still)


def test_the_old_models_read_over_the_kind_features_give_the_same_belief() -> None:
    state = _opening()
    view = state.view(0)
    picture, moves = read(view), list(view["moves"])
    old = belief(picture, moves, MODELS)
    new = kind_belief(picture, moves, tuple(m._replace(weights=padded(m.weights)) for m in MODELS))
    assert new.colourings == old.colourings
    assert new.probabilities == old.probabilities


def test_the_shipped_mixture_holds_the_old_models_and_one_per_learned_runner() -> None:
    models = kind_models()
    assert len(models) > len(MODELS)
    assert abs(sum(m.share for m in models) - 1.0) < 1e-9
    assert all(set(m.weights) == set(KIND_FEATURES) for m in models)
    assert [padded(m.weights) for m in MODELS] == [m.weights for m in models[:len(MODELS)]]


@pytest.mark.parametrize("options", TABLES, ids=lambda o: str(o["exit"]))
def test_two_worlds_that_differ_only_in_hidden_colours_give_the_same_kinds_belief(options: dict[str, Any]) -> None:
    assert beliefs_compared_in_recoloured_twins(KindsPolicy, options, (1, 2)) >= 6
