"""The client's WebSocket messages as pydantic models (docs/protocol.md §3), and the reading of one raw
frame into one of them with a protocol error that says what was wrong."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ghostgames.tables import TableError

TableId = Annotated[str, Field(min_length=1, max_length=32)]


MAX_ID = 64  # docs/protocol.md: an id is any string up to 64 characters
# An id or a version sent as a number is an integer a browser can hold exactly (JavaScript's safe range).
MAX_INT = 2**53 - 1
Id = Annotated[str, Field(max_length=MAX_ID)] | Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)] | None
Version = Annotated[int, Field(ge=0, le=MAX_INT)] | None


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: Id = None


class Hello(_Message):
    type: Literal["hello"]
    token: str | None = Field(None, max_length=2000)
    guest: str | None = Field(None, max_length=64)
    batch: bool = False  # the client reads frames that hold a JSON array of messages (docs/protocol.md §3.1)


class Logout(_Message):
    """End this connection's session and every other of its name (docs/protocol.md §3.1)."""

    type: Literal["logout"]


class Lobby(_Message):
    type: Literal["lobby"]


class Unlobby(_Message):
    type: Literal["unlobby"]


class Create(_Message):
    type: Literal["create"]
    game: str = Field(max_length=32)
    seats: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    clock: str | int | float | None = None
    join: bool = True


class Watch(_Message):
    type: Literal["watch"]
    table: TableId


class Unwatch(_Message):
    type: Literal["unwatch"]
    table: TableId


class Command(_Message):
    type: Literal["command"]
    table: TableId
    text: str = Field(max_length=4000)
    version: Version = None


class Action(_Message):
    type: Literal["action"]
    table: TableId
    action: str | dict[str, Any]
    version: Version = None


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Hello | Logout | Lobby | Unlobby | Create | Watch | Unwatch | Command | Action | Ping
_adapter: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)
TYPES = ("hello", "logout", "lobby", "unlobby", "create", "watch", "unwatch", "command", "action", "ping")


def read_message(text: str) -> ClientMessage:
    """One client frame as a message; TableError bad_message / unknown_type otherwise."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:  # ValueError: JSONDecodeError, or a number of over 4,300 digits
        raise TableError("bad_message", f"not JSON that can be read: {str(err)[:120]}; send a JSON object with "
                         f"a 'type', with numbers of at most 16 digits", reason="not JSON") from None
    if not isinstance(data, dict):
        raise TableError("bad_message", "a message is a JSON object with a 'type'", reason="not an object")
    kind = data.get("type")
    if kind not in TYPES:
        shown = kind if isinstance(kind, str) else json.dumps(kind)[:40]
        raise TableError("unknown_type", f"unknown message type {shown[:40]!r}; the types are: {', '.join(TYPES)}",
                         type=shown[:40])
    try:
        return _adapter.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        reason = f"{where}: {first['msg']}"
        raise TableError("bad_message", f"bad {kind} message: {reason}", reason=reason) from None


def message_id(text: str) -> str | int | None:
    """The `id` of a frame that could not be read as a message, if it has one (for the error)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    value = data.get("id") if isinstance(data, dict) else None
    if (isinstance(value, str) and len(value) > MAX_ID) or (isinstance(value, int) and abs(value) > MAX_INT):
        return None  # never echo a long id back
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None
