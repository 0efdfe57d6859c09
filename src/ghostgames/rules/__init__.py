"""The contract every game implements, and what goes with it (outcomes, events, records, chance)."""

from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import (
    JSON,
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    SeatResult,
    State,
    parse_json_action,
)
from ghostgames.rules.options import OptionError
from ghostgames.rules.reasons import Reason
from ghostgames.rules.record import GameRecord

__all__ = [
    "JSON",
    "Action",
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "OptionError",
    "Outcome",
    "Reason",
    "SeatResult",
    "State",
    "derive_rng",
    "parse_json_action",
]
