"""How the games of tournaments ended, per bot: wins and losses by reason (escape, four good taken, ...).

    .venv/bin/python benchmarks/how_games_end.py benchmarks/results/geister-value-rules.json [...]
    .venv/bin/python benchmarks/how_games_end.py FILE --first 200   # only games 0..199 (a common prefix)
    .venv/bin/python benchmarks/how_games_end.py PART1 PART2 --together   # one run played in two files

Reads the JSON that `ghostgames tournament --json` and benchmarks/bot_strength.py write, and the JSON lines
of benchmarks/stream_tournament.py.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from ghostgames.tournament import wilson_interval


def tally(path: Path, first: int | None) -> dict[str, Counter[str]]:
    text = path.read_text()
    if path.suffix == ".jsonl":
        games = [row for row in map(json.loads, text.splitlines()) if "index" in row]
    else:
        games = json.loads(text)["games"]
    out: dict[str, Counter[str]] = {}
    for game in games:
        if first is not None and game["index"] >= first:
            continue
        for seat, result in enumerate(game["results"]):
            counter = out.setdefault(game["seats"][seat], Counter())
            counter["games"] += 1
            counter[f"{result['result']}: {game['reason']}"] += 1
            counter[result["result"]] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--first", type=int, default=None, help="count only the games numbered below this")
    parser.add_argument("--together", action="store_true", help="pool the files (parts of one run)")
    args = parser.parse_args()
    parts: list[tuple[str, dict[str, Counter[str]]]] = [(path.name, tally(path, args.first)) for path in args.files]
    if args.together:
        pooled: dict[str, Counter[str]] = {}
        for _, counts in parts:
            for bot, counter in counts.items():
                pooled.setdefault(bot, Counter()).update(counter)
        parts = [(" + ".join(name for name, _ in parts), pooled)]
    for name, counts in parts:
        for bot, counter in counts.items():
            games = counter["games"]
            reasons = ", ".join(f"{key} {n}" for key, n in sorted(counter.items()) if ":" in key)
            low, high = wilson_interval(counter["win"], games)
            print(f"{name}  {bot}: {games} games, {counter['win']} won ({100 * counter['win'] / games:.1f}%, "
                  f"95% CI {100 * low:.1f}-{100 * high:.1f}), "
                  f"{counter['draw']} drawn, {counter['loss']} lost | {reasons}")


if __name__ == "__main__":
    main()
