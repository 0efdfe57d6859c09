"""Server load: N concurrent tables of scripted players over real WebSockets, against W server processes.

The benchmark starts the servers itself (`ghostgames serve` on free loopback ports; a temporary SQLite
file unless a database URL is given), seats two scripted players (bench/players.py) at every table (each on its own
connection, seat 1 on the next worker when there are several, so fan-out is part of what is measured),
and lets them play random legal actions as fast as the server answers for S seconds; finished games are
rematched at once (seat 0 proposes, seat 1 accepts). It reports acknowledged actions per second, the
round trip of each action (sent -> `ack` received), errors by code, the resident memory of the server processes,
and the CPU milliseconds per acknowledged action of each process involved (ghostgames.bench.cpu): each worker,
its bot worker processes, PostgreSQL and Redis when they run on this machine, and the load client itself.

Then the same client talks to a bare WebSocket echo server (ghostgames.bench.echo) with the same number
of connections and messages in flight, and our rate is printed as a fraction of the echo's rate. The
figures are summarised, printed and written by bench/server_figures.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection

from ghostgames.bench import cpu
from ghostgames.bench.players import GAME, Player, Stats, connect, set_up_table
from ghostgames.bench.processes import Processes, start_echo, start_servers
from ghostgames.bench.server_figures import LOAD_CLIENT, cpu_figures, percentiles, safe_url


def watched_processes(servers: Processes, db: str | None, redis: str | None) -> tuple[list[cpu.Watched], list[str]]:
    """What the CPU meter follows: each worker and its children (bot workers), PostgreSQL and Redis when they
    listen on this machine, and this process (the load client). Also the services it could not find."""
    watched = []
    for index, proc in enumerate(servers.procs, start=1):
        watched.append(cpu.Watched(f"worker {index}", proc.pid, "self"))
        watched.append(cpu.Watched(f"worker {index} bots", proc.pid, "children"))
    missing = []
    for name, url, port in (("postgresql", db, 5432), ("redis", redis, 6379)):
        if url is None or (name == "postgresql" and not url.startswith("postgres")):
            continue
        root = cpu.service_root(url, port)
        if root is None:
            missing.append(name)
        else:
            watched.append(cpu.Watched(name, root, "tree"))
    watched.append(cpu.Watched(LOAD_CLIENT, os.getpid(), "self"))
    return watched, missing


async def _play_tables(ports: list[int], tables: int, seconds: float, servers: Processes, think: float = 0.0,
                       meter: cpu.CpuMeter | None = None) -> dict[str, Any]:
    stats = Stats()
    tag = format(random.SystemRandom().randrange(36**4), "x")
    setup_started = time.monotonic()
    semaphore = asyncio.Semaphore(50)  # connect in waves: a thousand handshakes at once only measures the backlog

    async def set_up(index: int) -> tuple[str, list[Player]]:
        async with semaphore:
            return await set_up_table(index, ports, stats, tag, think)

    seated = await asyncio.gather(*(set_up(i) for i in range(tables)))
    setup_seconds = time.monotonic() - setup_started
    # The client's thousands of connections are long-lived objects: a full collection of them stalled this
    # process's event loop for 0.3-1.2 s, which the round trips then measured. Freeze them (this process ends
    # with the run), so the collector only looks at what the play itself makes.
    gc.collect()
    gc.freeze()
    stop_at = time.monotonic() + seconds
    stats.measuring = True
    memory: list[int] = []

    async def sample_memory() -> None:
        while time.monotonic() < stop_at:
            memory.append(await asyncio.to_thread(servers.rss))
            await asyncio.sleep(max(0.2, seconds / 10))

    lags: list[float] = []

    async def sample_loop_lag(every: float = 0.02) -> None:
        """How late this process's event loop wakes up: a late loop adds its lateness to round trips."""
        while time.monotonic() < stop_at:
            asked = time.perf_counter()
            await asyncio.sleep(every)
            lags.append(time.perf_counter() - asked - every)

    sampler = asyncio.create_task(sample_memory())
    lag_sampler = asyncio.create_task(sample_loop_lag())
    waiting = {f"worker {i}": p.pid for i, p in enumerate(servers.procs, start=1)} | {LOAD_CLIENT: os.getpid()}
    waited_before = {name: cpu.runqueue_wait_seconds(pid) for name, pid in waiting.items()}
    load_before = os.getloadavg()
    if meter is not None:
        meter.start()
    started = time.monotonic()
    results = await asyncio.gather(
        *(p.play(table_id, stop_at) for table_id, players in seated for p in players), return_exceptions=True)
    elapsed = time.monotonic() - started
    stats.measuring = False
    spent = meter.stop() if meter is not None else {}
    load_after = os.getloadavg()
    waited = {name: (after - before) / elapsed for name, pid in waiting.items()
              if (before := waited_before[name]) is not None and (after := cpu.runqueue_wait_seconds(pid)) is not None
              and elapsed}
    await sampler
    lag_sampler.cancel()
    for result in results:
        if isinstance(result, BaseException):
            stats.errors[f"client: {type(result).__name__}"] += 1
    for _, players in seated:
        for player in players:
            await player.ws.close()
            player.reader.cancel()
    actions = len(stats.round_trips)
    return {
        "actions": actions,
        "actions_per_second": actions / elapsed if elapsed else 0.0,
        "round_trip_ms": percentiles(stats.round_trips),
        "errors": sum(stats.errors.values()),
        "errors_by_code": dict(stats.errors),
        "stale_versions": stats.stale,
        "games_finished": stats.games,
        "seconds_measured": elapsed,
        "setup_seconds": setup_seconds,
        "server_rss_mb": (max(memory) if memory else servers.rss()) / 2**20,
        **cpu_figures(spent, actions),
        "waiting_for_cpu_share": waited,
        "load_client_loop_lag_ms": {**percentiles(lags), "samples": len(lags)},
        "load_average": {"before": list(load_before), "after": list(load_after)},
    }


async def _echo_clients(ports: list[int], pairs: int, seconds: float, size: int) -> dict[str, Any]:
    """`pairs` conversations of two connections each, one message in flight per conversation (like a
    table, where one seat acts at a time): each message waits for its echo before the next is sent."""
    connections = []
    for index in range(pairs):
        pair = [await connect(ports[(index + seat) % len(ports)]) for seat in (0, 1)]
        connections.append(pair)
    payload = json.dumps({"type": "action", "table": "k3f9q2", "action": "x" * max(0, size - 60), "version": 1})
    trips: list[float] = []
    stop_at = time.monotonic() + seconds

    async def converse(pair: list[ClientConnection]) -> None:
        turn = 0
        while time.monotonic() < stop_at:
            ws = pair[turn % 2]
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            trips.append(time.perf_counter() - sent)
            turn += 1

    started = time.monotonic()
    await asyncio.gather(*(converse(pair) for pair in connections))
    elapsed = time.monotonic() - started
    for pair in connections:
        for ws in pair:
            await ws.close()
    return {"messages": len(trips), "messages_per_second": len(trips) / elapsed if elapsed else 0.0,
            "round_trip_ms": percentiles(trips)}


def _event_loop_policy() -> None:
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def run(tables: int, seconds: float, workers: int = 1, db: str | None = None, redis: str | None = None,
        echo: bool = True, think: float = 0.0, server_src: Path | None = None) -> dict[str, Any]:
    """Start the servers (from `server_src`, another version's src/, when given), play, stop them; then the
    echo yardstick. Returns the figures as a dict."""
    if workers > 1 and not redis and (db is None or db.startswith("sqlite")):
        raise ValueError("several workers share tables through PostgreSQL and Redis: give --db and --redis")
    _event_loop_policy()
    with tempfile.TemporaryDirectory(prefix="gg-bench-") as tmp:
        directory = Path(tmp)
        servers = start_servers(workers, db, redis, directory, server_src)
        watched, unmeasured = watched_processes(servers, db, redis)
        meter = cpu.CpuMeter(watched) if cpu.available() else None
        try:
            ours = asyncio.run(_play_tables(servers.ports, tables, seconds, servers, think, meter))
        except BaseException:
            for log in servers.logs:
                sys.stderr.write(log.read_text(errors="replace")[-2000:])
            raise
        finally:
            servers.stop()
        yardstick: dict[str, Any] | None = None
        if echo:
            echoes = start_echo(workers, directory)
            try:
                yardstick = asyncio.run(_echo_clients(echoes.ports, tables, seconds, 100))
            finally:
                echoes.stop()
    return {
        "benchmark": "server",
        "game": GAME,
        "tables": tables,
        "connections": tables * 2,
        "workers": workers,
        "db": "sqlite (temporary file)" if db is None else safe_url(db),
        "redis": safe_url(redis) if redis else None,
        "seconds": seconds,
        "think_seconds": think,
        "server_src": str(server_src) if server_src is not None else None,
        **ours,
        "cpu_not_measured": unmeasured,
        "echo": yardstick,
        "fraction_of_echo": (ours["actions_per_second"] / yardstick["messages_per_second"]
                             if yardstick and yardstick["messages_per_second"] else None),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }


