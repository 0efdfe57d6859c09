"""Our three games in OpenSpiel (`pip install 'ghostgames[spiel]'`): `register()`, then `pyspiel.load_game`
with "ghostgames_geister", "ghostgames_ghooost" or "ghostgames_thelast" (docs/spiel.md)."""

from __future__ import annotations

try:
    import pyspiel
except ImportError as err:  # an optional extra: say how to get it
    raise ImportError("ghostgames.spiel needs OpenSpiel: pip install 'ghostgames[spiel]'") from err

from ghostgames.spiel.adapter import SpielGame, SpielState, game_type
from ghostgames.spiel.games import SPECS, spec_named

__all__ = ["GAME_NAMES", "GeisterSpiel", "GhooostSpiel", "SpielGame", "SpielState", "TheLastSpiel", "register"]

GAME_NAMES = tuple(spec.short_name for spec in SPECS)


class GeisterSpiel(SpielGame):
    spec = spec_named("ghostgames_geister")


class GhooostSpiel(SpielGame):
    spec = spec_named("ghostgames_ghooost")


class TheLastSpiel(SpielGame):
    spec = spec_named("ghostgames_thelast")


def register() -> tuple[str, ...]:
    """Register the three games with pyspiel (again is harmless); returns their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    for cls in (GeisterSpiel, GhooostSpiel, TheLastSpiel):
        if cls.spec.short_name not in known:
            pyspiel.register_game(game_type(cls.spec, dict(cls.spec.defaults)), cls)
    return GAME_NAMES
