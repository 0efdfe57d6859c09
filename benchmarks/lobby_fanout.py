"""Lobby fan-out: what N lobby listeners cost while M tables are created (issue 14, point 5).

    .venv/bin/python benchmarks/lobby_fanout.py --listeners 500 --creations 200 --runs 3
    .venv/bin/python benchmarks/lobby_fanout.py --flush 0 --flush 0.25 --json lobby.json
    .venv/bin/python benchmarks/lobby_fanout.py --before /tmp/old/src   # another version's server beside

`--before` runs the server from another source tree (e.g. `git archive <commit> src | tar -x -C /tmp/old`)
as one more column, in the same alternation, so a change is measured against what it changed.

For each flush interval (`GHOSTGAMES_LOBBY_FLUSH`; 0 sends each change as soon as the event loop is free,
close to the old one-message-per-change lobby) it starts a server, connects the listeners, has four
hosts create the tables (each creation is two lobby changes: the table, then its creator's seat) while a
bystander pings the server, and counts what the listeners received. Runs alternate between the settings
so the machine's load swings hit each alike; the medians are printed side by side and written as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection

from ghostgames.bench.processes import start_servers

HOSTS = 4


async def _request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        answer: dict[str, Any] = json.loads(await ws.recv())
        if answer.get("id") == message.get("id"):
            return answer


class Listener:
    """A lobby listener that counts the lobby messages and bytes it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages = 0
        self.bytes = 0
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages += 1
                self.bytes += len(raw)
        except websockets.ConnectionClosed:
            pass


async def _one_run(port: int, listeners: int, creations: int, rss: Any) -> dict[str, Any]:
    url = f"ws://127.0.0.1:{port}/ws"
    crowd = []
    for _ in range(listeners):
        ws = await websockets.connect(url, max_size=None)
        await _request(ws, {"type": "lobby", "id": "l"})
        crowd.append(Listener(ws))
    hosts = []
    for index in range(HOSTS):
        ws = await websockets.connect(url, max_size=None)
        await _request(ws, {"type": "hello", "id": "h", "guest": f"Host{index}x{time.monotonic_ns() % 10**6}"})
        hosts.append(ws)
    bystander = await websockets.connect(url)
    rss_before = rss()
    pings: list[float] = []
    done = asyncio.Event()

    async def ping() -> None:
        count = 0
        while not done.is_set():
            count += 1
            sent = time.perf_counter()
            await _request(bystander, {"type": "ping", "id": f"p{count}"})
            pings.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)

    async def create(ws: ClientConnection, count: int) -> None:
        for number in range(count):
            answer = await _request(ws, {"type": "create", "id": f"c{number}", "game": "thelast", "seats": 2})
            if answer.get("type") != "ack":
                raise RuntimeError(f"create refused: {answer}")

    pinger = asyncio.create_task(ping())
    started = time.perf_counter()
    await asyncio.gather(*(create(ws, creations // HOSTS + (i < creations % HOSTS)) for i, ws in enumerate(hosts)))
    created = time.perf_counter() - started
    quiet = 0
    last = -1
    while quiet < 5:  # until no lobby message arrived for 5 x 0.2 s: everything was delivered
        await asyncio.sleep(0.2)
        total = sum(listener.messages for listener in crowd)
        quiet = quiet + 1 if total == last else 0
        last = total
    done.set()
    await pinger
    rss_after = rss()
    result = {
        "seconds_to_create": round(created, 3),
        "lobby_messages": sum(listener.messages for listener in crowd),
        "lobby_mib": round(sum(listener.bytes for listener in crowd) / 2**20, 2),
        "messages_per_listener": round(statistics.mean(listener.messages for listener in crowd), 1),
        "bystander_ping_ms_max": round(max(pings) * 1000, 1) if pings else None,
        "server_rss_mb_before": round(rss_before / 2**20, 1),
        "server_rss_mb_after": round(rss_after / 2**20, 1),
    }
    for ws in [*(listener.ws for listener in crowd), *hosts, bystander]:
        await ws.close()
    return result


def run(flush: float, listeners: int, creations: int, source: Path | None = None) -> dict[str, Any]:
    os.environ["GHOSTGAMES_LOBBY_FLUSH"] = str(flush)
    if source is not None:
        os.environ["PYTHONPATH"] = str(source)
    else:
        os.environ.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as directory:
        servers = start_servers(1, None, None, Path(directory))
        try:
            return asyncio.run(_one_run(servers.ports[0], listeners, creations, servers.rss))
        finally:
            servers.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listeners", type=int, default=200)
    parser.add_argument("--creations", type=int, default=100)
    parser.add_argument("--flush", type=float, action="append", default=[], help="flush intervals to compare")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--before", type=Path, default=None, help="another version's src/ to run beside")
    args = parser.parse_args()
    settings: dict[str, tuple[float, Path | None]] = {f"flush {f:g} s": (f, None) for f in args.flush or [0.0, 0.25]}
    if args.before is not None:
        settings = {"before": (0.0, args.before.resolve()), **settings}
    load = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in settings}
    for _ in range(args.runs):
        for name, (flush, source) in settings.items():
            runs[name].append(run(flush, args.listeners, args.creations, source))
    medians = {name: {key: statistics.median(r[key] for r in results) for key in results[0]
                      if results[0][key] is not None} for name, results in runs.items()}
    table = Table(title=f"{args.listeners} lobby listeners, {args.creations} creations; median of {args.runs} "
                        f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    table.add_column("figure")
    for name in settings:
        table.add_column(name, justify="right")
    for key in medians[next(iter(settings))]:
        table.add_row(key, *(str(medians[name].get(key)) for name in settings))
    Console().print(table)
    if args.json is not None:
        args.json.write_text(json.dumps({"listeners": args.listeners, "creations": args.creations,
                                         "runs": args.runs, "load": load,
                                         "medians": medians, "all": runs}, indent=1))


if __name__ == "__main__":
    main()
