"""A finished or running game as (game, players, options, seed, actions): what storage keeps, what a
replay re-runs, what a bug report attaches. It holds secrets (the seed, Geister setups): show players
only views computed from it, never the record itself."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ghostgames.rules.contract import JSON, State
from ghostgames.rules.registry import get_game


@dataclass(slots=True)
class GameRecord:
    """`game` is a registered game's name (ghostgames.games registers every game when imported)."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)

    def new_state(self) -> State[Any]:
        return get_game(self.game).new(self.players, self.options, self.seed)

    def replay(self) -> State[Any]:
        """The state after every recorded action (raises IllegalAction if the record is corrupt)."""
        state = self.new_state()
        for seat, text in self.actions:
            state.apply(seat, text)
        return state

    def states(self) -> Iterator[State[Any]]:
        """Every state from the start to the end, for replay viewers (one clone per step)."""
        state = self.new_state()
        yield state.clone()
        for seat, text in self.actions:
            state.apply(seat, text)
            yield state.clone()

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [[seat, text] for seat, text in self.actions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        return cls(
            str(data["game"]),
            int(data["players"]),
            dict(data["options"]),
            int(data["seed"]),
            [(int(s), str(t)) for s, t in data["actions"]],
        )
