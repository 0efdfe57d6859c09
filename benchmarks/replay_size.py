"""The cost of replaying the longest Ghooost! games anyone can record (issue 31, hole 6), old format
against new, on the real server.

    .venv/bin/python benchmarks/replay_size.py --runs 3 --json benchmarks/results/replay-size.json

A bots-only table may set `max_turns` 5000 and `max_rounds` 100, the most the options allow. The longest
such games come from players that play any legal move: this searches `--seeds` seeded games of random
legal moves for each player count (2 to 6) at those options and keeps the longest (finding longer ones
takes luck, not a new kind of game). Beside it, a game of about the reviewer's 3,762 steps.

For each record and format it starts a fresh server on a fresh copy of the database: the new format is
this checkout's server, the old one the server of `--old-ref` (this repository's last commit before the
change, extracted with `git archive`, never checked out), which sent every step's whole view. It
measures one reader (every page, one after another: bytes, largest answer, time), then eight concurrent
readers of the same replay (wall time), while a probe asks for `/api/games` every 50 ms (the slowest
answer: how long the event loop was held), and the server's resident memory before, at its peak and
after. The old format of the longest record is not served (its replay would hold gigabytes in the
server): its bytes are counted here by the old function, one step at a time, without keeping them.
`--new-only` leaves the old format out altogether (counting the longest record alone takes minutes):

    .venv/bin/python benchmarks/replay_size.py --runs 1 --new-only --json benchmarks/results/replay-size-new.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from ghostgames.bench.processes import Processes, start_servers
from ghostgames.bench.records import random_record
from ghostgames.rules.record import GameRecord
from ghostgames.storage import Repository

OPTIONS = {"max_turns": 5000, "max_rounds": 100}  # the largest a table allows (GhooostOptions)
REVIEW_STEPS = 3762  # the reviewer's record
READERS = 8
ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("GHOSTGAMES_REPLAYS_PER_ADDRESS", "1000000")  # the readers share one address


def old_steps(record: GameRecord, seat: int | None = None) -> Iterator[dict[str, Any]]:
    """The old replay's steps (before issue 31): every step carried its whole view. Kept here only."""
    seats: list[int | None] = [None, *(acting for acting, _ in record.actions)]
    for acting, state in zip(seats, record.states(), strict=False):
        yield {"seat": acting, "view": state.view(seat)}


def old_bytes(record: GameRecord) -> int:
    """The old replay's size, counted a step at a time (the old server built it all in memory)."""
    return sum(len(json.dumps(step, separators=(",", ":"), ensure_ascii=False).encode()) + 1
               for step in old_steps(record))


def find_records(seeds: int) -> tuple[GameRecord, GameRecord, list[dict[str, Any]]]:
    """The longest game among `seeds` per player count, and the one closest to the reviewer's length."""
    longest: GameRecord | None = None
    review: GameRecord | None = None
    tried: list[dict[str, Any]] = []
    for players in range(2, 7):
        for seed in range(seeds):
            record, _ = random_record("ghooost", players, seed, OPTIONS)
            steps = len(record.actions) + 1
            tried.append({"players": players, "seed": seed, "steps": steps})
            if longest is None or steps > len(longest.actions) + 1:
                longest = record
            if review is None or abs(steps - REVIEW_STEPS) < abs(len(review.actions) + 1 - REVIEW_STEPS):
                review = record
    assert longest is not None and review is not None
    return longest, review, tried


def old_source(ref: str, directory: Path) -> Path:
    """`ref`'s src/ directory, extracted from git (the working tree is left alone)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    return directory / "src"


async def read_all(client: httpx.AsyncClient, path: str, start: int | None = 0) -> tuple[int, int, int]:
    """Every page of one replay from `start`: (bytes, largest answer, answers). The old server answers
    the whole game in one, whatever the query."""
    total = largest = answers = 0
    while start is not None:
        answer = await client.get(path, params={"from": start})
        answer.raise_for_status()
        total += len(answer.content)
        largest = max(largest, len(answer.content))
        answers += 1
        # a new page is small; an answer of many megabytes is the old format's whole game (not parsed here)
        start = answer.json().get("next") if len(answer.content) < 5_000_000 else None
    return total, largest, answers


def own_rss(pid: int) -> int:
    """Resident memory of the server process itself (its bot workers left out), from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


async def measure(servers: Processes, record_id: int, steps: int) -> dict[str, Any]:
    """One reader of every page (cold: each page built), then eight readers at once asking for eight
    different deep pages (cold too: what a reader who wants to defeat the cache does), then eight
    readers of every page at once (the cache's case)."""
    base = f"http://127.0.0.1:{servers.ports[0]}"
    path = f"/api/records/{record_id}/replay"
    pid = servers.procs[0].pid
    result: dict[str, Any] = {"rss_before": own_rss(pid), "probe_errors": 0}
    peak = result["rss_before"]
    slowest = 0.0
    done = asyncio.Event()

    async def probe(client: httpx.AsyncClient) -> None:
        nonlocal peak, slowest
        while not done.is_set():
            started = time.perf_counter()
            try:
                await client.get("/api/games")
            except httpx.HTTPError:  # a keep-alive connection closed under it: counted, and asked again
                result["probe_errors"] += 1
            slowest = max(slowest, time.perf_counter() - started)
            peak = max(peak, own_rss(pid))
            await asyncio.sleep(0.05)

    async def deep(client: httpx.AsyncClient, index: int) -> None:
        answer = await client.get(path, params={"from": max(0, steps - 500 - 7 * index)})
        answer.raise_for_status()

    limits = httpx.Limits(max_connections=READERS + 2)
    async with httpx.AsyncClient(base_url=base, timeout=900, limits=limits) as client, \
            httpx.AsyncClient(base_url=base, timeout=900) as prober:
        watcher = asyncio.create_task(probe(prober))
        started = time.perf_counter()
        result["bytes"], result["largest_answer"], result["answers"] = await read_all(client, path)
        result["one_reader_s"] = time.perf_counter() - started
        started = time.perf_counter()
        await asyncio.gather(*(deep(client, index) for index in range(READERS)))
        result["eight_deep_pages_s"] = time.perf_counter() - started
        started = time.perf_counter()
        await asyncio.gather(*(read_all(client, path) for _ in range(READERS)))
        result["eight_readers_s"] = time.perf_counter() - started
        done.set()
        await watcher
    result["rss_peak"] = peak
    result["rss_after"] = own_rss(pid)
    result["slowest_probe_s"] = slowest
    return result


def run_server(database: Path, source: Path | None, record_id: int, steps: int, directory: Path) -> dict[str, Any]:
    """A fresh server on a fresh copy of the database (so no page is cached from an earlier run)."""
    directory.mkdir(parents=True)
    copy = directory / "bench.db"
    shutil.copy(database, copy)
    servers = start_servers(1, f"sqlite:///{copy}", None, directory, source=source, ready_timeout=600)
    try:
        return asyncio.run(measure(servers, record_id, steps))
    finally:
        servers.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=40, help="seeded games searched per player count")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--old-ref", default="cab6158", help="the commit whose server sends the old format")
    parser.add_argument("--skip-old-server", action="store_true", help="do not serve the old format at all")
    parser.add_argument("--new-only", action="store_true", help="neither serve nor count the old format")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "replay-size.json")
    args = parser.parse_args()
    console = Console(width=200)

    started = time.perf_counter()
    longest, review, tried = find_records(args.seeds)
    console.print(f"searched {len(tried)} games in {time.perf_counter() - started:.0f} s: longest "
                  f"{len(longest.actions) + 1} steps ({longest.players} players, seed {longest.seed}); "
                  f"review-sized {len(review.actions) + 1} steps ({review.players} players, seed {review.seed})")
    out: dict[str, Any] = {"options": OPTIONS, "seeds_per_player_count": args.seeds, "readers": READERS,
                           "old_ref": None if args.new_only else args.old_ref, "load_before": os.getloadavg(),
                           "records": {}, "runs": []}
    with tempfile.TemporaryDirectory(prefix="replay-size-") as temp:
        tmp = Path(temp)
        database = tmp / "records.db"
        repo = Repository(f"sqlite:///{database}")
        ids = {}
        for label, record in (("longest", longest), ("review", review)):
            ids[label] = repo.save_record(record, "table", [f"bot {i}" for i in range(record.players)])
            out["records"][label] = {"players": record.players, "seed": record.seed, "steps": len(record.actions) + 1}
            if not args.new_only:
                counted = time.perf_counter()
                out["records"][label].update(old_bytes_counted=old_bytes(record),
                                             old_count_s=time.perf_counter() - counted)
        repo.close()
        old = None if args.skip_old_server or args.new_only else old_source(args.old_ref, tmp / "old")
        for run in range(args.runs):
            for label in ("review", "longest"):
                for fmt, source in (("new", None), ("old", old)):
                    if fmt == "old" and (source is None or label == "longest"):
                        continue
                    steps = out["records"][label]["steps"]
                    measured = run_server(database, source, ids[label], steps, tmp / f"run{run}-{label}-{fmt}")
                    measured.update(run=run, record=label, format=fmt, load=os.getloadavg())
                    out["runs"].append(measured)
                    console.print(f"run {run} {label} {fmt}: {measured['bytes']:,} bytes, "
                                  f"{measured['one_reader_s']:.2f} s one reader, "
                                  f"{measured['eight_readers_s']:.2f} s eight, "
                                  f"peak {measured['rss_peak'] / 2**20:.0f} MB")
    out["load_after"] = os.getloadavg()
    out["run_count"] = args.runs
    out["medians"] = medians(out["runs"])
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=1) + "\n")
    show(console, out)


def medians(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    keys = ("bytes", "largest_answer", "answers", "one_reader_s", "eight_deep_pages_s", "eight_readers_s",
            "rss_before", "rss_peak", "rss_after", "slowest_probe_s")
    groups: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        groups.setdefault(f"{run['record']}/{run['format']}", []).append(run)
    return {name: {key: statistics.median(r[key] for r in group) for key in keys} for name, group in groups.items()}


def show(console: Console, out: dict[str, Any]) -> None:
    table = Table(title=f"Replay of the longest Ghooost! games (medians of {out['run_count']} runs; "
                        f"{out['readers']} concurrent readers)")
    for column in ("record", "steps", "format", "bytes", "bytes/step", "largest answer", "answers", "1 reader",
                   f"{out['readers']} deep pages", f"{out['readers']} readers", "RSS before", "RSS peak", "RSS after",
                   "slowest probe"):
        table.add_column(column, justify="right")
    loads = [load[0] for run in out["runs"] for load in [run["load"]]]
    table.caption = (f"1-minute load average after each run: {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} "
                     "cores shared with other work; RSS is the server process alone")
    mb = 2**20
    for name, m in out["medians"].items():
        label, fmt = name.split("/")
        steps = out["records"][label]["steps"]
        table.add_row(label, f"{steps:,}", fmt, f"{m['bytes']:,.0f}", f"{m['bytes'] / steps:,.0f}",
                      f"{m['largest_answer']:,.0f}", f"{m['answers']:.0f}", f"{m['one_reader_s']:.2f} s",
                      f"{m['eight_deep_pages_s']:.2f} s", f"{m['eight_readers_s']:.2f} s",
                      f"{m['rss_before'] / mb:.0f} MB", f"{m['rss_peak'] / mb:.0f} MB",
                      f"{m['rss_after'] / mb:.0f} MB", f"{m['slowest_probe_s']:.2f} s")
    for label, info in out["records"].items():
        if "old_bytes_counted" not in info:
            continue
        table.add_row(label, f"{info['steps']:,}", "old (counted)", f"{info['old_bytes_counted']:,}",
                      f"{info['old_bytes_counted'] / info['steps']:,.0f}", "", "1", "", "", "", "", "", "", "")
    console.print(table)


if __name__ == "__main__":
    main()
