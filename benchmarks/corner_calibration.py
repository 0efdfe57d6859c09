"""How often a ghost that has just stepped onto our exit corner is good when the enemy has one bad ghost left,
against what the belief says (issue 39; docs/research/geister-expert.md, "The walker on our corner").

    PYTHONPATH=src:. python benchmarks/corner_calibration.py --bot expert-run-on:1000 --seed 3 --games 100 \
        --against runner runner-2 mixture defender rules random charge rush \
        --json benchmarks/results/corner-calibration-seed3.json
    PYTHONPATH=src:. python benchmarks/corner_calibration.py --bot expert-run-on:1000 --seed 3 --games 100 \
        --against expert-v1:400 --json benchmarks/results/corner-calibration-v1-seed3.json

Such a ghost leaves next move if it is good, and taking it loses if it is the last bad one, so the guard's
reading of it decides the game. At every move of `--bot` where an enemy ghost has just arrived on one of its
exit corners (the enemy's last move brought it there) with three of the enemy's bad ghosts taken, it notes the
belief's chance that the ghost is good and its true colour (read from the game afterwards, never by the bot).
Then it fits, by maximum likelihood over all the opponents' events together, the shift c in
logit(p') = logit(p) + c that calibrates the belief there, and prints the log-loss of the belief, of the
shifted belief and of the plain base rate, by opponent and pooled.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

from benchmarks.trace_escapes import at_each_move

from ghostgames.bots.geister.expert import BeliefPolicy, arrived
from ghostgames.bots.geister.picture import exit_distance
from ghostgames.tournament.runner import TournamentSpec


def events(bot: str, against: str, seed: int, games: int) -> list[tuple[float, bool]]:
    """(the belief's chance, truly good) at each such move of `bot` in the games of `ghostgames tournament`."""
    spec = TournamentSpec(game="geister", bots=(bot, against), games=games, players=2, seed=seed,
                          options={"exit": "escape"})
    out: list[tuple[float, bool]] = []

    def note(state: Any, policy: BeliefPolicy) -> None:
        pic = policy.picture
        if pic.captured[pic.enemy]["bad"] < 3:
            return
        came = arrived(pic, list(policy.knowledge.view()["moves"]))
        if came >= 0 and exit_distance(pic.square[came], pic.enemy) == 0 and came in policy.good_probability:
            out.append((policy.good_probability[came], bool(state.good[came])))

    at_each_move(spec, list(range(games)), bot, note)
    return out


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def shifted(p: float, c: float) -> float:
    return 1.0 / (1.0 + math.exp(-(logit(p) + c)))


def log_loss(rows: list[tuple[float, bool]], read: Callable[[float], float]) -> float:
    """The mean negative log-likelihood of the true colours when each belief p is read as `read(p)`."""
    return -sum(math.log(max(read(p) if good else 1 - read(p), 1e-9)) for p, good in rows) / max(len(rows), 1)


def fit_shift(rows: list[tuple[float, bool]]) -> float:
    """The c that maximises the likelihood of `rows` under logit(p') = logit(p) + c (Newton's method)."""
    c = 0.0
    for _ in range(50):
        grad = sum((1.0 if good else 0.0) - shifted(p, c) for p, good in rows)
        hess = sum(shifted(p, c) * (1 - shifted(p, c)) for p, _ in rows)
        if hess <= 0:
            break
        step = grad / hess
        c += step
        if abs(step) < 1e-9:
            break
    return c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert-run-on:1000")
    parser.add_argument("--against", nargs="+", default=["runner", "runner-2"])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    found = {name: events(args.bot, name, args.seed, args.games) for name in args.against}
    pooled = [row for rows in found.values() for row in rows]
    c = fit_shift(pooled)
    rate = sum(good for _, good in pooled) / max(len(pooled), 1)
    print(f"shift c = {c:.3f} over {len(pooled)} events ({args.games} games an opponent, seed {args.seed}); "
          f"base rate {rate:.3f}")
    print("opponent | events | good | belief's mean | shifted mean | log-loss: belief / shifted / base rate")
    for name, rows in [*found.items(), ("pooled", pooled)]:
        if not rows:
            print(f"{name} | 0")
            continue
        print(f"{name} | {len(rows)} | {sum(g for _, g in rows)} | {sum(p for p, _ in rows) / len(rows):.2f} | "
              f"{sum(shifted(p, c) for p, _ in rows) / len(rows):.2f} | {log_loss(rows, lambda p: p):.3f} / "
              f"{log_loss(rows, lambda p: shifted(p, c)):.3f} / {log_loss(rows, lambda p: rate):.3f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"bot": args.bot, "seed": args.seed, "games": args.games, "shift": c, "base_rate": rate,
                       "events": {name: rows for name, rows in found.items()}}, out, indent=1)


if __name__ == "__main__":
    main()
