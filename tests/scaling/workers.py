"""Several `ghostgames serve` processes on one PostgreSQL database and one Redis, and a player that
survives a worker's death by reconnecting to another one."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.infra.services import Postgres, Redis
from tests.server.harness import Client, ServerProcess


def start_workers(tmp_path: Path, postgres: Postgres, redis: Redis, count: int = 2,
                  env: dict[str, str] | None = None) -> list[ServerProcess]:
    url = postgres.fresh_database("w" + uuid.uuid4().hex[:12])
    workers = []
    for index in range(count):
        directory = tmp_path / f"worker{index}"
        directory.mkdir()
        workers.append(ServerProcess(directory, env=env, db_url=url, extra_args=["--redis", redis.url]).start())
    return workers


def stop_all(workers: list[ServerProcess]) -> None:
    for worker in workers:
        worker.stop()


@dataclass
class Seat:
    """A person at one table who plays random legal actions and, when the worker under them dies,
    reconnects (with their token) to the next worker that answers and plays on."""

    workers: list[ServerProcess]
    table_id: str
    seat: int
    token: str
    prefer: int
    rng: random.Random
    acknowledged: list[str] = field(default_factory=list)
    reconnects: int = 0
    refusals: list[str] = field(default_factory=list)
    client: Client | None = None
    pace: float = 0.0  # seconds to think before each action: a game then outlasts the first kill

    async def connect(self) -> Client:
        for attempt in range(200):
            worker = self.workers[(self.prefer + attempt) % len(self.workers)]
            try:
                client = await Client.connect(worker, token=self.token)
                watched = await client.watch(self.table_id)
                if watched.get("type") == "table" and watched.get("seat") == self.seat:
                    self.prefer = self.workers.index(worker)
                    return client
                await client.close()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
                pass
            await asyncio.sleep(0.1)
        raise AssertionError(f"seat {self.seat} at {self.table_id} could not reconnect")

    async def play(self, deadline: float) -> dict[str, Any]:
        """Play until the game is over; returns the last table message."""
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            if self.client is None or self.client.closed:
                if self.client is not None:
                    self.reconnects += 1
                    with contextlib.suppress(Exception):
                        await self.client.close()
                self.client = await self.connect()
            client = self.client
            try:
                message = await client.until_table(self.table_id, self._ready, timeout=5)
            except (TimeoutError, ConnectionError, ConnectionClosed):
                continue
            table = message["table"]
            if table["status"] == "finished":
                return message
            if table["seats"][self.seat]["takeover"] is not None:
                await asyncio.sleep(0.05)
                continue
            choice = self.rng.choice(message["view"]["legal"])
            if self.pace:
                await asyncio.sleep(self.pace)
            try:
                answer = await client.act(self.table_id, choice, version=table["version"])
            except (TimeoutError, ConnectionError, ConnectionClosed) as err:
                # No answer: maybe stored, maybe not; the record decides, we only count acks. A send on a
                # connection cut under us can fail before the reader has noticed: start afresh.
                self.refusals.append(f"{choice}: no answer ({type(err).__name__})")
                if isinstance(err, ConnectionClosed) or client.closed:
                    self.reconnects += 1
                    with contextlib.suppress(Exception):
                        await client.close()
                    self.client = None
                continue
            if answer.get("type") == "ack":
                self.acknowledged.append(choice)
            else:
                self.refusals.append(f"{choice}: {answer.get('code')} {answer.get('message')}")
        last = self.client.tables.get(self.table_id) if self.client is not None else None
        seen = None if last is None else {**{k: last["table"][k] for k in ("status", "version", "to_act")},
                                          "seat": last.get("seat"), "type": last.get("type"),
                                          "view": {k: (last.get("view") or {}).get(k) for k in
                                                   ("seat", "to_act", "legal", "phase", "ply")}}
        raise AssertionError(f"table {self.table_id} did not finish in time (seat {self.seat}); last seen: {seen}; "
                             f"refusals: {len(self.refusals)}, last {self.refusals[-3:]}, reconnects {self.reconnects}")

    def _ready(self, message: dict[str, Any]) -> bool:
        table = message["table"]
        if table["status"] == "finished":
            return True
        view = message.get("view") or {}
        return table["status"] == "started" and self.seat in table["to_act"] and bool(view.get("legal"))


def is_subsequence(short: list[str], long: list[str]) -> bool:
    items = iter(long)
    return all(any(item == wanted for item in items) for wanted in short)
