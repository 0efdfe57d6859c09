"""Clocks as pure arithmetic on times that the caller passes in: nothing here reads the real time.

A table's clock is `none`, `move` (N seconds for each move) or `bank` (N seconds per seat for the whole
game plus an increment after each move). Every seat that may act is thinking (Geister's setup has two).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal

ClockMode = Literal["none", "move", "bank"]
TIMEOUTS_FOR_GOOD = 3  # timeouts in a row after which a bot keeps the seat
_BANK = re.compile(r"^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$")


@dataclass(frozen=True, slots=True)
class ClockLimits:
    """The clocks a table may choose, in seconds. Below 5 s a move a person has no time to read the board
    (the seat would go to a bot at once); above an hour a move, or two hours of bank, nobody waits at a
    table. A test server may lower `move_min` (GHOSTGAMES_CLOCK_MIN) to see timeouts quickly."""

    move_min: float = 5.0
    move_max: float = 3600.0
    bank_min: float = 10.0
    bank_max: float = 7200.0
    increment_max: float = 60.0

    def describe(self) -> str:
        return (f"'none', seconds per move from {self.move_min:g} to {self.move_max:g}, or bank+increment "
                f"such as 300+5 (bank {self.bank_min:g}-{self.bank_max:g}, increment 0-{self.increment_max:g})")

    def check(self, spec: ClockSpec, text: object) -> ClockSpec:
        fits = (spec.mode == "none"
                or (spec.mode == "move" and self.move_min <= spec.seconds <= self.move_max)
                or (spec.mode == "bank" and self.bank_min <= spec.seconds <= self.bank_max
                    and 0 <= spec.increment <= self.increment_max))
        if not fits:
            raise ValueError(f"option 'clock' takes {self.describe()}, not {str(text)[:40]!r}")
        return spec


@dataclass(frozen=True, slots=True)
class ClockSpec:
    mode: ClockMode = "none"
    seconds: float = 0.0
    increment: float = 0.0

    @classmethod
    def parse(cls, text: object, limits: ClockLimits | None = None) -> ClockSpec:
        """`none`, `30` (seconds per move) or `300+5` (bank + increment); raises ValueError. A clock a
        person chooses is checked against `limits`; one read back from stored events is not."""
        if limits is None:
            return cls._read(text)
        try:
            spec = cls._read(text)
        except ValueError:
            spec = ClockSpec("move", -1.0)  # unreadable: refused below with the words that say what works
        return limits.check(spec, text)

    @classmethod
    def _read(cls, text: object) -> ClockSpec:
        if text is None:
            return cls()
        if isinstance(text, bool):
            raise ValueError("the clock is 'none', seconds per move like '30', or bank+increment like '300+5'")
        if isinstance(text, (int, float)):
            text = str(text)
        word = str(text).strip().lower()
        if word in ("", "none", "off", "0"):
            return cls()
        bank = _BANK.match(word)
        if bank:
            seconds, increment = float(bank.group(1)), float(bank.group(2))
            if seconds <= 0:
                raise ValueError("a time bank needs more than 0 seconds")
            return cls("bank", seconds, increment)
        try:
            seconds = float(word)
        except ValueError:
            raise ValueError(
                f"{text!r} is no clock; use 'none', seconds per move like '30', or bank+increment like '300+5'"
            ) from None
        if not math.isfinite(seconds) or seconds <= 0:
            raise ValueError("seconds per move must be more than 0")
        return cls("move", seconds)

    def __str__(self) -> str:
        if self.mode == "none":
            return "none"
        if self.mode == "move":
            return f"{self.seconds:g}"
        return f"{self.seconds:g}+{self.increment:g}"

    def to_json(self) -> dict[str, object]:
        return {"mode": self.mode, "seconds": self.seconds, "increment": self.increment}


@dataclass(slots=True)
class Clocks:
    """The running clocks of one game. `thinking[seat]` is the time that seat began its turn."""

    spec: ClockSpec
    players: int
    bank: list[float] = field(default_factory=list)
    thinking: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.bank:
            self.bank = [self.spec.seconds] * self.players

    @property
    def on(self) -> bool:
        return self.spec.mode != "none"

    def sync(self, to_act: frozenset[int], now: float) -> None:
        """Seats that may act now are thinking (since now if they just began); the others are not."""
        for seat in list(self.thinking):
            if seat not in to_act:
                del self.thinking[seat]
        for seat in to_act:
            self.thinking.setdefault(seat, now)

    def bank_after(self, seat: int, now: float) -> float | None:
        """The bank `seat` keeps if it acts at `now` (None without a bank)."""
        if self.spec.mode != "bank":
            return None
        used = now - self.thinking.get(seat, now)
        return max(0.0, self.bank[seat] - used) + self.spec.increment

    def acted(self, seat: int, bank: float | None) -> None:
        """`seat` acted: its turn is over (`bank` as recorded in the event, for exact rebuilds)."""
        if bank is not None and self.spec.mode == "bank":
            self.bank[seat] = bank
        self.thinking.pop(seat, None)

    def deadline(self, seat: int) -> float | None:
        if not self.on or seat not in self.thinking:
            return None
        allowed = self.spec.seconds if self.spec.mode == "move" else self.bank[seat]
        return self.thinking[seat] + allowed

    def left(self, now: float) -> list[float | None]:
        """Seconds left per seat (None when not thinking or no clock)."""
        out: list[float | None] = []
        for seat in range(self.players):
            deadline = self.deadline(seat)
            out.append(None if deadline is None else max(0.0, round(deadline - now, 2)))
        return out

    def expired(self, now: float, seats: frozenset[int] | set[int]) -> list[int]:
        """Those of `seats` whose time is up at `now`."""
        out = []
        for seat in sorted(seats):
            deadline = self.deadline(seat)
            if deadline is not None and deadline <= now:
                out.append(seat)
        return out
