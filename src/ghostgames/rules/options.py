"""Option checking shared by all games: one clear error that names the option and what would work.

Each game declares its options as a pydantic model. Fields marked `vote=True` in `json_schema_extra`
are per-player choices (a table collects them as votes); the others are the table's settings.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo


class OptionError(ValueError):
    """An unknown option or a bad value; the message says which and what is allowed."""


def describe_allowed(annotation: Any) -> str:
    """Words for what a field accepts, e.g. "'reach' or 'escape'" or "a whole number"."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return " or ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        parts = [describe_allowed(a) for a in args if a is not type(None)]
        text = " or ".join(parts)
        return text + (" or none" if type(None) in args else "")
    if annotation is bool:
        return "on or off"
    if annotation is int:
        return "a whole number"
    if annotation is float:
        return "a number"
    return getattr(annotation, "__name__", str(annotation))


def describe_bounds(info: FieldInfo) -> str:
    """Words for a field's range (pydantic `ge`/`le`), e.g. " from 1 to 100"; empty without one."""
    low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _coerce(value: Any) -> Any:
    """Typed text from chat ("on", "300", "none") becomes the value a model expects."""
    if not isinstance(value, str):
        return value
    low = value.strip().lower()
    if low in ("on", "yes", "true"):
        return True
    if low in ("off", "no", "false"):
        return False
    if low in ("none", "null", ""):
        return None
    if low.lstrip("-").isdigit():
        return int(low)
    return low


def validate_options(game: str, model: type[BaseModel], options: Mapping[str, Any], players: int) -> BaseModel:
    fields = model.model_fields
    names = sorted(name for name in fields if name != "players")  # `players` is given by the table, not set
    unknown = [k for k in options if k not in names]
    if unknown:
        raise OptionError(f"{game} has no option {unknown[0]!r}; its options are: {', '.join(names)}")
    values = {k: _coerce(v) for k, v in options.items()}
    try:
        return model.model_validate({**values, "players": players} if "players" in fields else values)
    except ValidationError as err:
        first = err.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        if name in fields:
            allowed = describe_allowed(fields[name].annotation) + describe_bounds(fields[name])
            got = options.get(name)
            extra = f" ({first['msg']})" if "ctx" in first and "error" in first["ctx"] else ""
            raise OptionError(f"option {name!r} takes {allowed}, not {got!r}{extra}") from None
        raise OptionError(f"bad options for {game}: {first['msg']}") from None


def options_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A small schema per option for lobbies and `/option` help: type, allowed values, default, vote."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if name == "players":
            continue
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        ann = info.annotation
        entry: dict[str, Any] = {
            "allowed": describe_allowed(ann),
            "default": info.default,
            "help": info.description or "",
            "vote": bool(extra.get("vote", False)),
        }
        literal_args = [a for a in typing.get_args(ann) if typing.get_origin(a) is typing.Literal]
        if typing.get_origin(ann) is typing.Literal:
            entry["choices"] = list(typing.get_args(ann))
        elif literal_args:
            entry["choices"] = list(typing.get_args(literal_args[0]))
        elif ann is bool:
            entry["choices"] = [True, False]
        out[name] = entry
    return out
