"""Deciding: the checks behind each command a table accepts, and the events it causes.

Each function reads a table and returns the events a request would cause (or a reply for the asker
alone) without changing anything; a refusal is a TableError that says what would work. An action is
tried on a copy of the game, so its event carries the position it leads to (events.Precomputed). The
table carries the events out (Table.apply, effects.py); the server stores them in between.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ghostgames.rules.contract import IllegalAction
from ghostgames.rules.options import OptionError
from ghostgames.tables.clock import TIMEOUTS_FOR_GOOD, ClockLimits, ClockSpec
from ghostgames.tables.commands import (
    ACTION_PREFIXES,
    COMMANDS,
    READ_ONLY,
    BotAdd,
    BotRemove,
    Chat,
    Claim,
    Command,
    GameAction,
    Help,
    Join,
    Leave,
    Rematch,
    Resign,
    SetOption,
    Start,
    Who,
    help_text,
)
from ghostgames.tables.errors import TableError
from ghostgames.tables.events import (
    BotAdded,
    BotRemoved,
    Chatted,
    Claimed,
    Closed,
    Finished,
    Joined,
    Left,
    OptionSet,
    Played,
    Precomputed,
    RematchAsked,
    Rematched,
    Resigned,
    Started,
    TableEvent,
    TakenOver,
    TimedOut,
    claimed_outcome,
    resigned_outcome,
)
from ghostgames.tables.seat import GONE, Seat
from ghostgames.tables.settings import (
    RATED,
    check_rated_clock,
    no_clock_off_event,
    option_event,
    option_lines,
    rated_off_event,
)

if TYPE_CHECKING:
    from ghostgames.tables.events import Status
    from ghostgames.tables.table import Table

IDLE_CLAIM = 300.0  # seconds a player to move may stay idle at a table without a clock before others may claim


@dataclass(slots=True)
class Reply:
    """An answer for the asker only (/who, /help, /option listing)."""

    code: str
    text: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Decision:
    events: list[TableEvent] = field(default_factory=list)
    reply: Reply | None = None


@dataclass(slots=True)
class Context:
    """What a decision needs from outside: the time, a fresh seed, the bot levels that exist."""

    now: float  # a monotonic clock's seconds, for clocks
    new_seed: Callable[[], int]
    wall: float = 0.0  # seconds since the epoch, for chat times
    bot_levels: Collection[str] = ("easy", "medium", "hard", "random")
    spectators: tuple[str, ...] = ()
    connected: Callable[[str], bool] = lambda name: True
    clock_limits: ClockLimits = field(default_factory=ClockLimits)
    idle_claim: float = IDLE_CLAIM  # seconds of idleness after which the others may /claim


# --- the requests a table answers ---------------------------------------------------------------------------
def decide(table: Table, user: str | None, command: Command, version: int | None, ctx: Context) -> Decision:
    """The events `command` by `user` causes, or a reply; raises TableError when refused."""
    if isinstance(command, Help):
        return Decision(reply=Reply("help", help_text(command.topic, table.game.help_text()),
                                    {"topic": command.topic}))
    if isinstance(command, Who):
        return Decision(reply=_who(table, ctx))
    if isinstance(command, SetOption) and (command.name is None or (
            command.value is None and command.name not in table.vote_options)):
        return Decision(reply=_options_reply(table, command.name, ctx.clock_limits))
    if user is None:
        raise TableError("auth_required", "choose a name first (send hello with a token or a guest name)")
    if isinstance(command, Chat):
        seat = table.seat_of(user)
        return Decision([Chatted(user, seat.index if seat else None, command.text, ctx.wall)])
    if isinstance(command, GameAction):
        _refuse_when_a_bot_plays(table, user)
    if not isinstance(command, READ_ONLY) and version is not None and version != table.version:
        raise TableError("stale_version", f"the table changed (version {table.version}, you sent {version})",
                         sent=version, current=table.version)
    if isinstance(command, Join):
        return Decision(_join(table, user, command.seat))
    if isinstance(command, Leave):
        return Decision(_leave(table, _seated(table, user)))
    if isinstance(command, Start):
        _may_arrange(table, user)
        return Decision(_start(table, ctx))
    if isinstance(command, SetOption):
        return Decision(_option(table, _seated(table, user), command.name or "", command.value, ctx.clock_limits))
    if isinstance(command, BotAdd):
        return Decision(_bot_add(table, user, command.level, ctx))
    if isinstance(command, BotRemove):
        return Decision(_bot_remove(table, user, command.seat))
    if isinstance(command, Resign):
        return Decision(_resign(table, _seated(table, user)))
    if isinstance(command, Rematch):
        return Decision(_rematch(table, _seated(table, user), ctx))
    if isinstance(command, Claim):
        return Decision(_claim(table, _seated(table, user), command.what, ctx))
    assert isinstance(command, GameAction)
    return Decision(_action(table, user, command.text, ctx))


def decide_action(table: Table, user: str | None, action: Any, version: int | None, ctx: Context) -> Decision:
    """A game action sent as JSON (or text) by a button."""
    if user is None:
        raise TableError("auth_required", "choose a name first (send hello with a token or a guest name)")
    _refuse_when_a_bot_plays(table, user)
    if version is not None and version != table.version:
        raise TableError("stale_version", f"the table changed (version {table.version}, you sent {version})",
                         sent=version, current=table.version)
    if isinstance(action, str):
        return Decision(_action(table, user, action, ctx))
    try:
        parsed = table.game.action_from_json(action)
    except (IllegalAction, KeyError, TypeError, ValueError) as err:
        reason = err.reason if isinstance(err, IllegalAction) else str(err)
        raise TableError("bad_argument", f"cannot read that action: {reason}", command="action",
                         reason=reason, usage=table.game.help_text()) from None
    return Decision(_action(table, user, str(parsed), ctx))


def decide_bot(table: Table, seat: int, text: str, by: str, ctx: Context) -> list[TableEvent]:
    """A bot's move for `seat`; TableError when it no longer fits."""
    if seat not in table.to_act() or table.seats[seat].bot_level() is None:
        raise TableError("not_your_turn", "that seat does not move now", seat=seat, to_act=sorted(table.to_act()))
    return _checked_action(table, seat, text, by, ctx)


def decide_timeouts(table: Table, ctx: Context) -> list[TableEvent]:
    """For each person whose clock ran out: a timeout, and a takeover after too many in a row."""
    if table.clocks is None:
        return []
    events: list[TableEvent] = []
    for index in table.clocks.expired(ctx.now, table.clock_seats()):
        events.append(TimedOut(index))
        if table.seats[index].timeouts + 1 >= TIMEOUTS_FOR_GOOD:
            events.append(TakenOver(index, "timeouts"))
    return events


def decide_close(table: Table, reason: str) -> list[TableEvent]:
    """Close a table out of play: open with no person seated (a person's seat is freed by their grace
    period first), or finished. Closing is an event like any other, so a restart keeps it closed."""
    if table.status == "finished" or (table.status == "open" and not table.occupied()):
        return [Closed(reason)]
    return []


def decide_absent(table: Table, name: str) -> list[TableEvent]:
    """A person's grace period ran out: a bot plays their running game, or their open seat is freed."""
    seat = table.seat_of(name)
    if seat is None or seat.takeover is not None:
        return []
    if table.status == "started":
        return [TakenOver(seat.index, "disconnected")]
    if table.status == "open":
        return [Left(seat.index, seat.name)]
    return []


# --- the checks behind each command ------------------------------------------------------------------
def _seated(table: Table, user: str) -> Seat:
    seat = table.seat_of(user)
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table; /join first")
    return seat


def _need_status(table: Table, *allowed: Status) -> None:
    if table.status not in allowed:
        raise TableError("wrong_status", f"the table is {table.status}; this needs it {' or '.join(allowed)}",
                         status=table.status, needed=list(allowed))


def _join(table: Table, user: str, wanted: int | None) -> list[TableEvent]:
    _need_status(table, "open", "finished")
    mine = table.seat_of(user)
    if mine is not None:
        raise TableError("already_seated", f"you already sit in seat {mine.index + 1}", seat=mine.index)
    if wanted is None:
        free = [s for s in table.seats if s.kind == "empty"]
        if not free:
            raise TableError("table_full", "every seat is taken")
        wanted = free[0].index
    if not 0 <= wanted < table.seat_count:
        raise TableError("bad_argument", f"seats are numbered 1 to {table.seat_count}",
                         command="join", reason=f"no seat {wanted + 1}; seats are numbered 1 to {table.seat_count}",
                         usage="/join [seat]")
    if table.seats[wanted].kind != "empty":
        raise TableError("seat_taken", f"seat {wanted + 1} is taken", seat=wanted)
    return [Joined(wanted, user)]


def _leave(table: Table, seat: Seat) -> list[TableEvent]:
    if table.status == "started":
        if seat.takeover is not None:
            return []
        return [TakenOver(seat.index, "left")]
    return [Left(seat.index, seat.name)]


def _start(table: Table, ctx: Context) -> list[TableEvent]:
    _need_status(table, "open")
    empty = [s.index for s in table.seats if s.kind == "empty"]
    if empty:
        numbers = ", ".join(str(i + 1) for i in empty)
        raise TableError("seats_empty", f"seats {numbers} are empty; /join or /bot add",
                         seats=empty)
    options = table.effective_options()
    try:
        table.game.options(table.seat_count, options)
    except OptionError as err:
        raise TableError("bad_option", str(err), name="", reason=str(err)) from None
    return [Started(ctx.new_seed(), options, table.round)]


def _option(table: Table, seat: Seat, name: str, value: str | None, clock_limits: ClockLimits) -> list[TableEvent]:
    _need_status(table, "open", "finished")
    event = option_event(table.game, table.seat_count, table.settings, seat.index, name, value, clock_limits)
    if isinstance(event, OptionSet) and event.name == RATED:
        check_rated_clock(table.game, bool(event.value), table.clock_spec)  # rated on needs a clock
        return [event]
    if isinstance(event, OptionSet) and event.name == "clock":
        if table.rated and ClockSpec.parse(event.value).mode == "none":
            return [event, no_clock_off_event()]  # told now: a game without a clock would not count
        return [event]
    if not table.rated or not isinstance(event, OptionSet):
        return [event]
    after = {k: v for k, v in table.settings.items() if k != name}
    if not event.reset:
        after[name] = event.value
    # told now, before the game: a game at these settings would not count
    off = rated_off_event(table.game, table.seat_count, after)
    return [event] if off is None else [event, off]


def _bot_add(table: Table, user: str, level: str, ctx: Context) -> list[TableEvent]:
    _need_status(table, "open", "finished")
    _may_arrange(table, user)
    if level not in ctx.bot_levels:
        raise TableError("no_such_bot", f"no bot {level!r}; choose one of: {', '.join(ctx.bot_levels)}",
                         bot=level, bots=list(ctx.bot_levels))
    free = [s for s in table.seats if s.kind == "empty"]
    if not free:
        raise TableError("table_full", "every seat is taken")
    return [BotAdded(free[0].index, level)]


def _bot_remove(table: Table, user: str, wanted: int | None) -> list[TableEvent]:
    _need_status(table, "open", "finished")
    _may_arrange(table, user)
    if wanted is None:
        bots = [s.index for s in table.seats if s.kind == "bot"]
        if not bots:
            raise TableError("not_a_bot", "no bot sits at this table", seat=None)
        wanted = bots[-1]
    if not 0 <= wanted < table.seat_count or table.seats[wanted].kind != "bot":
        raise TableError("not_a_bot", f"no bot sits in seat {wanted + 1}", seat=wanted)
    return [BotRemoved(wanted)]


def _may_arrange(table: Table, user: str) -> None:
    """Seated people and the table's creator may seat and remove bots."""
    if table.seat_of(user) is None and (table.created_by or "").lower() != user.lower():
        raise TableError("not_seated", "only seated players or the table's creator may do this")


def _resign(table: Table, seat: Seat) -> list[TableEvent]:
    _need_status(table, "started")
    if seat.takeover in GONE:
        raise TableError("not_seated", "you left this game; a bot plays that seat to the end",
                         seat=seat.index, reason=seat.takeover)
    if seat.takeover == "resigned":
        raise TableError("not_seated", "you resigned this game; a bot plays that seat to the end",
                         seat=seat.index, reason=seat.takeover)
    if seat.takeover is not None:
        raise TableError("bot_playing", "a bot already plays your seat", seat=seat.index, reason=seat.takeover)
    if table.seat_count == 2:
        return [Resigned(seat.index), finished_event(table, resigned_outcome(seat.index))]
    return [TakenOver(seat.index, "resigned")]


def _rematch(table: Table, seat: Seat, ctx: Context) -> list[TableEvent]:
    """A rematch is a proposal: it starts once every person still seated asked for it or accepted."""
    _need_status(table, "finished")
    if seat.takeover in GONE:
        raise TableError("not_seated", "you left this game; /join to play the next one", seat=seat.index)
    waiting = table.rematch_waiting([seat.index])
    if waiting:
        if seat.index in table.rematch_asked:
            names = [s.label for s in waiting]
            raise TableError("rematch_pending", f"you asked for a rematch; waiting for {', '.join(names)}",
                             names=names, seats=[s.index for s in waiting])
        return [RematchAsked(seat.index)]
    freed = [s.index for s in table.seats if s.takeover in GONE]
    first: int | None = None
    outcome = (table.result or {}).get("outcome")
    if outcome and "first" in table.game.options_schema():
        ranks = [r["rank"] for r in outcome["results"]]
        if len(set(ranks)) > 1:
            first = ranks.index(max(ranks))  # the loser starts
    events: list[TableEvent] = [Rematched(table.round + 1, tuple(freed), first)]
    if not any(s.kind == "empty" for s in table.seats) and not freed:
        options = table.effective_options()
        if first is not None:
            options["first"] = first
        events.append(Started(ctx.new_seed(), options, table.round + 1))
    return events


def _claim(table: Table, seat: Seat, what: str, ctx: Context) -> list[TableEvent]:
    """Without a clock nothing ends a game whose player to move stays away or idle: after
    `ctx.idle_claim` seconds the others may claim it, as on lichess. With two players the game ends as
    the claimer's win or a draw; with more, a bot takes the idle seat and the others play on."""
    _need_status(table, "started")
    if table.clocks is None or table.clocks.on:
        raise TableError("cannot_claim", f"this table has a clock ({table.clock_spec}): a player who does not "
                         "move runs out of time and a bot plays for them, so there is nothing to claim",
                         reason="clock")
    if seat.bot_level() is not None:
        raise TableError("bot_playing", "a bot plays your seat now", seat=seat.index,
                         reason=seat.takeover or "timeout")
    since = table.idle_since()
    if seat.index in since:
        raise TableError("cannot_claim", "it is your turn: move first; a claim is against a player who keeps "
                         "the others waiting", reason="your_turn")
    if not since:
        raise TableError("cannot_claim", "nobody keeps you waiting: no person is to move", reason="nobody")
    idle = [i for i, began in since.items() if ctx.now - began >= ctx.idle_claim]
    if not idle:
        index = min(since, key=lambda i: since[i])
        wait = max(1, math.ceil(since[index] + ctx.idle_claim - ctx.now))
        raise TableError("cannot_claim", f"{table.seats[index].label} (seat {index + 1}) has been to move for "
                         f"{max(0, math.floor(ctx.now - since[index]))} s; you may claim once they have been idle "
                         f"for {ctx.idle_claim:g} s, in {wait} s", reason="too_soon", seat=index,
                         wait=wait, threshold=ctx.idle_claim)
    against = min(idle)
    claimed = Claimed(seat.index, against, what)
    if table.seat_count > 2:
        return [claimed, TakenOver(against, "idle")]
    return [claimed, finished_event(table, claimed_outcome(seat.index, what))]


def _action(table: Table, user: str, text: str, ctx: Context) -> list[TableEvent]:
    try:
        action = table.game.parse_action(text)
    except IllegalAction as err:
        raise _unreadable(table, text, err.reason) from None
    seat = table.seat_of(user)
    if seat is None:
        raise TableError("not_seated", "you have no seat at this table; /join first")
    _need_status(table, "started")
    assert table.state is not None
    _refuse_when_a_bot_plays(table, user)
    to_act = table.state.to_act()
    if seat.index not in to_act:
        raise TableError("not_your_turn", "it is not your turn", seat=seat.index, to_act=sorted(to_act))
    return _checked_action(table, seat.index, str(action), "player", ctx)


def _refuse_when_a_bot_plays(table: Table, user: str) -> None:
    """A move from a player whose seat a bot has taken over is refused as such before its version is
    checked: the bot's own moves make the version stale, and a fresh version would not help."""
    seat = table.seat_of(user)
    if seat is not None and table.status == "started" and seat.bot_level() is not None:
        raise TableError("bot_playing", "a bot plays your seat now", seat=seat.index,
                         reason=seat.takeover or "timeout")


def _unreadable(table: Table, text: str, reason: str) -> TableError:
    word = text.split()[0].lower() if text.split() else ""
    known = {t.split()[0].lower() for i in range(table.seat_count) for t in _legal_texts(table, i) if t.split()}
    if word in known or word in table.game.verbs or word in ACTION_PREFIXES:
        return TableError("bad_argument", reason, command=word, reason=reason, usage=table.game.help_text())
    return TableError(
        "unknown_command", f"/{word} is no command and no move here; type /help. {reason}",
        command=word, commands=list(COMMANDS),
    )


def _legal_texts(table: Table, seat: int) -> list[str]:
    if table.state is None or table.status != "started":
        return []
    try:
        return table.state.legal_texts(seat)
    except Exception:  # a game without moves for this seat now
        return []


def _checked_action(table: Table, seat: int, text: str, by: str, ctx: Context) -> list[TableEvent]:
    """The action played on a copy of the game: refused when illegal, else the event, carrying the
    position it leads to so that applying it need not play it again (and a Finished when it ends the
    game). The table's own state is left as it was."""
    assert table.state is not None
    after = table.state.clone()
    try:
        game_events = after.apply(seat, text)
    except IllegalAction as err:
        raise TableError("illegal_action", f"illegal action: {err.reason}", reason=err.reason,
                         action=text, rule=err.rule, details=err.details) from None
    bank = None
    if table.clocks is not None and table.clock_spec.mode == "bank" and by == "player":
        bank = table.clocks.bank_after(seat, ctx.now)
    worked_out = Precomputed(table.version, table.state, after, tuple(game_events))
    events: list[TableEvent] = [Played(seat, text, by, bank, worked_out)]
    outcome = after.outcome()
    if outcome is not None:
        events.append(finished_event(table, outcome.to_json()))
    return events


def finished_event(table: Table, outcome: Mapping[str, Any]) -> Finished:
    """The game ends with `outcome` (its JSON): the seats' labels and takeovers as they are now."""
    return Finished(outcome, tuple(s.label for s in table.seats),
                    {str(s.index): s.takeover for s in table.seats if s.takeover is not None})


def _who(table: Table, ctx: Context) -> Reply:
    lines, seats = [], []
    for seat in table.seats:
        state = "empty"
        if seat.kind == "bot":
            state = "bot"
        elif seat.name is not None:
            state = "connected" if ctx.connected(seat.name) else "away"
            if seat.takeover:
                state += f", a bot plays ({seat.takeover})"
        lines.append(f"seat {seat.index + 1}: {seat.label if seat.kind != 'empty' else '-'} ({state})")
        seats.append({"seat": seat.index, "name": seat.label if seat.kind != "empty" else None, "state": state})
    lines.append("spectators: " + (", ".join(ctx.spectators) or "none"))
    return Reply("who", "\n".join(lines), {"seats": seats, "spectators": list(ctx.spectators)})


def _options_reply(table: Table, name: str | None, clock_limits: ClockLimits) -> Reply:
    lines = option_lines(table.game, table.seat_count, table.settings, table.votes, table.clock_spec, table.rated,
                         clock_limits, name)
    return Reply("options", "\n".join(lines), {
        "settings": dict(table.settings), "clock": str(table.clock_spec),
        "votes": {n: sorted(v) for n, v in table.votes.items()},
    })
