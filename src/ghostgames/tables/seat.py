"""A seat at a table: who owns it, and who plays its turns now (the person, a seated bot, or a bot that
finishes the game or one turn for them)."""

from __future__ import annotations

from dataclasses import dataclass

TAKEOVER_LEVEL = "easy"  # the bot that finishes a seat for a person
# Takeovers after which the person is gone from the game: their seat is freed at a rematch.
GONE = ("left", "disconnected")


@dataclass(slots=True)
class Seat:
    index: int
    name: str | None = None  # the person who owns the seat
    bot: str | None = None  # a bot's level when a bot sits here
    takeover: str | None = None  # why a bot now plays the person's seat
    timeouts: int = 0  # timeouts in a row
    clock_turn: bool = False  # the clock ran out: a bot plays this one turn
    twin: bool = False  # another seat holds a bot of the same level: the label carries the seat number

    @property
    def kind(self) -> str:
        if self.bot is not None:
            return "bot"
        return "human" if self.name is not None else "empty"

    @property
    def label(self) -> str:
        if self.bot is not None:
            # "easy bot" alone, "easy bot 2" and "easy bot 3" when two of a level sit (numbered by seat,
            # from 1), so a log, a result or a record never confuses them
            return f"{self.bot} bot {self.index + 1}" if self.twin else f"{self.bot} bot"
        return self.name or f"seat {self.index + 1}"

    def bot_level(self) -> str | None:
        """The bot that plays this seat's current turn, if any."""
        if self.bot is not None:
            return self.bot
        if self.takeover is not None or self.clock_turn:
            return TAKEOVER_LEVEL
        return None
