"""Bots by name and the table levels (easy / medium / hard), and one call the server uses.

`choose_action(state_json, seat, bot, seed)` is a plain function of JSON in, text out, so a server can
run it in a process pool.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.random_bot import RandomBot

# name -> factory taking the thinking time in seconds (None: the bot's own default)
BOTS: dict[str, Callable[[float | None], Bot]] = {
    "random": lambda seconds: RandomBot(),
}
# level -> (bot name, seconds per move); the bots issue fills in stronger ones.
LEVELS: dict[str, tuple[str, float | None]] = {
    "easy": ("random", None),
    "medium": ("random", None),
    "hard": ("random", None),
}


def bot_names() -> list[str]:
    return sorted(BOTS) + sorted(LEVELS)


def get_bot(name: str, seconds: float | None = None) -> Bot:
    """A bot by its name ("random", "ismcts", …) or a table level ("easy", "medium", "hard")."""
    key = name.strip().lower()
    if key in LEVELS:
        bot_name, level_seconds = LEVELS[key]
        return BOTS[bot_name](seconds if seconds is not None else level_seconds)
    if key in BOTS:
        return BOTS[key](seconds)
    raise KeyError(f"no bot {name!r}; choose one of: {', '.join(bot_names())}")


def choose_action(state_json: Mapping[str, Any], seat: int, bot: str, seed: int) -> str:
    """The text of the action `bot` picks for `seat` (picklable in, picklable out)."""
    from ghostgames.games import get_game

    state = get_game(str(state_json["game"])).load(state_json)
    return str(get_bot(bot).choose(SeatKnowledge(state, seat), random.Random(seed)))


__all__ = ["BOTS", "LEVELS", "Bot", "SeatKnowledge", "bot_names", "choose_action", "get_bot"]
