"""Iterations a second of the compiled Geister expert in two checkouts, side by side: this one and `--base`
(for example a worktree of main: `git worktree add /tmp/base main`). A change to the kernel that must not
change any choice is worth its code only if this shows it faster.

    .venv/bin/python benchmarks/search_speed_ab.py --base /tmp/base --positions 12 --seconds 0.5 --runs 5 \\
        --json /tmp/search-speed-ab.json

Each run starts one process per checkout, in turn (A B A B ...), so both see the same machine; a process
warms the compiled code up, then gives the expert `--seconds` on each position (the positions of
fast_search_speed.py, from games between `rules` bots) and reports its iterations. The table gives per
position the median over the runs and the ratio; the shared machine swings by 2x, so read the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def worker(count: int, seconds: float, seed: int) -> None:
    """Print the expert's iterations on each position, as JSON (run inside the checkout being measured)."""
    import random

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fast_search_speed import positions

    from ghostgames.bots import SeatKnowledge, get_bot
    from ghostgames.bots.geister.fast_search import warm_up

    warm_up()
    out = []
    for state, seat in positions(count, seed):
        bot = get_bot("expert", seconds)
        bot.choose(SeatKnowledge(state, seat), random.Random(seed))
        out.append(int(getattr(bot, "last_iterations")))  # noqa: B009
    print(json.dumps(out))


def run(checkout: Path, count: int, seconds: float, seed: int) -> list[int]:
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'src'}{os.pathsep}{checkout}"}
    script = Path(__file__).resolve()
    args = [sys.executable, str(script), "--worker", "--positions", str(count), "--seconds", str(seconds),
            "--seed", str(seed)]
    done = subprocess.run(args, env=env, cwd=checkout, capture_output=True, text=True, check=True)
    result: list[int] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="the other checkout (its src/ is imported)")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.positions, args.seconds, args.seed)
        return
    if args.base is None:
        parser.error("--base DIR is needed: the checkout to compare this one with")
    load_before = os.getloadavg()
    started = time.time()
    runs: dict[str, list[list[int]]] = {"this": [], "base": []}
    for _ in range(args.runs):
        runs["this"].append(run(HERE, args.positions, args.seconds, args.seed))
        runs["base"].append(run(args.base.resolve(), args.positions, args.seconds, args.seed))
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; {args.seconds} s a position, "
          f"median of {args.runs} runs; this = {HERE}, base = {args.base}")
    print(f"{'position':>8} {'this':>10} {'base':>10} {'ratio':>7}")
    rows: list[dict[str, Any]] = []
    for k in range(args.positions):
        this = statistics.median(r[k] for r in runs["this"])
        base = statistics.median(r[k] for r in runs["base"])
        rows.append({"position": k + 1, "this": this, "base": base, "ratio": this / max(base, 1)})
        print(f"{k + 1:>8} {this:>10,.0f} {base:>10,.0f} {this / max(base, 1):>7.2f}")
    ratio = statistics.median(r["ratio"] for r in rows)
    print(f"{'median':>8} {'':>10} {'':>10} {ratio:>7.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "seconds": args.seconds, "runs": args.runs, "seed": args.seed, "load_before": load_before,
            "load_after": load_after, "wall_seconds": time.time() - started, "raw": runs, "positions": rows,
            "median_ratio": ratio,
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
