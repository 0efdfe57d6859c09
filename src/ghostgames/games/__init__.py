"""The registry of games by name. Games are imported on first use so that one game's module never
pays for another's."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ghostgames.rules.contract import Game

# name -> module holding a module-level `GAME` instance
_MODULES: dict[str, str] = {
    "geister": "ghostgames.games.geister",
    "ghooost": "ghostgames.games.ghooost",
    "thelast": "ghostgames.games.thelast",
}
_loaded: dict[str, Game[Any, Any]] = {}


def available() -> list[str]:
    """Names of games whose module is present in this install."""
    names = []
    for name, module in _MODULES.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


GAMES: tuple[str, ...] = tuple(available())


def get_game(name: str) -> Game[Any, Any]:
    key = name.strip().lower().replace("!", "").replace(" ", "")
    if key not in _MODULES or key not in GAMES:
        raise KeyError(f"no game {name!r}; the games are: {', '.join(GAMES)}")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]
