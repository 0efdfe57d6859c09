"""Sampled worlds of The Last respect every deduction the rules make certain (issue 14, point 10).

The check is built here from the rules, not from the engine's deductions: in a sampled world, walk each
other participant's round backwards from its hand and its face-down cards (undo each play, and undo each
swap by giving back the card laid down then, the pile's face-down cards being in time order) and check
that every card it played was allowed by the hand it held at that moment. A world that passes could
have been dealt and played exactly as everybody saw.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games.thelast.cards import CARD_NAMES, COLOUR_OF
from ghostgames.games.thelast.state import HAND_SIZE, TheLastState
from tests import contract_checks as checks
from tests.games.thelast.positions import position


def broken_plays(state: TheLastState, who: int) -> tuple[list[str], int]:
    """(the plays of `who` its hand did not allow, how many plays were a shown void), walking backwards."""
    ring = len(state.ring)
    history: list[tuple[str, int, list[int]]] = []  # ("play", card, colours it had to play) / ("swap", taken, [])
    current = tuple(zip(state.trick_who, state.trick_cards, strict=True))
    for _, plays, points, winner, taken in [*state.tricks, (0, current, -1, -1, "")]:
        for i, (w, card) in enumerate(plays):
            if w != who:
                continue
            before = [c for _, c in plays[:i]]
            must: set[int]
            if i == 0:
                must = set()
            elif i < ring - 1:
                must = {COLOUR_OF[before[0]]}
            else:
                must = {COLOUR_OF[c] for c in before}
            history.append(("play", card, sorted(must)))
        if taken == "swap" and winner == who:
            history.append(("swap", points, []))
    hand = set(state.hands[who])
    laid = [c for c in state.piles[who] if c not in state.shown_pile[who]]
    broken: list[str] = []
    voids = 0
    for kind, card, must in reversed(history):
        if kind == "swap":
            assert card in hand, f"the points card {card} taken by a swap is gone"
            hand.remove(card)
            hand.add(laid.pop())
            continue
        hand.add(card)
        if must and COLOUR_OF[card] not in must:
            voids += 1
            held = sorted(c for c in hand if COLOUR_OF[c] in must)
            if held:
                broken.append(f"played {card} while holding {held} of colours {must}")
    assert not laid
    if who != state.ghost:
        assert len(hand) == HAND_SIZE[state.players], "the walk back must end with a full dealt hand"
    return broken, voids


def check_worlds(players: int, seed: int, worlds: int = 2) -> int:
    rng = random.Random(seed)
    voids = 0
    for state, _seat, _action in checks.random_positions("thelast", players, {"rounds": 1}, seed):
        assert isinstance(state, TheLastState)
        for seat in range(players):
            for _ in range(worlds):
                world = state.sample_world(seat, rng)
                world.check()
                assert world.view(seat) == state.view(seat)
                for who in range(len(state.hands)):
                    if who in (seat, state.ghost):
                        continue
                    broken, shown = broken_plays(world, who)
                    assert not broken, (seat, who, broken)
                    voids += shown
    return voids


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_review_10_the_last_worlds_respect_every_void(players: int) -> None:
    voids = sum(check_worlds(players, seed) for seed in range(6))
    assert voids > 50  # the check bites: shown voids are common in random games


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=5))
def test_review_10_the_last_worlds_could_have_been_played_as_seen(seed: int, players: int) -> None:
    check_worlds(players, seed, worlds=1)


def names(hand: list[int]) -> set[str]:
    return {CARD_NAMES[c] for c in hand}


def test_review_10_the_last_a_last_player_off_every_colour_in_the_trick_holds_none_of_them() -> None:
    """Two players: seat 2 leads red, the ghost turns green, seat 1 is last and plays blue: it holds no red
    and no green (the ghost's colour counts), and every world seat 2 samples says so."""
    state = position(2, ["B5 Y3 Y4", "R4 B9 Y1", "G7 Y8 Y9"], first=0, leader=1, points="G1 G3 G4")
    state.apply(1, "play R4")
    state.apply(0, "play B5")
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(60):
        hand = names(state.sample_world(1, rng).hands[0])
        assert not any(card[0] in "RG" for card in hand), hand
        seen |= hand
    assert len(seen) > 6  # the hand really is dealt anew (from the blue and yellow cards left)


def test_review_10_the_last_a_card_of_a_void_colour_taken_by_a_swap_is_the_only_one_of_it() -> None:
    """Seat 2 shows it has no red, then swaps the red points card R12 into its hand: in every world it
    holds R12 and no other red, and the card it laid face down is not red either."""
    state = position(3, ["R5 G1 G8", "B9 Y2 G2", "B3 Y5 Y6"], points="R12 G3 G4")
    for seat, text in [(0, "play R5"), (1, "play B9"), (2, "play B3"), (1, "swap Y2")]:
        state.apply(seat, text)
    rng = random.Random(4)
    laid_seen = set()
    for seat in (0, 2):
        for _ in range(60):
            world = state.sample_world(seat, rng)
            assert {c for c in names(world.hands[1]) if c[0] == "R"} == {"R12"}
            laid = names(world.piles[1])
            assert len(laid) == 1 and not any(c[0] == "R" for c in laid)
            laid_seen |= laid
    assert len(laid_seen) > 3
