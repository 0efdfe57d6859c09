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


def _bounds(info: FieldInfo) -> tuple[Any, Any]:
    """The (lowest, highest) a number field allows, from its `ge`/`le` constraints (None: no bound)."""
    low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
    return low, high


def describe_field(info: FieldInfo) -> str:
    """What a field accepts, with its range: "a whole number from 1 to 1000 or none"."""
    low, high = _bounds(info)
    text = describe_allowed(info.annotation)
    if low is None and high is None:
        return text
    where = f"from {low} to {high}" if low is not None and high is not None else (
        f"of at least {low}" if low is not None else f"of at most {high}")
    return text.replace("a whole number", f"a whole number {where}", 1).replace("a number", f"a number {where}", 1)


def _takes_bool(annotation: Any) -> bool:
    """Whether a field's type has on/off among its values (bool itself, or a union holding bool)."""
    return annotation is bool or bool in typing.get_args(annotation)


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
    for name, value in values.items():
        if isinstance(value, bool) and not _takes_bool(fields[name].annotation):  # pydantic reads True as 1
            raise OptionError(f"option {name!r} takes {describe_field(fields[name])}, not {options[name]!r}")
    try:
        return model.model_validate({**values, "players": players} if "players" in fields else values)
    except ValidationError as err:
        first = err.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        if name in fields:
            allowed = describe_field(fields[name])
            got = repr(options.get(name))
            got = got if len(got) <= 40 else got[:37] + "..."
            extra = f" ({first['msg']})" if "ctx" in first and "error" in first["ctx"] else ""
            raise OptionError(f"option {name!r} takes {allowed}, not {got}{extra}") from None
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
            "allowed": describe_field(info),
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
        low, high = _bounds(info)
        if low is not None or high is not None:
            entry["min"], entry["max"] = low, high
        out[name] = entry
    return out
