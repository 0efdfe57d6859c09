"""The one command language of a table: slash commands and chat, read by one parser.

Whatever is typed in a table's chat and whatever a button sends goes through `parse_command`. Text
without a leading slash is chat; `/word …` is a table command when `word` is one of COMMANDS, otherwise
it is handed to the game as an action (`/b2 n`, `/setup b1 c1 d2 e2`, `/play 7 7 X`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ghostgames.tables.errors import TableError

MAX_CHAT = 500

# name -> (usage, what it does); the order is the order `/help` lists them in.
COMMANDS: dict[str, tuple[str, str]] = {
    "join": ("/join [seat]", "sit down in a seat (the first empty one when no seat is given)"),
    "leave": ("/leave", "give up your seat; in a running game a bot plays it to the end"),
    "start": ("/start", "start the game once every seat is filled"),
    "option": (
        "/option [NAME [VALUE]]",
        "list the options, vote for one (e.g. /option disclose) or set one (e.g. /option clock 30)",
    ),
    "bot": ("/bot add [LEVEL] | /bot remove [seat]", "seat a bot (easy, medium, hard) or remove one"),
    "who": ("/who", "who sits where, who is connected, who watches"),
    "help": ("/help [command]", "the commands, or one command, and how to type the game's moves"),
    "resign": ("/resign", "give up the running game"),
    "rematch": ("/rematch", "ask for (or accept) another game with the same seats once the game is over"),
    "claim": (
        "/claim win | /claim draw",
        "at a table without a clock, when the player to move has been idle too long: end the game as your "
        "win or a draw (two players), or hand the idle seat to a bot (more players)",
    ),
}
# Words that introduce a game action explicitly: `/move b2 n` is the same as `/b2 n`.
ACTION_PREFIXES = ("move", "action", "do")


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Join:
    seat: int | None  # an index from 0; typed as `/join 1` for the first seat


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class SetOption:
    name: str | None
    value: str | None


@dataclass(frozen=True, slots=True)
class BotAdd:
    level: str


@dataclass(frozen=True, slots=True)
class BotRemove:
    seat: int | None  # an index from 0; typed as `/bot remove 1` for the first seat


@dataclass(frozen=True, slots=True)
class Who:
    pass


@dataclass(frozen=True, slots=True)
class Help:
    topic: str | None


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the game (or a bot for the seat) from a player who stays idle at a table without a clock."""

    what: str  # "win" or "draw"


CLAIMS = ("win", "draw")


@dataclass(frozen=True, slots=True)
class GameAction:
    """A game action in its text form, exactly as typed after the slash."""

    text: str


Command = (Chat | Join | Leave | Start | SetOption | BotAdd | BotRemove | Who | Help | Resign | Rematch | Claim
           | GameAction)

# Commands that only read: no version check, no event.
READ_ONLY = (Who, Help)


def _usage(name: str) -> str:
    return COMMANDS[name][0]


def _bad(name: str, reason: str) -> TableError:
    return TableError(
        "bad_argument", f"{reason}; usage: {_usage(name)}", command=name, reason=reason, usage=_usage(name)
    )


def _seat_number(name: str, word: str) -> int:
    """A seat as people type it (counting from 1) turned into the table's index (counting from 0)."""
    if not word.isdigit():
        raise _bad(name, f"{word!r} is not a seat number")
    if int(word) < 1:
        raise _bad(name, "seats are numbered from 1")
    return int(word) - 1


def parse_command(text: str) -> Command:
    """Read one line typed at a table. Raises TableError (bad_argument, unknown_command is left to the
    table, which knows the game)."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        if not stripped:
            raise TableError("bad_argument", "an empty message", command="chat", reason="empty", usage="")
        if len(stripped) > MAX_CHAT:
            raise TableError(
                "bad_argument",
                f"a chat message has at most {MAX_CHAT} characters",
                command="chat",
                reason="too long",
                usage="",
            )
        return Chat(stripped)
    words = stripped[1:].split()
    if not words:
        raise TableError(
            "unknown_command", "a slash alone is no command; type /help", command="", commands=list(COMMANDS)
        )
    head, rest = words[0].lower(), words[1:]
    if head == "join":
        if len(rest) > 1:
            raise _bad(head, "give at most one seat number")
        return Join(_seat_number(head, rest[0]) if rest else None)
    if head in ("leave", "start", "who", "resign", "rematch"):
        if rest:
            raise _bad(head, f"/{head} takes no arguments")
        simple: dict[str, Command] = {
            "leave": Leave(), "start": Start(), "who": Who(), "resign": Resign(), "rematch": Rematch()
        }
        return simple[head]
    if head == "option":
        if len(rest) > 2:
            raise _bad(head, "give an option name and at most one value")
        return SetOption(rest[0].lower() if rest else None, rest[1] if len(rest) > 1 else None)
    if head == "bot":
        if not rest or rest[0].lower() not in ("add", "remove"):
            raise _bad(head, "say /bot add or /bot remove")
        if len(rest) > 2:
            raise _bad(head, "too many arguments")
        if rest[0].lower() == "add":
            return BotAdd(rest[1].lower() if len(rest) > 1 else "easy")
        return BotRemove(_seat_number(head, rest[1]) if len(rest) > 1 else None)
    if head == "claim":
        if len(rest) != 1 or rest[0].lower() not in CLAIMS:
            raise _bad(head, "say /claim win or /claim draw")
        return Claim(rest[0].lower())
    if head == "help":
        if len(rest) > 1:
            raise _bad(head, "ask about one command at a time")
        return Help(rest[0].lower().lstrip("/") if rest else None)
    if head in ACTION_PREFIXES and rest:
        return GameAction(" ".join(rest))
    return GameAction(" ".join(words))


def help_text(topic: str | None, game_help: str) -> str:
    """The answer to `/help` (all commands plus the game's action forms) or `/help COMMAND`."""
    if topic is not None:
        if topic in COMMANDS:
            usage, what = COMMANDS[topic]
            return f"{usage}: {what}"
        if topic in ("game", "rules", "actions", "move"):
            return game_help or "type a game action after a slash"
        raise TableError(
            "unknown_command",
            f"there is no command /{topic}; the commands are: " + ", ".join("/" + c for c in COMMANDS),
            command=topic,
            commands=list(COMMANDS),
        )
    lines = [f"{usage}: {what}" for usage, what in COMMANDS.values()]
    lines.append("Plain text without a slash is chat.")
    lines.append("Game actions are typed after a slash (also /move ACTION):")
    if game_help:
        lines.append(game_help)
    return "\n".join(lines)
