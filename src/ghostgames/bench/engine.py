"""Engine speed: uniformly random complete games, in one process.

`python` plays them through the contract (the reference rules); `fast` through a game's compiled core, one
game after another on one thread or, for Geister with a batch, as many games stepped together by the vector
environment (random legal actions from the masks, on `threads` cores)."""

from __future__ import annotations

import importlib
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Mapping
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


ENGINES = ("python", "fast")


@dataclass
class EngineResult:
    game: str
    players: int
    options: dict[str, Any]
    engine: str
    batch: int | None  # games stepped together (the vector environment), None for one game at a time
    threads: int
    warmup_seconds: float  # before the timed run: loading (or, the first time on a machine, compiling) the core
    load_1min: float  # the machine's load average when the run started (`uptime`): a shared machine swings
    cpu_seconds: float  # CPU time this process used in the run (all its threads): less swayed by the load
    seconds: float
    games: int
    actions: int
    games_per_second: float
    actions_per_second: float
    mean_actions_per_game: float
    best_second_games: int  # games finished in the fastest whole second of the run
    python: str


@dataclass(frozen=True, slots=True)
class _Timing:
    games: int
    actions: int
    seconds: float
    cpu_seconds: float
    best_second_games: int


def _timed(seconds: float, step: Callable[[], tuple[int, int]]) -> _Timing:
    """Call `step` (one chunk of play: the games finished and the actions taken) until `seconds` are up.
    Games are also counted per whole second of the run: on a shared host the speed swings between seconds,
    and the fastest second (like timeit's minimum) is the figure least disturbed by other machines' work."""
    games = actions = 0
    per_second: list[int] = [0]
    cpu = time.process_time()
    start = time.perf_counter()
    second_ends, deadline = start + 1.0, start + seconds
    while (now := time.perf_counter()) < deadline:
        if now >= second_ends:
            per_second.append(0)
            second_ends += 1.0
        finished, taken = step()
        games += finished
        actions += taken
        per_second[-1] += finished
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    whole = per_second[:-1] if len(per_second) > 1 else per_second
    return _Timing(games, actions, elapsed, cpu, max(whole))


def _result(game: str, players: int, opts: dict[str, Any], engine: str, batch: int | None, threads: int,
            warmup: float, timing: _Timing) -> EngineResult:
    return EngineResult(
        game, players, opts, engine, batch, threads, warmup, _load(), timing.cpu_seconds, timing.seconds,
        timing.games, timing.actions, timing.games / timing.seconds, timing.actions / timing.seconds,
        timing.actions / max(timing.games, 1), timing.best_second_games, platform.python_version(),
    )


def run(game_name: str, players: int, seconds: float, seed: int = 0,
        options: Mapping[str, Any] | None = None, engine: str = "python", batch: int | None = None,
        threads: int | None = None) -> EngineResult:
    """Play for `seconds`. ValueError (saying what works) for an engine a game lacks or a bad batch."""
    game = get_game(game_name)
    opts = dict(DEFAULT_OPTIONS.get(game.name, {}) if options is None else options)
    if engine not in ENGINES:
        raise ValueError(f"the engines are {' and '.join(ENGINES)}, not {engine!r}")
    if engine == "fast":
        if game.name in CARD_CORES:
            return _run_fast_cards(game.name, players, seconds, seed, opts, batch, threads)
        if game.name != "geister":
            raise ValueError(f"the fast engine plays {', '.join(('geister', *CARD_CORES))}; {game.name} has the "
                             "python engine")
        return _run_fast(players, seconds, seed, opts, batch, threads)
    if batch is not None or threads is not None:
        raise ValueError("--batch and --threads go with --engine fast (the python engine plays one game at a time)")
    rng = random.Random(seed)

    def one_game() -> tuple[int, int]:
        return 1, play_random(game.new(players, opts, seed=rng.randrange(2**63)), rng)

    return _result(game.name, players, opts, "python", None, 1, 0.0, _timed(seconds, one_game))


def _run_fast(players: int, seconds: float, seed: int, opts: dict[str, Any], batch: int | None,
              threads: int | None) -> EngineResult:
    from ghostgames.envs.vector import GeisterVectorEnv
    from ghostgames.games.geister import fast
    from ghostgames.games.geister.state import GeisterOptions

    options = GeisterOptions.model_validate(opts)
    escape, max_plies = int(options.exit == "escape"), options.max_plies or 0
    first = -1 if options.first is None else options.first
    warmup = time.perf_counter()
    if batch is None:
        if threads not in (None, 1):
            raise ValueError("without --batch the fast engine plays on one thread; give --batch N for more")
        rng = fast.new_rng(seed)
        fast.play_random_games(1, rng, escape, max_plies, first)
        env = None
    else:
        if batch < 1:
            raise ValueError(f"--batch is the number of games stepped together, at least 1, not {batch}")
        env = GeisterVectorEnv(batch, opts, seed=seed, threads=threads, copy=False)
        env.reset()
        env.step(env.random_actions())
    warmup = time.perf_counter() - warmup

    def chunk() -> tuple[int, int]:
        if env is None:
            games = 200  # about 2 ms: the clock is read often enough, and costs nothing
            return games, int(fast.play_random_games(games, rng, escape, max_plies, first))
        _obs, _rewards, terminated, _truncated, _info = env.step(env.random_actions())
        return int(terminated.sum()), env.num_envs

    return _result("geister", players, opts, "fast", batch, 1 if env is None else env.threads, warmup,
                   _timed(seconds, chunk))


# Card games with a compiled core: games/<name>/fast.py offers `random_games(players, options, seed)`, a
# function that plays N complete random games on one thread and returns the actions taken.
CARD_CORES = ("ghooost", "thelast")


def _run_fast_cards(game_name: str, players: int, seconds: float, seed: int, opts: dict[str, Any],
                    batch: int | None, threads: int | None) -> EngineResult:
    if batch is not None or threads not in (None, 1):
        raise ValueError(f"the fast {game_name} core plays one game at a time on one thread (no --batch or "
                         "--threads yet; those go with geister)")
    warmup = time.perf_counter()
    play = importlib.import_module(f"ghostgames.games.{game_name}.fast").random_games(players, opts, seed)
    play(1)  # loads (or, the first time on a machine, compiles) the core
    warmup = time.perf_counter() - warmup
    chunk = 100  # well under 10 ms a chunk: the clock is read often enough, and costs nothing
    return _result(game_name, players, opts, "fast", None, 1, warmup,
                   _timed(seconds, lambda: (chunk, int(play(chunk)))))


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def median_rate(results: list[EngineResult], of: str = "games") -> float:
    """The median games/s (`of` "actions": actions/s, "cpu": actions per CPU second of the process) of
    several runs of one engine: the figures to quote on a shared machine. With a batch, actions are the
    environment steps."""
    rates = {
        "games": [r.games_per_second for r in results],
        "actions": [r.actions_per_second for r in results],
        "cpu": [r.actions / r.cpu_seconds if r.cpu_seconds > 0 else 0.0 for r in results],
    }[of]
    return float(statistics.median(rates))


def write_json(results: list[EngineResult], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(r) for r in results], indent=2))
