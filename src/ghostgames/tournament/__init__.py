"""Bot tournaments: seat-rotated games across worker processes, statistics and plots."""

from ghostgames.tournament.evaluate import Evaluation, evaluate
from ghostgames.tournament.runner import GameResult, TournamentSpec, run_tournament
from ghostgames.tournament.stats import BotStats, summarize, wilson_interval

__all__ = [
    "BotStats", "Evaluation", "GameResult", "TournamentSpec", "evaluate", "run_tournament", "summarize",
    "wilson_interval",
]
