"""The Last's action index space and observation encoding, over random games of 2-5 players and exact positions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.thelast.actions import KEEP, PLAYS, SWAPS
from ghostgames.games.thelast.cards import parse_card
from ghostgames.games.thelast.encoding import ACTION_COUNT, KEEP_INDEX, SWAP_BASE
from ghostgames.games.thelast.state import TheLastState
from ghostgames.rules import IllegalAction
from tests import contract_checks as checks
from tests.games.thelast.positions import position

GAME = get_game("thelast")
ALL_COUNTS = pytest.mark.parametrize("players", [2, 3, 4, 5])
SEEDS = (1, 22, 333)


def positions(players: int, seeds: tuple[int, ...] = SEEDS, every: int = 1) -> Iterator[tuple[TheLastState, int]]:
    """(state, acting seat) along random games; two rounds so that round totals and a second deal occur."""
    for seed in seeds:
        for step, (state, seat, _action) in enumerate(
            checks.random_positions("thelast", players, {"rounds": 2}, seed * 10 + players)
        ):
            if step % every == 0:
                assert isinstance(state, TheLastState)
                yield state, seat


def card_entry(name: str) -> int:
    return parse_card(name)


# --- action index space ----------------------------------------------------------------------------------
def test_the_index_space_is_plays_then_keep_then_swaps_for_every_player_count() -> None:
    for players in (2, 3, 4, 5):
        assert GAME.action_count(players) == ACTION_COUNT == 97
        for seat in range(players):
            assert GAME.action_at(card_entry("R1"), seat) == PLAYS[card_entry("R1")]
            assert GAME.action_at(KEEP_INDEX, seat) == KEEP
            assert GAME.action_at(SWAP_BASE + card_entry("Y12"), seat) == SWAPS[card_entry("Y12")]
    every = [GAME.action_at(i, 0) for i in range(ACTION_COUNT)]
    assert [GAME.action_index(a, 0) for a in every] == list(range(ACTION_COUNT))
    assert len({str(a) for a in every}) == ACTION_COUNT


@ALL_COUNTS
def test_every_legal_action_round_trips_through_a_distinct_index_in_range(players: int) -> None:
    count = GAME.action_count(players)
    seen = 0
    for state, seat in positions(players):
        legal = state.legal_actions(seat)
        indices = [GAME.action_index(a, seat) for a in legal]
        assert all(0 <= i < count for i in indices)
        assert len(set(indices)) == len(indices)
        for action, index in zip(legal, indices, strict=True):
            assert GAME.action_at(index, seat) == action
            assert str(GAME.action_at(index, seat)) == str(action)
        seen += len(legal)
    assert seen > 100


@ALL_COUNTS
def test_legal_mask_marks_exactly_the_legal_actions(players: int) -> None:
    for state, seat in positions(players, every=3):
        for who in range(players):
            mask = state.legal_mask(who)
            legal = state.legal_actions(who)
            assert mask.shape == (GAME.action_count(players),) and mask.dtype == np.bool_
            assert int(mask.sum()) == len(legal)
            assert all(mask[GAME.action_index(a, who)] for a in legal)
        assert state.legal_mask(seat).any()


def test_action_at_rejects_an_index_outside_the_space_and_says_the_range() -> None:
    for bad in (-1, ACTION_COUNT):
        with pytest.raises(IllegalAction, match="0 to 96"):
            GAME.action_at(bad, 0)


# --- observations ------------------------------------------------------------------------------------------
def assert_fits_shapes(obs: dict[str, Any], players: int) -> None:
    shapes = GAME.observation_shapes(players)
    assert set(obs) == set(shapes)
    for name, shape in shapes.items():
        array = obs[name]
        assert array.shape == shape, name
        assert array.dtype == np.float32, name
        assert np.isfinite(array).all(), name
        assert array.min() >= 0.0 and array.max() <= 1.0, name


@ALL_COUNTS
def test_encodings_have_the_stated_shapes_float32_and_values_in_0_1(players: int) -> None:
    state: TheLastState | None = None
    for state, _seat in positions(players, every=2):
        for who in range(players):
            assert_fits_shapes(state.encode(who), players)
        assert_fits_shapes(GAME.encode_view(state.view(None)), players)
    assert state is not None and state.is_over()
    for who in range(players):
        assert_fits_shapes(state.encode(who), players)


def test_observation_shapes_exist_for_every_allowed_player_count_and_only_those() -> None:
    for players in (2, 3, 4, 5):
        participants = 3 if players == 2 else players
        shapes = GAME.observation_shapes(players)
        assert shapes["trick"] == (participants, 48)
        assert shapes["participants"] == (participants, 10 + participants)
    for players in (1, 6):
        with pytest.raises(ValueError):
            GAME.observation_shapes(players)


@ALL_COUNTS
def test_encode_is_the_same_in_every_world_the_seat_cannot_tell_apart(players: int) -> None:
    rng = random.Random(players)
    for state, _seat in positions(players, seeds=(5, 6, 7), every=1):
        for who in range(players):
            mine = state.encode(who)
            for _ in range(2):
                world = state.sample_world(who, rng)
                other = world.encode(who)
                assert all(np.array_equal(mine[name], other[name]) for name in mine)


@ALL_COUNTS
def test_unknown_marks_exactly_the_cards_the_seat_cannot_place(players: int) -> None:
    for state, _seat in positions(players, seeds=(7,), every=2):
        for who in range(players):
            hidden: set[int] = set(state.points) | set(state.spare)
            for p in range(len(state.hands)):
                if p == who:
                    continue
                public = set(state.shown_hand[p]) | set(state.shown_pile[p]) | set(state.mixed[p])
                hidden |= (set(state.hands[p]) | set(state.piles[p])) - public
            unknown = {int(c) for c in np.flatnonzero(state.encode(who)["unknown"])}
            assert unknown == hidden


@ALL_COUNTS
def test_the_encoding_changes_as_the_game_goes_on(players: int) -> None:
    game = GAME.new(players, seed=4)
    seat = min(game.to_act())
    before = game.encode(seat)
    game.apply(seat, game.legal_actions(seat)[0])
    after = game.encode(seat)
    assert not np.array_equal(before["hand"], after["hand"])
    assert any(not np.array_equal(before[name], after[name]) for name in ("trick", "table", "participants"))


def test_a_card_in_the_seats_own_hand_sets_its_hand_entry_and_nobody_elses() -> None:
    state = position(4, ["R12 B3", "G5 Y7", "R1 R2", "B9 G9"], points_card="Y12", points="B1")
    mine = state.encode(0)
    assert {int(c) for c in np.flatnonzero(mine["hand"])} == {card_entry("R12"), card_entry("B3")}
    assert mine["points_card"][card_entry("Y12")] == 1.0 and mine["points_card"].sum() == 1.0
    assert state.encode(1)["hand"][card_entry("R12")] == 0.0
    assert mine["unknown"][card_entry("G5")] == 1.0 and mine["unknown"][card_entry("B3")] == 0.0


def test_trick_rows_are_relative_to_the_seat_so_its_own_card_is_row_zero() -> None:
    state = position(4, ["R12 B3", "G5", "R2", "B9 G9"], points_card="Y12", leader=1,
                     trick=[(1, "R11"), (2, "R1")])
    # Seat 3 is to act: seat 1 is two after it, seat 2 three after it.
    obs = state.encode(3)
    assert obs["trick"][2, card_entry("R11")] == 1.0
    assert obs["trick"][3, card_entry("R1")] == 1.0
    assert obs["trick"].sum() == 2.0
    assert obs["table"][3] == 1.0  # seat 3 is to act
    assert obs["participants"][0, 7] == 1.0
    # In a trick led by seat 1, seat 3 plays third (place 2 of 0..3) and seat 0 last.
    assert obs["participants"][0, 10 + 2] == 1.0 and obs["participants"][1, 10 + 3] == 1.0
    assert list(obs["table"][10:14]) == [1.0, 0.0, 0.0, 0.0]  # red was led: seat 3 must follow if it can
    assert list(obs["table"][14:18]) == [0.0, 1.0, 1.0, 0.0]  # holding no red, it may play B9 or G9
    seen_by_1 = state.encode(1)
    assert seen_by_1["trick"][0, card_entry("R11")] == 1.0 and seen_by_1["participants"][0, 6] == 1.0


def test_with_two_players_the_ghost_takes_the_last_row() -> None:
    state = position(2, ["R12 B3", "Y7", "Y1 B2"], points_card="Y12", points="B1", leader=1,
                     trick=[(1, "G5")])
    obs = state.encode(0)
    assert obs["participants"][2, 0] == 1.0 and obs["participants"][:2, 0].sum() == 0.0
    assert obs["trick"][1, card_entry("G5")] == 1.0
    # The ghost's pile is face down: its cards are unknown to the seat.
    assert obs["unknown"][card_entry("Y1")] == 1.0


def test_a_kept_points_card_shows_to_everybody_but_a_card_laid_down_by_a_swap_only_to_its_owner() -> None:
    state = position(3, ["R12 B3", "G5 Y7", "R1 R2"], points_card="Y12", points="B1",
                     trick=[(0, "B4"), (1, "B5"), (2, "B6")], won_by=2)
    state.apply(2, "swap R1")
    seen_by_0 = state.encode(0)
    # Seat 2 is slot 2 from seat 0: Y12 is known in its hand, R1 went down unseen.
    assert seen_by_0["known_in_hand"][2, card_entry("Y12")] == 1.0
    assert seen_by_0["unknown"][card_entry("R1")] == 1.0
    assert seen_by_0["participants"][2, 2] == pytest.approx(1 / 12)
    own = state.encode(2)
    assert own["pile"][card_entry("R1")] == 1.0 and own["hand"][card_entry("Y12")] == 1.0
    assert own["table"][18] == pytest.approx(1 / 132)


def test_a_kept_points_card_shows_in_the_winners_known_pile_with_its_value() -> None:
    state = position(3, ["R12 B3", "G5 Y7", "R1 R2"], points_card="Y12", points="B1",
                     trick=[(0, "B4"), (1, "B5"), (2, "B6")], won_by=2)
    before = state.encode(1)
    assert list(before["table"][0:3]) == [0.0, 1.0, 0.0]  # deciding
    state.apply(2, "keep")
    seen_by_1 = state.encode(1)
    assert seen_by_1["known_in_pile"][1, card_entry("Y12")] == 1.0
    assert seen_by_1["participants"][1, 3] == pytest.approx(12 / 132)
    assert seen_by_1["played"][1, card_entry("B6")] == 1.0 and seen_by_1["played"][0, card_entry("B5")] == 1.0
