"""Does the analysis make sense? Games between two bots, both seats analysed: how often each bot's
decisions are called a mistake or worse, and how often the estimate at a seat's last judged decision
agrees with the result (issue 35's checks; the slow test and benchmarks/analysis_sense.py use it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghostgames.analysis.estimate import analyse
from ghostgames.bots import get_bot
from ghostgames.tournament.runner import play_record

BAD = ("mistake", "blunder")


@dataclass
class Sense:
    """Per bot name: decisions judged and those labelled mistake or worse; per seat-game of a decided game
    (no draw): whether the last estimate was on the side of the result (above 0.5 for a winner)."""

    judged: dict[str, int] = field(default_factory=dict)
    bad: dict[str, int] = field(default_factory=dict)
    last_agrees: int = 0
    last_judged: int = 0

    def rate(self, bot: str) -> float:
        return self.bad.get(bot, 0) / max(1, self.judged.get(bot, 0))


def measure(game: str, players: int, options: Mapping[str, Any], seeds: Sequence[int], bots: Sequence[str],
            budget: int) -> Sense:
    """Play one game per seed with the seats taken by `bots` in turn (seed i rotates them by i), then
    analyse every seat at `budget` iterations per decision."""
    sense = Sense()
    for seed in seeds:
        names = [bots[(seat + seed) % len(bots)] for seat in range(players)]
        record = play_record(game, players, options, seed, [get_bot(name) for name in names])
        outcome = record.replay().outcome()
        for seat, name in enumerate(names):
            decisions = analyse(record, seat, budget).decisions
            sense.judged[name] = sense.judged.get(name, 0) + len(decisions)
            sense.bad[name] = sense.bad.get(name, 0) + sum(1 for d in decisions if d.label in BAD)
            result = outcome.results[seat].result if outcome is not None else "draw"
            if decisions and result != "draw":
                sense.last_judged += 1
                sense.last_agrees += (decisions[-1].after > 0.5) == (result == "win")
    return sense
