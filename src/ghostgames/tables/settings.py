"""What a table may be set to: the checks of a new table, of each `/option` typed at it, and the
listing `/option` shows. Pure functions of the game, the seat count and what was typed; the table
(`table.py`, `decisions.py`) keeps the values and turns these answers into events.

A table has three kinds of option: the game's own settings (its `options_schema`, checked by the
game's options model), the votes among them (each player's own choice, never a creator's setting), and
the table's own two, `clock` and `rated`. Seats are typed and shown from 1 and stored from 0.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ghostgames.games import GAMES, get_game
from ghostgames.rules.contract import Game
from ghostgames.rules.options import OptionError
from ghostgames.tables import fair_play
from ghostgames.tables.clock import ClockLimits, ClockSpec
from ghostgames.tables.errors import TableError
from ghostgames.tables.events import OptionSet, Voted

RATED = "rated"  # the table option: its games count for ratings (when every person has an account)
# The table's own options, described as a game's options_schema describes its own (the games list shows both).
TABLE_OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "clock": {
        "allowed": "'none' (unrated tables only), seconds per move like '30', bank+increment like '300+5', "
                   "or 'default'",
        "default": "default", "help": "the time each player has (each game has its own default)", "vote": False,
    },
    RATED: {
        "allowed": "on or off (on only with the game's standard settings)", "default": True, "vote": False,
        "help": "the game counts for ratings (only when every person seated has an account, each side made "
                "its first moves itself, and the settings are standard; off by default otherwise)",
    },
}
TABLE_OPTIONS = tuple(TABLE_OPTION_SCHEMA)
# The clock a table gets unless its creator chooses one (quick play too), so that every game ends: a
# player who stops moving runs out of time and a bot plays on for them. Geister is one short game of a
# bounded length (a ply cap), so a bank as in blitz chess: 5 minutes each plus 5 s a move. Ghooost! and
# The Last run over rounds whose number the table chooses (up to 100), so a bank would not fit every
# length; each of their many small choices (a card, a swap) gets 30 s instead, and nobody waits on one
# idle player longer than that per turn.
DEFAULT_CLOCKS: dict[str, str] = {"geister": "300+5", "ghooost": "30", "thelast": "30"}
FALLBACK_CLOCK = "60"  # a game not listed above


def default_clock(game: str) -> ClockSpec:
    """The clock of a table of `game` whose creator chose none."""
    return ClockSpec.parse(DEFAULT_CLOCKS.get(game, FALLBACK_CLOCK))


def table_option_schema(game: str, default: str | None = None) -> dict[str, dict[str, Any]]:
    """The table's own options as the games list shows them for `game`: the clock's default is the game's
    (or `default`, a server's own default for every game)."""
    shown = str(ClockSpec.parse(default)) if default is not None else str(default_clock(game))
    return {**TABLE_OPTION_SCHEMA, "clock": {**TABLE_OPTION_SCHEMA["clock"], "default": shown}}


def check_rated_clock(game: Game[Any, Any], rated: bool, clock: ClockSpec) -> None:
    """A rated game needs a clock: without one a losing player could stop moving and keep the game (and
    the rating change) from ever ending. Asking for rated without a clock is refused with what works; setting
    the clock to none at a rated table turns rated off with a line that says why (no_clock_off_event), as
    nonstandard settings do: either way nobody plays a game they believe counts when it does not."""
    if rated and clock.mode == "none":
        default = default_clock(game.name)
        reason = (f"a rated table needs a clock, so that every game ends: choose one (for {game.title} the "
                  f"default is {default}) or make the table unrated (option rated off) to play without a clock")
        raise TableError("rated_needs_clock", reason, name="clock", reason=reason, default=str(default))
# Options whose value is a seat. The games count seats from 0 (so do events, settings and the wire
# protocol); people type and read them from 1, so a table translates what is typed and what it says.
SEAT_OPTIONS = ("first",)
RESET_WORDS = ("none", "default", "random")
_ON_OFF = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def on_or_off(value: object) -> bool | None:
    """A typed on/off word (or a bool) as a bool; None when it is neither."""
    if isinstance(value, bool):
        return value
    return None if value is None else _ON_OFF.get(str(value).strip().lower())


def seat_option_error(name: str, seats: int) -> TableError:
    reason = f"{name} takes a seat from 1 to {seats}, or none for random"
    return TableError("bad_option", reason, name=name, reason=reason, first=1, last=seats)


def no_such_option(game: Game[Any, Any], name: str) -> TableError:
    names = ", ".join(sorted([*game.options_schema(), *TABLE_OPTIONS]))
    return TableError("bad_option", f"{game.title} has no option {name!r}; its options are: {names}",
                      name=name, reason=f"the options are: {names}")


def checked_settings(game: Game[Any, Any], seats: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Validated settings, with typed chat words ("on", "300") turned into the values the game uses."""
    try:
        model = game.options(seats, settings)
    except OptionError as err:
        name = next((n for n in settings if f"{n!r}" in str(err)), "")
        raise TableError("bad_option", str(err), name=name, reason=str(err)) from None
    return {name: getattr(model, name) for name in settings}


def _clock(value: object, clock_limits: ClockLimits, game: str) -> ClockSpec:
    if isinstance(value, str) and value.strip().lower() == "default":
        return default_clock(game)
    try:
        return ClockSpec.parse(value, clock_limits)
    except ValueError as err:
        raise TableError("bad_option", str(err), name="clock", reason=str(err)) from None


def _rated(value: object) -> bool:
    rated = on_or_off(value)
    if rated is None:
        raise TableError("bad_option", f"{RATED} is on or off, not {value!r}", name=RATED, reason="on or off")
    return rated


def nonstandard_error(game: Game[Any, Any], problems: list[fair_play.Problem]) -> TableError:
    """Rated asked for at settings that are not the game's standard: say which and what would work."""
    standard = str(problems[0].args["standard"])
    settings = " and ".join(p.setting for p in problems)
    message = (f"rated {game.title} games use the standard settings ({standard}), not {settings}: "
               "set rated off to play these settings unrated, or change them")
    return TableError("bad_option", message, name=RATED, reason=message, standard=standard,
                      problems=[p.to_json() for p in problems])


def rated_off_event(game: Game[Any, Any], seats: int, settings: Mapping[str, Any]) -> OptionSet | None:
    """The event that turns `rated` off because these settings are not the game's standard, if they are not."""
    problems = fair_play.settings_problems(game.name, seats, settings)
    if not problems:
        return None
    return OptionSet(RATED, False, because=tuple(p.to_json() for p in problems))


NO_CLOCK = "no_clock"  # the code of the reason a table turned rated off when its clock was set to none


def no_clock_off_event() -> OptionSet:
    """The event that turns `rated` off because the clock was set to none: without a clock a losing player
    could stop moving and keep the game from ever ending, so such a game never counts."""
    because = {"code": NO_CLOCK, "args": {}, "message": "a rated game needs a clock, so that every game ends"}
    return OptionSet(RATED, False, because=(because,))


def creation_event(
    table_id: str, game_name: str, seats: int, options: Mapping[str, Any] | None, clock: object, by: str | None,
    clock_limits: ClockLimits = ClockLimits(),
) -> dict[str, Any]:
    """Check a new table's game, seat count, settings and clock; the event that creates it."""
    try:
        game = get_game(game_name)
    except KeyError:
        raise TableError(
            "unknown_game", f"there is no game {game_name!r}; the games are: {', '.join(GAMES)}",
            game=game_name, games=list(GAMES),
        ) from None
    if not game.min_players <= seats <= game.max_players:
        raise TableError(
            "bad_seats", f"{game.title} is for {game.min_players} to {game.max_players} players, not {seats}",
            seats=seats, min=game.min_players, max=game.max_players,
        )
    schema = game.options_schema()
    settings: dict[str, Any] = {}
    rated: bool | None = None  # unless asked: on when the settings are standard (fair_play.STANDARD)
    for name, value in (options or {}).items():
        if name == RATED:
            rated = _rated(value)
        elif not (name in schema and schema[name]["vote"]):  # a vote is each player's own, not the creator's
            settings[name] = value
    for name in SEAT_OPTIONS:
        value = settings.get(name)
        if isinstance(value, str) and value.strip().isdigit():
            value = settings[name] = int(value)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats):
            raise seat_option_error(name, seats)  # given as an index from 0 (the wire), told from 1
    settings = checked_settings(game, seats, settings)
    problems = fair_play.settings_problems(game.name, seats, settings)
    if rated and problems:
        raise nonstandard_error(game, problems)
    spec = default_clock(game.name) if clock is None else _clock(clock, clock_limits, game.name)
    if rated:
        check_rated_clock(game, rated, spec)  # asked for rated without a clock: say what works
    if rated is None:
        rated = not problems and spec.mode != "none"
    return {
        "kind": "created", "id": table_id, "game": game.name, "seats": seats,
        "settings": settings, "clock": str(spec), "by": by, "rated": rated,
    }


def option_event(game: Game[Any, Any], seats: int, settings: Mapping[str, Any], seat: int, name: str,
                 value: str | None, clock_limits: ClockLimits) -> OptionSet | Voted:
    """The event of seat `seat` typing `/option name value` at a table with these settings."""
    schema = game.options_schema()
    if name in schema and schema[name]["vote"]:
        choice = True if value is None else on_or_off(value)
        if choice is None:
            raise TableError("bad_option", f"vote on or off for {name}, not {value!r}", name=name,
                             reason="on or off")
        return Voted(name, seat, choice)
    if name == "clock":
        return OptionSet("clock", str(_clock(value, clock_limits, game.name)))
    if name == RATED:
        rated = _rated(value)
        problems = fair_play.settings_problems(game.name, seats, settings)
        if rated and problems:
            raise nonstandard_error(game, problems)
        return OptionSet(RATED, rated)
    if name not in schema:
        raise no_such_option(game, name)
    if value is not None and value.strip().lower() in RESET_WORDS:
        return OptionSet(name, None, reset=True)
    if name in SEAT_OPTIONS:
        if value is None or not value.strip().isdigit() or not 1 <= int(value) <= seats:
            raise seat_option_error(name, seats)
        return OptionSet(name, int(value) - 1)
    checked = checked_settings(game, seats, {**settings, name: value})
    return OptionSet(name, checked[name])


def option_lines(game: Game[Any, Any], seats: int, settings: Mapping[str, Any], votes: Mapping[str, Collection[int]],
                 clock: ClockSpec, rated: bool, clock_limits: ClockLimits, name: str | None) -> list[str]:
    """What `/option` (all of them) or `/option name` shows: each value and what it may be."""
    schema = game.options_schema()
    if name is not None and name not in schema and name not in TABLE_OPTIONS:
        raise no_such_option(game, name)
    lines = []
    for option, entry in schema.items():
        if name is not None and option != name:
            continue
        if entry["vote"]:
            voters = sorted(votes[option])
            lines.append(f"{option}: a vote, on when every player votes for it (votes from seats "
                         f"{', '.join(str(i + 1) for i in voters) or 'none'}) - {entry['help']}")
        elif option in SEAT_OPTIONS:
            value = settings.get(option, entry["default"])
            shown = "random" if value is None else str(value + 1)
            lines.append(f"{option} = {shown} (a seat from 1 to {seats}, or none for random)")
        else:
            value = settings.get(option, entry["default"])
            lines.append(f"{option} = {value!r} ({entry['allowed']}) - {entry['help']}")
    if name in (None, "clock"):
        lines.append(f"clock = {clock} ({clock_limits.describe()}, or 'default': {default_clock(game.name)}; "
                     "'none' only at an unrated table)")
    if name in (None, RATED):
        standard = fair_play.STANDARD.get(game.name)
        lines.append(f"rated = {'on' if rated else 'off'} (on or off; a game counts for ratings when it is on, "
                     "every person seated has an account, each seat made its first moves itself, and the "
                     f"settings are standard: {standard.describe() if standard else 'none known'})")
    return lines
