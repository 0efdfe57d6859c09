"""The Geister AI-competition TCP protocol: a compatible server (referee) and client (for our bots).

See docs/competition.md for the wire format and the choices made where the protocol is silent.
"""

from ghostgames.competition.client import ClientGame, play_game, play_games
from ghostgames.competition.server import CompetitionServer, GameResult, ServerSettings

__all__ = ["ClientGame", "CompetitionServer", "GameResult", "ServerSettings", "play_game", "play_games"]
