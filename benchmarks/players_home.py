"""Profile and leaderboard answers with many recorded games (issue 16: < 50 ms p99 at 10,000 games).

    .venv/bin/python benchmarks/players_home.py --games 10000 --runs 3 --json benchmarks/results/players-home.json
    .venv/bin/python benchmarks/players_home.py --db postgresql://…   # fill and measure a PostgreSQL database

It fills a fresh database through the repository the server uses (each record stored and folded into the
ratings as the server does it: one transaction per finished game) with `--games` rated games among
`--people` accounts and the four bot levels (2 to 6 seats; the moves of a few hundred random complete
games are reused, since only their number matters here), then starts the real server and asks, one after
another over loopback HTTP, for what the pages load: a profile (`/api/players/{name}`), its first page of
games (`/api/players/{name}/games`) and a leaderboard page (`/api/ratings/{game}`). Each run prints p50,
p99 and max per request kind; the table shows the medians of the runs, and the JSON keeps every run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ghostgames.bench.processes import start_servers
from ghostgames.bench.records import random_record
from ghostgames.storage import Repository

CONFIGS = [("geister", 2), ("ghooost", 2), ("ghooost", 4), ("ghooost", 6), ("thelast", 3), ("thelast", 5)]
BASE_GAMES = 300  # distinct random games whose moves are reused
BOTS = ["bot:easy", "bot:medium", "bot:hard", "bot:random"]


def fill(url: str, games: int, people: int, seed: int) -> float:
    repo = Repository(url)
    rng = random.Random(seed)
    names = [f"player{i:04d}" for i in range(people)]
    for name in names:
        repo.create_account(name, "not-a-real-hash", timedelta(days=1))
    bases = [(*random_record(game, players, seed * 10_000 + i), players)
             for i, (game, players) in zip(range(BASE_GAMES), CONFIGS * BASE_GAMES, strict=False)]
    started = time.perf_counter()
    for index in range(games):
        record, outcome, players = bases[index % len(bases)]
        seated = [*rng.sample(names, players - 1), rng.choice(BOTS)]
        rng.shuffle(seated)
        labels = [f"{k[4:]} bot" if k.startswith("bot:") else k for k in seated]
        repo.save_record(record, "table", labels, outcome.to_json(), seat_keys=seated, rated=True)
    seconds = time.perf_counter() - started
    repo.close()
    return seconds


def timed(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as answer:
        answer.read()
        assert answer.status == 200
    return (time.perf_counter() - started) * 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(base: str, people: int, requests: int, rng: random.Random) -> dict[str, dict[str, float]]:
    kinds: dict[str, list[float]] = {"profile": [], "games": [], "leaderboard": []}
    games = ["geister", "ghooost", "thelast"]
    for _ in range(requests):
        name = f"player{rng.randrange(people):04d}"
        kinds["profile"].append(timed(f"{base}/api/players/{name}"))
        kinds["games"].append(timed(f"{base}/api/players/{name}/games?limit=20"))
        kinds["leaderboard"].append(timed(f"{base}/api/ratings/{rng.choice(games)}?offset={rng.randrange(0, 150)}"))
    return {kind: {"p50": percentile(v, 0.5), "p99": percentile(v, 0.99), "max": max(v), "n": len(v)}
            for kind, v in kinds.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--requests", type=int, default=500, help="requests of each kind per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=None, help="a database URL (default: a fresh SQLite file)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="gg-players-"))
    url = args.db or f"sqlite:///{directory / 'bench.db'}"
    load_before = os.getloadavg()
    fill_seconds = fill(url, args.games, args.people, seed=16)
    print(f"filled {args.games} rated games among {args.people} people and 4 bots in {fill_seconds:.1f} s")
    servers = start_servers(1, url, None, directory)
    runs = []
    try:
        base = f"http://127.0.0.1:{servers.ports[0]}"
        measure(base, args.people, 20, random.Random(0))  # warm up: imports, caches, connections
        for run in range(args.runs):
            runs.append(measure(base, args.people, args.requests, random.Random(run)))
    finally:
        servers.stop()
    load_after = os.getloadavg()
    table = Table(title=f"{args.games} recorded games, {args.people} people: answer times in ms "
                        f"(median of {args.runs} runs; load {load_before[0]:.1f} -> {load_after[0]:.1f})")
    for column in ("request", "p50", "p99", "max"):
        table.add_column(column, justify="right")
    summary: dict[str, Any] = {}
    for kind in runs[0]:
        summary[kind] = {stat: statistics.median(r[kind][stat] for r in runs) for stat in ("p50", "p99", "max")}
        table.add_row(kind, *(f"{summary[kind][stat]:.1f}" for stat in ("p50", "p99", "max")))
    Console().print(table)
    if args.json is not None:
        args.json.write_text(json.dumps({
            "games": args.games, "people": args.people, "requests": args.requests, "database": url.split(":")[0],
            "load": [load_before[0], load_after[0]], "fill_seconds": fill_seconds, "median": summary, "runs": runs,
        }, indent=1))


if __name__ == "__main__":
    main()
