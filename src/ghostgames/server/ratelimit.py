"""A token bucket per connection: `rate` messages a second on average, bursts up to `burst`."""

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
