"""Where a worker's time goes, from a py-spy profile: Markdown tables of the event loop's and the pool threads'
samples by kind of work, as a share and as milliseconds per acknowledged action (issue 17).

    py-spy record --pid WORKER --duration 20 --rate 200 --threads --nonblocking --format raw -o profile.raw
    .venv/bin/python benchmarks/profile_summary.py profile.raw --rate 200 --actions 14680

`--actions` is the number of actions acknowledged while py-spy sampled (actions/s x its duration). The input
may be py-spy's raw (collapsed) output or a gzipped copy of it. Each sample is
put in the kind of the innermost frame that names one (the order below decides), so nested work is counted
once, where it happens.
"""

from __future__ import annotations

import argparse
import gzip
import re
from collections import Counter
from pathlib import Path

# (kind, pattern of a frame), matched from the innermost frame outwards; the first kind found wins
EVENT_LOOP_KINDS = [
    ("JSON encoding of frames", r"^(encode \(ghostgames/server/connection|dumps \(json|JSONEncoder)"),
    ("views per seat (Table.view_for)", r"^Table\.view_for "),
    ("decide (Table.decide*)", r"^Table\.decide"),
    ("applying events (Table.apply)", r"^Table\.apply "),
    ("Redis calls (redis-py)", r"^.*\(redis/"),
    ("hand-off to a thread (to_thread, submit)", r"^(to_thread|ThreadPoolExecutor\.submit|_chain_future)"),
    ("sending frames", r"^(Connection\.writer|WebSocket\.send|WebSocketsSansIOProtocol\.send)"),
    ("reading and parsing messages", r"^(WebSocket\.receive|loads \(json|Session\.receive )"),
    ("lobby", r"^Hub\.(_tell_lobby|_flush_lobby)"),
    ("the hub's glue (Hub.*, dispatch)", r"^(Hub\.|Session\.dispatch)"),
    ("uvloop itself (I/O, polling, callbacks)", r"^Runner\.run "),
]


def _pool_kind(frames: list[str]) -> str:
    job = next((re.sub(r" \(.*", "", f) for f in frames if f.startswith("Repository.")), "queue handling")
    if frames and frames[-1].startswith("Repository._writing "):
        return f"{job}: waiting for the write turn"
    stack = ";".join(frames)
    if "do_commit" in stack:
        return f"{job}: COMMIT"
    if any(key in stack for key in ("do_execute", "Session.execute", "Session.scalars", "Repository._write_")):
        return f"{job}: statements"
    return job


def summarise(lines: list[str]) -> dict[str, Counter[str]]:
    tables: dict[str, Counter[str]] = {"event loop": Counter(), "pool threads": Counter()}
    for line in lines:
        stack, count = line.rstrip().rsplit(" ", 1)
        frames = stack.split(";")
        if "MainThread" in frames[0] or frames[0].startswith("event loop"):
            kind = "other"
            for frame in reversed(frames[1:]):
                kind = next((name for name, pattern in EVENT_LOOP_KINDS if re.match(pattern, frame)), "")
                if kind:
                    break
            tables["event loop"][kind or "other"] += int(count)
        else:
            tables["pool threads"][_pool_kind(frames[1:])] += int(count)
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--rate", type=float, default=200.0, help="py-spy's samples per second")
    parser.add_argument("--actions", type=float, required=True, help="actions acknowledged while sampling")
    args = parser.parse_args()
    opener = gzip.open if args.profile.suffix == ".gz" else open
    with opener(args.profile, "rt") as source:
        lines = [line for line in source if line.strip()]
    for thread, counts in summarise(lines).items():
        total = sum(counts.values())
        if not total:
            continue
        print(f"\n{thread}: {total} samples, {total / args.rate * 1000 / args.actions:.3f} ms per action\n")
        print("| work | share | ms per action |\n|---|---:|---:|")
        for kind, samples in counts.most_common():
            print(f"| {kind} | {100 * samples / total:.0f} % | {samples / args.rate * 1000 / args.actions:.3f} |")


if __name__ == "__main__":
    main()
