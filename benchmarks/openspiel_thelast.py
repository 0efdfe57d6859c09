"""Our The Last bot against OpenSpiel's own ISMCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`, random
rollouts) at equal time per move, 2 players, through our OpenSpiel adapter (`ghostgames.spiel`).

    PYTHONPATH=src .venv/bin/python benchmarks/openspiel_thelast.py --games 10 --simulations 25 --seed 100 \\
        --json benchmarks/results/openspiel-thelast-25.json

Equal time: OpenSpiel's bot gets `--simulations` per move (its only budget); it is timed on a few moves of
a warm-up game, and our bot then thinks, move by move, the mean time of OpenSpiel's last 20 moves (a time
budget, as the table levels play), so that the two follow the machine's load together. Both mean times per
move are in the table, so the equality can be checked. Seats alternate
game by game (our bot leads the even games' first trick as seat 1, the odd games' as seat 2, as the deal
decides); the deals come from `--seed`. A win is the lower penalty; the share counts a draw as half, with a
95% Wilson interval. Needs OpenSpiel (`pip install 'ghostgames[spiel]'`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.spiel import register

PLAYERS = 2


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share observed over n games."""
    if n == 0:
        return (0.0, 1.0)
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def openspiel_bot(game: pyspiel.Game, simulations: int, uct_c: float, seed: int) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, uct_c, simulations, random_state=rng)


def deal(state: pyspiel.State, rng: np.random.RandomState) -> None:
    """Draw chance outcomes until a seat acts (the deal comes only at the start of a round)."""
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probabilities)))


def time_openspiel(game: pyspiel.Game, simulations: int, uct_c: float, seed: int, moves: int) -> float:
    """OpenSpiel's bot's mean seconds per move over the first `moves` moves of a warm-up game."""
    bot = openspiel_bot(game, simulations, uct_c, seed)
    state = game.new_initial_state()
    deal(state, np.random.RandomState(seed))
    spent: list[float] = []
    while not state.is_terminal() and len(spent) < moves:
        start = time.perf_counter()
        action = bot.step(state)
        spent.append(time.perf_counter() - start)
        state.apply_action(action)
        deal(state, np.random.RandomState(seed))
    return sum(spent) / len(spent)


def play(game: pyspiel.Game, ours_name: str, recent: list[float], simulations: int, uct_c: float, seed: int,
         ours_seat: int, fixed: float | None) -> dict[str, Any]:
    """One game; returns our seat's result and both sides' time per move. `recent`: OpenSpiel's times per
    move so far (appended to), whose last 20 set our time per move unless it is `fixed`."""
    theirs = openspiel_bot(game, simulations, uct_c, seed)
    chance = np.random.RandomState(seed)
    rng = random.Random(seed)
    state = game.new_initial_state()
    deal(state, chance)
    spent: dict[str, list[float]] = {"ours": [], "theirs": []}
    iterations: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        start = time.perf_counter()
        if seat == ours_seat:
            ours = get_bot(ours_name, fixed if fixed is not None else sum(recent[-20:]) / len(recent[-20:]))
            start = time.perf_counter()
            choice = ours.choose(SeatKnowledge(state.inner, seat), rng)
            action = state.get_game().game.action_index(choice, seat)
            spent["ours"].append(time.perf_counter() - start)
            if isinstance(ours, IsmctsBot):
                iterations.append(ours.last_iterations)
        else:
            action = theirs.step(state)
            spent["theirs"].append(time.perf_counter() - start)
            recent.append(spent["theirs"][-1])
        state.apply_action(int(action))
        deal(state, chance)
    returns = state.returns()
    result = "win" if returns[ours_seat] > returns[1 - ours_seat] else (
        "draw" if returns[ours_seat] == returns[1 - ours_seat] else "loss")
    return {"seed": seed, "ours_seat": ours_seat + 1, "result": result, "returns": list(returns),
            "ours_seconds": spent["ours"], "theirs_seconds": spent["theirs"], "ours_iterations": iterations}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=25, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel ISMCTS exploration (returns in -1..1)")
    parser.add_argument("--ours", default="expert", help="our bot (a name that takes seconds: expert, ismcts)")
    parser.add_argument("--seconds", type=float, default=None, help="our time per move (default: OpenSpiel's, timed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    register()
    game = pyspiel.load_game("ghostgames_thelast", {"players": PLAYERS})
    warm = _warm_state(game)
    get_bot(f"{args.ours}:64").choose(SeatKnowledge(warm, min(warm.to_act())), random.Random(0))  # compile once
    recent = [time_openspiel(game, args.simulations, args.uct_c, args.seed + 10_000, 6)]
    games = [play(game, args.ours, recent, args.simulations, args.uct_c, args.seed + g, g % 2, args.seconds)
             for g in range(args.games)]
    wins = sum(g["result"] == "win" for g in games)
    draws = sum(g["result"] == "draw" for g in games)
    losses = len(games) - wins - draws
    share = (wins + 0.5 * draws) / len(games)
    low, high = wilson(share, len(games))
    ours_times = [t for g in games for t in g["ours_seconds"]]
    theirs_times = [t for g in games for t in g["theirs_seconds"]]
    ours_iterations = [i for g in games for i in g["ours_iterations"]]
    ours_mean = sum(ours_times) / max(len(ours_times), 1)
    theirs_mean = sum(theirs_times) / max(len(theirs_times), 1)
    load = os.getloadavg()[0]
    summary = {
        "ours": args.ours, "openspiel_simulations": args.simulations, "uct_c": args.uct_c, "games": len(games),
        "wins": wins, "draws": draws, "losses": losses, "share": share, "interval95": [low, high],
        "ours_seconds_fixed": args.seconds,
        "openspiel_warmup_seconds": recent[0], "ours_mean_seconds": ours_mean, "theirs_mean_seconds": theirs_mean,
        "ours_mean_iterations": sum(ours_iterations) / max(len(ours_iterations), 1),
        "theirs_simulations_per_second": args.simulations / theirs_mean if theirs_mean else 0.0,
        "load": load, "seed": args.seed,
    }
    print(f"The Last, {PLAYERS} players: {args.ours} vs OpenSpiel ISMCTSBot ({args.simulations} simulations, "
          f"random rollouts), {len(games)} games, load {load:.1f}")
    print(f"{'':24}{'ours':>12}{'OpenSpiel':>12}")
    print(f"{'seconds per move':24}{ours_mean:12.3f}{theirs_mean:12.3f}")
    print(f"{'iterations per move':24}{summary['ours_mean_iterations']:12.0f}{args.simulations:12d}")
    print(f"wins {wins}, draws {draws}, losses {losses}: share {share:.0%} (95% {low:.0%}-{high:.0%})")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"summary": summary, "games": games}, indent=1))


def _warm_state(game: pyspiel.Game) -> Any:
    state = game.new_initial_state()
    deal(state, np.random.RandomState(0))
    return state.inner


if __name__ == "__main__":
    main()
