"""One bot's penalty in two tables played on the same deals and seats (`openspiel_cards.py` or `ghostgames
tournament` result files of the same seeds and bots): per game, the `--bot`'s penalty in the second table
minus its penalty in the first, with mean +- 1.96 standard errors. It compares two versions of a bot at
tables whose other seats are the same bots; the other seats' play still differs once the two versions do.

    cd benchmarks/results && ../../.venv/bin/python ../thelast_same_deals.py --bot expert \\
        --before thelast4-target-seed1000.json thelast4-target-seed1060.json \\
        --after thelast4-target-opp-seed1000.json thelast4-target-opp-seed1060.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any


def bot_penalty(game: dict[str, Any], bot: str) -> float:
    """The bot's mean penalty over its seats of one game."""
    scores = [r["score"] for seat, r in zip(game["seats"], game["results"], strict=True) if seat == bot]
    return sum(scores) / len(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--before", type=Path, nargs="+", required=True)
    parser.add_argument("--after", type=Path, nargs="+", required=True)
    args = parser.parse_args()
    before = [g for f in args.before for g in json.loads(f.read_text())["games"]]
    after = [g for f in args.after for g in json.loads(f.read_text())["games"]]
    diffs = []
    for old, new in zip(before, after, strict=True):
        if old["seats"] != new["seats"] or old.get("seed") != new.get("seed"):
            raise SystemExit("the two tables do not deal the same games to the same seats")
        diffs.append(bot_penalty(new, args.bot) - bot_penalty(old, args.bot))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(f"{args.bot}: after - before {mean:+.2f} ({mean - half:+.2f}..{mean + half:+.2f}) over {n} games,"
          f" sd {sd:.1f}")


if __name__ == "__main__":
    main()
