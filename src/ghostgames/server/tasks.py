"""Stopping background tasks without trusting cancellation to arrive.

A cancel that lands while redis-py is inside a command can be swallowed, and the task then runs on; a
plain `await task` after `task.cancel()` would wait forever and hang the server's shutdown. So loops
also watch a closing flag of their own, and we wait for them a bounded time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger(__name__)


async def stop_tasks(tasks: Iterable[asyncio.Task[Any] | None], grace: float) -> None:
    """Cancel every task and wait at most `grace` seconds for all of them to finish."""
    running = {task for task in tasks if task is not None and task is not asyncio.current_task()}
    for task in running:
        task.cancel()
    if not running:
        return
    done, pending = await asyncio.wait(running, timeout=grace)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.warning("background task %s ended with %r", task.get_name(), task.exception())
    for task in pending:
        task.cancel()  # once more; we do not wait again
        log.warning("background task %s did not stop within %.0f s", task.get_name(), grace)


async def stop_task(task: asyncio.Task[Any] | None, grace: float) -> None:
    await stop_tasks([task], grace)
