"""The constrained deal behind The Last's sample_world, against brute force on small cases."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostgames.games.thelast.deal import NoDeal, deal, fill


def all_fills(supply: list[int], groups: list[tuple[int, int]]) -> set[tuple[tuple[int, ...], ...]]:
    """Every way to fill the groups (as type counts per group), by trying every order of the supply."""
    places = [g for g, (capacity, _) in enumerate(groups) for _ in range(capacity)]
    items = [t for t, n in enumerate(supply) for _ in range(n)]
    out = set()
    for order in set(itertools.permutations(items)):
        if all(groups[g][1] >> t & 1 for g, t in zip(places, order, strict=True)):
            counts = [[0] * len(supply) for _ in groups]
            for g, t in zip(places, order, strict=True):
                counts[g][t] += 1
            out.add(tuple(tuple(c) for c in counts))
    return out


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]]]:
    types = draw(st.integers(2, 4))
    supply = [draw(st.integers(0, 2)) for _ in range(types)]
    total = sum(supply)
    groups: list[tuple[int, int]] = []
    while total > 0:
        capacity = draw(st.integers(1, total))
        groups.append((capacity, draw(st.integers(1, (1 << types) - 1))))
        total -= capacity
    return supply, groups


@settings(max_examples=150, deadline=None)
@given(case=cases(), seed=st.integers(0, 2**32))
def test_review_10_the_exact_fill_finds_a_deal_whenever_one_exists(
    case: tuple[list[int], list[tuple[int, int]]], seed: int
) -> None:
    supply, groups = case
    possible = all_fills(supply, groups)
    if not possible:
        with pytest.raises(NoDeal):
            fill(supply, groups, list(range(len(groups))), random.Random(seed))
        return
    got = fill(supply, groups, list(range(len(groups))), random.Random(seed))
    assert tuple(tuple(c) for c in got) in possible


def test_review_10_the_exact_fill_can_reach_every_deal() -> None:
    # Two colours, three places: one takes only colour 0, one only colour 1 or the single card (type 2).
    supply = [2, 1, 1]
    groups = [(1, 0b001), (1, 0b110), (2, 0b111)]
    possible = all_fills(supply, groups)
    rng = random.Random(4)
    seen = {tuple(tuple(c) for c in fill(supply, groups, [0, 1, 2], rng)) for _ in range(300)}
    assert seen == possible and len(possible) > 1


def test_review_10_the_deal_falls_back_to_the_exact_fill_when_the_quick_one_is_stuck() -> None:
    """Card 9 (a known card, bit 2) may lie in group 1 or 2; the colour-1 card 2 only fits group 1. A quick
    deal that puts card 9 into group 1 is stuck; the answer must still be right for every seed."""
    colour_of = [0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    pool = [0, 1, 2]  # two cards of colour 0, one of colour 1
    groups = [(0, 0b011), (1, 0b110), (3, 0b101)]
    for seed in range(40):
        out = deal(pool, colour_of, groups, [9], random.Random(seed))
        assert out == [[], [2], out[2]] and sorted(out[2]) == [0, 1, 9]
