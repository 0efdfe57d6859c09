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

from ghostgames.games.thelast.cards import COLOUR_OF
from ghostgames.games.thelast.state import HAND_SIZE, TheLastState
from tests import contract_checks as checks


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
