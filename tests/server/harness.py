"""Reusable pieces for tests against the real server: a uvicorn subprocess on a free loopback port with
its own SQLite file, and a WebSocket client that keeps what it was sent.

    server = ServerProcess(tmp_path).start()
    async with Client.connect(server, "Alice") as alice:
        table = await alice.create("geister", 2)
        ...
    server.stop()

Other suites (the browser tests, the scaling tests) import these directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

# Short timers so the suite stays fast; a test may override any of them.
FAST_ENV = {
    "GHOSTGAMES_GRACE": "1.0",
    "GHOSTGAMES_BOT_DELAY": "0",
    "GHOSTGAMES_BOT_WORKERS": "1",
    "GHOSTGAMES_RATE": "1000",
    "GHOSTGAMES_BURST": "2000",
    # Every test client comes from 127.0.0.1 and some suites share one server: the creation limits are
    # high here; the tests of those limits set their own.
    "GHOSTGAMES_CREATE_PER_PERSON": "1000",
    "GHOSTGAMES_CREATE_PER_ADDRESS": "1000",
    "GHOSTGAMES_MAX_OPEN_TABLES": "1000",
    "GHOSTGAMES_NAMES_PER_ADDRESS": "100000",
    "GHOSTGAMES_LOGINS_PER_ADDRESS": "100000",
    "GHOSTGAMES_CONNECTIONS_PER_ADDRESS": "100000",
    "GHOSTGAMES_CLOCK_MIN": "1",  # clocks of a second or two, so timeouts are seen quickly
    # No analysis worker beside each test server (a process each); the analysis tests start theirs, with a
    # small budget (GHOSTGAMES_ANALYSIS_BUDGET) so a game is analysed in seconds.
    "GHOSTGAMES_ANALYSIS_WORKERS": "0",
    "GHOSTGAMES_ANALYSES_PER_ADDRESS": "100000",
    "GHOSTGAMES_ANALYSIS_READS_PER_ADDRESS": "100000",
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """`ghostgames serve` in a subprocess. `kill()` is SIGKILL; `start()` again restarts on the same
    database (and the same port unless told otherwise)."""

    def __init__(self, tmp_path: Path, env: Mapping[str, str] | None = None, db_url: str | None = None,
                 port: int | None = None, extra_args: list[str] | None = None, log_level: str = "warning") -> None:
        self.tmp_path = tmp_path
        self.db_url = db_url or f"sqlite:///{tmp_path / 'ghostgames.db'}"
        self.port = port or free_port()
        self.env = {**FAST_ENV, **(env or {})}
        self.extra_args = extra_args or []
        self.log_level = log_level
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = tmp_path / "server.log"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 60.0) -> ServerProcess:  # startup includes the bot workers' imports
        env = {**os.environ, **self.env}
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ghostgames", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", self.db_url, "--log-level", self.log_level, *self.extra_args],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.tmp_path,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.http_url + "/api/games", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not answer in {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # --- plain HTTP -----------------------------------------------------------------------------
    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.http_url + path, timeout=10) as answer:
            return json.loads(answer.read())

    def fetch(self, path: str, token: str | None = None) -> tuple[int, Any]:
        """GET with an optional Bearer token: (status, JSON body), refusals included (not raised)."""
        return _answer(urllib.request.Request(self.http_url + path), token)

    def post(self, path: str, body: Mapping[str, Any], token: str | None = None) -> tuple[int, Any]:
        """POST a JSON body, as `fetch`."""
        return _answer(urllib.request.Request(self.http_url + path, data=json.dumps(body).encode(), method="POST",
                                              headers={"Content-Type": "application/json"}), token)


def _answer(request: urllib.request.Request, token: str | None) -> tuple[int, Any]:
    """Send `request` with the Bearer token if there is one: (status, JSON body), refusals included."""
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


class ServerError(Exception):
    """An `error` message received where an answer was expected."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"{message.get('code')}: {message.get('message')}")
        self.message = message
        self.code = message.get("code")


class Client:
    """A WebSocket client that reads in the background and keeps every message it received."""

    _ids = itertools.count(1)

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.tables: dict[str, dict[str, Any]] = {}  # table id -> last `table` message
        self.name: str | None = None
        self.token: str | None = None
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())
        self.closed = False

    @classmethod
    async def connect(cls, server: ServerProcess | str, name: str | None = None, token: str | None = None,
                      max_size: int = 4 * 1024 * 1024) -> Client:
        url = server if isinstance(server, str) else server.ws_url
        client = cls(await websockets.connect(url, max_size=max_size, open_timeout=10))
        if token is not None or name is not None:
            await client.hello(token=token, guest=None if token else name)
        return client

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        self.closed = True
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message.get("type") == "table":
                    self.tables[message["table"]["id"]] = message
                if message.get("type") == "error" and isinstance(message.get("fresh"), dict):
                    fresh = message["fresh"]
                    self.tables[fresh["table"]["id"]] = fresh
                async with self._changed:
                    self.received.append(message)
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            async with self._changed:
                self._changed.notify_all()

    # --- sending and waiting ----------------------------------------------------------------------
    async def send(self, message: Mapping[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15.0,
                       start: int = 0) -> dict[str, Any]:
        """The first message from index `start` on that satisfies `predicate` (waiting for it)."""
        deadline = time.monotonic() + timeout
        index = start
        async with self._changed:
            while True:
                while index < len(self.received):
                    message = self.received[index]
                    index += 1
                    if predicate(message):
                        return message
                if self.closed:
                    raise ConnectionError("the connection closed while waiting")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no such message arrived")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    async def request(self, message: Mapping[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Send with a fresh id; the ack/reply/welcome/error that answers it (errors too, not raised)."""
        msg_id = f"m{next(self._ids)}"
        start = len(self.received)
        await self.send({**message, "id": msg_id})
        return await self.wait_for(lambda m: m.get("id") == msg_id, timeout, start)

    async def call(self, message: Mapping[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Like `request`, but an error answer raises ServerError."""
        answer = await self.request(message, timeout)
        if answer.get("type") == "error":
            raise ServerError(answer)
        return answer

    # --- the protocol in short --------------------------------------------------------------------
    async def hello(self, token: str | None = None, guest: str | None = None) -> dict[str, Any]:
        answer = await self.request({"type": "hello", "token": token, "guest": guest})
        if answer["type"] == "error":
            raise ServerError(answer)
        if answer.get("user"):
            self.name = answer["user"]["name"]
            self.token = answer["token"]
        return answer

    async def create(self, game: str, seats: int, options: Mapping[str, Any] | None = None,
                     clock: str | None = None, join: bool = True) -> str:
        answer = await self.call({"type": "create", "game": game, "seats": seats, "options": dict(options or {}),
                                  "clock": clock, "join": join})
        table_id = str(answer["table"])
        await self.wait_for(lambda m: m.get("type") == "table" and m["table"]["id"] == table_id
                            and (not join or m.get("seat") is not None))
        return table_id

    async def watch(self, table_id: str) -> dict[str, Any]:
        start = len(self.received)
        await self.send({"type": "watch", "table": table_id})
        return await self.wait_for(lambda m: m.get("type") in ("table", "error") and (
            m.get("table") == table_id or (isinstance(m.get("table"), dict) and m["table"]["id"] == table_id)),
            start=start)

    async def command(self, table_id: str, text: str, version: int | bool | None = True) -> dict[str, Any]:
        """Send a command with the version last seen (version=True), a given one, or none (None)."""
        if version is True:
            version = self.version(table_id)
        return await self.request({"type": "command", "table": table_id, "text": text, "version": version})

    async def act(self, table_id: str, action: str | Mapping[str, Any], version: int | bool | None = True
                  ) -> dict[str, Any]:
        if version is True:
            version = self.version(table_id)
        return await self.request({"type": "action", "table": table_id, "action": action, "version": version})

    def version(self, table_id: str) -> int | None:
        table = self.tables.get(table_id)
        return None if table is None else int(table["table"]["version"])

    def state(self, table_id: str) -> dict[str, Any]:
        return self.tables[table_id]

    async def until_table(self, table_id: str, predicate: Callable[[dict[str, Any]], bool],
                          timeout: float = 20.0) -> dict[str, Any]:
        """Wait until this client's latest `table` message for `table_id` satisfies `predicate`."""
        def latest(_: dict[str, Any]) -> bool:
            current = self.tables.get(table_id)
            return current is not None and predicate(current)

        if latest({}):
            return self.tables[table_id]
        await self.wait_for(latest, timeout, start=len(self.received))
        return self.tables[table_id]


def messages_text(client: Client) -> str:
    """Everything a client received, as one string: handy to assert a secret never appeared."""
    return "\n".join(json.dumps(m, sort_keys=True) for m in client.received)
