"""Positions from games played by the search itself, with their results: data to teach the learned value
how a game goes on under good play, where `ghostgames train geister` teaches it how playouts end.

    .venv/bin/python benchmarks/search_positions.py --bots expert:4000,expert:4000 --games 800 --seed 1 \\
        --out benchmarks/results/search-positions.npz

Game i uses the `escape` rule when i is even and `reach` when odd (300 plies), seats alternate. Every
position after the setups is kept, as a full row of the compiled core (the true colours: this is training
data, never shown to a bot), with the game's result for seat 0 (win 1, draw 0.5, loss 0) and the game's
index, so that a fit can hold out whole games. A file that exists is continued from its last game.
The bots may be leaf_tournament.py's candidates (`expert-learned:N`, `expert-blend:N`), with its options
`--value FILE` and `--rollout-limit K`.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
from leaf_tournament import LEAVES, register

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.chance import derive_rng


def play(names: list[str], index: int, seed: int) -> tuple[list[np.ndarray], float]:
    """The rows of game `index` (seats alternate) and the result for seat 0."""
    seats = names if index % 2 == 0 else names[::-1]
    bots = [get_bot(name) for name in seats]
    options = {"exit": "escape" if index % 2 == 0 else "reach", "max_plies": 300}
    state = get_game("geister").new(2, options, seed=derive_rng(seed, "search-positions-game", index).randrange(2**63))
    assert isinstance(state, GeisterState)
    decisions = derive_rng(seed, "search-positions-bots", index)
    rows = []
    while state.to_act():
        seat = min(state.to_act())
        if all(state.set_up):
            rows.append(fast.from_state(state))
        rng = random.Random(decisions.randrange(2**63))
        state.apply(seat, bots[seat].choose(SeatKnowledge(state, seat), rng))
    outcome = state.outcome()
    assert outcome is not None
    result = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome.results[0].result]
    return rows, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="expert:2000,expert:2000")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--value", default=None, help="weights for the leaf candidates (default: shipped)")
    parser.add_argument("--rollout-limit", type=int, default=None, help="the leaf candidates' playout plies")
    args = parser.parse_args()
    names = args.bots.split(",")
    for name in names:
        if name.partition(":")[0] in LEAVES:
            register(name, args.value, args.rollout_limit)
    rows, results, games = [], [], []
    if args.out.exists():
        held = np.load(args.out)
        rows, results, games = list(held["rows"]), list(held["results"]), list(held["games"])
    start = int(max(games)) + 1 if games else 0
    began = time.perf_counter()
    for index in range(start, args.games):
        game_rows, result = play(names, index, args.seed)
        rows += game_rows
        results += [result] * len(game_rows)
        games += [index] * len(game_rows)
        if (index + 1) % 20 == 0 or index + 1 == args.games:
            np.savez_compressed(args.out, rows=np.array(rows, dtype=np.int32), results=np.array(results),
                                games=np.array(games, dtype=np.int32), bots=np.array(names))
            print(f"{index + 1} games, {len(rows)} positions, {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
