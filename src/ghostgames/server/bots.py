"""Bots think in other processes, so a long think never holds up the event loop or other tables.

The workers are spawned (not forked from a process full of threads and sockets) and end with the
server: on Linux the kernel kills them when the server dies, even by SIGKILL; elsewhere a watcher thread
notices the parent is gone. They start, and import the games and bots, while the server starts up
(`warm_up`), so the first bot move after a restart does not wait seconds for a process and its imports.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.synchronize import Barrier
from typing import Any

from ghostgames.bots import choose_action

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1
WARM_TIMEOUT = 120.0  # seconds the workers may take to start and import (a loaded machine needs ~15)
_ready: Barrier | None = None  # in a worker: every worker waits here once, so warm_up reaches each


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


def _start_worker(parent: int, ready: Barrier) -> None:
    """Runs once in each worker as it starts: tie its life to the server's, load every game and bot."""
    global _ready
    _end_with_parent(parent)
    import ghostgames.bots
    import ghostgames.games

    for name in ghostgames.games.GAMES:
        ghostgames.games.get_game(name)
    ghostgames.bots.bot_names()
    _ready = ready


def _report_ready() -> int:
    """A worker that is started and loaded waits until all are, so each of them answers exactly once."""
    assert _ready is not None
    _ready.wait(WARM_TIMEOUT)
    return os.getpid()


class BotRunner:
    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                         initargs=(os.getpid(), context.Barrier(self.workers)))

    async def warm_up(self) -> list[int]:
        """Start every worker process and wait until each has imported the games and bots; their pids.
        The server awaits this before it accepts connections."""
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(self._pool, _report_ready)
                                      for _ in range(self.workers)))
        log.info("%d bot worker(s) ready: pids %s", len(set(pids)), sorted(pids))
        return sorted(pids)

    async def choose(self, state_json: Mapping[str, Any], seat: int, bot: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, dict(state_json), seat, bot, seed)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
