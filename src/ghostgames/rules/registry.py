"""Games by name, filled by the games themselves: each game's package calls `register` when it is imported,
and `ghostgames.games` imports every game. So rules/ can find a game by name (a record replays itself)
without importing games/: the arrow points from games to rules only."""

from __future__ import annotations

from typing import Any, TypeVar

from ghostgames.rules.contract import Game

_GAMES: dict[str, Game[Any, Any]] = {}
G = TypeVar("G", bound=Game[Any, Any])


def register(game: G) -> G:
    """Add `game` under its name and return it (a second, different game of the same name is a mistake)."""
    known = _GAMES.get(game.name)
    if known is not None and type(known) is not type(game):
        raise ValueError(f"two games are called {game.name!r}: {type(known).__name__} and {type(game).__name__}")
    _GAMES[game.name] = game
    return game


def names() -> tuple[str, ...]:
    """The registered games' names, in the order they registered."""
    return tuple(_GAMES)


def get_game(name: str) -> Game[Any, Any]:
    """The game called `name` (case, spaces and "!" ignored).

    >>> import ghostgames.games  # every game registers itself
    >>> get_game("Ghooost!").title, "thelast" in names()
    ('Ghooost!', True)
    """
    key = name.strip().lower().replace("!", "").replace(" ", "")
    if key not in _GAMES:
        hint = ", ".join(_GAMES) if _GAMES else "none yet (import ghostgames.games to load them)"
        raise KeyError(f"no game {name!r}; the games are: {hint}")
    return _GAMES[key]
