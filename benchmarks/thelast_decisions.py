"""Where The Last's `expert` and `ismcts` choose differently, and how much it is worth by a long search.

    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_decisions.py --players 4 --games 6 --json out.json

Positions: every decision with a choice in games that `expert:1000` plays at every seat (seed per game). At
each, four searches choose: `expert:4000` twice (two random streams: how often the expert disagrees with
itself), `ismcts:400`, and a reference `expert:40000`, whose root statistics (mean reward of each action,
for the seat: TheLastPolicy's reward, half rank and half penalty against the others) value the choices. The
table counts agreements and the reference's mean-reward loss of each bot's choice against the reference's own
choice (0 where they agree). A loss of a few thousandths is a near tie: the two actions are worth the same to
the search, and more iterations cannot separate them.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast.fast_search import TheLastExpertPolicy
from ghostgames.games import get_game
from ghostgames.games.thelast.encoding import action_index


def reference_values(knowledge: SeatKnowledge, iterations: int, seed: int) -> tuple[int, dict[int, float]]:
    """The reference search's choice (action index) and the mean reward of every root action."""
    bot = get_bot(f"expert:{iterations}")
    assert isinstance(bot, IsmctsBot)
    policy = bot.policy(knowledge)
    assert isinstance(policy, TheLastExpertPolicy)
    choice, _ = policy.compiled_choice(knowledge.legal_actions(), bot.budget, bot.exploration,
                                       random.Random(seed)) or (None, 0)
    tree = policy.last_tree
    assert tree is not None and choice is not None
    values: dict[int, float] = {}
    child = int(tree.nodes[0, 2])
    while child >= 0:
        visits = int(tree.nodes[child, 4])
        values[int(tree.nodes[child, 1])] = float(tree.reward[child]) / max(visits, 1)
        child = int(tree.nodes[child, 3])
    return action_index(choice), values  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--reference", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    bots = {"expert:4000 (a)": get_bot("expert:4000"), "expert:4000 (b)": get_bot("expert:4000"),
            "ismcts:400": get_bot("ismcts:400")}
    player = get_bot("expert:1000")
    rows: list[dict[str, Any]] = []
    for g in range(args.games):
        state = get_game("thelast").new(args.players, {}, seed=args.seed + g)
        rng = random.Random(args.seed + g)
        while state.outcome() is None:
            seat = min(state.to_act())
            knowledge = SeatKnowledge(state, seat)
            legal = knowledge.legal_actions()
            if len(legal) > 1:
                best, values = reference_values(knowledge, args.reference, len(rows))
                row: dict[str, Any] = {"game": g, "legal": len(legal), "reference": best,
                                       "spread": max(values.values()) - min(values.values())}
                for k, (name, bot) in enumerate(bots.items()):
                    chosen = action_index(bot.choose(knowledge, random.Random(1000 * k + len(rows))))  # type: ignore[arg-type]
                    row[name] = {"action": chosen, "loss": values[best] - values.get(chosen, values[best])}
                rows.append(row)
            state.apply(seat, player.choose(knowledge, rng))  # type: ignore[arg-type]
    names = list(bots)
    a, b = names[0], names[1]
    summary: dict[str, Any] = {
        "players": args.players, "positions": len(rows), "reference_iterations": args.reference,
        "expert_disagrees_with_itself": sum(r[a]["action"] != r[b]["action"] for r in rows) / len(rows),
        "expert_and_ismcts_differ": sum(r[a]["action"] != r["ismcts:400"]["action"] for r in rows) / len(rows),
        "mean_reference_spread": sum(r["spread"] for r in rows) / len(rows),
    }
    for name in names:
        summary[name] = {"agrees_with_reference": sum(r[name]["action"] == r["reference"] for r in rows) / len(rows),
                         "mean_loss": sum(r[name]["loss"] for r in rows) / len(rows)}
    differ = [r for r in rows if r[a]["action"] != r["ismcts:400"]["action"]]
    summary["where_expert_and_ismcts_differ"] = {
        "positions": len(differ),
        "expert_mean_loss": sum(r[a]["loss"] for r in differ) / max(len(differ), 1),
        "ismcts_mean_loss": sum(r["ismcts:400"]["loss"] for r in differ) / max(len(differ), 1),
    }
    print(json.dumps(summary, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps({"summary": summary, "positions": rows}, indent=1))


if __name__ == "__main__":
    main()
