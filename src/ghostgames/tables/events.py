"""A table's events as values: one frozen type per kind, and the codec to and from the JSON that the
database stores, the fan-out carries and a restart reads back.

Everything that changes a table is one of these: `decide` makes them, the server stores their JSON, and
`Table.apply` carries them out (tables/effects.py, matching on the type). Searching a type's name finds
both where it is made and where it is applied. The JSON of each kind is the form stored since tables
began (a `kind` key and the fields in this order), so a table stored before these types existed loads
as it always did; `event_from_json` also reads the older shapes (keys that came later are optional).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NamedTuple

from ghostgames.rules.contract import Event, Outcome, State
from ghostgames.rules.reasons import CLAIMED_DRAW, CLAIMED_WIN, RESIGNED

# A table's life: open -> started -> finished -> (rematch) open ..., and closed at the end.
Status = Literal["open", "started", "finished", "closed"]

EventData = dict[str, Any]  # an event as stored: a JSON-ready dict with a "kind"


@dataclass(frozen=True, slots=True)
class Created:
    """The first event of every table: its game, seats, settings and clock, and who made it."""

    kind: ClassVar[str] = "created"
    id: str
    game: str
    seats: int
    settings: Mapping[str, Any] = field(default_factory=dict)
    clock: str | None = None  # None: the game's default clock (tables stored before clocks were chosen)
    by: str | None = None
    rated: bool = True

    def to_json(self) -> EventData:
        return {"kind": self.kind, "id": self.id, "game": self.game, "seats": self.seats,
                "settings": dict(self.settings), "clock": self.clock, "by": self.by, "rated": self.rated}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Created:
        clock = data.get("clock")
        return cls(str(data["id"]), str(data["game"]), int(data["seats"]), dict(data.get("settings") or {}),
                   None if clock is None else str(clock), data.get("by"), bool(data.get("rated", True)))


@dataclass(frozen=True, slots=True)
class Joined:
    kind: ClassVar[str] = "joined"
    seat: int
    name: str

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat, "name": self.name}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Joined:
        return cls(int(data["seat"]), str(data["name"]))


@dataclass(frozen=True, slots=True)
class Left:
    """A person gave up a seat at a table not playing (a running game's seat goes to a bot: TakenOver)."""

    kind: ClassVar[str] = "left"
    seat: int
    name: str | None

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat, "name": self.name}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Left:
        return cls(int(data["seat"]), data.get("name"))


@dataclass(frozen=True, slots=True)
class BotAdded:
    kind: ClassVar[str] = "bot_added"
    seat: int
    level: str

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat, "level": self.level}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotAdded:
        return cls(int(data["seat"]), str(data["level"]))


@dataclass(frozen=True, slots=True)
class BotRemoved:
    kind: ClassVar[str] = "bot_removed"
    seat: int

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotRemoved:
        return cls(int(data["seat"]))


@dataclass(frozen=True, slots=True)
class OptionSet:
    """A setting changed: a game option, or the table's own `clock` or `rated`."""

    kind: ClassVar[str] = "option"
    name: str
    value: Any  # a JSON value; None with `reset`
    reset: bool = False  # back to the game's default
    # Why the table turned `rated` off by itself (nonstandard settings, no clock): {"code", "args", "message"}
    because: tuple[Mapping[str, Any], ...] | None = None

    def to_json(self) -> EventData:
        data: EventData = {"kind": self.kind, "name": self.name, "value": self.value}
        if self.reset:
            data["reset"] = True
        if self.because is not None:
            data["because"] = [dict(problem) for problem in self.because]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OptionSet:
        because = data.get("because")
        return cls(str(data["name"]), data.get("value"), bool(data.get("reset", False)),
                   None if because is None else tuple(dict(problem) for problem in because))


@dataclass(frozen=True, slots=True)
class Voted:
    """A seated person's vote on a vote option (on for the table only when every person votes for it)."""

    kind: ClassVar[str] = "vote"
    name: str
    seat: int
    value: bool

    def to_json(self) -> EventData:
        return {"kind": self.kind, "name": self.name, "seat": self.seat, "value": self.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Voted:
        return cls(str(data["name"]), int(data["seat"]), bool(data["value"]))


@dataclass(frozen=True, slots=True)
class Started:
    """A game began: its seed and options are all a replay needs besides the actions."""

    kind: ClassVar[str] = "started"
    leaves_status: ClassVar[Status] = "started"  # the table's status once applied (stored with it)
    seed: int
    options: Mapping[str, Any]
    round: int | None = None  # None: stored before rounds were counted (the table's round stays)

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seed": self.seed, "options": dict(self.options), "round": self.round}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Started:
        round_ = data.get("round")
        return cls(int(data["seed"]), dict(data["options"]), None if round_ is None else int(round_))


class Precomputed(NamedTuple):
    """What playing an action does, worked out while deciding it: the position after it and the game's
    events. Applying the action takes these instead of playing it a second time, but only on the very
    position it was worked out on (`before` at `version`); elsewhere the action is played again. (A
    NamedTuple: one is made for every move, and it must cost next to nothing.)"""

    version: int
    before: State[Any]
    after: State[Any]
    events: tuple[Event, ...]

    def fits(self, state: State[Any] | None, version: int) -> bool:
        """Whether this was worked out on `state` as it is at table version `version`."""
        return self.before is state and self.version == version


@dataclass(frozen=True, slots=True)
class Played:
    """A game action by a seat; `by` is "player", "bot" (a seated bot, or one finishing a person's seat)
    or "clock" (a bot playing one turn whose time ran out)."""

    kind: ClassVar[str] = "action"
    seat: int
    text: str
    by: str = "player"
    bank: float | None = None  # the mover's bank after this move (bank clocks), as the decider's clock read it
    # Never stored: a stored action is played again on a rebuild, and the game's rules give the same result.
    precomputed: Precomputed | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> EventData:
        data: EventData = {"kind": self.kind, "seat": self.seat, "text": self.text, "by": self.by}
        if self.bank is not None:
            data["bank"] = self.bank
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Played:
        bank = data.get("bank")
        return cls(int(data["seat"]), str(data["text"]), str(data.get("by", "player")),
                   None if bank is None else float(bank))


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A person's clock ran out: a bot plays this one turn for them."""

    kind: ClassVar[str] = "timeout"
    seat: int

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimedOut:
        return cls(int(data["seat"]))


@dataclass(frozen=True, slots=True)
class TakenOver:
    """A bot plays a person's seat to the end of the game; `reason` is "left", "disconnected",
    "timeouts", "resigned" or "idle"."""

    kind: ClassVar[str] = "takeover"
    seat: int
    reason: str

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TakenOver:
        return cls(int(data["seat"]), str(data["reason"]))


@dataclass(frozen=True, slots=True)
class Resigned:
    """A person resigned a two-player game (a Finished follows); with more players a bot takes the seat."""

    kind: ClassVar[str] = "resigned"
    seat: int

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Resigned:
        return cls(int(data["seat"]))


@dataclass(frozen=True, slots=True)
class Finished:
    """The game ended: its outcome (JSON, as Outcome.to_json writes it, with its reason's code), the seats'
    labels then, and the seats bots finished for people (seat number as text -> why)."""

    kind: ClassVar[str] = "finished"
    leaves_status: ClassVar[Status] = "finished"  # the table's status once applied (stored with it)
    outcome: Mapping[str, Any]
    names: tuple[str, ...]
    takeovers: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> EventData:
        return {"kind": self.kind, "outcome": dict(self.outcome), "names": list(self.names),
                "takeovers": dict(self.takeovers)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finished:
        return cls(with_table_reason(data["outcome"]), tuple(str(n) for n in data["names"]),
                   {str(k): str(v) for k, v in (data.get("takeovers") or {}).items()})


@dataclass(frozen=True, slots=True)
class Closed:
    kind: ClassVar[str] = "closed"
    leaves_status: ClassVar[Status] = "closed"  # the table's status once applied (stored with it)
    reason: str = ""

    def to_json(self) -> EventData:
        return {"kind": self.kind, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Closed:
        return cls(str(data.get("reason") or ""))


@dataclass(frozen=True, slots=True)
class Claimed:
    """At a table without a clock, `seat` claimed against the idle `against`: "win" or "draw"."""

    kind: ClassVar[str] = "claimed"
    seat: int
    against: int
    claim: str

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat, "against": self.against, "claim": self.claim}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Claimed:
        return cls(int(data["seat"]), int(data["against"]), str(data["claim"]))


@dataclass(frozen=True, slots=True)
class RematchAsked:
    kind: ClassVar[str] = "rematch_asked"
    seat: int

    def to_json(self) -> EventData:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RematchAsked:
        return cls(int(data["seat"]))


@dataclass(frozen=True, slots=True)
class Rematched:
    """Everybody agreed to a rematch: the table opens for round `round`; seats of people who left are
    freed, and `first` (the loser) starts when the game has that option."""

    kind: ClassVar[str] = "rematch"
    leaves_status: ClassVar[Status] = "open"  # the table's status once applied (stored with it)
    round: int
    freed: tuple[int, ...] = ()
    first: int | None = None

    def to_json(self) -> EventData:
        return {"kind": self.kind, "round": self.round, "freed": list(self.freed), "first": self.first}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rematched:
        first = data.get("first")
        return cls(int(data["round"]), tuple(int(i) for i in data.get("freed", ())),
                   None if first is None else int(first))


@dataclass(frozen=True, slots=True)
class Chatted:
    """A chat line: stored and numbered like any event, but it changes no version (nothing to decide on)."""

    kind: ClassVar[str] = "chat"
    name: str
    seat: int | None
    text: str
    time: float | None = None  # seconds since the epoch

    def to_json(self) -> EventData:
        return {"kind": self.kind, "name": self.name, "seat": self.seat, "text": self.text, "time": self.time}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Chatted:
        seat, time = data.get("seat"), data.get("time")
        return cls(str(data["name"]), None if seat is None else int(seat), str(data["text"]),
                   None if time is None else float(time))


TableEvent = (Created | Joined | Left | BotAdded | BotRemoved | OptionSet | Voted | Started | Played | TimedOut
              | TakenOver | Resigned | Finished | Closed | Claimed | RematchAsked | Rematched | Chatted)
KINDS: dict[str, type[TableEvent]] = {
    cls.kind: cls for cls in (Created, Joined, Left, BotAdded, BotRemoved, OptionSet, Voted, Started, Played,
                              TimedOut, TakenOver, Resigned, Finished, Closed, Claimed, RematchAsked, Rematched,
                              Chatted)
}


def event_to_json(event: TableEvent) -> EventData:
    """The stored (and fanned-out) form of an event: a fresh JSON-ready dict."""
    return event.to_json()


def events_to_json(events: Sequence[TableEvent]) -> list[EventData]:
    return [event.to_json() for event in events]


def event_from_json(data: Mapping[str, Any]) -> TableEvent:
    """An event read back from the store or the fan-out; ValueError for a kind no table knows."""
    cls = KINDS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown table event {data.get('kind')!r}")
    return cls.from_json(data)


_TYPES = frozenset(KINDS.values())


def as_event(event: TableEvent | Mapping[str, Any]) -> TableEvent:
    """An event as a value, whether it comes as one (just decided) or as stored JSON."""
    if type(event) in _TYPES:  # once per event applied: a set lookup, not an isinstance against Mapping
        return event  # type: ignore[return-value]
    return event_from_json(event)  # type: ignore[arg-type]


# --- the outcomes a table makes itself ------------------------------------------------------------------------
# A game ends by its rules (the game writes the outcome) or by the table: a resignation or a claim against an
# idle player. The table's outcomes carry a reason code and arguments (seats from 0) beside the English reason
# that older clients and logs show; a stored outcome from before codes gets them when it is read.
def resigned_outcome(seat: int) -> dict[str, Any]:
    """Two players: `seat` resigned, the other wins. (The English reason counts seats from 0, as it always
    has: clients before codes read the seat back from it.)"""
    return Outcome.winner_takes_all(2, 1 - seat, RESIGNED, seat=seat).to_json()


def claimed_outcome(seat: int, claim: str) -> dict[str, Any]:
    """Two players: `seat` claimed the win, or a draw, from an idle opponent."""
    if claim == "draw":
        return Outcome.draw(2, CLAIMED_DRAW).to_json()
    return Outcome.winner_takes_all(2, seat, CLAIMED_WIN).to_json()


def with_table_reason(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """A stored outcome, with its reason's code and arguments added when it was stored as words alone
    (before codes): the rules' vocabulary reads the words back (`legacy` for words it does not know)."""
    if "code" in outcome:
        return dict(outcome)
    return {**outcome, **Outcome.from_json(outcome).to_json()}


def status_after(events: Sequence[TableEvent]) -> Status | None:
    """The table's status once `events` are applied, None when they leave it as it was: the store keeps the
    status beside the events, written before the table applies them."""
    status: Status | None = None
    for event in events:
        status = getattr(event, "leaves_status", status)
    return status
