"""What a bot may know, made structural: a bot is handed a `SeatKnowledge`, never a State.

`SeatKnowledge` offers the seat's view, its legal actions and worlds sampled consistently with what
the seat knows; the true state stays private to this module's closure, so a bot cannot peek even by
accident.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

import numpy as np
from numpy.typing import NDArray

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

    def encode(self) -> dict[str, NDArray[np.float32]]:
        """The seat's view as the game's fixed-shape float32 arrays: the same dict the environments put under
        `obs["observation"]` (shapes: `game.observation_shapes(players)`). Built from `view()`, so it holds
        nothing the seat may not know."""
        return self._state.encode(self.seat)

    def encode_info_state(self) -> dict[str, NDArray[np.float32]]:
        """The seat's information state (perfect recall of what it saw; `game.info_state_shapes(players)`):
        the dict the environments give with observation="info_state". Built from `view()`, as `encode`."""
        return self._state.encode_info_state(self.seat)

    def legal_mask(self) -> NDArray[np.bool_]:
        """True at the index of each legal action, over the game's fixed action index space
        (`game.action_count(players)` long; `action_at(i)` is the action). The environments' `action_mask`
        is this as int8. Every game here has such a space; a game without one raises NotImplementedError,
        and a bot for it uses `legal_actions()` instead."""
        return self._state.legal_mask(self.seat)

    def action_at(self, index: int) -> Action:
        """The action at `index` of the game's action index space, for this seat (legal or not)."""
        action: Action = self.game.action_at(int(index), self.seat)
        return action

    def sample_world(self, rng: random.Random) -> State[Any]:
        """A full state the seat cannot tell from the real one (fresh hidden parts each call)."""
        return self._state.sample_world(self.seat, rng)

    def fast_worlds(self) -> Any:
        """The game's compiled dealer of this seat's `sample_world` worlds (`State.fast_worlds`), or None."""
        return self._state.fast_worlds(self.seat)


class Bot(ABC):
    """A player program. `choose` must depend only on `knowledge`, `rng` and what earlier `game_over` calls
    gave it (a bot kept for several games against one opponent may remember them; a fresh bot is a pure
    function of `knowledge` and `rng`). A bot is never given anything but its own seat's knowledge."""

    name: str = "bot"
    # The games whose finished games `game_over` learns from: a harness may skip building final positions
    # for a bot that forgets them (the table server does).
    remembers: frozenset[str] = frozenset()

    @abstractmethod
    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action: ...

    def game_over(self, knowledge: SeatKnowledge) -> None:
        """Called by a harness that keeps this bot for several games against the same opponent (a match, the
        competition client's games on one port), once at the end of each game, with this seat's knowledge of
        the final position: its final view, which under Geister's `disclose` shows every colour. Nothing by
        default."""
        return None
