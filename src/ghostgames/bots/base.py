"""What a bot may know, made structural: a bot is handed a `SeatKnowledge`, never a State.

`SeatKnowledge` offers the seat's view, its legal actions and worlds sampled consistently with what
the seat knows; the true state stays private to this module's closure, so a bot cannot peek even by
accident.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from ghostgames.rules.contract import JSON, Action, Game, State


class SeatKnowledge:
    """Everything one seat may use to decide, and nothing more."""

    __slots__ = ("_state", "game", "seat")

    def __init__(self, state: State[Any], seat: int) -> None:
        self._state = state
        self.seat = seat
        self.game: Game[Any, Any] = state.game

    @property
    def players(self) -> int:
        return self._state.players

    def view(self) -> JSON:
        return self._state.view(self.seat)

    def legal_actions(self) -> list[Action]:
        return list(self._state.legal_actions(self.seat))

    def sample_world(self, rng: random.Random) -> State[Any]:
        """A full state the seat cannot tell from the real one (fresh hidden parts each call)."""
        return self._state.sample_world(self.seat, rng)


class Bot(ABC):
    """A player program. `choose` must depend only on `knowledge` and `rng`."""

    name: str = "bot"

    @abstractmethod
    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action: ...
