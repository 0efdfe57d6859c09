"""A table: a game, its seats, options and votes, the running game and its clocks, and what may be asked
of them; pure logic.

Everything that changes a table is an event (a frozen value of tables/events.py). `decide_*` methods
(tables/decisions.py) check a request and return the events it would cause without changing anything;
`apply` carries one event out (each event's handler is in tables/effects.py) and returns the log lines it
makes. The server appends events to its store first and applies them after, and a restart rebuilds a
table by applying its stored events in order. Time and seeds come from the caller.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ghostgames.games import get_game
from ghostgames.rules.contract import Game, State
from ghostgames.rules.record import GameRecord
from ghostgames.tables import decisions, effects
from ghostgames.tables.clock import Clocks, ClockSpec
from ghostgames.tables.commands import Command
from ghostgames.tables.decisions import IDLE_CLAIM, Context, Decision
from ghostgames.tables.events import Chatted, Created, Played, Status, TableEvent, as_event
from ghostgames.tables.log import LogLine
from ghostgames.tables.memory import REMEMBERED, FinishedGame, Lineup, remembered
from ghostgames.tables.seat import GONE, Seat

HISTORY = 100


class Table:
    """One table. Build it with `Table.from_events(events)`; change it only through `apply`."""

    def __init__(self, created: Created | Mapping[str, Any], now: float = 0.0) -> None:
        if not isinstance(created, Created):
            created = Created.from_json(created)
        self.id: str = created.id
        self.game: Game[Any, Any] = get_game(created.game)
        self.seat_count: int = created.seats
        self.created_by: str | None = created.by
        self.seats = [Seat(i) for i in range(self.seat_count)]
        self.settings: dict[str, Any] = dict(created.settings)
        schema = self.game.options_schema()
        self.vote_options = [name for name, entry in schema.items() if entry["vote"]]
        self.votes: dict[str, set[int]] = {name: set() for name in self.vote_options}
        self.clock_spec = ClockSpec.parse(created.clock)
        self.rated: bool = created.rated
        self.status: Status = "open"
        self.round = 1
        self.version = 1  # accepted changes except chat
        self.seq = 1  # events stored, chat included
        self.state: State[Any] | None = None
        self.seed: int | None = None
        self.options: dict[str, Any] | None = None
        self.actions: list[tuple[int, str]] = []
        # Who played each seat in the game shown (lower-case names, None for a bot), fixed when it started:
        # the seats' views of that game are theirs alone, whoever sits down after it finished.
        self.players: tuple[str | None, ...] = ()
        self.lineup: Lineup = ()  # who held each seat when the game shown started: person and bot level
        # the last games finished here, for the bots that remember their opponents (tables/memory.py)
        self.finished_games: deque[FinishedGame] = deque(maxlen=REMEMBERED)
        self.own_moves: list[int] = [0] * self.seat_count  # this game's moves by each seat's own player
        self.clocks: Clocks | None = None
        self.result: dict[str, Any] | None = None
        self.rematch_asked: set[int] = set()  # seats whose people asked for or accepted a rematch
        # chat ({"kind": "chat", "name", "seat", "text", "time"}) and public log lines ({"kind": "log", "line"})
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        # Asked for every connection on every change: seat by lower-case name, made again after each event;
        # each seat's view, kept for the version (and state) it was made for.
        self._seat_by_name: dict[str, Seat] | None = None
        self._views: tuple[int, State[Any] | None, dict[int | None, dict[str, Any]]] = (0, None, {})
        created_line = LogLine("created", f"table created for {self.game.title}", {"game": self.game.name})
        self.history.append({"kind": "log", "line": created_line.for_reader(None)})

    @classmethod
    def from_events(cls, events: Iterable[TableEvent | Mapping[str, Any]], now: float = 0.0) -> Table:
        """A table rebuilt by applying its events in order (as stored, or as values)."""
        it = iter(events)
        created = as_event(next(it))
        if not isinstance(created, Created):
            raise ValueError(f"a table's first event creates it, not {created.kind!r}")
        table = cls(created, now)
        for event in it:
            table.apply(event, now)
        return table

    # --- questions ------------------------------------------------------------------------------
    def seat_of(self, name: str | None) -> Seat | None:
        if name is None:
            return None
        if self._seat_by_name is None:  # the first seat wins, as a scan would find it
            self._seat_by_name = {s.name.lower(): s for s in reversed(self.seats) if s.name is not None}
        return self._seat_by_name.get(name.lower())

    def to_act(self) -> frozenset[int]:
        if self.status != "started" or self.state is None:
            return frozenset()
        return self.state.to_act()

    def view_seat(self, user: str | None) -> int | None:
        """The seat whose view `user` may read: the seat they played in the game shown (running or
        finished), else None, the spectator's view. Sitting down at a finished table, or moving to another
        seat there, shows nobody's secrets: a seat's view goes only to who played it."""
        if user is None or self.state is None:
            return None
        key = user.lower()
        return next((index for index, player in enumerate(self.players) if player == key), None)

    def view_for(self, seat: int | None) -> dict[str, Any] | None:
        """What `seat` (None: a spectator) sees, made once per version and seat: the same dict for every
        connection of that reader and every message at that version, so nobody may change it."""
        if self.state is None:
            return None
        version, state, views = self._views
        if version != self.version or state is not self.state:
            views = {}
            self._views = (self.version, self.state, views)
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.state.view(seat)
        return view

    def effective_options(self) -> dict[str, Any]:
        """Settings plus each vote option: on only when every seated person voted for it (bots agree)."""
        options = dict(self.settings)
        for name in self.vote_options:
            people = [s.index for s in self.seats if s.kind == "human"]
            options[name] = bool(people) and all(i in self.votes[name] for i in people)
        return options

    def bot_turns(self) -> list[tuple[int, str, str]]:
        """(seat, bot level, by) for every seat a bot must move now; `by` is "bot" or "clock"."""
        out = []
        for index in sorted(self.to_act()):
            seat = self.seats[index]
            level = seat.bot_level()
            if level is not None:
                by = "clock" if seat.clock_turn and seat.bot is None and seat.takeover is None else "bot"
                out.append((index, level, by))
        return out

    def clock_seats(self) -> frozenset[int]:
        """Seats whose clock runs: people to act (bots do not play on the clock)."""
        return frozenset(i for i in self.to_act() if self.seats[i].bot_level() is None)

    def next_deadline(self) -> float | None:
        if self.clocks is None or not self.clocks.on:
            return None
        deadlines = [d for i in self.clock_seats() if (d := self.clocks.deadline(i)) is not None]
        return min(deadlines) if deadlines else None

    def idle_since(self) -> dict[int, float]:
        """At a running table without a clock: when each person to act began their turn, as the events were
        applied here (`now` of the event that made it their turn). A rebuild applies the events at its own
        time, so after a restart the mover's wait starts again: the time the server was down never counts
        against them, and a claim never comes earlier than it would have without the restart."""
        if self.clocks is None or self.clocks.on or self.status != "started":
            return {}
        return {i: since for i in self.clock_seats() if (since := self.clocks.thinking.get(i)) is not None}

    def claim_in(self, now: float, threshold: float) -> list[float | None]:
        """Per seat: seconds until the others may claim against it (0: now), None when no claim can come."""
        since = self.idle_since()
        return [None if i not in since else max(0.0, round(since[i] + threshold - now, 2))
                for i in range(self.seat_count)]

    def summary(self, now: float, connected: Callable[[str], bool] = lambda name: True,
                spectators: int = 0, idle_claim: float = IDLE_CLAIM) -> dict[str, Any]:
        seats = []
        for seat in self.seats:
            seats.append({
                "seat": seat.index, "kind": seat.kind, "name": seat.label if seat.kind != "empty" else None,
                "bot": seat.bot, "takeover": seat.takeover,
                "connected": True if seat.name is None else connected(seat.name),
            })
        clock: dict[str, Any] = {**self.clock_spec.to_json(), "bank": [None] * self.seat_count,
                                 "deadline_in": [None] * self.seat_count}
        if self.clocks is not None:
            if self.clock_spec.mode == "bank":
                clock["bank"] = [round(b, 2) for b in self.clocks.bank]
            running = self.clock_seats()
            clock["deadline_in"] = [v if i in running else None for i, v in enumerate(self.clocks.left(now))]
        clock["claim_in"] = self.claim_in(now, idle_claim)
        return {
            "id": self.id, "game": self.game.name, "title": self.game.title, "status": self.status,
            "round": self.round, "version": self.version, "seats": seats, "settings": dict(self.settings),
            "votes": {name: sorted(voters) for name, voters in self.votes.items()},
            "options": self.options, "clock": clock, "to_act": sorted(self.to_act()),
            "spectators": spectators, "created_by": self.created_by, "result": self.result, "rated": self.rated,
            "rematch": sorted(self.rematch_asked),
        }

    def is_own_move(self, seat: int, by: str) -> bool:
        """Whether a move in `seat` made `by` ("player", "bot" or "clock") is the seat's own: a person's own
        move, or a seated bot's. A bot finishing a person's seat, or playing a turn whose clock ran out,
        moves for them; fair play in ratings counts only own moves (tables/fair_play.py)."""
        return by == "player" or (by == "bot" and self.seats[seat].bot is not None)

    def own_moves_after(self, events: Iterable[TableEvent | Mapping[str, Any]]) -> list[int]:
        """`own_moves` once these (not yet applied) events are: what the game's record is stored with."""
        counts = list(self.own_moves)
        for event in map(as_event, events):
            if isinstance(event, Played) and self.is_own_move(event.seat, event.by):
                counts[event.seat] += 1
        return counts

    def remembered(self, seat: int) -> Sequence[Mapping[str, Any]]:
        """The final states of the earlier games here that the bot in `seat` may learn from before it moves
        (the same bot against the same people: tables/memory.py); the worker reads them as the seat saw them."""
        return remembered(self.finished_games, self.lineup, self.rated, seat)

    def record(self) -> GameRecord:
        assert self.seed is not None and self.options is not None
        return GameRecord(self.game.name, self.seat_count, dict(self.options), self.seed, list(self.actions))

    # --- deciding (tables/decisions.py): the events a request causes; nothing changes -----------------
    def decide(self, user: str | None, command: Command, version: int | None, ctx: Context) -> Decision:
        """The events `command` by `user` causes, or a reply; raises TableError when refused."""
        return decisions.decide(self, user, command, version, ctx)

    def decide_action(self, user: str | None, action: Any, version: int | None, ctx: Context) -> Decision:
        """A game action sent as JSON (or text) by a button."""
        return decisions.decide_action(self, user, action, version, ctx)

    def decide_bot(self, seat: int, text: str, by: str, ctx: Context) -> list[TableEvent]:
        """A bot's move for `seat`; TableError when it no longer fits."""
        return decisions.decide_bot(self, seat, text, by, ctx)

    def decide_timeouts(self, ctx: Context) -> list[TableEvent]:
        """For each person whose clock ran out: a timeout, and a takeover after too many in a row."""
        return decisions.decide_timeouts(self, ctx)

    def decide_close(self, reason: str) -> list[TableEvent]:
        """Close a table out of play (open with no person seated, or finished)."""
        return decisions.decide_close(self, reason)

    def decide_absent(self, name: str) -> list[TableEvent]:
        """A person's grace period ran out: a bot plays their running game, or their open seat is freed."""
        return decisions.decide_absent(self, name)

    def occupied(self) -> bool:
        """Someone sits here: a person (gone or not), not a bot."""
        return any(seat.kind == "human" for seat in self.seats)

    def rematch_waiting(self, asked: Collection[int] = ()) -> list[Seat]:
        """The people still to accept a rematch: seated, not gone, not asked yet (bots accept at once)."""
        agreed = self.rematch_asked | set(asked)
        return [s for s in self.seats if s.kind == "human" and s.takeover not in GONE and s.index not in agreed]

    def _number_twins(self) -> None:
        levels = [s.bot for s in self.seats if s.bot is not None]
        for seat in self.seats:
            seat.twin = seat.bot is not None and levels.count(seat.bot) > 1

    # --- carrying events out --------------------------------------------------------------------
    def apply(self, event: TableEvent | Mapping[str, Any], now: float) -> list[LogLine]:
        """Carry out one event (a value, or its stored JSON); returns its log lines. Chat returns none (it is
        its own message)."""
        event = as_event(event)
        self.seq += 1
        self._seat_by_name = None
        if isinstance(event, Chatted):
            self.history.append({"kind": "chat", "name": event.name, "seat": event.seat, "text": event.text,
                                 "time": event.time})
            return []
        self.version += 1
        lines = effects.carry_out(self, event)
        self._seat_by_name = None  # the handler may have seated or unseated someone
        self._number_twins()
        if self.clocks is not None and self.status == "started":
            self.clocks.sync(self.clock_seats(), now)
        # Who sat where when the line was written: a line keeps its names when seats change later.
        names = tuple({"name": s.label if s.kind != "empty" else None, "bot": s.bot} for s in self.seats)
        lines = [replace(line, names=names) for line in lines]
        for line in lines:
            self.history.append({"kind": "log", "line": line.for_reader(None)})
        return lines
