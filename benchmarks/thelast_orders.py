"""The Last's bots in several cyclic seating orders on the same deals: does the order alone move a bot's lead?

    PYTHONPATH=. .venv/bin/python benchmarks/thelast_orders.py --first expert --second ismcts \\
        --target expert,ismcts,rules,openspiel benchmarks/results/thelast4-orders-*.json [--json OUT]

Reads duplicate runs of `openspiel_cards.py` (every deal in every rotation) of the same bots named in different
orders, on the same seeds. A game's order is its seats read in the order of play (seat 1, 2, ...), turned to start
with `--first`. Only deals played in every order of the files count. Prints, with 95% intervals over deals:
- per order, `--first` minus `--second` (each deal's mean over that order's rotations);
- the order test: per deal, that difference in the `--target` order minus its mean over the other orders;
- the balanced table (every bot's mean over all the seatings of each deal, as `thelast_paired.py --by-deal`);
- each bot's mean penalty by the bot seated right after it (the next to play).
`--cycle` reads a run of `openspiel_cards.py --duplicate --seatings cycle` instead (each deal in the rotations of one
order): per order `--first` minus `--second` over that order's deals, the table over every deal, the penalty by the
bot seated right after; there is no order test, which needs every deal in every order.
Why: `--duplicate` rotates the bots but keeps the order they are named in, so one order's table can favour the
bot seated where a weak player's gifts fall (docs/research/thelast-multiplayer.md, "The seating order").
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.thelast_paired import figures, mean_interval, print_figures
from benchmarks.thelast_same_deals import bot_penalty

Order = tuple[str, ...]


def order_of(seats: list[str], first: str) -> Order:
    """The seats in the order of play, turned so that `first` leads the tuple."""
    k = seats.index(first)
    return tuple(seats[k:] + seats[:k])


def by_order_and_deal(games: list[dict[str, Any]], first: str) -> dict[Order, dict[int, list[dict[str, Any]]]]:
    """Order -> deal seed -> that deal's games in that order."""
    out: dict[Order, dict[int, list[dict[str, Any]]]] = {}
    for game in games:
        out.setdefault(order_of(game["seats"], first), {}).setdefault(int(game["seed"]), []).append(game)
    return out


def complete_deals(table: dict[Order, dict[int, list[dict[str, Any]]]]) -> list[int]:
    """The deals played in every order, sorted."""
    sets = [set(deals) for deals in table.values()]
    return sorted(set.intersection(*sets)) if sets else []


def difference(games: list[dict[str, Any]], first: str, second: str) -> float:
    """`first`'s mean penalty over these games minus `second`'s."""
    return sum(bot_penalty(g, first) - bot_penalty(g, second) for g in games) / len(games)


def analyse(games: list[dict[str, Any]], first: str, second: str, target: Order) -> dict[str, Any]:
    table = by_order_and_deal(games, first)
    if target not in table:
        raise SystemExit(f"no game in the target order {','.join(target)}; orders in the files: "
                         + "; ".join(",".join(o) for o in table))
    deals = complete_deals(table)
    if len(deals) < 2:
        raise SystemExit(f"{len(deals)} deal(s) played in all {len(table)} orders: at least 2 are needed")
    per_order = {o: {d: difference(table[o][d], first, second) for d in deals} for o in table}
    others = [o for o in table if o != target]
    contrast = [per_order[target][d] - sum(per_order[o][d] for o in others) / len(others) for d in deals]
    kept = [g for o in table for d in deals for g in table[o][d]]
    return {
        "first": first, "second": second, "target": list(target), "deals": deals,
        "orders": [{"order": list(o), "games": sum(len(table[o][d]) for d in deals),
                    "difference": mean_interval(list(per_order[o].values()))} for o in table],
        "order_test": mean_interval(contrast),
        "balanced": figures(kept, by_deal=True),
        "by_successor": successors(kept),
    }


def analyse_cycle(games: list[dict[str, Any]], first: str, second: str) -> dict[str, Any]:
    """`analyse` for a run that plays each deal in one order: each order's paired difference over its own deals."""
    table = by_order_and_deal(games, first)
    orders_of_deal = Counter(d for deals in table.values() for d in deals)
    shared = [d for d, count in orders_of_deal.items() if count > 1]
    if shared:
        raise SystemExit(f"deal(s) {sorted(shared)[:5]} are played in more than one order: not a --seatings cycle run;"
                         " leave out --cycle")
    return {
        "first": first, "second": second, "deals": sorted({int(g["seed"]) for g in games}),
        "orders": [{"order": list(o), "games": sum(len(v) for v in deals.values()), "deals": len(deals),
                    "difference": mean_interval([difference(v, first, second) for v in deals.values()])}
                   for o, deals in sorted(table.items())],
        "balanced": figures(games, by_deal=True),
        "by_successor": successors(games),
    }


def successors(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each bot's mean penalty by the bot seated right after it, intervals over deals."""
    values: dict[tuple[str, str], dict[int, list[float]]] = {}
    for game in games:
        seats = game["seats"]
        for k, bot in enumerate(seats):
            after = seats[(k + 1) % len(seats)]
            score = float(game["results"][k]["score"])
            values.setdefault((bot, after), {}).setdefault(int(game["seed"]), []).append(score)
    return [{"bot": bot, "after": after, "seat_games": sum(len(v) for v in by_deal.values()),
             "penalty": mean_interval([sum(v) / len(v) for v in by_deal.values()])}
            for (bot, after), by_deal in sorted(values.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--first", default="expert", help="the bot each order starts with, and the first of the pair")
    parser.add_argument("--second", default="ismcts", help="the bot paired with --first")
    parser.add_argument("--target", default="expert,ismcts,rules,openspiel", help="the order the test compares")
    parser.add_argument("--cycle", action="store_true", help="a --seatings cycle run: each deal in one order")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    games = [g for f in args.files for g in json.loads(f.read_text())["games"]]
    pair = f"{args.first} - {args.second}"
    if args.cycle:
        out, how = analyse_cycle(games, args.first, args.second), "each in one of"
    else:
        out, how = analyse(games, args.first, args.second, tuple(args.target.split(","))), "played in all"
    print(f"{len(out['deals'])} deals {how} {len(out['orders'])} orders (the unit of every interval)")
    for row in out["orders"]:
        m, lo, hi = row["difference"]
        mark = "  (the target's order)" if tuple(row["order"]) == tuple(out.get("target", ())) else ""
        print(f"  {','.join(row['order']):40} {row['games']:5} games  {pair}: {m:+.2f} ({lo:+.2f}..{hi:+.2f}){mark}")
    if "order_test" in out:
        m, lo, hi = out["order_test"]
        print(f"order test, {pair} in the target's order minus its mean in the others: {m:+.2f} ({lo:+.2f}..{hi:+.2f})")
    print("the table over deals (each bot's mean over the seatings of each deal):")
    print_figures(out["balanced"])
    print("penalty by the bot seated right after:")
    for row in out["by_successor"]:
        m, lo, hi = row["penalty"]
        print(f"  {row['bot']:12} before {row['after']:12} {row['seat_games']:5} seat-games"
              f"  {m:6.2f} ({lo:.2f}-{hi:.2f})")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
