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
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ghostgames.bots import choose_action

log = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1
WARM_TIMEOUT = 120.0  # seconds the workers may take to start and import (a loaded machine needs ~15)
WARM_PAUSE = 0.05  # between rounds of warm-up tasks while a worker is still importing


def end_with_parent(parent: int, sig: int = signal.SIGKILL, gone: Callable[[], None] = lambda: os._exit(0)) -> None:
    """Runs in a child process: when the server process `parent` dies, the kernel sends `sig` (Linux), or a
    watcher thread notices and calls `gone` (elsewhere)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, sig)
        except OSError:
            pass
    if os.getppid() != parent:
        gone()
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        gone()

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _start_worker(parent: int) -> None:
    """Runs once in each worker as it starts: tie its life to the server's, load every game and bot."""
    end_with_parent(parent)
    import ghostgames.bots
    import ghostgames.games
    from ghostgames.bots.geister import fast_search

    for name in ghostgames.games.GAMES:
        ghostgames.games.get_game(name)
    ghostgames.bots.bot_names()
    fast_search.warm_up()  # the compiled core, its playouts and the expert's search


def _worker_pid() -> int:
    """A worker takes a task only once its start (and so its imports) is done."""
    return os.getpid()


class BotRunner:
    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start_worker, initargs=(os.getpid(),))

    async def warm_up(self) -> list[int]:
        """Start every worker process and wait until each has imported the games and bots; their pids.
        The server awaits this before it accepts connections. A round of tiny tasks starts every process;
        a worker that is ready first may take them all, so rounds go on until each worker has answered."""
        loop = asyncio.get_running_loop()
        ready: set[int] = set()
        deadline = loop.time() + WARM_TIMEOUT
        while len(ready) < self.workers and loop.time() < deadline:
            ready.update(await asyncio.gather(*(loop.run_in_executor(self._pool, _worker_pid)
                                                for _ in range(self.workers))))
            if len(ready) < self.workers:
                await asyncio.sleep(WARM_PAUSE)
        if len(ready) < self.workers:
            log.warning("only %d of %d bot workers started in %g s", len(ready), self.workers, WARM_TIMEOUT)
        return sorted(ready)

    async def choose(self, state_json: Mapping[str, Any], seat: int, bot: str, seed: int,
                     earlier: Sequence[Mapping[str, Any]] = ()) -> str:
        """`bot`'s move in `seat`, thought out in a worker; `earlier`: the final states it may remember
        (`Table.remembered`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose_action, dict(state_json), seat, bot, seed,
                                          [dict(final) for final in earlier])

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
