"""Tournament statistics per bot: win rate with a Wilson 95% interval, draws, mean score and rank."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ghostgames.tournament.runner import GameResult

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound even near 0% and 100%."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


@dataclass
class BotStats:
    bot: str
    seats: int  # seat-games played (a bot may hold several seats of one game)
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    mean_rank: float
    seconds_per_move: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def summarize(bots: list[str] | tuple[str, ...], results: list[GameResult]) -> list[BotStats]:
    out = []
    for bot in dict.fromkeys(bots):
        seats = wins = draws = losses = decisions = 0
        score = rank = think = 0.0
        for game in results:
            for seat, name in enumerate(game.seats):
                if name != bot:
                    continue
                r = game.results[seat]
                seats += 1
                wins += r["result"] == "win"
                draws += r["result"] == "draw"
                losses += r["result"] == "loss"
                score += float(r["score"])
                rank += int(r["rank"])
                think += game.think_seconds[seat]
                decisions += game.decisions[seat]
        low, high = wilson_interval(wins, seats)
        out.append(
            BotStats(
                bot, seats, wins, draws, losses, wins / seats if seats else 0.0, low, high,
                score / seats if seats else 0.0, rank / seats if seats else 0.0,
                think / decisions if decisions else 0.0,
            )
        )
    return out
