"""Sampled worlds of The Last as rows of the compiled core, dealt in the core from Python's own random draws.

A search samples hundreds of worlds from one position. `TheLastState.sample_world` copies the state and
deals its hidden cards (deal.py); converting each copy into a row (`fast.from_state`) cost as much again.
`WorldRows` converts the position once and, for each world, writes only what `sample_world` deals over a
copy of that row. The deal runs compiled: the quick deal of deal.py (shuffle the unseen cards; put each
known card into a random place that takes it; fill the most constrained places first), drawing from a
Mersenne Twister that *is* the caller's `random.Random` (its state read before and written back after, and
the draws made as the standard library makes them: `getrandbits`, `_randbelow`, `shuffle`, `random`,
`choices`). So a world is the one `sample_world` deals from the same stream, and the stream ends where it
would: tests/games/thelast/test_fast_core.py holds the rows and the stream equal over random matches at
2-5 players. When the quick deal runs into a dead end the world is dealt again in Python from the state
the stream had at its start (the exact fill of deal.py), as `sample_world` does.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast import fast
from ghostgames.games.thelast.cards import COLOUR_OF
from ghostgames.jit import compiled, forget_stale_kernels, own_kernels

if TYPE_CHECKING:
    from ghostgames.games.thelast.state import TheLastState

Ints = NDArray[np.int64]
Words = NDArray[np.uint32]

_N, _M = 624, 397
_COLOUR = np.array(COLOUR_OF, dtype=np.int64)
_COLOURS = max(COLOUR_OF) + 1  # deal.py's bit of known card i: 1 << (colours + i)
_HAND, _PILE, _SPARE, _POINTS, _GHOST_PILE = fast.HAND, fast.PILE, fast.SPARE, fast.POINTS, fast.GHOST_PILE


# --- Python's Mersenne Twister (CPython's _randommodule.c), on its own state -----------------------------------
@compiled
def _word(mt: Words, at: Ints) -> int:
    """The next 32-bit output (genrand_uint32); `at[0]` is the state's index, as in `getstate()`."""
    if at[0] >= _N:
        for k in range(_N):
            y = (int(mt[k]) & 0x80000000) | (int(mt[(k + 1) % _N]) & 0x7FFFFFFF)
            v = int(mt[(k + _M) % _N]) ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[k] = v
        at[0] = 0
    y = int(mt[at[0]])
    at[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@compiled
def _below(mt: Words, at: Ints, n: int) -> int:
    """`_randbelow(n)` for 0 < n < 2**32: k = n.bit_length() bits at a time until one is below n."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = _word(mt, at) >> (32 - k)
    while r >= n:
        r = _word(mt, at) >> (32 - k)
    return r


@compiled
def _skip_seed(mt: Words, at: Ints) -> None:
    """`randrange(2**63)` (the world's seed for later rounds, unused in a row): 64 bits until the top one is 0."""
    while True:
        _word(mt, at)
        if _word(mt, at) < 0x80000000:
            return


@compiled
def _uniform(mt: Words, at: Ints) -> float:
    """`random()`: 53 bits from two words."""
    a = _word(mt, at) >> 5
    b = _word(mt, at) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


# --- the quick deal, written into rows ---------------------------------------------------------------------------
@compiled
def deal_rows(mt: Words, at: Ints, base: Ints, pool: Ints, capacity: Ints, allowed: Ints, known: Ints,
              order: Ints, hand_group: Ints, seats: Ints, first_slot: Ints, slots: Ints, kept: Ints, ghost: int,
              ghost_cards: int, points: int, spare: int, out: Ints) -> int:
    """Deal worlds into the rows of `out` until they are all dealt or the quick deal of one runs into a dead
    end; returns how many were dealt, with (mt, at) the stream at the start of the next one. Groups as in
    deal.py (0: the unseen piles; `capacity`, `allowed` bits); `order`: the groups filled after the known cards,
    the most constrained first; per other seat `seats[i]`, its hand's group and its slots' first group and
    count, and the face-down cards of its pile that are not swap slots (`kept`)."""
    shuffled = np.empty(pool.shape[0], dtype=np.int64)
    taken = np.empty(pool.shape[0], dtype=np.int64)  # each card's group, -1 while in the shuffled pool
    room = np.empty(capacity.shape[0], dtype=np.int64)
    fits = np.empty(capacity.shape[0], dtype=np.int64)
    weights = np.empty(capacity.shape[0], dtype=np.int64)
    group_cards = np.zeros(capacity.shape[0], dtype=np.int64)  # the cards of each group, a mask
    start = np.empty(_N, dtype=np.uint32)
    for w in range(out.shape[0]):
        start[:] = mt
        start_at = at[0]
        _skip_seed(mt, at)
        shuffled[:] = pool
        for i in range(pool.shape[0] - 1, 0, -1):
            j = _below(mt, at, i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        left = pool.shape[0]
        taken[:] = -1
        room[:] = capacity
        room[0] = 0
        group_cards[:] = 0
        ok = True
        for i in range(known.shape[0]):
            bit = 1 << (_COLOURS + i)
            n = 0
            for g in range(capacity.shape[0]):
                if room[g] > 0 and allowed[g] & bit:
                    fits[n] = g
                    weights[n] = room[g]
                    n += 1
            if n == 0:
                ok = False
                break
            g = fits[0]
            if n > 1:  # choices(fits, weights): bisect_right of random() * total in the running sums, below n - 1
                total = 0
                for f in range(n):
                    total += weights[f]
                x = _uniform(mt, at) * float(total)
                g = fits[n - 1]
                running = 0
                for f in range(n - 1):
                    running += weights[f]
                    if x < running:
                        g = fits[f]
                        break
            group_cards[g] |= 1 << known[i]
            room[g] -= 1
        if ok:
            for g in order:
                for _ in range(room[g]):
                    i = left - 1
                    while i >= 0 and not (allowed[g] >> _COLOUR[shuffled[i]]) & 1:
                        i -= 1
                    if i < 0:
                        ok = False
                        break
                    group_cards[g] |= 1 << shuffled[i]
                    for k in range(i, left - 1):
                        shuffled[k] = shuffled[k + 1]
                    left -= 1
                if not ok:
                    break
        if not ok:
            mt[:] = start
            at[0] = start_at
            return w
        row = out[w]
        row[:] = base
        for i in range(seats.shape[0]):
            p = seats[i]
            row[_HAND + p] = group_cards[hand_group[i]]
            laid = 0
            for k in range(slots[i]):
                laid |= group_cards[first_slot[i] + k]
            row[_PILE + p] = kept[i] | laid
        if ghost >= 0:  # sample_world pops the ghost's hand, then the points pile, then the spare cards
            held = 0
            for k in range(ghost_cards):
                left -= 1
                row[_GHOST_PILE + k] = shuffled[left]
                held |= 1 << int(shuffled[left])
            row[_HAND + ghost] = held
        for k in range(points):
            left -= 1
            row[_POINTS + k] = shuffled[left]
        spares = 0
        for _ in range(spare):
            left -= 1
            spares |= 1 << int(shuffled[left])
        row[_SPARE] = spares
    return int(out.shape[0])


class WorldRows:
    """`fast.from_state(state.sample_world(seat, rng))` for many worlds without the states: see the module."""

    def __init__(self, state: TheLastState, seat: int | None) -> None:
        self._state = state
        self._seat = seat
        self._base = fast.from_state(state)
        plan = state._world_plan(seat)
        self._pool = np.array(plan.pool, dtype=np.int64)
        self._capacity = np.array([c for c, _ in plan.groups], dtype=np.int64)
        self._allowed = np.array([a for _, a in plan.groups], dtype=np.int64)
        self._known = np.array(plan.known, dtype=np.int64)
        colours = (1 << _COLOURS) - 1
        self._order = np.array(sorted(range(1, len(plan.groups)), key=lambda g: bin(plan.groups[g][1] & colours)
                                      .count("1")), dtype=np.int64)  # deal.py's order: stable, fewest colours first
        hand_group, first_slot, g = [], [], 1
        for slots in plan.slots:
            hand_group.append(g)
            first_slot.append(g + 1)
            g += 1 + slots
        self._seats = np.array(plan.others, dtype=np.int64)
        self._hand_group = np.array(hand_group, dtype=np.int64)
        self._first_slot = np.array(first_slot, dtype=np.int64)
        self._slots = np.array(plan.slots, dtype=np.int64)
        self._kept = np.array([sum(1 << c for c in state.shown_pile[p] if c in state.piles[p]) for p in plan.others],
                              dtype=np.int64)
        self._sizes = (len(state.hands[state.ghost]) if state.ghost >= 0 else 0, len(state.points), len(state.spare))

    def sample(self, rng: random.Random, out: Ints) -> None:
        """Worlds into the rows of `out` (count, FIELDS), drawing from `rng` as that many `sample_world` calls."""
        version, words, gauss = rng.getstate()
        mt = np.array(words[:_N], dtype=np.uint32)
        at = np.array([words[_N]], dtype=np.int64)
        done = 0
        while done < out.shape[0]:
            done += deal_rows(mt, at, self._base, self._pool, self._capacity, self._allowed, self._known,
                              self._order, self._hand_group, self._seats, self._first_slot, self._slots,
                              self._kept, self._state.ghost, *self._sizes, out[done:])
            if done < out.shape[0]:  # a dead end of the quick deal: this world by deal.py's exact fill
                rng.setstate((version, (*mt.tolist(), int(at[0])), gauss))
                out[done] = fast.from_state(self._state.sample_world(self._seat, rng))
                version, words, gauss = rng.getstate()
                mt[:] = words[:_N]
                at[0] = words[_N]
                done += 1
        rng.setstate((version, (*mt.tolist(), int(at[0])), gauss))


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]), inlined=(fast,))
