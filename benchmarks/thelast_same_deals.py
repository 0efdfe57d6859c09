"""One bot's penalty in two tables played on the same deals and seats (`openspiel_cards.py` or `ghostgames
tournament` result files of the same seeds and bots): per game, the `--bot`'s penalty in the second table
minus its penalty in the first, with mean +- 1.96 standard errors. It compares two versions of a bot at
tables whose other seats are the same bots; the other seats' play still differs once the two versions do.
`--after-bot` names the bot of the second table where it is another bot in the same seats (a variant, a budget);
`--by-deal` (duplicate runs) takes the deal as the unit: the bot's mean over the seats it held on the deal.

    cd benchmarks/results && ../../.venv/bin/python ../thelast_same_deals.py --bot expert \\
        --before thelast4-target-seed1000.json thelast4-target-seed1060.json \\
        --after thelast4-target-opp-seed1000.json thelast4-target-opp-seed1060.json
    .venv/bin/python benchmarks/thelast_same_deals.py --by-deal --bot expert --after-bot expert:1000 \\
        --before benchmarks/results/thelast4-iters-e02s-seed*.json \\
        --after benchmarks/results/thelast4-iters-e1000-seed*.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any


def bot_penalty(game: dict[str, Any], bot: str) -> float:
    """The bot's mean penalty over its seats of one game."""
    scores = [float(r["score"]) for seat, r in zip(game["seats"], game["results"], strict=True) if seat == bot]
    return sum(scores) / len(scores)


def differences(before: list[dict[str, Any]], after: list[dict[str, Any]], bot: str, after_bot: str,
                by_deal: bool = False) -> list[float]:
    """Per game (or per deal: the mean over its games), `after_bot`'s penalty in `after` minus `bot`'s in `before`;
    the two lists must hold the same games in the same order, the bot in the same seats."""
    by_unit: dict[int, list[float]] = {}
    for k, (old, new) in enumerate(zip(before, after, strict=True)):
        renamed = [bot if seat == after_bot else seat for seat in new["seats"]]
        if old["seats"] != renamed or old.get("seed") != new.get("seed"):
            raise SystemExit("the two tables do not deal the same games to the same seats")
        unit = int(old["seed"]) if by_deal else k
        by_unit.setdefault(unit, []).append(bot_penalty(new, after_bot) - bot_penalty(old, bot))
    return [sum(v) / len(v) for v in by_unit.values()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--after-bot", help="the bot's name in the second table (default: --bot)")
    parser.add_argument("--by-deal", action="store_true", help="duplicate runs: intervals over deals, not games")
    parser.add_argument("--before", type=Path, nargs="+", required=True)
    parser.add_argument("--after", type=Path, nargs="+", required=True)
    args = parser.parse_args()
    after_bot = args.after_bot or args.bot
    before = [g for f in args.before for g in json.loads(f.read_text())["games"]]
    after = [g for f in args.after for g in json.loads(f.read_text())["games"]]
    diffs = differences(before, after, args.bot, after_bot, args.by_deal)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    unit = "deals" if args.by_deal else "games"
    print(f"{after_bot} - {args.bot}: after - before {mean:+.2f} ({mean - half:+.2f}..{mean + half:+.2f}) over {n} "
          f"{unit}, sd {sd:.1f}")


if __name__ == "__main__":
    main()
