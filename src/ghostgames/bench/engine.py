"""Engine speed: uniformly random complete games through the contract, in one process."""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ghostgames.games import get_game
from ghostgames.rules.contract import State

# What each game's benchmark plays unless told otherwise.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "geister": {"exit": "escape", "max_plies": 300},
    "ghooost": {"match": False},
    "thelast": {"rounds": 1},
}


def play_random(state: State[Any], rng: random.Random) -> int:
    """Play `state` to its end with uniformly random legal actions; returns the number of actions."""
    actions = 0
    uniform = rng.random
    while True:
        # The first seat that may act (in a simultaneous step the others follow on later passes); a
        # for-break costs less than min() or next(iter()). The pick is uniform like rng.choice (the bias
        # of a 53-bit float is below 1e-14) at a third of its cost: this loop is timed with the engine.
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(uniform() * len(legal))])
            actions += 1
            break
        else:
            return actions


@dataclass
class EngineResult:
    game: str
    players: int
    options: dict[str, Any]
    seconds: float
    games: int
    actions: int
    games_per_second: float
    actions_per_second: float
    mean_actions_per_game: float
    best_second_games: int  # games finished in the fastest whole second of the run
    python: str


def run(game_name: str, players: int, seconds: float, seed: int = 0,
        options: Mapping[str, Any] | None = None) -> EngineResult:
    game = get_game(game_name)
    opts = dict(DEFAULT_OPTIONS.get(game.name, {}) if options is None else options)
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    # Games per whole second of the run: on a shared host the speed swings between seconds, and the
    # fastest second (like timeit's minimum) is the figure least disturbed by other machines' work.
    per_second: list[int] = [0]
    second_ends = start + 1.0
    while (now := time.perf_counter()) < deadline:
        if now >= second_ends:
            per_second.append(0)
            second_ends += 1.0
        state = game.new(players, opts, seed=rng.randrange(2**63))
        actions += play_random(state, rng)
        games += 1
        per_second[-1] += 1
    elapsed = time.perf_counter() - start
    whole = per_second[:-1] if len(per_second) > 1 else per_second
    return EngineResult(
        game.name, players, opts, elapsed, games, actions, games / elapsed, actions / elapsed,
        actions / max(games, 1), max(whole), platform.python_version(),
    )


def write_json(results: list[EngineResult], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(r) for r in results], indent=2))
