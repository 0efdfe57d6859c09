"""Two bots' tournaments on the same games, compared game by game (issue 39, the learned value).

    .venv/bin/python benchmarks/paired_games.py --pair runner-1000 CANDIDATE.json BASELINE.json \
        [--pair ...] --json benchmarks/results/issue39-info-value.json

Each file is a `ghostgames tournament --json` of one search bot against one opponent with the same seed and
game count, so game i has the same setups, dice and seats in both: a game both won or both lost says
nothing about the difference, and the games won by only one of them do. For each pair it prints the two
records (won-drawn-lost, the 95% Wilson interval of the win share, how the losses ended) and the games
where they differ, with the exact two-sided sign-test p-value over those games.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided p-value of `better` against `worse` under a fair coin."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def record(path: Path, first: int) -> tuple[dict[str, Any], list[str], Counter[str]]:
    """The tournament's spec, the first bot's result in each of its first `first` games (by game index) and how
    its losses there ended."""
    data = json.loads(path.read_text())
    bot = data["spec"]["bots"][0]
    games = sorted((g for g in data["games"] if g["index"] < first), key=lambda g: g["index"])
    results = [g["results"][g["seats"].index(bot)]["result"] for g in games]
    losses = Counter(g["reason"] for g, r in zip(games, results, strict=True) if r == "loss")
    return data["spec"], results, losses


def compare(name: str, candidate: Path, baseline: Path) -> dict[str, Any]:
    """The two records on the games both files hold (a longer run's first games are the shorter run's)."""
    out: dict[str, Any] = {"name": name, "files": [str(candidate), str(baseline)]}
    specs = []
    first = min(len(json.loads(path.read_text())["games"]) for path in (candidate, baseline))
    for key, path in (("candidate", candidate), ("baseline", baseline)):
        spec, results, losses = record(path, first)
        specs.append(spec)
        wins = results.count("win")
        low, high = wilson(wins, len(results))
        out[key] = {"bot": spec["bots"][0], "games": len(results), "won": wins, "drawn": results.count("draw"),
                    "lost": results.count("loss"), "win_interval": [round(low, 3), round(high, 3)],
                    "losses": dict(losses), "results": results}
    if specs[0]["bots"][1:] != specs[1]["bots"][1:] or specs[0]["seed"] != specs[1]["seed"] \
            or specs[0]["options"] != specs[1]["options"]:
        raise SystemExit(f"{name}: the two files are not the same games")
    score = {"win": 2, "draw": 1, "loss": 0}
    pairs = list(zip(out["candidate"]["results"], out["baseline"]["results"], strict=True))
    better = sum(score[a] > score[b] for a, b in pairs)
    worse = sum(score[a] < score[b] for a, b in pairs)
    out["paired"] = {"candidate_better": better, "baseline_better": worse, "same": len(pairs) - better - worse,
                     "sign_test_p": round(sign_test(better, worse), 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pair", nargs=3, action="append", metavar=("NAME", "CANDIDATE", "BASELINE"), required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = [compare(name, Path(a), Path(b)) for name, a, b in args.pair]
    for row in rows:
        print(row["name"])
        for key in ("candidate", "baseline"):
            r = row[key]
            low, high = r["win_interval"]
            share = 100 * r["won"] / r["games"]
            print(f"  {r['bot']:<22} {r['won']}-{r['drawn']}-{r['lost']} of {r['games']}  wins {share:.1f}%"
                  f" ({100 * low:.1f}-{100 * high:.1f})  losses: {r['losses']}")
        p = row["paired"]
        print(f"  games that differ: candidate better in {p['candidate_better']}, baseline in {p['baseline_better']}"
              f" (sign test p = {p['sign_test_p']})")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
