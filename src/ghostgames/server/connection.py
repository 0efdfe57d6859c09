"""One WebSocket connection: who it speaks for, what it watches, and a send queue so a slow reader
never holds up a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket

from ghostgames.server.ratelimit import TokenBucket

MAX_QUEUE = 2000  # messages waiting for a reader who does not read: past this, the connection is closed
log = logging.getLogger(__name__)


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text of one frame (made once when several connections get the same one)."""
    return json.dumps(message, separators=(",", ":"))


class Connection:
    def __init__(self, websocket: WebSocket, bucket: TokenBucket) -> None:
        self.websocket = websocket
        self.bucket = bucket
        self.user: str | None = None
        self.address: str | None = None  # the peer's IP address, for limits kept per address
        self.guest = True
        self.watching: set[str] = set()
        self.lobby = False
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            log.warning("closing a connection that does not read its messages")
            self.closed = True
            self._queue.put_nowait(None)
            return
        self._queue.put_nowait(text)

    async def writer(self) -> None:
        """Sends queued messages in order until the connection ends."""
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(code=1008)
                    return
                await self.websocket.send_text(text)
        except Exception:
            self.closed = True

    def stop(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)
