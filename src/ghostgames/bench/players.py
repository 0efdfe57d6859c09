"""The benchmark's scripted players: two per table, each on its own WebSocket, playing random legal
actions as fast as the server answers (or after a think time), rematching finished games, and counting
every acknowledged action, its round trip and every error (`Stats`)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets
from websockets.asyncio.client import ClientConnection

GAME = "geister"


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)  # seconds
    errors: Counter[str] = field(default_factory=Counter)
    stale: int = 0
    games: int = 0
    measuring: bool = False


class TimeUp(Exception):
    """The measured time is over."""


class Player:
    """One seat on one connection: reads in the background, acts whenever its view offers actions."""

    def __init__(self, ws: ClientConnection, seat: int, stats: Stats, rng: random.Random,
                 think: float = 0.0) -> None:
        self.ws = ws
        self.think = think
        self.seat = seat
        self.stats = stats
        self.rng = rng
        self.table: dict[str, Any] | None = None  # the latest `table` message
        self.changed = asyncio.Event()
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.counter = 0
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                data = orjson.loads(raw)
                for message in data if isinstance(data, list) else [data]:  # a batch frame (hello "batch")
                    self._take(message)
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("connection closed"))
        self.changed.set()

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table":
            self.table = message
            self.changed.set()
        elif kind == "error" and isinstance(message.get("fresh"), dict):
            self.table = message["fresh"]
            self.changed.set()
        answer_id = message.get("id")
        if answer_id is not None and answer_id in self.waiting:
            self.waiting.pop(answer_id).set_result(message)

    async def request(self, message: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        self.counter += 1
        msg_id = f"{self.seat}-{self.counter}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[msg_id] = future
        await self.ws.send(orjson.dumps({**message, "id": msg_id}).decode())
        return await asyncio.wait_for(future, timeout)

    async def until(self, check: Any, timeout: float = 60.0, stop_at: float | None = None) -> dict[str, Any]:
        """The latest table message once `check` holds; TimeUp once `stop_at` has passed (the opponent
        may have stopped playing), TimeoutError after `timeout` seconds without it."""
        deadline = time.monotonic() + timeout
        while True:
            if self.table is not None and check(self.table):
                return self.table
            if self.reader.done():
                raise ConnectionError("connection closed")
            now = time.monotonic()
            if stop_at is not None and now >= stop_at:
                raise TimeUp
            if now >= deadline:
                raise TimeoutError("no update in time")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                # no polling: the reader sets `changed` for every table message and when it ends
                until = deadline if stop_at is None else min(deadline, stop_at)
                await asyncio.wait_for(self.changed.wait(), max(0.01, until - now))

    def my_turn(self, message: dict[str, Any]) -> bool:
        table = message["table"]
        view = message.get("view") or {}
        return table["status"] == "started" and self.seat in table["to_act"] and bool(view.get("legal"))

    async def play(self, table_id: str, stop_at: float) -> None:
        """Act until `stop_at`; whenever a game is over seat 0 proposes a rematch and seat 1 accepts it."""
        try:
            await self._play(table_id, stop_at)
        except TimeUp:
            return

    async def _play(self, table_id: str, stop_at: float) -> None:
        while time.monotonic() < stop_at:
            message = await self.until(lambda m: self.my_turn(m) or m["table"]["status"] == "finished",
                                       timeout=30, stop_at=stop_at)
            version = message["table"]["version"]
            if message["table"]["status"] == "finished":
                # A rematch is a proposal (seat 0) and an accept (seat 1); each waits for its turn to agree.
                asked = message["table"].get("rematch", [])
                if self.seat in asked or (self.seat != 0 and 0 not in asked):
                    await self.until(lambda m, seen=version: m["table"]["version"] != seen, timeout=30,
                                     stop_at=stop_at)
                    continue
                if self.seat == 0:
                    self.stats.games += 1
                answer = await self.request({"type": "command", "table": table_id, "text": "/rematch",
                                             "version": version})
                self._count(answer, None)
                continue
            if self.think > 0:
                pause = self.rng.uniform(0, 2 * self.think)  # a person looks at the board
                await asyncio.sleep(min(pause, max(0.0, stop_at - time.monotonic())))
                if time.monotonic() >= stop_at:
                    return  # a pause or an action past the window would stretch it by up to 2 x think
                if self.table is not message:
                    continue
            action = self.rng.choice(message["view"]["legal"])
            sent = time.perf_counter()
            answer = await self.request({"type": "action", "table": table_id, "action": action,
                                         "version": version})
            self._count(answer, time.perf_counter() - sent)

    def _count(self, answer: dict[str, Any], round_trip: float | None) -> None:
        if not self.stats.measuring:
            return
        if answer["type"] == "error":
            if answer.get("code") == "stale_version":
                self.stats.stale += 1
            else:
                self.stats.errors[str(answer.get("code"))] += 1
        elif round_trip is not None:
            self.stats.round_trips.append(round_trip)


async def connect(port: int) -> ClientConnection:
    return await websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=8 * 1024 * 1024, open_timeout=60,
                                    ping_interval=None, compression=None)


async def set_up_table(index: int, ports: list[int], stats: Stats, tag: str, think: float = 0.0
                        ) -> tuple[str, list[Player]]:
    players = []
    for seat in (0, 1):
        ws = await connect(ports[(index + seat) % len(ports)])
        player = Player(ws, seat, stats, random.Random(index * 2 + seat), think)
        answer = await player.request({"type": "hello", "guest": f"b{tag}{index}x{seat}", "batch": True})
        if answer["type"] != "welcome" or answer.get("user") is None:
            raise RuntimeError(f"hello refused: {answer}")
        players.append(player)
    first, second = players
    created = await first.request({"type": "create", "game": GAME, "seats": 2, "options": {}, "join": True})
    if created["type"] != "ack":
        raise RuntimeError(f"create refused: {created}")
    table_id = str(created["table"])
    watched = await second.request({"type": "watch", "table": table_id})
    if watched.get("type") == "error":
        raise RuntimeError(f"watch refused: {watched}")
    await second.until(lambda m: m["table"]["id"] == table_id)
    joined = await second.request({"type": "command", "table": table_id, "text": "/join 2"})  # seat 2 of 2
    if joined["type"] == "error":
        raise RuntimeError(f"join refused: {joined}")
    message = await first.until(lambda m: all(s["kind"] != "empty" for s in m["table"]["seats"]))
    started = await first.request({"type": "command", "table": table_id, "text": "/start",
                                   "version": message["table"]["version"]})
    if started["type"] == "error":
        raise RuntimeError(f"start refused: {started}")
    return table_id, players


