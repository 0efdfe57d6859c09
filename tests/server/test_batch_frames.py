"""Batch frames (docs/protocol.md §3.1): a client that says `"batch": true` in hello gets what the server
queued for it at once as one frame holding a JSON array of messages, in order: an action's `table`, `log`
and `ack` arrive together. A client that did not ask gets one JSON object per frame, as always."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from tests.server.harness import ServerProcess


class RawClient:
    """Keeps every frame as it came (text), to see how the messages were packed."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.frames: list[Any] = []

    async def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send, then read frames until the answer with the message's id; the answer."""
        await self.ws.send(json.dumps(message))
        while True:
            data = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
            self.frames.append(data)
            for item in data if isinstance(data, list) else [data]:
                if item.get("id") == message["id"]:
                    return dict(item)


def test_a_batch_client_gets_an_actions_table_log_and_ack_in_one_frame_and_others_one_message_each(
        tmp_path: Path) -> None:
    server = ServerProcess(tmp_path).start()

    async def run() -> None:
        async with websockets.connect(server.ws_url) as ws_ann, websockets.connect(server.ws_url) as ws_ben:
            ann, ben = RawClient(ws_ann), RawClient(ws_ben)
            welcome = await ann.ask({"type": "hello", "guest": "Ann", "batch": True, "id": "h"})
            assert welcome["type"] == "welcome" and welcome["batch"] is True
            plain = await ben.ask({"type": "hello", "guest": "Ben", "id": "h"})
            assert plain["type"] == "welcome" and "batch" not in plain
            created = await ann.ask({"type": "create", "game": "geister", "seats": 2, "options": {}, "join": True,
                                     "id": "c"})
            table_id = created["table"]
            await ben.ask({"type": "watch", "table": table_id, "id": "w"})
            assert (await ben.ask({"type": "command", "table": table_id, "text": "/join", "id": "j"}))["type"] == "ack"
            assert (await ann.ask({"type": "command", "table": table_id, "text": "/start", "id": "s"}))["type"] == "ack"
            table = [m for f in ann.frames for m in (f if isinstance(f, list) else [f]) if m["type"] == "table"][-1]
            assert table["table"]["status"] == "started" and table["view"]["legal"]
            ann.frames.clear()
            answer = await ann.ask({"type": "action", "table": table_id, "action": table["view"]["legal"][0],
                                    "id": "a", "version": table["table"]["version"]})
            assert answer["type"] == "ack"
            data = ann.frames[-1]
            assert isinstance(data, list), "the action's answer came alone, not batched with its table and log"
            kinds = [item["type"] for item in data]
            assert kinds[-3:] == ["table", "log", "ack"]
            assert data[-3]["table"]["version"] == data[-1]["version"]  # the table the ack speaks of
            # Ben, who did not ask, gets the same change as single objects
            ben_frames = []
            while not any(isinstance(f, dict) and f.get("type") == "log" for f in ben_frames):
                ben_frames.append(json.loads(await asyncio.wait_for(ws_ben.recv(), 15)))
            assert all(isinstance(f, dict) for f in ben.frames + ben_frames)

    try:
        asyncio.run(run())
    finally:
        server.stop()
