"""The one contract between a game and everything else (server, bots, benchmarks, learning code).

A game is a `Game` (a factory with options) that makes `State`s. Everything outside `games/` talks to
a game only through these two classes, so a new game needs nothing but a subclass of each.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from ghostgames.rules.options import options_schema, validate_options

JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the rules do not allow now; `reason` says why in words a player understands.

    `rule` optionally names the refusal ("geister.setup_first") and `details` its values, so a client can
    say the same, and what would work, in the reader's language; `reason` stays the English fallback."""

    def __init__(self, reason: str, rule: str | None = None, **details: str | int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.details = details


class Action(ABC):
    """A move a seat can make. `str(action)` is the text people type; `to_json()` the wire form."""

    __slots__ = ()

    @abstractmethod
    def to_json(self) -> JSON: ...


class Event(NamedTuple):
    """Something that happened, for logs and animations.

    `public` is what every seat and spectator may know; `private` adds details for single seats
    (e.g. the card a player drew). Use `for_seat` to get the redacted form; never send the object whole.
    (A NamedTuple because games make one per move and it must cost next to nothing.)
    """

    kind: str
    public: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] = MappingProxyType({})

    def for_seat(self, seat: int | None) -> JSON:
        data: JSON = {"kind": self.kind, **self.public}
        if seat is not None and seat in self.private:
            data.update(self.private[seat])
        return data


ResultKind = Literal["win", "loss", "draw"]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result: win/loss/draw, its rank (1 = best; ties share a rank) and its score."""

    result: ResultKind
    rank: int
    score: float = 0.0

    def to_json(self) -> JSON:
        return {"result": self.result, "rank": self.rank, "score": self.score}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: a result for every seat and the reason in words (e.g. "escape")."""

    results: tuple[SeatResult, ...]
    reason: str

    def to_json(self) -> JSON:
        return {"results": [r.to_json() for r in self.results], "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            tuple(SeatResult(r["result"], int(r["rank"]), float(r["score"])) for r in data["results"]),
            str(data["reason"]),
        )

    @classmethod
    def winner_takes_all(cls, players: int, winner: int, reason: str) -> Outcome:
        """Two-sided games: one winner, everybody else lost."""
        return cls(
            tuple(
                SeatResult("win", 1, 1.0) if s == winner else SeatResult("loss", 2, 0.0)
                for s in range(players)
            ),
            reason,
        )

    @classmethod
    def draw(cls, players: int, reason: str) -> Outcome:
        return cls(tuple(SeatResult("draw", 1, 0.5) for _ in range(players)), reason)


OptionsT = TypeVar("OptionsT", bound=BaseModel)
A = TypeVar("A", bound=Action)


class Game(ABC, Generic[OptionsT, A]):
    """A game's rules as a factory: its name, player counts, options model and how to read actions."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    # The words an action of this game may begin with ("setup", "play"): a table that cannot read
    # "/play 99" says what is wrong with the move instead of calling it an unknown command.
    verbs: ClassVar[tuple[str, ...]] = ()

    def options(self, players: int, options: Mapping[str, Any] | None = None) -> OptionsT:
        """Validated options; raises `OptionError` naming the option and what it accepts."""
        self.check_players(players)
        return validate_options(self.name, self.Options, options or {}, players)  # type: ignore[return-value]

    def options_schema(self) -> JSON:
        return options_schema(self.Options)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}"
            )

    def describe(self) -> JSON:
        """What a lobby shows about the game."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.options_schema(),
        }

    def new(self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None) -> State[A]:
        """A fresh game. Every chance in it follows from `seed` (a random one when None)."""
        checked = self.options(players, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return self._new(players, checked, seed)

    @abstractmethod
    def _new(self, players: int, options: OptionsT, seed: int) -> State[A]: ...

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> State[A]:
        """Rebuild a state from `State.to_json()` (hidden parts included)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Read the text form; raises IllegalAction with the forms that would work."""

    @abstractmethod
    def action_from_json(self, data: Mapping[str, Any]) -> A: ...

    def help_text(self) -> str:
        """The action forms people can type, in plain words."""
        return ""

    # --- for learning code: fixed-size actions and observations ----------------------------------
    # A game offers these so that neural networks and the Gymnasium / PettingZoo wrappers (ghostgames.envs)
    # can use it; the server and the bots do not need them.
    def action_count(self, players: int) -> int:
        """Size of the fixed action index space: the same for every seat and state at this player count.
        ValueError (from check_players) for a count the game is not played with."""
        raise NotImplementedError(f"{self.title} has no action index space yet")

    def action_index(self, action: A, seat: int) -> int:
        """The index of `action` for `seat`, in range(action_count(players))."""
        raise NotImplementedError(f"{self.title} has no action index space yet")

    def action_at(self, index: int, seat: int) -> A:
        """The action with that index for `seat`; IllegalAction when the index is out of range."""
        raise NotImplementedError(f"{self.title} has no action index space yet")

    def observation_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        """The name and shape of every array `encode_view` returns at this player count (checked as above)."""
        raise NotImplementedError(f"{self.title} has no observation encoding yet")

    def encode_view(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        """Fixed-shape float32 arrays made from a seat's `view` and nothing else, so an encoding can never
        hold more than the seat may know."""
        raise NotImplementedError(f"{self.title} has no observation encoding yet")

    def info_state_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        """The shapes of `encode_info_state`'s arrays. A game whose view already holds a perfect memory of
        what its seats saw may leave both to these defaults: the observation itself."""
        return self.observation_shapes(players)

    def encode_info_state(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        """Fixed-shape arrays with perfect recall of what the seat has seen (the information state, for
        learning code that needs a Markov input), made from the seat's `view` only, as `encode_view`."""
        return self.encode_view(view)


class State(ABC, Generic[A]):
    """One position of a game, with everything hidden in it. Only the server and search may hold it."""

    game: Game[Any, A]
    players: int

    # --- whose move ---------------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may act now; empty once the game is over. Several at once for simultaneous steps."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[A]:
        """Every action `seat` may take now (empty when it is not to act)."""

    def apply(self, seat: int, action: A | str) -> list[Event]:
        """Carry out `action` for `seat`, or raise IllegalAction and change nothing."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if self.outcome() is not None:
            raise IllegalAction("the game is over")
        if seat not in self.to_act():
            raise IllegalAction(f"it is not seat {seat}'s turn")
        return self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: int, action: A) -> list[Event]:
        """Check and apply; must validate completely before changing anything."""

    # --- what is known ------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """JSON-ready view for `seat` (None: a spectator). Holds nothing that reader may not know."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    def is_over(self) -> bool:
        return self.outcome() is not None

    def concede(self, outcome: Outcome) -> None:
        """End the game early with `outcome` (a table's resignation): afterwards the state is over, so its
        views show what the game reveals at its end (Geister's `disclose`). Each game keeps its result in
        `_outcome`; a game that keeps it elsewhere overrides this."""
        if self.is_over():
            raise IllegalAction("the game is over")
        self._outcome: Outcome | None = outcome

    # --- search and storage -------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State[A]: ...

    @abstractmethod
    def sample_world(self, seat: int, rng: random.Random) -> State[A]:
        """A complete state that `seat` cannot tell apart from this one: hidden parts re-dealt at random."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The complete state, secrets included: for the server's storage only."""

    def legal_texts(self, seat: int) -> list[str]:
        return [str(a) for a in self.legal_actions(seat)]

    # --- for learning code ------------------------------------------------------------------------
    def encode(self, seat: int) -> dict[str, NDArray[np.float32]]:
        """What `seat` knows as fixed-shape arrays (see Game.observation_shapes); built from view(seat)."""
        return self.game.encode_view(self.view(seat))

    def encode_info_state(self, seat: int) -> dict[str, NDArray[np.float32]]:
        """What `seat` has seen since the start as fixed-shape arrays (Game.info_state_shapes); from view(seat)."""
        return self.game.encode_info_state(self.view(seat))

    def legal_mask(self, seat: int) -> NDArray[np.bool_]:
        """One flag per action index: True where the action is legal for `seat` now."""
        mask = np.zeros(self.game.action_count(self.players), dtype=np.bool_)
        for action in self.legal_actions(seat):
            mask[self.game.action_index(action, seat)] = True
        return mask


def parse_json_action(game: Game[Any, A], data: Mapping[str, Any] | str) -> A:
    """Accept either the text form or the JSON form of an action."""
    if isinstance(data, str):
        return game.parse_action(data)
    return game.action_from_json(data)

