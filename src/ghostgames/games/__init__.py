"""Every game of this install. Importing this package imports each game, and each game registers itself
(ghostgames.rules.registry), so `get_game` knows them all whenever games are loaded."""

from __future__ import annotations

import importlib
import importlib.util

from ghostgames.rules.registry import get_game, names

# The games' packages; one missing from a trimmed install is skipped.
_PACKAGES = ("ghostgames.games.geister", "ghostgames.games.ghooost", "ghostgames.games.thelast")

for _package in _PACKAGES:
    if importlib.util.find_spec(_package) is not None:
        importlib.import_module(_package)

GAMES: tuple[str, ...] = names()


def available() -> list[str]:
    """Names of the games present in this install."""
    return list(GAMES)


__all__ = ["GAMES", "available", "get_game"]
