"""The lobby: the list of tables its listeners see, kept current by gathered `lobby_update` messages.

A listener gets the whole list once and then only changes; changes are gathered and sent at most once per
config.lobby_flush seconds, so the cost grows with listeners x flushes, not with listeners x moves."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ghostgames.games import GAMES, get_game
from ghostgames.server.config import ServerConfig
from ghostgames.server.connection import Connection, encode
from ghostgames.server.registry import Registry
from ghostgames.tables import Table
from ghostgames.tables.settings import table_option_schema


def games_list(default_clock: str | None = None) -> list[dict[str, Any]]:
    """Each game and its options; `default_clock` is the server's own default clock, if it sets one."""
    return [{**get_game(name).describe(), "table_options": table_option_schema(name, default_clock)}
            for name in GAMES]


class Lobby:
    def __init__(self, registry: Registry, config: ServerConfig) -> None:
        self.registry = registry
        self.config = config
        self.listeners: set[Connection] = set()
        self._seen: dict[str, str] = {}  # table id -> what the lobby last heard of it
        # Changes gathered until the next flush: table id -> summary, and ids gone.
        self._changed: dict[str, dict[str, Any]] = {}
        self._removed: set[str] = set()
        self.flush_task: asyncio.Task[None] | None = None
        self._flushed = 0.0

    def message(self) -> dict[str, Any]:
        return {"type": "lobby", "games": games_list(self.config.default_clock),
                "tables": [self.registry.summary(t) for t in self.registry.tables.values()]}

    def listen(self, conn: Connection) -> dict[str, Any]:
        """Add a listener; the whole list it starts from (later changes come as lobby_update)."""
        self.listeners.add(conn)
        return self.message()

    def leave(self, conn: Connection) -> None:
        self.listeners.discard(conn)

    def tell(self, table: Table, summary: dict[str, Any]) -> None:
        """The lobby hears of a table only when what it lists changed (not on every move), and then in the
        next gathered `lobby_update`, not at once."""
        if table.status == "closed":
            return  # `gone` tells the lobby
        signature = repr((summary["status"], summary["round"], summary["seats"], summary["spectators"],
                          summary["settings"], summary["votes"], summary["clock"]["mode"]))
        if self._seen.get(table.id) == signature:
            return
        self._seen[table.id] = signature
        if self.listeners:  # nobody listening: a new listener gets the whole list anyway
            self._changed[table.id] = summary
            self._soon()

    def gone(self, table_id: str) -> None:
        """A table closed: the next flush says it is gone."""
        self._seen.pop(table_id, None)
        self._changed.pop(table_id, None)
        if self.listeners:
            self._removed.add(table_id)
            self._soon()

    def _soon(self) -> None:
        """Flush the gathered changes at most once per config.lobby_flush seconds: the first change after a
        quiet spell goes out at once, later ones wait for the next flush."""
        if self.flush_task is None or self.flush_task.done():
            delay = max(0.0, self._flushed + self.config.lobby_flush - time.monotonic())
            self.flush_task = asyncio.create_task(self._flush(delay))

    async def _flush(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._flushed = time.monotonic()
        changed, removed = self._changed, self._removed
        self._changed, self._removed = {}, set()
        listeners = list(self.listeners)
        if not listeners or not (changed or removed):
            return
        # One encoding for every listener: the cost grows with listeners x flushes, not x changes.
        text = encode({"type": "lobby_update", "tables": list(changed.values()), "removed": sorted(removed)})
        for conn in listeners:
            conn.send_text(text)
