"""Playing a tournament: every game is a pure function of (spec, game index), so the results do not
depend on which backend runs them (ghostgames.executor: processes here or nodes of a Ray cluster), on how
many workers share the work, nor on the order they finish in.

Seats rotate: in game i seat s is played by bot (s + i) mod (number of bots), so each bot sits in each
seat equally often over a multiple of that many games; `seatings="cycle"` turns every cyclic order of the bots
in as well (tournament/seating.py says why).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghostgames.bots import Bot, SeatKnowledge, get_bot
from ghostgames.executor import Executor, given_or_local
from ghostgames.games import get_game
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import State
from ghostgames.rules.record import GameRecord
from ghostgames.tournament.seating import seating

# Options every tournament of a game uses unless told otherwise: games must end in bounded time.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "geister": {"exit": "escape", "max_plies": 300},
    "ghooost": {"max_turns": 500, "match": False},
    "thelast": {},
}


@dataclass(frozen=True)
class TournamentSpec:
    game: str
    bots: tuple[str, ...]
    games: int
    players: int
    seconds: float | None = None
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    seatings: str = "rotations"  # or "cycle": tournament/seating.py

    def seating(self, index: int) -> list[str]:
        return seating(self.bots, self.players, index, self.seatings)

    def game_options(self) -> dict[str, Any]:
        return {**DEFAULT_OPTIONS.get(get_game(self.game).name, {}), **self.options}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "games": self.games,
            "players": self.players,
            "seconds_per_move": self.seconds,
            "seed": self.seed,
            "options": self.game_options(),
            # only when not the default, so that the results files written before it still resume
            **({"seatings": self.seatings} if self.seatings != "rotations" else {}),
        }


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    seats: list[str]
    results: list[dict[str, Any]]  # SeatResult.to_json() per seat
    reason: str
    actions: int
    think_seconds: list[float]  # per seat, summed over its decisions
    decisions: list[int]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": self.seats,
            "results": self.results,
            "reason": self.reason,
            "actions": self.actions,
            "think_seconds": [round(s, 4) for s in self.think_seconds],
            "decisions": self.decisions,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """A game as `to_json` wrote it (a results file read back to resume a run)."""
        return cls(int(data["index"]), int(data["seed"]), list(data["seats"]), list(data["results"]),
                   str(data["reason"]), int(data["actions"]), [float(s) for s in data["think_seconds"]],
                   [int(d) for d in data["decisions"]])


Watch = Callable[[State[Any]], None]


Maker = Callable[[float | None], Bot]


def play_record(game: str, players: int, options: Mapping[str, Any], seed: int, bots: Sequence[Bot]) -> GameRecord:
    """One game between `bots` (one per seat) to its end, as a record: the game from `seed`, the bots'
    decisions from one `random.Random(seed)` (the same seed, the same game), for analyses and their tests."""
    state = get_game(game).new(players, dict(options), seed=seed)
    record = GameRecord(game, players, dict(options), seed)
    rng = random.Random(seed)
    while state.to_act():
        seat = min(state.to_act())
        action = bots[seat].choose(SeatKnowledge(state, seat), rng)
        state.apply(seat, action)
        record.actions.append((seat, str(action)))
    return record


def play_game(spec: TournamentSpec, index: int, watch: Watch | None = None,
              makers: Mapping[str, Maker] | None = None) -> GameResult:
    """Play game `index` of the tournament to its end; `watch` (if given) sees the live state before every
    action and must not change it (training keeps positions this way). `makers` makes the bots of those
    names instead of `get_bot` (bots given as objects, as `ghostgames.evaluate` takes them)."""
    game = get_game(spec.game)
    game_seed = derive_rng(spec.seed, "tournament-game", index).randrange(2**63)
    decisions_rng = derive_rng(spec.seed, "tournament-bots", index)
    seats = spec.seating(index)
    makers = makers or {}
    bots = [makers[name](spec.seconds) if name in makers else get_bot(name, spec.seconds) for name in seats]
    state = game.new(spec.players, spec.game_options(), seed=game_seed)
    think = [0.0] * spec.players
    decisions = [0] * spec.players
    actions = 0
    while True:
        acting = state.to_act()
        if not acting:
            break
        seat = min(acting)
        if watch is not None:
            watch(state)
        rng = random.Random(decisions_rng.randrange(2**63))
        start = time.perf_counter()
        action = bots[seat].choose(SeatKnowledge(state, seat), rng)
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        state.apply(seat, action)
        actions += 1
    outcome = state.outcome()
    assert outcome is not None
    return GameResult(
        index, game_seed, seats, [r.to_json() for r in outcome.results], outcome.reason, actions, think, decisions
    )


def iter_games(spec: TournamentSpec, workers: int = 1, executor: Executor | None = None,
               skip: Iterable[int] = ()) -> Iterator[GameResult]:
    """Yield the games as they finish (in any order), each once; `executor` runs them (default: `workers`
    local processes); the game numbers in `skip` are not played."""
    finished = set(skip)
    todo = [index for index in range(spec.games) if index not in finished]
    with given_or_local(executor, workers) as runner:
        for _, result in runner.run(functools.partial(play_game, spec), todo):
            yield result


def run_tournament(
    spec: TournamentSpec, workers: int = 1, on_result: Callable[[GameResult], None] | None = None,
    executor: Executor | None = None, finished: Iterable[GameResult] = (),
) -> list[GameResult]:
    """All games, sorted by index; `on_result` is called as each finishes (for a progress bar, a results
    file). Games in `finished` (read back from an interrupted run) are kept and not played again."""
    get_game(spec.game).check_players(spec.players)
    for name in set(spec.bots):
        get_bot(name)  # an unknown bot fails here, before any process starts
    results = {game.index: game for game in finished if game.index < spec.games}
    for result in iter_games(spec, workers, executor, results):
        if result.index in results:
            continue  # counted once, however it came back twice
        results[result.index] = result
        if on_result is not None:
            on_result(result)
    return [results[index] for index in sorted(results)]
