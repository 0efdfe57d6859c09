"""The Last (Ludovic Lepine, Funforge 2024): 2-5 players, tricks won by the last player's colour."""

from ghostgames.games.thelast.actions import KEEP, Keep, Play, Swap, TheLastAction
from ghostgames.games.thelast.game import TheLastGame
from ghostgames.games.thelast.state import TheLastOptions, TheLastState
from ghostgames.rules.registry import register

GAME = register(TheLastGame())

__all__ = ["GAME", "KEEP", "Keep", "Play", "Swap", "TheLastAction", "TheLastGame", "TheLastOptions", "TheLastState"]
