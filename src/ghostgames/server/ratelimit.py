"""Token buckets: one per connection for its messages (`rate` a second on average, bursts up to
`burst`), and buckets keyed by person or address for costly requests such as new tables."""

from __future__ import annotations

from dataclasses import dataclass, field


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
