"""Ghooost! (Richard Garfield, 2013): 2-6 players, 62 cards, get rid of your hand and mansion first."""

from ghostgames.games.ghooost.actions import DONE, GAMBLE, PASS, TAKE, TURN, GhooostAction, Play, Simple
from ghostgames.games.ghooost.game import GhooostGame
from ghostgames.games.ghooost.state import GhooostOptions, GhooostState
from ghostgames.rules.registry import register

GAME = register(GhooostGame())

__all__ = [
    "DONE",
    "GAMBLE",
    "GAME",
    "PASS",
    "TAKE",
    "TURN",
    "GhooostAction",
    "GhooostGame",
    "GhooostOptions",
    "GhooostState",
    "Play",
    "Simple",
]
