"""One WebSocket connection: who it speaks for, what it watches, and a send queue so a slow reader
never holds up a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import Any

import orjson
from starlette.websockets import WebSocket

from ghostgames.server.ratelimit import TokenBucket

MAX_QUEUE = 2000  # messages waiting for a reader who does not read: past this, the connection is closed
# A client that said `"batch": true` in hello gets what is queued at once as one frame holding a JSON array
# of messages (docs/protocol.md §3): a move's `table`, `log` and `ack` cost one frame, not three. Bounds:
BATCH_MESSAGES = 64
BATCH_CHARS = 256 * 1024
log = logging.getLogger(__name__)


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text of one frame (made once when several connections get the same one).
    orjson: the encoding was an eighth of the event loop's time per action with json.dumps."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson refuses (an int past 64 bits, a subclass it does not know)
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
        self.batch = False  # the client reads a frame holding a JSON array of messages
        self._queue: deque[str | None] = deque()
        self._wake: asyncio.Future[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if len(self._queue) >= MAX_QUEUE:
            log.warning("closing a connection that does not read its messages")
            self.closed = True
            self._push(None)
            return
        self._push(text)

    def _push(self, item: str | None) -> None:
        self._queue.append(item)
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def writer(self) -> None:
        """Sends queued messages in order until the connection ends; the writer wakes once for all the
        messages queued meanwhile (one change queues several)."""
        queue = self._queue
        try:
            while True:
                if not queue:
                    self._wake = asyncio.get_running_loop().create_future()
                    await self._wake
                    continue
                text = queue.popleft()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(code=1008)
                    return
                if self.batch and queue and queue[0] is not None:
                    texts, size = [text], len(text)
                    while queue and queue[0] is not None and len(texts) < BATCH_MESSAGES and size < BATCH_CHARS:
                        more = queue.popleft()
                        assert more is not None
                        texts.append(more)
                        size += len(more)
                    text = "[" + ",".join(texts) + "]"
                await self.websocket.send_text(text)
        except Exception:
            self.closed = True

    def stop(self) -> None:
        self.closed = True
        self._push(None)
