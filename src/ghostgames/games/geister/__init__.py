"""Geister (Alex Randolph, 1982): two players, 6x6 board, 4 good and 4 bad ghosts each."""

from ghostgames.games.geister.actions import Move, Setup
from ghostgames.games.geister.game import GeisterGame
from ghostgames.games.geister.state import GeisterOptions, GeisterState
from ghostgames.rules.registry import register

GAME = register(GeisterGame())

__all__ = ["GAME", "GeisterGame", "GeisterOptions", "GeisterState", "Move", "Setup"]
