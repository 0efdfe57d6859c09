"""Bots from outside this package: registered in code, installed as a package, or named by import path.

Three ways in, all ending in the same name -> factory table that `get_bot` reads:

- `register("mine", MyBot)` in the running process (a notebook, a script, a test);
- an installed package that declares an entry point in the group `ghostgames.bots`
  (`mine = "mypackage.bots:MyBot"` under `[project.entry-points."ghostgames.bots"]`), found by name;
- an import path `mypackage.bots:MyBot` given where a bot name is expected.

A factory is a `Bot` class or any callable returning a `Bot`, taking either nothing or the thinking
time in seconds (None: the bot's own default). Names are resolved again inside each worker process, so
an import path or an entry point works in a multi-process tournament; a name `register`ed at run time
reaches workers only when they are forked from the process that registered it.

Loading a plug-in runs its code. A local command may do that on its user's behalf; the table server
must not let a remote player pick code to run, so it offers installed plug-ins only when its operator
sets `GHOSTGAMES_PLUGIN_BOTS=1` (or `ghostgames serve --plugin-bots`), and never import paths.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ghostgames.bots.base import Bot

GROUP = "ghostgames.bots"
ENV_SERVER = "GHOSTGAMES_PLUGIN_BOTS"
NAME = re.compile(r"[a-z0-9][a-z0-9_.\-]*\Z")  # no ':' (budgets, import paths) and no ',' (CLI lists)

SecondsFactory = Callable[[float | None], Bot]


def server_allows_plugins() -> bool:
    """Whether the operator let the table server seat installed plug-in bots (off unless asked for)."""
    return os.environ.get(ENV_SERVER, "").strip().lower() in ("1", "true", "yes", "on")


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.match(name.strip().lower()):
        raise ValueError(f"a bot name is lower-case letters, digits, '_', '-' or '.', without ':' or ',': "
                         f"not {name!r}")
    return name.strip().lower()


def as_factory(factory: object, label: str) -> SecondsFactory:
    """`factory` as a function of the thinking time that checks it got a `Bot`; a clear TypeError if it
    cannot be one (an instance instead of a class, too many parameters, not callable)."""
    if isinstance(factory, Bot):
        raise TypeError(f"{label}: got a Bot instance; pass its class or a function that returns a new bot")
    if not callable(factory):
        raise TypeError(f"{label}: a bot factory is a Bot class or a callable returning a Bot, "
                        f"not {type(factory).__name__}")
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):  # some builtins have no signature: call them with nothing
        params = []
    required = [p for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(required) > 1:
        raise TypeError(f"{label}: a bot factory takes nothing or the seconds per move, "
                        f"but {factory!r} needs {len(required)} arguments")
    takes_seconds = len(required) == 1
    # an optional parameter named `seconds` is the time too: given when a time is asked for, else its default
    # (a plug-in written `def make(seconds=None)` would otherwise think at its own budget without a word)
    optional_seconds = not required and any(p.name == "seconds" and p.kind is not p.VAR_KEYWORD for p in params)

    def make(seconds: float | None) -> Bot:
        if takes_seconds:
            bot = factory(seconds)
        elif optional_seconds and seconds is not None:
            bot = factory(seconds=seconds)
        else:
            bot = factory()
        if not isinstance(bot, Bot):
            raise TypeError(f"{label}: the factory returned {type(bot).__name__}, not a ghostgames.bots.Bot")
        return bot

    return make


def register(name: str, factory: Callable[..., Bot], *, replace: bool = False) -> None:
    """Make `name` a bot everywhere this process looks bots up (`get_bot`, tournaments, `evaluate`).

    ValueError if the name is malformed or taken (a built-in name or level, or a registered one unless
    `replace`); TypeError if `factory` cannot make bots."""
    from ghostgames.bots import BOTS, LEVELS

    key = _check_name(name)
    if key in LEVELS or (key in BOTS and (not replace or key in _BUILTIN)):
        raise ValueError(f"bot name {key!r} is taken; choose another"
                         + ("" if key in LEVELS or key in _BUILTIN else " or pass replace=True"))
    BOTS[key] = as_factory(factory, f"bot {key!r}")


_BUILTIN: frozenset[str] = frozenset()


def remember_builtins(names: frozenset[str]) -> None:
    """Called once by `ghostgames.bots` so `register` can tell its own names from registered ones."""
    global _BUILTIN
    _BUILTIN = names


@functools.cache
def installed() -> dict[str, EntryPoint]:
    """Installed plug-in bots by (lower-case) name; not yet imported. Read once per process."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        key = point.name.strip().lower()
        if NAME.match(key) and key not in found:
            found[key] = point
    return found


@functools.cache
def _load_installed(key: str) -> SecondsFactory:
    point = installed()[key]
    label = f"plug-in bot {key!r} ({point.value})"
    try:
        target = point.load()
    except Exception as err:  # the plug-in's own import failed: say which one
        raise ImportError(f"{label} failed to load: {err}") from err
    return as_factory(target, label)


@functools.cache
def _load_path(path: str) -> SecondsFactory:
    module_name, _, attribute = path.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as err:
        raise KeyError(f"no bot {path!r}: cannot import it ({err})") from err
    return as_factory(target, f"bot {path!r}")


def is_import_path(name: str) -> bool:
    """`package.module:factory` (a name of this form is imported, never looked up)."""
    module_name, sep, attribute = name.strip().partition(":")
    return bool(sep) and all(part.isidentifier() for part in module_name.split(".") + attribute.split("."))


def find(name: str) -> SecondsFactory | None:
    """The factory of an installed plug-in or an import path, or None if `name` is neither."""
    key = name.strip().lower()
    if key in installed():
        return _load_installed(key)
    if is_import_path(name):
        return _load_path(name.strip())
    return None
