"""The one contract between a game and everything else (server, bots, benchmarks, learning code).

A game is a `Game` (a factory with options) that makes `State`s. Everything outside `games/` talks to
a game only through these two classes, so a new game needs nothing but a subclass of each.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from ghostgames.rules.options import options_schema, validate_options
from ghostgames.rules.reasons import GAME_OVER, NOT_YOUR_TURN, Reason, english, read_ending

JSON = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the rules do not allow now, or cannot read; it changes nothing.

    `code` names the refusal ("not_your_turn", "geister.no_ghost"; declared in rules/reasons.py and
    games/<game>/reasons.py) and `details` holds its arguments, so a client can say the same in the
    reader's language; `reason` is the English sentence for logs, terminals and old clients. Raise it with
    a declared reason (`IllegalAction(NO_GHOST, square="b2")`: the words are made from the code), or with
    words of your own and a code (`IllegalAction("...", NO_GHOST, square="b2")`). `rule` is the old name
    of `code`."""

    def __init__(self, reason: str | Reason, rule: str | Reason | None = None, **details: Any) -> None:
        if isinstance(reason, Reason):
            rule, reason = reason, reason.words(details)
        super().__init__(reason)
        self.reason = reason
        self.code: str | None = rule.code if isinstance(rule, Reason) else rule
        self.details = details

    @property
    def rule(self) -> str | None:
        return self.code

    def to_json(self) -> JSON:
        """The wire form of a refusal: the English `message`, its `code` and `args`."""
        return {"message": self.reason, "code": self.code, "args": dict(self.details)}

    def __reduce__(self) -> tuple[Any, ...]:  # keep the code across processes (tournament workers)
        return (_illegal_action, (self.reason, self.code, self.details))


def _illegal_action(reason: str, code: str | None, details: dict[str, Any]) -> IllegalAction:
    return IllegalAction(reason, code, **details)


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
    """The end of a game: a result for every seat, and why as a code with arguments ("exited",
    {"seat": 0}; declared in rules/reasons.py and games/<game>/reasons.py). `reason` holds the English
    words made from them, for logs and old clients; a reader's language makes its own from the code.

    >>> from ghostgames.rules.reasons import RESIGNED
    >>> end = Outcome.winner_takes_all(2, 1, RESIGNED, seat=0)
    >>> end.code, end.args, end.reason
    ('resigned', {'seat': 0}, 'seat 0 resigned')
    >>> Outcome.from_json(end.to_json()) == end
    True
    """

    results: tuple[SeatResult, ...]
    code: str
    args: Mapping[str, Any] = field(default_factory=dict)
    reason: str = field(default="", compare=False)  # made from code and args when not given

    def __post_init__(self) -> None:
        if not self.reason:
            object.__setattr__(self, "reason", english("ending", self.code, self.args))

    def to_json(self) -> JSON:
        return {"results": [r.to_json() for r in self.results], "reason": self.reason, "code": self.code,
                "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """Read `to_json()`'s form; an outcome stored before codes (English `reason` only) gets the code
        whose words it is, or `legacy` with the words as its `text`."""
        results = tuple(SeatResult(r["result"], int(r["rank"]), float(r["score"])) for r in data["results"])
        if "code" not in data:
            return cls.because(results, str(data["reason"]))
        return cls(results, str(data["code"]), dict(data.get("args") or {}), str(data.get("reason") or ""))

    @classmethod
    def because(cls, results: tuple[SeatResult, ...], reason: Reason | str, **args: Any) -> Outcome:
        """An outcome for a declared reason and its arguments; English words alone (the old way, still
        used by callers outside the games) are read back to their code."""
        if isinstance(reason, Reason):
            return cls(results, reason.code, args)
        code, read = read_ending(reason)
        return cls(results, code, read, reason)

    @classmethod
    def winner_takes_all(cls, players: int, winner: int, reason: Reason | str, **args: Any) -> Outcome:
        """Two-sided games: one winner, everybody else lost."""
        return cls.because(
            tuple(
                SeatResult("win", 1, 1.0) if s == winner else SeatResult("loss", 2, 0.0)
                for s in range(players)
            ),
            reason,
            **args,
        )

    @classmethod
    def draw(cls, players: int, reason: Reason | str, **args: Any) -> Outcome:
        return cls.because(tuple(SeatResult("draw", 1, 0.5) for _ in range(players)), reason, **args)


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
    # Players choose a secret starting position (Geister's setup) rather than being dealt one: a habit an
    # opponent may show game after game, which a table keeps the ends of games for (tables/memory.py).
    chosen_setup: ClassVar[bool] = False

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
        """A fresh game. Every chance in it follows from `seed` (a random one when None).

        >>> from ghostgames.games import get_game
        >>> game = get_game("ghooost")
        >>> game.new(3, seed=1).to_json() == game.new(3, seed=1).to_json()  # the same seed, the same deal
        True
        >>> game.new(7)
        Traceback (most recent call last):
        ...
        ValueError: Ghooost! is for 2 to 6 players, not 7
        """
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
        """Read the text form; raises IllegalAction with the forms that would work.

        >>> from ghostgames.games import get_game
        >>> move = get_game("geister").parse_action("b2-b3")
        >>> str(move), move.to_json()
        ('b2 n', {'type': 'move', 'from': 'b2', 'dir': 'n'})
        """

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
    """One position of a game, with everything hidden in it. Only the server and search may hold it.

    >>> from ghostgames.games import get_game
    >>> state = get_game("geister").new(2, {"exit": "escape"}, seed=7)
    >>> state
    GeisterState(geister, 2 players, to act: 0 1)
    >>> state.apply(0, "setup b1 c1 d1 e1")[0].for_seat(None)
    {'kind': 'setup', 'seat': 0}
    >>> state.apply(1, "setup b6 c6 d6 e6")[1].kind
    'start'
    >>> sorted(state.to_act())
    [1]

    `str(state)` draws the whole position, secrets included (like `to_json`): for a terminal and tests;
    a player sees only `view(seat)`.
    """

    game: Game[Any, A]
    players: int

    def __repr__(self) -> str:
        """Short and free of secrets: the game, the seats and who is to act (or how it ended)."""
        outcome = self.outcome()
        status = f"over: {outcome.code}" if outcome else "to act: " + " ".join(map(str, sorted(self.to_act())))
        return f"{type(self).__name__}({self.game.name}, {self.players} players, {status})"

    @abstractmethod
    def __str__(self) -> str:
        """The whole position as text, drawn as players at a real table would see it laid out."""

    # --- whose move ---------------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may act now; empty once the game is over. Several at once for simultaneous steps."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[A]:
        """Every action `seat` may take now (empty when it is not to act).

        >>> from ghostgames.games import get_game
        >>> state = get_game("thelast").new(3, seed=2)
        >>> seat = min(state.to_act())
        >>> [str(a) for a in state.legal_actions(seat)][:3]
        ['play R1', 'play R2', 'play B1']
        >>> state.legal_actions(seat + 1)
        []
        """

    def apply(self, seat: int, action: A | str) -> list[Event]:
        """Carry out `action` for `seat`, or raise IllegalAction and change nothing.

        The checks every game shares live here, once: the text is read, the game runs and `seat` is to act.
        The game's `_apply` then checks its own rules and makes the change.

        >>> from ghostgames.games import get_game
        >>> state = get_game("geister").new(2, seed=7)
        >>> state.apply(0, "b2 n")
        Traceback (most recent call last):
        ...
        ghostgames.rules.contract.IllegalAction: first place your ghosts: 'setup' and the 4 squares of your good ghosts
        >>> try:
        ...     state.apply(0, "fly away")
        ... except IllegalAction as refused:
        ...     print(refused.code)
        unreadable
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if seat not in self.to_act():  # empty once the game is over
            if self.outcome() is not None:
                raise IllegalAction(GAME_OVER)
            raise IllegalAction(NOT_YOUR_TURN, seat=seat)
        return self._apply(seat, action)

    def apply_legal(self, seat: int, action: A) -> list[Event]:
        """Carry out an action known to be legal: one of `legal_actions(seat)` now. Nothing is checked, so
        searches and benchmarks that pick from the legal actions pay for no check; anything else would
        corrupt the state, so use `apply` when in doubt."""
        return self._apply_checked(seat, action)

    @abstractmethod
    def _apply(self, seat: int, action: A) -> list[Event]:
        """`seat` is to act in a running game: check `action` against the game's rules (raise IllegalAction
        before changing anything), then carry it out."""

    def _apply_checked(self, seat: int, action: A) -> list[Event]:
        """Carry out an action known to be legal. A game overrides this when skipping its own checks pays
        (the hot path of searches); by default the rules are checked anyway."""
        return self._apply(seat, action)

    # --- what is known ------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """JSON-ready view for `seat` (None: a spectator). Holds nothing that reader may not know.

        >>> from ghostgames.games import get_game
        >>> state = get_game("geister").new(2, seed=7)
        >>> _ = state.apply(0, "setup b1 c1 d1 e1")
        >>> [g["colour"] for g in state.view(0)["ghosts"][:8]]  # seat 0 knows its own colours
        ['bad', 'bad', 'bad', 'bad', 'good', 'good', 'good', 'good']
        >>> {g["colour"] for g in state.view(1)["ghosts"]}  # seat 1 knows none yet
        {None}
        """

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs; then who won, and why as a reason code.

        >>> from ghostgames.games import get_game
        >>> state = get_game("geister").new(2, {"max_plies": 1}, seed=7)
        >>> for seat, text in [(0, "setup b1 c1 d1 e1"), (1, "setup b6 c6 d6 e6")]:
        ...     _ = state.apply(seat, text)
        >>> state.outcome() is None
        True
        >>> _ = state.apply(min(state.to_act()), "b2 n" if 0 in state.to_act() else "b5 s")
        >>> end = state.outcome()
        >>> end.code, end.args, [r.result for r in end.results]
        ('ply_limit', {'max_plies': 1}, ['draw', 'draw'])
        """

    def is_over(self) -> bool:
        return self.outcome() is not None

    def concede(self, outcome: Outcome) -> None:
        """End the game early with `outcome` (a table's resignation): afterwards the state is over, so its
        views show what the game reveals at its end (Geister's `disclose`). Each game keeps its result in
        `_outcome`; a game that keeps it elsewhere overrides this."""
        if self.is_over():
            raise IllegalAction(GAME_OVER)
        self._outcome: Outcome | None = outcome

    # --- search and storage -------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State[A]:
        """An independent copy (searches try moves on clones).

        >>> from ghostgames.games import get_game
        >>> state = get_game("ghooost").new(2, seed=3)
        >>> trial = state.clone()
        >>> seat = min(trial.to_act())
        >>> _ = trial.apply(seat, trial.legal_actions(seat)[0])
        >>> state.to_json() == trial.to_json()
        False
        """

    @abstractmethod
    def sample_world(self, seat: int | None, rng: random.Random) -> State[A]:
        """A complete state that `seat` cannot tell apart from this one: hidden parts re-dealt at random.
        `seat` None: a spectator, as in `view`: every hidden part is re-dealt from the public facts alone
        (a spectator's post-game analysis searches such worlds)."""

    def fast_worlds(self, seat: int | None) -> Any:
        """A dealer of many of `sample_world(seat, ...)`'s worlds at once as rows of the game's compiled core,
        for a search that keeps its worlds as rows; None (the default) when the game has none. It deals
        exactly the worlds `sample_world` deals from the same rng (the game's tests hold it so), and like
        `SeatKnowledge` it keeps this state to itself."""
        return None

    def revealed_by(self, seat: int, action: A) -> State[A] | None:
        """This position as a spectator knows it after watching `seat` take `action` here: a copy whose
        `sample_world(None, ...)` deals only worlds in which `action` is legal, keeping what the action
        shows (the cards of a play were in the hand, a card off the led colour shows a void); its views
        are this state's. None when a spectator does not learn which action it was (a Geister setup, the
        card The Last's swap lays face down). By default an action shows nothing hidden: a plain copy."""
        return self.clone()

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

