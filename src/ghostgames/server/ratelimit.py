"""Token buckets: one per connection for its messages (`rate` a second on average, bursts up to
`burst`), and buckets keyed by person or address for costly requests such as new tables."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ghostgames.tables import TableError


@dataclass(slots=True)
class TokenBucket:
    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def retry_in(self) -> float:
        return round(max(0.0, (1.0 - self.tokens) / self.rate), 3) if self.rate > 0 else 1.0


class KeyedBuckets:
    """One token bucket per key (a person, an address), made on first use. A bucket that has refilled
    to the brim is no different from a new one, so those are dropped now and then: memory follows the
    keys active lately, not every key ever seen."""

    def __init__(self, rate: float, burst: float, prune_every: int = 1000) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}
        self._prune_every = prune_every
        self._calls = 0

    def wait(self, key: str, now: float) -> float:
        """Seconds until `key` may act (0.0: now), without taking anything."""
        bucket = self._buckets.get(key)
        if bucket is None or bucket.tokens < 0:
            return 0.0 if self.burst >= 1.0 else self._never()
        tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        if tokens >= 1.0:
            return 0.0
        return (1.0 - tokens) / self.rate if self.rate > 0 else self._never()

    def take(self, key: str, now: float) -> None:
        bucket = self._buckets.setdefault(key, TokenBucket(self.rate, self.burst))
        bucket.take(now)
        self._calls += 1
        if self._calls % self._prune_every == 0:
            self._prune(now)

    def _prune(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * self.rate >= self.burst:
                del self._buckets[key]

    @staticmethod
    def _never() -> float:
        return 3600.0


def take_all(limits: list[tuple[KeyedBuckets, str]], now: float) -> float:
    """Take one token from each (buckets, key) when every one has it: 0.0. Otherwise take none and return
    the seconds until all of them will have one."""
    wait = max((buckets.wait(key, now) for buckets, key in limits), default=0.0)
    if wait > 0:
        return wait
    for buckets, key in limits:
        buckets.take(key, now)
    return 0.0


class PerAddress:
    """Costly requests per address (each runs a password hash, slow on purpose, or takes a name for days):
    a burst of `count`, refilled at `count` every `seconds`. Past that, `refusal(retry_after)` is raised."""

    def __init__(self, count: float, seconds: float, refusal: Callable[[int], TableError],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._buckets = KeyedBuckets(count / seconds, count)
        self._refusal = refusal
        self._clock = clock

    def take(self, address: str | None) -> None:
        """Count one request from `address`, or refuse it with when to try again."""
        wait = take_all([(self._buckets, address or "unknown")], self._clock())
        if wait > 0:
            raise self._refusal(max(1, math.ceil(wait)))


def new_names(per_hour: float, clock: Callable[[], float] = time.monotonic) -> PerAddress:
    """New names (guests and accounts): a guest name holds its name for days and an account costs a
    password hash, so one address that asked for thousands would squat names and burn the CPU. A class
    behind one school address still fits in the burst."""
    return PerAddress(per_hour, 3600.0, lambda retry: TableError(
        "names_limited", f"too many new names from your address in a short time; try again in {retry} s, or "
        "sign in to a name you already have", retry_after=retry), clock)


def sign_ins(per_minute: float, clock: Callable[[], float] = time.monotonic) -> PerAddress:
    """Password logins, right or wrong: each costs a hash, and the wrong-password throttle alone let one
    address with an account of its own log in as fast as the CPU could hash."""
    return PerAddress(per_minute, 60.0, lambda retry: TableError(
        "too_many_tries", f"too many sign-ins from your address in a short time; try again in {retry} s",
        retry_after=retry), clock)


class OpenConnections:
    """WebSocket connections open now, per address: one address that holds thousands would use up the
    server's file handles and memory, and nobody else could connect. Counted per server process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def open(self, address: str | None) -> None:
        """Count one more connection from `address`, or refuse with `too_many_connections`."""
        key = address or "unknown"
        held = self._open.get(key, 0)
        if held >= self.limit:
            raise TableError("too_many_connections", f"{held} connections from your address are open already, the "
                             "most allowed; close some tabs or windows of this site and reload",
                             open=held, limit=self.limit)
        self._open[key] = held + 1

    def close(self, address: str | None) -> None:
        key = address or "unknown"
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)

    def __len__(self) -> int:
        """Addresses with a connection open."""
        return len(self._open)
