"""Wrong passwords cost time: per name and per address, a few are free, then each one locks further
tries for a while that doubles, up to a cap. While locked, even the right password is refused, so
guessing costs the same whether a guess is right or wrong.

In memory, per server process: with several workers each keeps its own count (docs/scaling.md).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from ghostgames.server.keyed_locks import KeyedLocks


@dataclass(frozen=True, slots=True)
class ThrottleRules:
    """The numbers, and why. A person who forgot a password tries a few variants: 5 per name are free.
    An address may be shared (a school, a mobile network), so it gets 20 before its own lock. Then 30 s,
    doubling with each further wrong try (60, 120, …) up to 15 min, which limits a guesser to a few
    hundred guesses a day per name. An hour without a wrong try forgets the count; a right one forgets
    the name's count at once (not the address's, which a guesser with one account of their own could
    otherwise reset)."""

    free_per_name: int = 5
    free_per_address: int = 20
    first_lock: float = 30.0
    longest_lock: float = 900.0
    forget_after: float = 3600.0
    remembered: int = 100_000  # keys kept at most; the oldest go first (a bound on memory)


@dataclass(slots=True)
class _Count:
    wrong: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class LoginThrottle:
    def __init__(self, rules: ThrottleRules | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules or ThrottleRules()
        self.clock = clock
        self._counts: dict[str, _Count] = {}
        self._turns = KeyedLocks()  # name key -> its lock, while in use

    @contextlib.asynccontextmanager
    async def turn(self, name: str) -> AsyncIterator[None]:
        """One login for a name at a time, so a burst of parallel guesses cannot all pass `wait` before
        the first of them is counted."""
        async with self._turns.hold(_name_key(name)):
            yield

    def wait(self, name: str, address: str) -> int:
        """Whole seconds until `name` may try from `address` again (0: now)."""
        now = self.clock()
        ends = max(self._current(_name_key(name), now).locked_until,
                   self._current(_address_key(address), now).locked_until)
        return max(0, math.ceil(ends - now))

    def failed(self, name: str, address: str) -> int:
        """Count one wrong password; the seconds of the lock it starts (0: none yet)."""
        now = self.clock()
        self._count(_name_key(name), self.rules.free_per_name, now)
        self._count(_address_key(address), self.rules.free_per_address, now)
        self._forget_old(now)
        return self.wait(name, address)

    def succeeded(self, name: str) -> None:
        self._counts.pop(_name_key(name), None)

    def _current(self, key: str, now: float) -> _Count:
        count = self._counts.get(key)
        if count is None or (now - count.last > self.rules.forget_after and now >= count.locked_until):
            return _Count()
        return count

    def _count(self, key: str, free: int, now: float) -> None:
        count = self._current(key, now)
        count.wrong += 1
        count.last = now
        if count.wrong >= free:
            lock = min(self.rules.longest_lock, self.rules.first_lock * 2 ** min(count.wrong - free, 30))
            count.locked_until = max(count.locked_until, now + lock)
        self._counts.pop(key, None)
        self._counts[key] = count  # most recent last, so the oldest are forgotten first

    def _forget_old(self, now: float) -> None:
        """Drop the oldest counts: those past `forget_after` (their lock, at most `longest_lock`, is over
        by then) and any beyond `remembered`. The dict is in order of the last wrong try."""
        while self._counts:
            oldest = next(iter(self._counts))
            fresh = now - self._counts[oldest].last <= self.rules.forget_after
            if fresh and len(self._counts) <= self.rules.remembered:
                break
            del self._counts[oldest]


def _name_key(name: str) -> str:
    return "name:" + str(name).strip().lower()


def _address_key(address: str) -> str:
    return "address:" + address
