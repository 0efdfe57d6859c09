"""Contract properties of The Last over random games with 2-5 players (hypothesis picks the seeds), plus card
conservation, secrets that never reach a view or event, and sampled worlds that keep every known card."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games.thelast.cards import CARD_NAMES, DECK
from ghostgames.games.thelast.state import TheLastState
from tests import contract_checks as checks

SEEDS = st.integers(min_value=0, max_value=2**32)
ALL_COUNTS = pytest.mark.parametrize("players", [2, 3, 4, 5])
OPTIONS = st.sampled_from([{"rounds": 1}, {"rounds": 2}, {}])
CARD_TEXTS = set(CARD_NAMES)


@ALL_COUNTS
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_legal_actions_never_raise_and_games_end(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_legal_never_raises_and_ends("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_illegal_actions_raise_and_change_nothing(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_illegal_raises_and_changes_nothing("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_apply_legal_is_apply_without_the_checks(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_apply_legal_is_apply_without_the_checks("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_load_of_to_json_round_trips(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_json_round_trip("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_a_record_replays_to_an_identical_state(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_record_replays("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_action_text_and_json_round_trip(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_action_forms_round_trip("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_views_are_the_same_in_every_sampled_world(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_information_set_invariance("thelast", players, options, seed)


@ALL_COUNTS
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_the_48_cards_are_each_in_exactly_one_place_at_every_step(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    for state, _seat, _action in checks.random_positions("thelast", players, options, seed):
        assert isinstance(state, TheLastState)
        state.check()
        places = [*state.spare, *state.points, *state.trick_cards]
        places += [c for p in state.hands + state.piles for c in p]
        places += [c for _, plays, _, _, _ in state.tricks for _, c in plays]
        places += [state.points_card] if state.points_card >= 0 else []
        assert sorted(places) == list(DECK)
    final, _ = checks.play_out("thelast", players, options, seed)
    assert isinstance(final, TheLastState)
    final.check()
    assert all(not hand for hand in final.hands)


def secret_cards(state: TheLastState, seat: int | None) -> set[str]:
    """Cards whose identity or place `seat` may not know: other hands and face-down swaps (except what was shown),
    the points pile, the ghost's pile and the spare cards."""
    secret = set(state.points) | set(state.spare)
    for p in range(len(state.hands)):
        if p == seat:
            continue
        public = set(state.shown_hand[p]) | set(state.shown_pile[p]) | set(state.mixed[p])
        secret |= (set(state.hands[p]) | set(state.piles[p])) - public
    return {CARD_NAMES[c] for c in secret}


def card_strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data} & CARD_TEXTS
    if isinstance(data, dict):
        return set().union(*(card_strings(v) for v in data.values())) | set(data) & CARD_TEXTS
    if isinstance(data, list | tuple):
        return set().union(*(card_strings(v) for v in data))
    return set()


def keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(v) for v in data))
    return set()


@ALL_COUNTS
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_no_view_and_no_event_ever_holds_a_secret_card(seed: int, players: int) -> None:
    """One round (the next deal would make last round's public cards secret again)."""
    game_positions = checks.random_positions("thelast", players, {"rounds": 1}, seed)
    for state, seat, action in game_positions:
        assert isinstance(state, TheLastState)
        for reader in [None, *range(players)]:
            view = state.view(reader)
            assert not card_strings(view) & secret_cards(state, reader), reader
            assert "seed" not in keys(view)
            if reader != seat:
                assert view["legal"] == [] and view["allowed_colours"] is None
        events = state.clone().apply(seat, action)
        after = state.clone()
        after.apply(seat, action)
        for reader in [None, *range(players)]:
            told = card_strings([e.for_seat(reader) for e in events])
            assert not told & secret_cards(after, reader), (reader, told)


@ALL_COUNTS
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_sampled_worlds_keep_every_known_card_where_the_seat_knows_it_is(seed: int, players: int) -> None:
    rng = random.Random(seed)
    varied = False
    for state, _seat, _action in checks.random_positions("thelast", players, {"rounds": 2}, seed, limit=120):
        assert isinstance(state, TheLastState)
        for seat in range(players):
            world = state.sample_world(seat, rng)
            world.check()
            assert world.hands[seat] == state.hands[seat] and world.piles[seat] == state.piles[seat]
            assert world.trick_cards == state.trick_cards and world.tricks == state.tricks
            assert world.points_card == state.points_card
            assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
            assert [len(p) for p in world.piles] == [len(p) for p in state.piles]
            assert len(world.points) == len(state.points) and len(world.spare) == len(state.spare)
            for p in range(len(state.hands)):
                assert set(state.shown_hand[p]) <= set(world.hands[p])
                assert set(state.shown_pile[p]) <= set(world.piles[p])
                assert set(state.mixed[p]) <= set(world.hands[p]) | set(world.piles[p])
            varied = varied or world.to_json() != state.to_json()
    assert varied
