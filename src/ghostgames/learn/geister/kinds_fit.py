"""Fitting one belief model per kind of learned runner (bots/geister/kinds-weights.json, read by kinds.py),
for `ghostgames train geister-kinds`.

Each runner plays the runners' games of `ghostgames train geister-belief` (against rules, defender, charge
and twice `expert:1000` reading the fixed `belief_fit.DATA_WEIGHTS`, seats and exit rules alternated); every
3 plies the seat facing it gives the `kinds.KIND_FEATURES` of the runner's hidden ghosts, labelled with their
true colours (read from the state, here only). A conditional logit is fitted per runner (`belief_fit.fit`)
on the first three quarters of its games; the last quarter is held out for the report, with how often the
runner moves the ghost it moved last (`Model.repeats`). The runners are networks trained alike with other
seeds that hide their colours differently (docs/research/geister-belief.md), so they are kept apart and
mixed by Bayes' rule in play rather than pooled. `runner-3` is left out on purpose: it is the held-out runner
the bots are judged against.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.geister.belief import certainly_bad, enemy_repeats
from ghostgames.bots.geister.kinds import KIND_FEATURES, kind_features
from ghostgames.bots.geister.picture import read
from ghostgames.executor import Executor, given_or_local
from ghostgames.games import get_game
from ghostgames.learn.geister.belief_fit import (
    EVERY,
    Snapshot,
    fit,
    groups,
    marginal_scores,
    player,
    repeat_rates,
    runner_pairs,
)
from ghostgames.rules.chance import derive_rng

KIND_RUNNERS = ("runner", "runner-2")


def opponents(bot: str, iterations: int = 1000) -> list[tuple[str, str]]:
    """The pairs `runner` plays in the runners' games of `ghostgames train geister-belief`, `bot` in its seat."""
    return [(bot, other) for style, other in runner_pairs(iterations) if style == "runner"]


def runner_game(bot: str, index: int, seed: int, iterations: int = 1000) -> dict[str, Any]:
    """One game of `bot` against `opponents(bot)[index % 5]` (seats swapped every other round, every third
    game under `reach`): the public view of the seat facing `bot` every EVERY plies, `bot`'s true colours
    (by ghost index 0-7) and how the game ended."""
    pairs = opponents(bot, iterations)
    bots = pairs[index % len(pairs)]
    if index // len(pairs) % 2:
        bots = (bots[1], bots[0])
    rng = derive_rng(seed, "belief-on-runner", index)
    options = {"exit": "reach" if index % 3 == 2 else "escape", "max_plies": 300}
    state = get_game("geister").new(2, options, seed=rng.randrange(2**63))
    players = [player(name) for name in bots]
    observer = bots.index(bot) ^ 1
    views: list[dict[str, Any]] = []
    while state.to_act():
        seat = min(state.to_act())
        if state.ply % EVERY == 0 and not state.setup_phase():  # type: ignore[attr-defined]
            views.append(state.view(observer))
        state.apply(seat, players[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**63))))
    enemy = 1 - observer
    good = [bool(state.good[g]) for g in range(enemy * 8, enemy * 8 + 8)]  # type: ignore[attr-defined]
    outcome = state.outcome()
    return {"bot": bot, "game": index, "opponent": bots[observer], "observer": observer, "good": good,
            "ending": outcome.to_json() if outcome else None, "views": views}


def game_snapshots(game: dict[str, Any]) -> list[Snapshot]:
    """The kind features of the runner's hidden ghosts at each view of `runner_game`'s record, labelled (the
    snapshot format of belief_fit, with the start index of each candidate and whether one bad one is left)."""
    out: list[Snapshot] = []
    for view in game["views"]:
        picture = read(view)
        moves = list(view["moves"])
        feats = kind_features(picture, moves)
        candidates = [g for g in sorted(feats) if not certainly_bad(picture, g)]
        good = [bool(game["good"][g & 7]) for g in candidates]
        if not candidates or sum(good) in (0, len(candidates)):
            continue  # nothing left to guess
        out.append({"set": "runners", "game": game["game"], "enemy": game["bot"], "observer": game["observer"],
                    "repeats": enemy_repeats(picture, moves), "x": [feats[g] for g in candidates],
                    "start": [g & 7 for g in candidates], "good": good, "goods": sum(good),
                    "last_bad": len(candidates) - sum(good) == 1})
    return out


@dataclass(frozen=True)
class KindsFitSpec:
    games: int = 600  # games of each runner
    seed: int = 21
    l2: float = 0.01
    iterations: int = 1000  # the expert's budget in the runners' games
    runners: tuple[str, ...] = KIND_RUNNERS

    def recipe(self) -> str:
        return (f"--games {self.games} --seed {self.seed} --l2 {self.l2} --iterations {self.iterations}"
                f" --runners {','.join(self.runners)}")


def _play_one(spec: KindsFitSpec, game: tuple[str, int]) -> list[Snapshot]:
    bot, index = game
    return game_snapshots(runner_game(bot, index, spec.seed, spec.iterations))


def snapshots(spec: KindsFitSpec, done: Callable[[], None] | None = None,
              executor: Executor | None = None) -> list[Snapshot]:
    """The snapshots of every runner's games, in game order; `executor` plays them (default: one process)."""
    games = [(bot, index) for bot in spec.runners for index in range(spec.games)]
    played: dict[tuple[str, int], list[Snapshot]] = {}
    with given_or_local(executor, 1) as runner:
        for game, snaps in runner.run(functools.partial(_play_one, spec), games):
            played[game] = snaps
            if done is not None:
                done()
    return [snap for game in games for snap in played[game]]


def fit_kinds(spec: KindsFitSpec, snaps: list[Snapshot]) -> tuple[dict[str, dict[str, float]], dict[str, Any]]:
    """One weight set per runner (over KIND_FEATURES, fitted on the first three quarters of its games) and a
    report: held-out log-loss on the last quarter of each runner's games for the uniform belief and every
    fitted set, and the repeat rates."""
    fitted: dict[str, dict[str, float]] = {}
    held_out: dict[str, dict[str, float]] = {}
    cut = spec.games * 3 // 4
    for bot in spec.runners:
        train = [s for s in snaps if s["enemy"] == bot and s["game"] < cut]
        theta = fit(groups(train), spec.l2, size=len(KIND_FEATURES))
        fitted[bot] = {f: round(float(v), 3) for f, v in zip(KIND_FEATURES, theta, strict=True)}
    for bot in spec.runners:
        test = [s for s in snaps if s["enemy"] == bot and s["game"] >= cut]
        held_out[bot] = {"uniform": marginal_scores(test, None)[0], "ghosts": marginal_scores(test, None)[2]}
        for name, weights in fitted.items():
            held_out[bot][name] = marginal_scores(test, _theta(weights))[0]
    # repeat_rates tells games apart by number and seat, so each runner's are counted alone
    repeats = {bot: repeat_rates([s for s in snaps if s["enemy"] == bot])[bot] for bot in spec.runners}
    report = {"recipe": spec.recipe(), "features": list(KIND_FEATURES), "weights": fitted,
              "repeats": repeats, "held_out": held_out}
    return fitted, report


def _theta(weights: dict[str, float]) -> np.ndarray:
    return np.array([weights[f] for f in KIND_FEATURES])


def save_kinds(path: Path, fitted: dict[str, dict[str, float]], repeats: dict[str, float], spec: KindsFitSpec) -> None:
    """Write the weight sets and repeat rates in the format `kinds.load_kinds` reads."""
    path.write_text(json.dumps({"recipe": f"ghostgames train geister-kinds {spec.recipe()}",
                                "features": list(KIND_FEATURES), "weights": fitted,
                                "repeats": {bot: repeats[bot] for bot in fitted}}, indent=1) + "\n")
