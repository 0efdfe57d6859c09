"""Telling the connections that watch a table what changed, each in its own view.

A frame is made (view computed, JSON encoded) once per reader, i.e. once per seat and once for all
spectators, and queued on every connection of that reader: a table with many watchers costs a few views,
not one per connection. Nothing here decides or stores; it only shows what the table now is."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from ghostgames.server.connection import Connection, encode
from ghostgames.server.lobby import Lobby
from ghostgames.server.registry import Registry, reader
from ghostgames.tables import LogLine, Table
from ghostgames.tables.events import Chatted


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


class Delivery:
    def __init__(self, registry: Registry, lobby: Lobby) -> None:
        self.registry = registry
        self.lobby = lobby

    def table_message(self, table: Table, conn: Connection | None, history: bool = False) -> dict[str, Any]:
        """The whole table as one connection may see it (its seat's view), with the log when it starts."""
        user = conn.user if conn else None
        seat = table.seat_of(user)
        message: dict[str, Any] = {"type": "table", "table": self.registry.summary(table),
                                   "seat": seat.index if seat is not None else None,
                                   "view": table.view_for(table.view_seat(user))}
        if history:
            message["history"] = [_history_entry(entry) for entry in table.history]
        return message

    def changed(self, table: Table, lines: list[LogLine], chats: list[Chatted]) -> None:
        """Events were applied: chat lines to everybody, and to each reader the table and the log lines
        in their view (chat alone changes no view, so it sends no table)."""
        summary = self.registry.summary(table)
        chat_texts = [encode({"type": "chat", "table": table.id, "from": chat.name, "seat": chat.seat,
                              "text": chat.text, "time": iso(float(chat.time or time.time()))})
                      for chat in chats]
        frames: dict[tuple[int | None, int | None], list[str]] = {}
        for conn in list(self.registry.watchers[table.id]):
            for text in chat_texts:
                conn.send_text(text)
            if not lines and chats:
                continue
            who = reader(table, conn.user)
            if who not in frames:
                seat, viewer = who
                frames[who] = [encode({"type": "table", "table": summary, "seat": seat,
                                       "view": table.view_for(viewer)})]
                if lines:
                    frames[who].append(encode({"type": "log", "table": table.id, "version": table.version,
                                               "lines": [line.for_reader(viewer) for line in lines]}))
            for text in frames[who]:
                conn.send_text(text)
        self.lobby.tell(table, summary)

    def presence_changed(self, table: Table, exclude: Connection | None = None) -> None:
        """Someone came or went: everybody else gets the table with the new connected flags."""
        summary = self.registry.summary(table)
        frames: dict[tuple[int | None, int | None], str] = {}
        for conn in list(self.registry.watchers[table.id]):
            if conn is exclude:
                continue
            who = reader(table, conn.user)
            if who not in frames:
                seat, viewer = who
                frames[who] = encode({"type": "table", "table": summary, "seat": seat,
                                      "view": table.view_for(viewer)})
            conn.send_text(frames[who])
        self.lobby.tell(table, summary)


def _history_entry(entry: dict[str, Any]) -> dict[str, Any]:
    if entry.get("kind") == "chat":
        return {"kind": "chat", "from": entry["name"], "seat": entry.get("seat"), "text": entry["text"],
                "time": iso(float(entry.get("time") or 0.0))}
    return {"kind": "log", "line": entry["line"]}
