"""Does what the enemy did earlier in a game tell whether its corner walker is good, beyond the calibrated belief?
(issue 39; docs/research/geister-expert.md, "What a game tells about its walker").

    PYTHONPATH=src:. python benchmarks/walker_history.py --seed 3 --games 400 \
        --against runner runner-2 mixture defender rules --json benchmarks/results/walker-history-seed3.json
    PYTHONPATH=src:. python benchmarks/walker_history.py --read benchmarks/results/walker-history-seed3.json

With the enemy's last bad ghost left, a ghost that has just come to our exit corner or a step from it is a gamble:
taken, it wins the game's race if good and loses at once if bad. `expert` reads it by the belief, shifted on the
corner by `CORNER_SHIFT` (fitted on the sparring partners, `corner_calibration.py`). At every move of `--bot` where
such a walker has just arrived, this notes the belief's chance, the expert's reading (`CornerPolicy.guard_chance`),
the walker's true colour (read from the game afterwards, never by the bot), and public features of the game so
far: the enemy ghosts we took, with their colours and steps from our corner; the walker's own history
(`GhostHistory`); how many good ghosts the enemy has left; where its other ghosts stand.

Then, for each set of features, a logistic reading (the belief's logit plus the features, lightly regularised) is
fitted on all opponents but one and scored by log-loss on the one left out, in turn: a feature that tells this
enemy's walkers apart from others' helps on the opponent it never saw; a habit of one opponent does not.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import numpy as np
from benchmarks.corner_calibration import logit
from benchmarks.trace_escapes import at_each_move

from ghostgames.bots.geister.expert import BeliefPolicy, CornerPolicy, arrived
from ghostgames.bots.geister.picture import BAD, GOOD, exit_distance
from ghostgames.tournament.runner import TournamentSpec

FEATURE_SETS = {
    "the belief and the steps, refitted": (),
    "+ good ghosts left": ("left",),
    "+ ghosts taken near our corner": ("taken",),
    "+ the walker's history": ("history",),
    "+ the enemy's other ghosts": ("others",),
    "all": ("left", "taken", "history", "others"),
}


def events(bot: str, against: str, seed: int, games: int) -> list[dict[str, Any]]:
    """One row per move of `bot` where an enemy walker has just come to our corner or a step from it, with the
    enemy's last bad ghost left."""
    spec = TournamentSpec(game="geister", bots=(bot, against), games=games, players=2, seed=seed,
                          options={"exit": "escape"})
    rows: list[dict[str, Any]] = []
    for index in range(games):
        standing: dict[int, int] = {}  # enemy ghost -> steps from our corner at our last move
        taken: list[tuple[int, int]] = []  # (steps from our corner when we took it, colour)

        def note(state: Any, policy: BeliefPolicy, index: int = index, standing: dict[int, int] = standing,
                 taken: list[tuple[int, int]] = taken) -> None:
            pic = policy.picture
            enemy = pic.enemy
            for g, steps in standing.items():
                if pic.square[g] < 0:
                    taken.append((steps, pic.colour[g]))  # taken at our move, where it stood then
            standing.clear()
            for g in pic.ghosts(enemy):
                standing[g] = exit_distance(pic.square[g], enemy)
            came = arrived(pic, list(policy.knowledge.view()["moves"]))
            if pic.captured[enemy]["bad"] < 3 or came < 0 or came not in policy.good_probability:
                return
            steps = exit_distance(pic.square[came], enemy)
            if steps > 1:
                return
            h = pic.history[came]
            others = [g for g in pic.ghosts(enemy) if g != came]
            rows.append({
                "game": index, "steps": steps, "belief": round(policy.good_probability[came], 4),
                "read": round(CornerPolicy(policy.knowledge).guard_chance(came), 4), "good": bool(state.good[came]),
                "left": 4 - pic.captured[enemy]["good"],
                "taken_bad": sum(1 for d, c in taken if d <= 1 and c == BAD),
                "taken_good": sum(1 for d, c in taken if d <= 1 and c == GOOD),
                "history": [h.moves, h.forward, h.backward, h.captures, h.exposed],
                "others_near": sum(1 for g in others if standing[g] <= 2),
                "others_best": round(max((policy.good_probability.get(g, 0.0) for g in others), default=0.0), 4),
            })

        at_each_move(spec, [index], bot, note)
    return rows


def features(row: dict[str, Any], kinds: tuple[str, ...]) -> list[float]:
    out = [1.0, logit(row["belief"]), float(row["steps"])]
    if "left" in kinds:
        out.append(math.log(row["left"]))
    if "taken" in kinds:
        out += [row["taken_bad"], row["taken_good"]]
    if "history" in kinds:
        moves, forward, backward, captures, exposed = row["history"]
        n = max(moves, 1)
        out += [forward / n, backward / n, min(captures, 2), exposed / n, min(moves, 20) / 10]
    if "others" in kinds:
        out += [row["others_near"], row["others_best"]]
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Logistic regression by Newton's method, every weight pulled towards 0 by `l2` (the intercept 1,000x less)."""
    w = np.zeros(x.shape[1])
    ridge = l2 * np.diag(np.r_[1e-3, np.ones(x.shape[1] - 1)])  # the intercept barely: one opponent may be all good
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge, x.T @ (y - p) - ridge @ w)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def compare(found: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each feature set's log-loss on each opponent, fitted on the others; and the expert's own reading."""
    names = [n for n, rows in found.items() if rows]
    table: list[dict[str, Any]] = []
    y_of = {n: np.array([r["good"] for r in found[n]], dtype=float) for n in names}
    table.append({"reading": "the expert's (CornerPolicy)",
                  **{n: log_loss(np.array([r["read"] for r in found[n]]), y_of[n]) for n in names}})
    for label, kinds in FEATURE_SETS.items():
        row: dict[str, Any] = {"reading": label}
        for held in names:
            train = [r for n in names if n != held for r in found[n]]
            w = fit(np.array([features(r, kinds) for r in train]), np.array([r["good"] for r in train], float))
            x = np.array([features(r, kinds) for r in found[held]])
            row[held] = log_loss(1 / (1 + np.exp(-(x @ w))), y_of[held])
        table.append(row)
    for row in table:
        total = sum(row[n] * len(found[n]) for n in names)
        row["pooled"] = total / sum(len(found[n]) for n in names)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert:1000")
    parser.add_argument("--against", nargs="+", default=["runner", "runner-2", "mixture"])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--read", default="", help="compare the events of an earlier --json instead of playing")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    if args.read:
        with open(args.read) as f:
            found = json.load(f)["events"]
    else:
        found = {name: events(args.bot, name, args.seed, args.games) for name in args.against}
    print("opponent | walkers (on the corner) | good | belief's mean | expert's reading's mean")
    for name, rows in found.items():
        n = max(len(rows), 1)
        print(f"{name} | {len(rows)} ({sum(r['steps'] == 0 for r in rows)}) | {sum(r['good'] for r in rows)} | "
              f"{sum(r['belief'] for r in rows) / n:.2f} | {sum(r['read'] for r in rows) / n:.2f}")
    table = compare(found)
    names = [n for n in found if found[n]]
    print("\nlog-loss on the opponent left out of the fit | " + " | ".join(names) + " | pooled")
    for row in table:
        print(f"{row['reading']} | " + " | ".join(f"{row[n]:.3f}" for n in [*names, "pooled"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"bot": args.bot, "seed": args.seed, "games": args.games, "events": found, "log_loss": table},
                      out, separators=(",", ":"))  # compact: thousands of rows


if __name__ == "__main__":
    main()
