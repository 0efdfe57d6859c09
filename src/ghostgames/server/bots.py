"""Bots think in other processes, so a long think never holds up the event loop or other tables.

The workers are spawned (not forked from a process full of threads and sockets) and end with the
server: on Linux the kernel kills them when the server dies, even by SIGKILL; elsewhere a watcher thread
notices the parent is gone.
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ghostgames.bots import choose_action

PR_SET_PDEATHSIG = 1


def _end_with_parent(parent: int) -> None:
    """Runs in each worker: die when the server process dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except OSError:
            pass
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm_up() -> int:
    """Import the games and bots once per worker process before the first real move."""
    import ghostgames.bots
    import ghostgames.games

    for name in ghostgames.games.GAMES:
        ghostgames.games.get_game(name)
    return len(ghostgames.bots.bot_names())


class BotRunner:
    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_end_with_parent, initargs=(os.getpid(),))

    async def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, _warm_up) for _ in range(self.workers)))

    async def choose(self, state_json: Mapping[str, Any], seat: int, bot: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, dict(state_json), seat, bot, seed)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
