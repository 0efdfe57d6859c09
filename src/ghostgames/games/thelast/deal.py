"""A seeded random fill of places from typed supplies under "this place accepts these types" rules.

The matching behind The Last's `sample_world`: the types are the four colours (as many of each as unseen
cards of that colour) and single known cards; the groups are places that accept the same types (a hand,
one face-down slot, the unseen piles). Cards of one colour are interchangeable for the rules, so only
colours are matched here; which card of the colour goes where is shuffled afterwards.

How: first any complete fill (Kuhn's augmenting paths, run over types instead of single cards, so a
path is at most a few types long); then the places are fixed one by one in random order, each to a type
drawn by what is left of it, keeping the fill complete by an alternating path through the places not
fixed yet. A draw that no complete fill allows is dropped and drawn again, so the fill always succeeds
when any exists, and it never depends on where the cards really are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class NoDeal(ValueError):
    """No fill respects the rules: the state contradicts what it says is known."""


class Fill:
    """`count[g][t]`: places of group g holding type t, not yet fixed; `fixed[g][t]` those fixed."""

    def __init__(self, supply: list[int], groups: list[tuple[int, int]]) -> None:
        self.supply = supply
        self.types = len(supply)
        self.capacity = [c for c, _ in groups]
        self.allowed = [a for _, a in groups]
        self.count = [[0] * self.types for _ in groups]
        self.fixed = [[0] * self.types for _ in groups]
        self.left = supply[:]  # supply not in any place yet
        if sum(supply) != sum(self.capacity):
            raise NoDeal(f"{sum(supply)} unseen cards for {sum(self.capacity)} unseen places")

    def complete(self) -> None:
        """Fill every place (in a fixed order, so that the start depends only on the rules)."""
        for g, capacity in enumerate(self.capacity):
            for _ in range(capacity):
                if not self._augment(g, self.allowed[g]):
                    raise NoDeal("no way to place the unseen cards respects every void shown")

    def _augment(self, g: int, start: int) -> bool:
        """Give one more place of group g a type from the bits `start`, moving unfixed places along an
        alternating path if needed. False (and nothing changed) if no complete fill allows it."""
        left, count, allowed = self.left, self.count, self.allowed
        parent: dict[int, tuple[int, int] | None] = {}
        queue: list[int] = []
        for t in _bits(start):
            parent[t] = None
            queue.append(t)
        seen = start
        for t in queue:  # the list grows while we walk it: a breadth-first search over types
            if left[t] > 0:
                left[t] -= 1
                step = parent[t]
                while step is not None:
                    before, h = step
                    count[h][before] -= 1
                    count[h][t] += 1
                    t = before
                    step = parent[t]
                count[g][t] += 1
                return True
            for h, held in enumerate(count):
                if held[t]:
                    fresh = allowed[h] & ~seen
                    if fresh:
                        seen |= fresh
                        for b in _bits(fresh):
                            parent[b] = (t, h)
                            queue.append(b)
        return False

    def fix(self, g: int, rng: random.Random, taken: list[int]) -> int:
        """Fix one unfixed place of group g to a type drawn in proportion to `supply - taken`; returns it."""
        count, fixed = self.count[g], self.fixed[g]
        options = [t for t in _bits(self.allowed[g]) if self.supply[t] > taken[t]]
        while options:
            weights = [self.supply[t] - taken[t] for t in options]
            t = rng.choices(options, weights)[0]
            if count[t] == 0 and not self._switch(g, t):
                options.remove(t)
                continue
            count[t] -= 1
            fixed[t] += 1
            taken[t] += 1
            return t
        raise NoDeal("no type fits a place the rules leave open")  # cannot happen after complete()

    def _switch(self, g: int, t: int) -> bool:
        """Make one unfixed place of group g hold type t, if some complete fill allows it."""
        count = self.count[g]
        for before in range(self.types):
            if count[before] and before != t:
                count[before] -= 1
                self.left[before] += 1
                if self._augment(g, 1 << t):
                    return True
                count[before] += 1
                self.left[before] -= 1
        return False


def deal(
    pool: list[int],
    colour_of: Sequence[int],
    groups: list[tuple[int, int]],
    known: list[int],
    rng: random.Random,
) -> list[list[int]]:
    """The cards of each group: group 0 takes what is left (it accepts any colour, no known card); the
    others are filled so that each place gets a card its allowed bits take (bit c: any card of colour c,
    bit `colours + i`: the known card `known[i]`). `pool` holds the unseen cards, in an order that says
    nothing about where they are.

    A quick deal is tried first: each known card into a random place that takes it, then, from the most
    constrained places on, each place takes the next card of a freshly shuffled pool that fits. Only when
    that runs into a dead end (a place that nothing left fits) does the exact fill run, which always finds
    a deal when one exists.
    """
    colours = max(colour_of) + 1
    shuffled = pool[:]
    rng.shuffle(shuffled)
    quick = _quick(shuffled[:], colour_of, colours, groups, known, rng)
    if quick is not None:
        return quick
    supply = [0] * colours + [1] * len(known)
    for card in pool:
        supply[colour_of[card]] += 1
    counts = fill(supply, groups, list(range(1, len(groups))), rng)
    by_colour: list[list[int]] = [[] for _ in range(colours)]
    for card in shuffled:
        by_colour[colour_of[card]].append(card)
    out = []
    for held in counts:
        cards = [card for i, card in enumerate(known) if held[colours + i]]
        for colour, of_colour in enumerate(by_colour):
            cards.extend(of_colour.pop() for _ in range(held[colour]))
        out.append(cards)
    rng.shuffle(out[0])  # taken colour by colour above; the unseen piles' order must be random too
    return out


def _quick(
    shuffled: list[int],
    colour_of: Sequence[int],
    colours: int,
    groups: list[tuple[int, int]],
    known: list[int],
    rng: random.Random,
) -> list[list[int]] | None:
    out: list[list[int]] = [[] for _ in groups]
    room = [capacity for capacity, _ in groups]
    room[0] = 0
    for i, card in enumerate(known):
        bit = 1 << (colours + i)
        fits = [g for g, (_, allowed) in enumerate(groups) if room[g] and allowed & bit]
        if not fits:
            return None
        g = rng.choices(fits, [room[g] for g in fits])[0] if len(fits) > 1 else fits[0]
        out[g].append(card)
        room[g] -= 1
    # The places that take fewest colours first: they are the likeliest to find nothing left.
    order = sorted(range(1, len(groups)), key=lambda g: bin(groups[g][1] & ((1 << colours) - 1)).count("1"))
    for g in order:
        allowed = groups[g][1]
        cards = out[g]
        for _ in range(room[g]):
            i = len(shuffled) - 1
            while i >= 0 and not allowed >> colour_of[shuffled[i]] & 1:
                i -= 1
            if i < 0:
                return None
            cards.append(shuffled.pop(i))
    out[0] = shuffled
    return out


def fill(
    supply: list[int], groups: list[tuple[int, int]], random_groups: list[int], rng: random.Random
) -> list[list[int]]:
    """Per group, how many places hold each type: every group full, every type used up, each place's type
    among its allowed bits. The places of `random_groups` are drawn at random, one by one in random order,
    each in proportion to what is left of each type that some complete fill still allows; the other
    groups take what is left, so a group that accepts anything should be left out of them."""
    work = Fill(supply, groups)
    work.complete()
    places = [g for g in random_groups for _ in range(work.capacity[g])]
    rng.shuffle(places)
    taken = [0] * work.types
    for g in places:
        work.fix(g, rng, taken)
    pairs = zip(work.fixed, work.count, strict=True)
    return [[f + c for f, c in zip(fixed, held, strict=True)] for fixed, held in pairs]


def _bits(mask: int) -> list[int]:
    out = []
    t = 0
    while mask:
        if mask & 1:
            out.append(t)
        mask >>= 1
        t += 1
    return out
