"""How the expert lost its games lost by an escape: the escaping ghost's last approach, as the expert saw it.

    .venv/bin/python benchmarks/escape_losses.py --bots expert:20000,expert-v1:900 --games 20 --seed 1
    .venv/bin/python benchmarks/escape_losses.py --bots expert:20000,expert-v1:900 --games 20 --belief-out b.jsonl

The first bot is the one looked at; seats alternate game by game. For every game it lost by an escape,
the last eight of its moves are printed with, for the ghost that escaped: its square, the moves it still
needed, the chance the belief gave it of being good, the captures of it we had, and what the exit guard
allowed. `--belief-out` also writes, at every move of ours, each hidden enemy ghost's belief against its
true colour (read from the state here, only to score the belief), with the number of bad ghosts taken;
`--calibration` prints how often ghosts of each belief band were good.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.picture import exit_distance
from ghostgames.games import get_game
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import square_name
from ghostgames.games.geister.state import ESCAPED, GeisterState
from ghostgames.rules.chance import derive_rng

BANDS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 0.9), (0.9, 1.0))


def play(names: list[str], index: int, seed: int, beliefs: list[dict[str, Any]]) -> None:
    rng = derive_rng(seed, "escape-losses", index)
    me = index % 2
    bots = [get_bot(names[0]), get_bot(names[1])] if me == 0 else [get_bot(names[1]), get_bot(names[0])]
    state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300}, seed=rng.randrange(2**63))
    assert isinstance(state, GeisterState)
    log: list[tuple[int, str, dict[int, Any], list[str]]] = []
    while state.to_act():
        seat = min(state.to_act())
        knowledge = SeatKnowledge(state, seat)
        action = bots[seat].choose(knowledge, random.Random(rng.randrange(2**63)))
        if seat == me and isinstance(action, Move):
            policy = BeliefPolicy(knowledge)
            legal = knowledge.legal_actions()
            seen = {}
            for g in range((1 - me) * 8, (1 - me) * 8 + 8):
                sq = state.pos[g]
                if sq >= 0:
                    takes = [str(m) for m in legal if isinstance(m, Move) and m.target == sq]
                    chance = policy.good_probability.get(g)
                    seen[g] = (square_name(sq), exit_distance(sq, 1 - me), chance, takes)
                    if chance is not None:
                        bad_taken = policy.picture.captured[1 - me]["bad"]
                        beliefs.append({"game": index, "bad_taken": bad_taken, "p": chance, "good": state.good[g]})
            log.append((state.ply + 1, str(action), seen, [str(m) for m in policy.allowed(legal)]))
        state.apply(seat, action)
    outcome = state.outcome()
    assert outcome is not None
    result = outcome.results[me].result
    print(f"game {index} ({names[0]} seat {me + 1}): {result}, {outcome.reason}, {state.ply} moves", flush=True)
    if result != "loss" or "escaped" not in outcome.reason:
        return
    runner = next(g for g in range((1 - me) * 8, (1 - me) * 8 + 8) if state.pos[g] == ESCAPED)
    for ply, played, seen, allowed in log[-8:]:
        if runner in seen:
            square, steps, chance, takes = seen[runner]
            print(f"  move {ply}: played {played}; the runner on {square}, {steps} steps from its exit, "
                  f"belief {chance:.2f} good, our captures of it {takes}; allowed {allowed}")


def calibration(rows: list[dict[str, Any]]) -> None:
    for label, taken in (("0-2 bad taken", (0, 1, 2)), ("3 bad taken", (3,))):
        chosen = [r for r in rows if r["bad_taken"] in taken and 0.0 < r["p"] < 1.0]
        print(f"{label}: {len(chosen)} (move, ghost) pairs")
        for low, high in BANDS:
            band = [r for r in chosen if low <= r["p"] < high]
            if band:
                mean = sum(r["p"] for r in band) / len(band)
                good = sum(r["good"] for r in band) / len(band)
                print(f"  belief {low:.1f}-{high:.1f}: {len(band):6d}, mean belief {mean:.2f}, good {good:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", required=True, help="the bot looked at, then its opponent")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--belief-out", type=Path, default=None)
    parser.add_argument("--calibration", action="store_true")
    args = parser.parse_args()
    names = args.bots.split(",")
    beliefs: list[dict[str, Any]] = []
    for index in range(args.start, args.start + args.games):
        play(names, index, args.seed, beliefs)
    if args.belief_out:
        args.belief_out.write_text("".join(json.dumps(r) + "\n" for r in beliefs))
    if args.calibration:
        calibration(beliefs)


if __name__ == "__main__":
    main()
