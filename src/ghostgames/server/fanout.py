"""Fan-out between server processes: "table T changed up to seq N" notifications on topics.

Each process delivers views to its own connections itself (views differ per seat and are computed
where the connection lives); fan-out only tells the other processes that a table moved on, so they
catch up from the event log. One process needs nothing but `LocalFanout`; a Redis pub/sub
implementation of the same two methods lets several processes share tables.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

Handler = Callable[[str, dict[str, Any]], Awaitable[None]]
log = logging.getLogger(__name__)


def run_handler(tasks: set[asyncio.Task[None]], handler: Handler, topic: str, message: dict[str, Any]) -> None:
    """Call `handler` in a task of its own, kept in `tasks` until it ends: one slow or failing subscriber
    never holds up the others, and a failure is logged, never raised into the publisher."""
    task = asyncio.create_task(_call(handler, topic, message))
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def _call(handler: Handler, topic: str, message: dict[str, Any]) -> None:
    try:
        await handler(topic, message)
    except Exception:
        log.exception("fan-out handler failed for %s", topic)


class Fanout(ABC):
    @abstractmethod
    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """Send `message` (JSON-ready) to every subscriber of `topic`, in every process."""

    @abstractmethod
    async def subscribe(self, topic: str, handler: Handler) -> None:
        """Call `handler(topic, message)` for each message published on `topic` ("*" = all topics)."""

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Call `callback` whenever the subscription comes back after a break (messages published meanwhile
        are lost); a fan-out that cannot break never calls it."""
        return None

    async def close(self) -> None:
        return None


class LocalFanout(Fanout):
    """In one process: subscribers are called directly, each in its own task."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._tasks: set[asyncio.Task[None]] = set()

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        for handler in [*self._handlers.get(topic, []), *self._handlers.get("*", [])]:
            run_handler(self._tasks, handler, topic, message)

    async def subscribe(self, topic: str, handler: Handler) -> None:
        self._handlers[topic].append(handler)
