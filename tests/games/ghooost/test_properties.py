"""Contract properties of Ghooost! over random games (hypothesis picks the seeds), card conservation and
secrecy of views and events."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games.ghooost.cards import composition, held_mask
from ghostgames.games.ghooost.state import GhooostState
from tests import contract_checks as checks
from tests.games.ghooost.positions import build, kind, where_cards_are

SEEDS = st.integers(min_value=0, max_value=2**32)
PLAYERS = pytest.mark.parametrize("players", [2, 4, 6])
OPTIONS = st.sampled_from(
    [
        {"match": False},
        {"deck": "original", "match": False},
        {"match": False, "max_turns": 150},
        {"deck": "original", "max_turns": 120, "first": 1},
        {"max_turns": 60},
    ]
)


@PLAYERS
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_legal_actions_never_raise_and_games_end(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_legal_never_raises_and_ends("ghooost", players, options, seed)


@PLAYERS
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_illegal_actions_raise_and_change_nothing(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_illegal_raises_and_changes_nothing("ghooost", players, options, seed)


@PLAYERS
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_load_of_to_json_round_trips(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_json_round_trip("ghooost", players, options, seed)


@PLAYERS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_a_record_replays_to_an_identical_state(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_record_replays("ghooost", players, options, seed)


@PLAYERS
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_action_text_and_json_round_trip(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_action_forms_round_trip("ghooost", players, options, seed)


@PLAYERS
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_views_are_the_same_in_every_sampled_world(seed: int, players: int, options: dict[str, Any]) -> None:
    checks.check_information_set_invariance("ghooost", players, options, seed, worlds=2)


@PLAYERS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_the_62_cards_are_always_each_in_exactly_one_place(seed: int, players: int, options: dict[str, Any]) -> None:
    deck = composition(options.get("deck", "tarot"))
    assert sum(deck) == 62
    for state, _seat, _action in checks.random_positions("ghooost", players, options, seed, limit=1500):
        assert isinstance(state, GhooostState)
        assert where_cards_are(state) == deck
        assert state.sizes == [sum(h) for h in state.hands]
        assert all(min(h) >= 0 for h in state.hands)
        assert state.held == [held_mask(h) for h in state.hands]


@PLAYERS
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, options=OPTIONS)
def test_no_view_or_event_holds_a_secret(seed: int, players: int, options: dict[str, Any]) -> None:
    """Views show hand counts, mansion and crypt sizes only; the cards shown in another hand are cards
    really there; drawn and dealt cards reach only their owner."""
    for state, seat, action in checks.random_positions("ghooost", players, options, seed, limit=300):
        assert isinstance(state, GhooostState)
        for reader in [None, *range(players)]:
            view = state.view(reader)
            assert "seed" not in view and "mansions" not in view and "hands" not in view
            assert isinstance(view["crypt"], int)
            for info in view["seats"]:
                assert isinstance(info["hand"], int) and isinstance(info["mansion"], int)
                real = Counter(c for k, n in enumerate(state.hands[info["seat"]]) for c in [k] * n)
                shown = Counter(kind(c) for c in info["known"])
                assert all(real[k] >= n for k, n in shown.items())
            if reader is not None:
                own = Counter(c for k, n in enumerate(state.hands[reader]) for c in [k] * n)
                assert len(view["hand"]) == sum(own.values())
            else:
                assert view["hand"] is None
        for event in state.clone().apply(seat, action):
            for reader in [None, *range(players)]:
                data = event.for_seat(reader)
                if event.kind in ("draw", "deal"):
                    owner = event.public.get("seat")
                    if event.kind == "draw" and reader != owner:
                        assert "cards" not in data
                    if event.kind == "deal":
                        assert ("cards" in data) == (reader is not None)


def test_sample_world_keeps_cards_seen_going_into_a_hand_and_redeals_the_rest() -> None:
    state, _ = checks.play_out("ghooost", 3, {"match": False, "max_turns": 80}, seed=5)
    assert isinstance(state, GhooostState)
    rng = random.Random(1)
    deals = set()
    for seat in range(3):
        for _ in range(20):
            world = state.sample_world(seat, rng)
            assert isinstance(world, GhooostState)
            assert world.hands[seat] == state.hands[seat]
            assert where_cards_are(world) == where_cards_are(state)
            for other in range(3):
                assert world.sizes[other] == state.sizes[other]
                assert sum(world.hands[other]) == state.sizes[other]
                assert all(w >= k for w, k in zip(world.hands[other], state.known[other], strict=True))
                assert len(world.mansions[other]) == len(state.mansions[other])
            assert len(world.crypt) == len(state.crypt)
            deals.add(repr((world.hands, world.mansions, world.crypt)))
    assert len(deals) > 1, "sampling should vary what is unseen"


def test_a_seat_that_saw_a_cemetery_taken_still_sees_those_cards_in_every_sampled_world() -> None:
    state = build(["5 6 9 10", "6 6 2 2", "3 3 4 4"], cemetery="13 13 X=13", crypt="7 7 8 8 12 12 14 14")
    state.apply(0, "take")
    rng = random.Random(2)
    for _ in range(30):
        world = state.sample_world(1, rng)
        assert world.hands[0][13] >= 2 and world.hands[0][16] >= 1
        assert world.view(1) == state.view(1)
