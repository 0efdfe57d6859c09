"""Bots by name and the table levels (easy / medium / hard), and one call the server uses.

`choose_action(state_json, seat, bot, seed, earlier)` is a plain function of JSON in, text out, so a server
can run it in a process pool; `earlier`, the ends of the earlier games against the same people, lets a bot
made fresh for each move remember them (`tell_earlier_games`).

A search bot's name may carry an iteration budget, `ismcts:400`: the bot then thinks for exactly that
many iterations, which makes it a pure function of what it sees and its seed (tournaments, tests).
Without it, `seconds` (or the bot's default) bounds the thinking time.

Bots from outside (registered, installed with an entry point, or `package.module:factory`) are
resolved by `ghostgames.bots.plugins`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ghostgames.bots import plugins
from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.plugins import register
from ghostgames.bots.policy_bot import PolicyBot
from ghostgames.bots.random_bot import RandomBot
from ghostgames.bots.rules_bot import RulesBot
from ghostgames.bots.style_bots import GeisterStyleBot
from ghostgames.bots.value_bot import ValueBot
from ghostgames.rules.contract import Game

# Geister experts other than today's, on the same compiled search (search_bots.older_expert; what each plays:
# bots/geister/__init__.py's SEARCH_POLICIES). `expert-sealed` is today's expert without the memory of a match;
# `expert-parked` a step after it, measured and not adopted.
OLDER_EXPERTS = (
    "expert-parked", "expert-sealed", "expert-corner", "expert-run-on", "expert-v6", "expert-v5", "expert-v4",
    "expert-v3",
)
SEARCH_BOTS = ("ismcts", "expert", "expert-memory", "expert-hand", "expert-learned", *OLDER_EXPERTS, "expert-v2",
               "expert-v1")
# Iterations a search bot uses when it is given neither seconds nor an iteration count.
DEFAULT_ITERATIONS = dict.fromkeys(SEARCH_BOTS, 400)


def _search(name: str) -> Callable[[float | None], Bot]:
    def make(seconds: float | None) -> Bot:
        return _make_search(name, Budget(seconds=seconds) if seconds else Budget(DEFAULT_ITERATIONS[name]))

    return make


def _make_search(name: str, budget: Budget) -> Bot:
    from ghostgames.bots import search_bots

    if name in OLDER_EXPERTS:
        return search_bots.older_expert(name, budget)
    makers: dict[str, Callable[[Budget], Bot]] = {
        "expert": search_bots.expert,
        "expert-memory": search_bots.expert_memory,
        "expert-hand": search_bots.expert_hand,
        "expert-learned": search_bots.expert_learned,
        "expert-v2": search_bots.expert_v2,
        "expert-v1": search_bots.expert_v1,
        "ismcts": search_bots.ismcts,
    }
    return makers[name](budget)


# name -> factory taking the thinking time in seconds (None: the bot's own default)
BOTS: dict[str, Callable[[float | None], Bot]] = {
    "random": lambda seconds: RandomBot(),
    "rules": lambda seconds: RulesBot(),
    "charge": lambda seconds: GeisterStyleBot("charge"),
    "defender": lambda seconds: GeisterStyleBot("defender"),
    "rush": lambda seconds: GeisterStyleBot("rush"),
    "runner": lambda seconds: GeisterStyleBot("runner"),
    "runner-2": lambda seconds: GeisterStyleBot("runner-2"),
    "runner-3": lambda seconds: GeisterStyleBot("runner-3"),
    "mixture": lambda seconds: GeisterStyleBot("mixture"),
    "value": lambda seconds: ValueBot(),
    **{name: _search(name) for name in SEARCH_BOTS},
}
plugins.remember_builtins(frozenset(BOTS))
# level -> (bot name, seconds per move)
LEVELS: dict[str, tuple[str, float | None]] = {
    "easy": ("rules", None),
    "medium": ("ismcts", 0.3),
    "hard": ("expert", 0.9),
}


# The built-in bots that learn across games, and in which games (their classes' `remembers`, checked by a
# test): the table server asks `remembers` before it hands a bot earlier games, without building the bot.
REMEMBERING: dict[str, frozenset[str]] = {"expert": frozenset({"geister"}), "expert-memory": frozenset({"geister"})}


def remembers(name: str, game: str) -> bool:
    """Whether the bot `name` (a level, a name, `name:iterations`) learns from finished games of `game`. A
    plug-in is never told at the table server (it would have to be built to be asked)."""
    key = name.strip().lower()
    key = LEVELS[key][0] if key in LEVELS else key.partition(":")[0]
    return game in REMEMBERING.get(key, frozenset())


def bot_names(installed: bool | None = None) -> list[str]:
    """Every bot name and level; with installed plug-ins when `installed` (None: when the operator allows
    them on the table server, see `ghostgames.bots.plugins`)."""
    extra = plugins.installed() if (plugins.server_allows_plugins() if installed is None else installed) else {}
    return sorted(BOTS) + sorted(LEVELS) + sorted(set(extra) - set(BOTS) - set(LEVELS))


def get_bot(name: str, seconds: float | None = None) -> Bot:
    """A bot by its name ("random", "ismcts", "ismcts:400", …) or a table level ("easy", "medium", "hard")."""
    key = name.strip().lower()
    if key in LEVELS:
        bot_name, level_seconds = LEVELS[key]
        return BOTS[bot_name](seconds if seconds is not None else level_seconds)
    if key in BOTS:
        return BOTS[key](seconds)
    base, _, count = key.partition(":")
    if base in DEFAULT_ITERATIONS and count.isdigit() and int(count) > 0:
        return _make_search(base, Budget(iterations=int(count)))
    factory = plugins.find(name)
    if factory is not None:
        return factory(seconds)
    raise KeyError(f"no bot {name!r}; choose one of: {', '.join(bot_names(installed=True))} "
                   "(or e.g. ismcts:400, or package.module:factory)")


def choose_action(state_json: Mapping[str, Any], seat: int, bot: str, seed: int,
                  earlier: Sequence[Mapping[str, Any]] = ()) -> str:
    """The text of the action `bot` picks for `seat` (picklable in, picklable out). `earlier`: final states
    of the earlier games the bot played in this seat against the same people (a table's rematches,
    tables/memory.py), oldest first; a bot that remembers (`Bot.remembers`) is told of each as its seat saw it."""
    from ghostgames.games import get_game

    # the server's gate: never an import path, an installed plug-in only when the operator allows them
    key = bot.strip().lower()
    if plugins.is_import_path(bot) or (key in plugins.installed() and not plugins.server_allows_plugins()):
        raise KeyError(f"no bot {bot!r} on this server")
    game = get_game(str(state_json["game"]))
    player = get_bot(bot)
    tell_earlier_games(player, game, seat, earlier)
    return str(player.choose(SeatKnowledge(game.load(state_json), seat), random.Random(seed)))


def tell_earlier_games(player: Bot, game: Game[Any, Any], seat: int, earlier: Sequence[Mapping[str, Any]]) -> None:
    """Tell a bot that remembers `game` (`Bot.remembers`) how each earlier game ended, as `seat` saw it: a
    fresh bot for every move then plays as one kept for the whole evening (`Bot.game_over`)."""
    if game.name in player.remembers:
        for final in earlier:
            player.game_over(SeatKnowledge(game.load(final), seat))


__all__ = [
    "BOTS", "LEVELS", "Bot", "Budget", "PolicyBot", "SeatKnowledge", "bot_names", "choose_action", "get_bot",
    "register", "remembers", "tell_earlier_games",
]
