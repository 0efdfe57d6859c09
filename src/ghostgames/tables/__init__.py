"""Tables as pure domain logic: seats, options and votes, the command parser, clocks. No I/O here:
the server stores the events these classes decide on and hands back the time and the seeds."""

from ghostgames.tables.clock import ClockLimits, Clocks, ClockSpec
from ghostgames.tables.commands import COMMANDS, Command, parse_command
from ghostgames.tables.decisions import Context, Decision, Reply
from ghostgames.tables.errors import TableError
from ghostgames.tables.log import LogLine
from ghostgames.tables.seat import Seat
from ghostgames.tables.settings import creation_event
from ghostgames.tables.table import Table

__all__ = [
    "COMMANDS",
    "ClockLimits",
    "ClockSpec",
    "Clocks",
    "Command",
    "Context",
    "Decision",
    "LogLine",
    "Reply",
    "Seat",
    "Table",
    "TableError",
    "creation_event",
    "parse_command",
]
