"""What the opponent set up in the earlier games of a match, as a prior over its next setup (issue 39).

Many programs set up the same way every game (a learned setup policy played greedily: our learned runners
each play one setup, benchmarks/runner_setups.py), others draw a setup at random (`rules`, `random`, the
expert). A player that remembers the setups it saw can read the first kind far better and must not be
fooled by the second.

A setup is named by the opponent's good ghosts' numbers k = 0..7: ghost `seat * 8 + k` starts on
`START[seat][k]`, the same square relative to its owner in either seat (0-3 the front row from the owner's
left, 4-7 the back row), so games played from either seat count alike.

The model: the opponent draws each setup from a distribution over the 70 setups that is itself unknown,
with a symmetric Dirichlet prior of total concentration `a` (a / 70 per setup). After N setups, n_s of them
s, the next is s with chance (n_s + a / 70) / (N + a). `a` is chosen by empirical Bayes: the value of
CONCENTRATIONS under which the setups seen, in their order, were likeliest (a tie goes to the larger, the
nearer to uniform). One game says nothing about `a` (every `a` gives its setup 1/70), so after one game the
prior stays uniform; from the second on, an opponent that repeated is trusted at once (a = 0.1: after two
equal setups the third is read 95% the same) and one that varied leaves the prior uniform (a = inf).

Only games whose whole setup the seat's final view shows are learned from: every colour (Geister's
`disclose`), or four good or four bad ghosts of the opponent identified (taken, escaped). Any other game is
ignored, not counted in part: the games where a seat sees few colours are not a fair sample of setups.

Pure: it reads views (the seat's own knowledge) and counts; nothing here knows a true state.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

Setup = frozenset[int]  # the opponent's good ghosts' numbers, four of 0..7

SETUPS: tuple[Setup, ...] = tuple(frozenset(c) for c in combinations(range(8), 4))
# Total concentrations the empirical Bayes choice ranges over: from "it repeats" to "it draws uniformly".
CONCENTRATIONS = (0.1, 1.0, 10.0, 100.0, math.inf)
_TIE = 1e-9  # log-likelihoods closer than this are equal


def setup_seen(view: Mapping[str, Any]) -> Setup | None:
    """The opponent's whole setup as the seat's `view` shows it, or None when the view leaves part of it open
    (fewer than four good and fewer than four bad of its ghosts identified)."""
    seat = int(view["seat"])
    good: set[int] = set()
    bad: set[int] = set()
    for ghost in view["ghosts"]:
        g = int(ghost["id"])
        if g >> 3 == seat or ghost["colour"] is None:
            continue
        (good if ghost["colour"] == "good" else bad).add(g & 7)
    if len(good) == 4:
        return frozenset(good)
    if len(bad) == 4:
        return frozenset(range(8)) - frozenset(bad)
    return None


class SetupMemory:
    """The opponent's setups seen so far in a match, in order, and the prior over its next one."""

    def __init__(self, setups: Iterable[Iterable[int]] = ()) -> None:
        self.setups: list[Setup] = []
        for setup in setups:
            self.add(frozenset(setup))

    def add(self, setup: Setup) -> None:
        if setup not in SETUPS:
            raise ValueError(f"a setup is four of the ghost numbers 0..7, not {sorted(setup)}")
        self.setups.append(setup)

    def learn(self, view: Mapping[str, Any]) -> bool:
        """Remember the opponent's setup from a finished game's final `view` of our seat, when the view shows
        it whole (`setup_seen`); whether it did."""
        setup = setup_seen(view)
        if setup is None:
            return False
        self.add(setup)
        return True

    def log_likelihood(self, concentration: float) -> float:
        """log P(the setups seen, in order | concentration), each predicted from those before it."""
        if math.isinf(concentration):
            return -len(self.setups) * math.log(len(SETUPS))
        counts: Counter[Setup] = Counter()
        total = 0.0
        for n, setup in enumerate(self.setups):
            total += math.log((counts[setup] + concentration / len(SETUPS)) / (n + concentration))
            counts[setup] += 1
        return total

    def concentration(self) -> float:
        """The empirical Bayes concentration: CONCENTRATIONS' likeliest for the setups seen (ties: the larger)."""
        best, best_log = math.inf, self.log_likelihood(math.inf)
        for a in sorted(CONCENTRATIONS, reverse=True):
            log = self.log_likelihood(a)
            if log > best_log + _TIE:
                best, best_log = a, log
        return best

    def chance(self, setup: Setup, concentration: float | None = None) -> float:
        """The prior chance that the opponent's next setup is `setup` (`concentration`: the empirical Bayes one)."""
        if setup not in SETUPS:
            return 0.0
        a = self.concentration() if concentration is None else concentration
        if math.isinf(a):
            return 1.0 / len(SETUPS)
        return (self.setups.count(setup) + a / len(SETUPS)) / (len(self.setups) + a)

    def prior(self) -> dict[Setup, float]:
        """The chance of every setup (they sum to 1)."""
        a = self.concentration()
        return {s: self.chance(s, a) for s in SETUPS}

    def informative(self) -> bool:
        """Whether the prior is other than uniform (it is with no game seen, one, or setups that vary)."""
        return not math.isinf(self.concentration())

    def to_json(self) -> list[list[int]]:
        """The setups seen, in order (each its good ghosts' numbers), to keep between runs."""
        return [sorted(s) for s in self.setups]
