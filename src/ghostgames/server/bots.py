"""Bots think in other processes, so a long think never holds up the event loop or other tables."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ghostgames.bots import choose_action


def _warm_up() -> int:
    """Import the games and bots once per worker process before the first real move."""
    import ghostgames.bots
    import ghostgames.games

    for name in ghostgames.games.GAMES:
        ghostgames.games.get_game(name)
    return len(ghostgames.bots.bot_names())


class BotRunner:
    def __init__(self, workers: int) -> None:
        self._pool = ProcessPoolExecutor(max(1, workers), mp_context=multiprocessing.get_context("forkserver"))

    async def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, _warm_up)

    async def choose(self, state_json: Mapping[str, Any], seat: int, bot: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, dict(state_json), seat, bot, seed)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
