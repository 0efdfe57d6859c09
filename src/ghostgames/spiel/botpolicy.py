"""Our bots as OpenSpiel tabular policies, so that `exploitability` and `nash_conv` can judge them.

A bot is asked at every information set of a small variant's tree (`exact.exact_game`), through a
`SeatKnowledge` of one state in that set, so it sees only what the seat may know. Its policy there is the share
of `samples` choices, each made with its own fixed seed (seed, seed + 1, ...), that fell on each legal action:
a deterministic bot gets a one-hot, a stochastic one (a search with a random playout) an estimate of its
distribution that sharpens with `samples`. A set with one legal action is that action, without asking.
"""

from __future__ import annotations

import random

import pyspiel

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.spiel.exact import ExactGame

Table = dict[str, list[tuple[int, float]]]


def uniform_table(exact: ExactGame) -> Table:
    """Every legal action alike (the reference every method should beat)."""
    return {key: [(i, 1.0 / len(info.actions)) for i in range(len(info.actions))]
            for key, info in exact.infosets.items()}


def bot_table(exact: ExactGame, bot: Bot, samples: int = 1, seed: int = 0) -> Table:
    """The bot's policy at every information set (EFG action j is the set's j-th legal action)."""
    table: Table = {}
    for key, info in exact.infosets.items():
        if info.state is None:  # one legal action
            table[key] = [(0, 1.0)]
            continue
        position = {action: j for j, action in enumerate(info.actions)}
        knowledge = SeatKnowledge(info.state, info.seat)
        counts = [0] * len(info.actions)
        for k in range(samples):
            action = bot.choose(knowledge, random.Random(seed + k))
            counts[position[exact.ours.action_index(action, info.seat)]] += 1
        table[key] = [(j, count / samples) for j, count in enumerate(counts)]
    return table


def tabular(table: Table) -> pyspiel.TabularPolicy:
    return pyspiel.TabularPolicy(table)
