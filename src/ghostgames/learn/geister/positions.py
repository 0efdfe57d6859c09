"""Positions from Geister games between bots, each with its game's result: the data that teaches the learned
value how games go on under the search's own play (`ghostgames train geister-search`), where self-play of
the playout policy (`ghostgames train geister`) teaches it how playouts end.

The games are numbered across all parts of a recipe (e.g. 1,600 games of `expert:4000`, then 400 of
`expert:1000+runner`, the search against a sparring partner, seats alternating): game i uses the `escape`
rule when i is even and `reach` when it is odd, 300 plies, and is game i of a tournament with those bots,
rule and seed, so it is a pure function of (bots, seed, i). Every position after both setups is kept as a
full row of the compiled core. The rows hold the true colours: they are training data, never shown to a bot.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.executor import Executor, given_or_local
from ghostgames.games.geister import fast
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import State
from ghostgames.tournament.runner import TournamentSpec, play_game

Game = tuple[int, NDArray[np.int32], float]  # a game's number, its positions and seat 0's result
RESULT = {"win": 1.0, "draw": 0.5, "loss": 0.0}  # seat 0's result as the value's target


@dataclass(frozen=True)
class Part:
    """`games` games of `bot` against `opponent` (seats alternating by game number), or against itself."""

    bot: str
    games: int
    opponent: str | None = None

    @property
    def bots(self) -> tuple[str, str]:
        return (self.bot, self.opponent or self.bot)

    def __str__(self) -> str:
        return f"{self.bot}{'+' + self.opponent if self.opponent else ''}={self.games}"


def parse_parts(text: str) -> list[Part]:
    """'expert:4000=1600,expert:1000+runner=400' -> two parts (the second: `expert:1000` against `runner`); a
    bad item raises ValueError saying what works."""
    parts = []
    for item in filter(None, (piece.strip() for piece in text.split(","))):
        bots, sep, count = item.rpartition("=")
        bot, _, opponent = bots.partition("+")
        if not sep or not bot or "+" in opponent or not count.isdigit() or int(count) < 1:
            raise ValueError(f"{item!r}: write BOT=GAMES or BOT+OPPONENT=GAMES, e.g. expert:4000=1600 "
                             "(GAMES a whole number from 1)")
        parts.append(Part(bot, int(count), opponent or None))
    if not parts:
        raise ValueError("no games: write BOT=GAMES, e.g. expert:4000=1600")
    return parts


Bots = tuple[str, str]  # the two bots of a game, as a tournament seats them


def schedule(parts: list[Part]) -> list[tuple[Bots, int]]:
    """(bots, game number) of every game of the recipe, the numbers running on across the parts."""
    out: list[tuple[Bots, int]] = []
    for part in parts:
        start = len(out)
        out += [(part.bots, start + k) for k in range(part.games)]
    return out


def game_rows(bots: Bots | str, seed: int, index: int) -> tuple[NDArray[np.int32], float]:
    """The positions of game `index` (after both setups) and seat 0's result; one bot name plays both seats."""
    options = {"exit": "escape" if index % 2 == 0 else "reach", "max_plies": 300}
    pair = (bots, bots) if isinstance(bots, str) else bots
    spec = TournamentSpec("geister", pair, index + 1, 2, None, seed, options)
    rows: list[NDArray[np.int32]] = []

    def keep(state: State[Any]) -> None:
        assert isinstance(state, GeisterState)
        if all(state.set_up):
            rows.append(fast.from_state(state))

    result = play_game(spec, index, keep)
    table = np.array(rows, dtype=np.int32).reshape(len(rows), fast.FIELDS)
    return table, RESULT[result.results[0]["result"]]


def _play(seed: int, game: tuple[Bots, int]) -> Game:
    bots, index = game
    rows, result = game_rows(bots, seed, index)
    return index, rows, result


def play_games(games: list[tuple[Bots, int]], seed: int, workers: int = 1,
               executor: Executor | None = None) -> Iterator[Game]:
    """(game number, rows, result) of each game, in the order they end; `executor` plays them (default:
    `workers` local processes)."""
    with given_or_local(executor, workers) as runner:
        for _, game in runner.run(functools.partial(_play, seed), games):
            yield game


@dataclass
class Positions:
    """Rows, seat 0's result for each, and the number of the game each came from."""

    rows: NDArray[np.int32]
    results: NDArray[np.float64]
    games: NDArray[np.int32]

    @classmethod
    def collect(cls, parts: list[Part], seed: int, workers: int = 1,
                done: Callable[[int], None] | None = None, executor: Executor | None = None) -> Positions:
        """Play the recipe; `done(game number)` is called as each game ends. The games are laid out by
        number, whatever order they ended in, so any backend gives the same arrays."""
        played: dict[int, Game] = {}
        for game in play_games(schedule(parts), seed, workers, executor):
            played[game[0]] = game
            if done is not None:
                done(game[0])
        ordered = [played[index] for index in sorted(played)]
        return cls(np.concatenate([table for _, table, _ in ordered]),
                   np.concatenate([np.full(len(table), result) for _, table, result in ordered]),
                   np.concatenate([np.full(len(table), index, dtype=np.int32) for index, table, _ in ordered]))
