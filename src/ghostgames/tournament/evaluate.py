"""`evaluate(bot, opponents, games, seed)`: how one bot does against each opponent, with intervals.

Each opponent gets its own match of `games` games on the same seeds (so two bots evaluated with one seed
meet the same deals and setups), with seats rotating every game as in a tournament. The bots may be
names (as `get_bot` takes them, plug-ins included), factories (a Bot class or a callable returning a
Bot) or Bot instances (one instance plays every game, so it should keep no state between decisions).
Games run in this process: objects need not be picklable. For many games across processes, use
`run_tournament` with names.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from ghostgames.bots import Bot, get_bot
from ghostgames.bots.plugins import as_factory
from ghostgames.games import get_game
from ghostgames.tournament.runner import GameResult, Maker, TournamentSpec, play_game
from ghostgames.tournament.stats import BotStats, summarize
from ghostgames.tournament.table import stats_table

BotLike = str | Bot | Callable[..., Bot]


@dataclass(frozen=True)
class Evaluation:
    """The evaluated bot's statistics against each opponent (win rates with Wilson 95% intervals) and
    every game played. `print(evaluation)` shows the table."""

    bot: str
    game: str
    players: int
    seed: int
    rows: dict[str, BotStats]  # opponent label -> the evaluated bot's statistics against it
    results: dict[str, list[GameResult]] = field(repr=False)

    def table(self) -> Table:
        title = f"{self.bot} on {get_game(self.game).title}, {self.players} players, seed {self.seed}"
        return stats_table(list(self.rows.items()), title, first="against")

    def __str__(self) -> str:
        out = io.StringIO()
        Console(file=out, width=120, color_system=None).print(self.table())
        return out.getvalue()

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "game": self.game, "players": self.players, "seed": self.seed,
                "against": {name: s.to_json() for name, s in self.rows.items()},
                "games": {name: [r.to_json() for r in games] for name, games in self.results.items()}}


def _label_and_maker(bot: BotLike) -> tuple[str, Maker]:
    if isinstance(bot, str):
        get_bot(bot)  # an unknown name fails here, before any game
        return bot.strip(), lambda seconds: get_bot(bot, seconds)
    if isinstance(bot, Bot):
        return str(getattr(bot, "name", "") or type(bot).__name__), lambda seconds: bot
    if isinstance(bot, type) and issubclass(bot, Bot):
        label = bot.name if bot.name != Bot.name else bot.__name__
    else:
        label = str(getattr(bot, "__name__", "") or type(bot).__name__)
    return label, as_factory(bot, f"bot {label!r}")


def evaluate(bot: BotLike, opponents: BotLike | Sequence[BotLike], games: int = 100, seed: int = 0, *,
             game: str = "geister", players: int | None = None, options: dict[str, Any] | None = None,
             seconds: float | None = None) -> Evaluation:
    """Play `bot` against each opponent for `games` games (seats rotating; with more than two players the
    opponent fills every other seat) and return the table. `seconds` is the thinking time of bots that
    take one; `options` override the game's tournament defaults (bounded games)."""
    rules = get_game(game)
    count = players or rules.min_players
    rules.check_players(count)
    if games < 1:
        raise ValueError("evaluate plays at least one game per opponent")
    many = [opponents] if isinstance(opponents, str | Bot) or not isinstance(opponents, Sequence) else opponents
    if not many:
        raise ValueError("name at least one opponent")
    label, maker = _label_and_maker(bot)
    rows: dict[str, BotStats] = {}
    results: dict[str, list[GameResult]] = {}
    for opponent in many:
        theirs, their_maker = _label_and_maker(opponent)
        if theirs == label:
            theirs = f"{theirs} (opponent)"
        base, number = theirs, 1
        while theirs in rows:  # two opponents of one name: counted from 1, as people count
            number += 1
            theirs = f"{base} #{number}"
        lineup = (label, *[theirs] * (count - 1))
        spec = TournamentSpec(rules.name, lineup, games, count, seconds, seed, options or {})
        makers = {label: maker, theirs: their_maker}
        played = [play_game(spec, index, makers=makers) for index in range(games)]
        rows[theirs] = summarize([label], played)[0]
        results[theirs] = played
    return Evaluation(label, rules.name, count, seed, rows, results)
