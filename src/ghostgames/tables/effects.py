"""Carrying out: what each event does to a table, and the log lines it writes.

One handler per event type. Each changes the table it is given and returns its lines; nothing here
checks anything (decisions.py checked before the event was stored) and nothing here is called but
Table.apply, so a live table and one rebuilt from its stored events go through the very same steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ghostgames.rules.contract import Outcome
from ghostgames.tables import fair_play
from ghostgames.tables.clock import Clocks, ClockSpec
from ghostgames.tables.events import (
    BotAdded,
    BotRemoved,
    Chatted,
    Claimed,
    Closed,
    Created,
    Finished,
    Joined,
    Left,
    OptionSet,
    Played,
    RematchAsked,
    Rematched,
    Resigned,
    Started,
    TableEvent,
    TakenOver,
    TimedOut,
    Voted,
)
from ghostgames.tables.log import LogLine, action_is_public
from ghostgames.tables.memory import FinishedGame, lineup_of
from ghostgames.tables.settings import RATED, SEAT_OPTIONS

if TYPE_CHECKING:
    from ghostgames.tables.table import Table


def carry_out(table: Table, event: TableEvent) -> list[LogLine]:
    """Change `table` as `event` says; its log lines. The one handler of each event type (the most frequent
    first)."""
    match event:
        case Played():
            return _on_action(table, event)
        case Joined():
            return _on_joined(table, event)
        case Left():
            return _on_left(table, event)
        case BotAdded():
            return _on_bot_added(table, event)
        case BotRemoved():
            return _on_bot_removed(table, event)
        case OptionSet():
            return _on_option(table, event)
        case Voted():
            return _on_vote(table, event)
        case Started():
            return _on_started(table, event)
        case TimedOut():
            return _on_timeout(table, event)
        case TakenOver():
            return _on_takeover(table, event)
        case Resigned():
            return _on_resigned(table, event)
        case Finished():
            return _on_finished(table, event)
        case Closed():
            return _on_closed(table, event)
        case Claimed():
            return _on_claimed(table, event)
        case RematchAsked():
            return _on_rematch_asked(table, event)
        case Rematched():
            return _on_rematch(table, event)
        case Created() | Chatted():
            raise ValueError(f"a {event.kind} event is not applied to a table here")


def _on_joined(table: Table, event: Joined) -> list[LogLine]:
    seat = table.seats[event.seat]
    seat.name, seat.bot, seat.takeover = event.name, None, None
    return [LogLine("joined", f"{seat.name} sits in seat {seat.index + 1}",
                    {"name": seat.name, "seat": seat.index})]


def _on_left(table: Table, event: Left) -> list[LogLine]:
    seat = table.seats[event.seat]
    name = seat.name
    seat.name, seat.takeover, seat.timeouts = None, None, 0
    for voters in table.votes.values():
        voters.discard(seat.index)
    table.rematch_asked.discard(seat.index)
    return [LogLine("left", f"{name} left seat {seat.index + 1}", {"name": name, "seat": seat.index})]


def _on_bot_added(table: Table, event: BotAdded) -> list[LogLine]:
    seat = table.seats[event.seat]
    seat.bot, seat.name = event.level, None
    return [LogLine("bot_added", f"a {seat.bot} bot sits in seat {seat.index + 1}",
                    {"level": seat.bot, "seat": seat.index})]


def _on_bot_removed(table: Table, event: BotRemoved) -> list[LogLine]:
    seat = table.seats[event.seat]
    level, seat.bot = seat.bot, None
    return [LogLine("bot_removed", f"the {level} bot left seat {seat.index + 1}",
                    {"level": level, "seat": seat.index})]


def _on_option(table: Table, event: OptionSet) -> list[LogLine]:
    name, value = event.name, event.value
    if name == "clock":
        table.clock_spec = ClockSpec.parse(value)
    elif name == RATED:
        table.rated = bool(value)
    elif event.reset:
        table.settings.pop(name, None)
    else:
        table.settings[name] = value
    shown = str(table.clock_spec) if name == "clock" else value
    if name in SEAT_OPTIONS and isinstance(value, int):
        shown = value + 1  # people read seats from 1
    if event.because:  # rated turned off by the table: nonstandard settings (or no clock) would not count
        because = [dict(problem) for problem in event.because]
        words = "; ".join(str(p.get("message", p.get("code"))) for p in because)
        return [LogLine("option", f"option rated is now off: {words}",
                        {"name": name, "value": shown, "because": because}), *_rematch_withdrawn(table)]
    return [LogLine("option", f"option {name} is now {shown}", {"name": name, "value": shown}),
            *_rematch_withdrawn(table)]


def _on_vote(table: Table, event: Voted) -> list[LogLine]:
    name, index, value = event.name, event.seat, event.value
    (table.votes[name].add if value else table.votes[name].discard)(index)
    who = table.seats[index].label
    return [LogLine("vote", f"{who} votes {'for' if value else 'against'} {name}",
                    {"name": who, "seat": index, "option": name, "value": value}), *_rematch_withdrawn(table)]


def _rematch_withdrawn(table: Table) -> list[LogLine]:
    """An option changed while a rematch was proposed: those who asked agreed to the old settings, so
    their requests lapse and the rematch starts only once everybody agreed to the new ones."""
    if not table.rematch_asked:
        return []
    seats = sorted(table.rematch_asked)
    names = [table.seats[i].label for i in seats]
    table.rematch_asked = set()
    return [LogLine("rematch_withdrawn", f"the options changed, so the rematch request of {', '.join(names)} "
                    "is withdrawn; /rematch again to play with the new settings",
                    {"names": names, "seats": seats})]


def _on_started(table: Table, event: Started) -> list[LogLine]:
    table.seed = event.seed
    table.options = dict(event.options)
    if event.round is not None:
        table.round = event.round
    table.state = table.game.new(table.seat_count, table.options, table.seed)
    table.status = event.leaves_status
    table.actions = []
    table.players = tuple(s.name.lower() if s.name is not None else None for s in table.seats)
    table.lineup = lineup_of(table.seats)
    table.own_moves = [0] * table.seat_count
    table.result = None
    table.rematch_asked = set()
    for seat in table.seats:
        seat.takeover, seat.timeouts, seat.clock_turn = None, 0, False
    table.clocks = Clocks(table.clock_spec, table.seat_count)
    return [LogLine("started", f"round {table.round} of {table.game.title} starts", {"round": table.round})]


def _on_action(table: Table, event: Played) -> list[LogLine]:
    assert table.state is not None
    index, text, by = event.seat, event.text, event.by
    worked_out = event.precomputed
    if worked_out is not None and worked_out.fits(table.state, table.version - 1):
        # decided on this very position: take the result decide worked out instead of playing it twice
        table.state, game_events = worked_out.after, list(worked_out.events)
    else:  # read back from the store (a rebuild, another worker's move): the rules give the same result
        game_events = table.state.apply(index, text)
    table.actions.append((index, text))
    if table.is_own_move(index, by):
        table.own_moves[index] += 1
    seat = table.seats[index]
    if by == "player":
        seat.timeouts = 0
    seat.clock_turn = False
    if table.clocks is not None:
        table.clocks.acted(index, event.bank)
    args = {"name": seat.label, "seat": index, "action": text, "by": by}
    mine = (f"{seat.label} played {text}", args)
    if action_is_public(text, game_events):
        return [LogLine("action", mine[0], args, {}, tuple(game_events))]
    hidden = {**args, "action": None}
    return [LogLine("action", f"{seat.label} made their move", hidden, {index: mine}, tuple(game_events),
                    code="action_secret")]


def _on_timeout(table: Table, event: TimedOut) -> list[LogLine]:
    seat = table.seats[event.seat]
    seat.timeouts += 1
    seat.clock_turn = True
    return [LogLine("timeout", f"{seat.label}'s time ran out; a bot plays this turn",
                    {"name": seat.label, "seat": seat.index})]


def _on_takeover(table: Table, event: TakenOver) -> list[LogLine]:
    seat = table.seats[event.seat]
    seat.takeover = event.reason
    return [LogLine("takeover", f"a bot plays {seat.label}'s seat to the end ({seat.takeover})",
                    {"name": seat.label, "seat": seat.index, "reason": seat.takeover})]


def _on_resigned(table: Table, event: Resigned) -> list[LogLine]:
    seat = table.seats[event.seat]
    return [LogLine("resigned", f"{seat.label} resigned", {"name": seat.label, "seat": seat.index})]


def _on_finished(table: Table, event: Finished) -> list[LogLine]:
    outcome = dict(event.outcome)
    table.status = event.leaves_status
    table.result = {"outcome": outcome, "names": list(event.names), "takeovers": dict(event.takeovers)}
    table.clocks = None
    if table.state is not None and not table.state.is_over():
        # Ended by the table (a resignation): the game ends too, so it shows what it reveals at its end.
        table.state.concede(Outcome.from_json(outcome))
    played_out = not fair_play.moves_problems(table.game.name, table.own_moves)
    bot_seated = any(bot is not None for _, bot in table.lineup)
    if table.state is not None and table.game.chosen_setup and played_out and bot_seated:
        table.finished_games.append(FinishedGame(table.state.to_json(), table.lineup, table.rated))  # bots' memory
    first = [i for i, r in enumerate(outcome["results"]) if r["rank"] == 1]
    winners = [event.names[i] for i in first]
    # the winners by seat too: a reader names them by seat, never by looking a label up; and the reason
    # by its code (None: a game's outcome stored before codes), never by parsing the words
    return [LogLine("finished", f"game over ({outcome['reason']}); first: {', '.join(winners)}",
                    {"reason": outcome["reason"], "reason_code": outcome.get("code"),
                     "reason_args": dict(outcome.get("args") or {}), "winners": winners, "winner_seats": first})]


def _on_closed(table: Table, event: Closed) -> list[LogLine]:
    table.status = event.leaves_status
    table.clocks = None
    return [LogLine("closed", f"the table closed ({event.reason})", {"reason": event.reason})]


def _on_claimed(table: Table, event: Claimed) -> list[LogLine]:
    seat, against = table.seats[event.seat], table.seats[event.against]
    what = event.claim
    if table.seat_count > 2:
        code = "claimed_bot"
        text = f"{seat.label} claimed against idle {against.label}: a bot plays seat {against.index + 1}"
    else:
        code = f"claimed_{what}"
        text = f"{seat.label} claimed {'a draw' if what == 'draw' else 'the win'}: {against.label} stayed idle"
    return [LogLine("claimed", text, {"name": seat.label, "seat": seat.index, "against": against.label,
                                      "against_seat": against.index, "claim": what}, code=code)]


def _on_rematch_asked(table: Table, event: RematchAsked) -> list[LogLine]:
    seat = table.seats[event.seat]
    table.rematch_asked.add(seat.index)
    waiting = [s.label for s in table.rematch_waiting()]
    return [LogLine("rematch_asked", f"{seat.label} asks for a rematch; waiting for {', '.join(waiting)}",
                    {"name": seat.label, "seat": seat.index, "waiting": waiting})]


def _on_rematch(table: Table, event: Rematched) -> list[LogLine]:
    table.status = event.leaves_status
    table.rematch_asked = set()
    table.round = event.round
    for index in event.freed:
        seat = table.seats[index]
        seat.name = None
        for voters in table.votes.values():
            voters.discard(seat.index)
    for seat in table.seats:
        seat.takeover, seat.timeouts, seat.clock_turn = None, 0, False
    if event.first is not None:
        table.settings["first"] = event.first
    table.state, table.seed, table.options, table.clocks = None, None, None, None
    table.actions, table.players, table.lineup = [], (), ()
    return [LogLine("rematch", f"rematch: round {table.round}", {"round": table.round, "first": event.first})]
