"""How long a search bot may think: a number of iterations (reproducible) or seconds (for tables)."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """Stop after `iterations`, or after `seconds` of wall time, whichever is given (iterations win).

    An iteration budget makes a bot a pure function of (knowledge, rng): tournaments and tests use it.
    A time budget adapts to the machine: tables use it.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")

    def clock(self) -> BudgetClock:
        return BudgetClock(self)


class BudgetClock:
    """One decision's running budget: call `more()` before each iteration."""

    __slots__ = ("_deadline", "_done", "_limit")

    def __init__(self, budget: Budget) -> None:
        self._done = 0
        self._limit = budget.iterations
        self._deadline = None if budget.iterations is not None else time.perf_counter() + (budget.seconds or 0.0)

    @property
    def done(self) -> int:
        return self._done

    def more(self) -> bool:
        if self._limit is not None:
            ok = self._done < self._limit
        else:
            # Always allow a first iteration so that a move is never chosen blind.
            ok = self._done == 0 or time.perf_counter() < (self._deadline or 0.0)
        if ok:
            self._done += 1
        return ok

    def take(self, most: int) -> int:
        """Up to `most` iterations at once (0 when the budget is spent), for a search that runs them in one
        compiled call: the iterations left, or with a time budget all of them while time is left. The same
        count as calling `more()` that often under an iteration budget, without a Python call per iteration."""
        if self._limit is not None:
            granted = max(0, min(most, self._limit - self._done))
        else:
            granted = most if self._done == 0 or time.perf_counter() < (self._deadline or 0.0) else 0
        self._done += granted
        return granted
