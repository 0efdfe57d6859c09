"""Fitting The Last's learned playout policy (bots/thelast/playout_policy.py) to the moves of the expert's
search, for `ghostgames train thelast-playout`.

The expert with uniform playouts at every table (`UniformPlayoutPolicy`, a small budget so that the data does
not depend on the weights fitted on it) plays every seat of games at 3, 4, 5 and 2 players. Every decision
with a choice is a row group: the features of each legal action (playout_policy.action_features, which read only what
the seat to act knows) and which one the search chose. The weights are a multinomial logit, L2-regularised, fitted
by Newton steps on the first three quarters of the games; the last quarter is held out, and the report
compares its log-loss with the uniform choice's.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast.fast_search import UniformPlayoutPolicy
from ghostgames.bots.thelast.playout_policy import FEATURES, K, action_features
from ghostgames.games import get_game
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index
from ghostgames.games.thelast.state import TheLastState
from ghostgames.rules.chance import derive_rng

Floats = NDArray[np.float64]
PLAYER_COUNTS = (3, 4, 5, 2)


@dataclass(frozen=True)
class PlayoutFitSpec:
    games: int = 60
    seed: int = 1
    l2: float = 1.0
    iterations: int = 500  # the data's expert: iterations a move

    def recipe(self) -> str:
        return (f"ghostgames train thelast-playout --games {self.games} --seed {self.seed} --l2 {self.l2} "
                f"--iterations {self.iterations}")


@dataclass
class Decisions:
    """Every decision's legal actions' features (rows of x, grouped by `group`), the chosen row of each group
    (`chosen`), and each group's game."""

    x: Floats
    group: NDArray[np.int64]
    chosen: NDArray[np.int64]
    game: NDArray[np.int64]


def collect(spec: PlayoutFitSpec) -> Decisions:
    """Play the spec's games (player counts in turn) and record the expert's decisions."""
    bot = IsmctsBot(Budget(iterations=spec.iterations), UniformPlayoutPolicy, 0.5)
    rows: list[Floats] = []
    groups: list[int] = []
    chosen: list[int] = []
    games: list[int] = []
    features = np.empty(K, dtype=np.float64)
    legal_out = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    for g in range(spec.games):
        players = PLAYER_COUNTS[g % len(PLAYER_COUNTS)]
        state = get_game("thelast").new(players, {}, seed=derive_rng(spec.seed, "playout-deal", g).getrandbits(32))
        assert isinstance(state, TheLastState)
        rng = derive_rng(spec.seed, "playout-play", g)
        while state.outcome() is None:
            seat = min(state.to_act())
            knowledge = SeatKnowledge(state, seat)
            action = bot.choose(knowledge, rng)
            row = fast.from_state(state)
            n = fast.legal_actions(row, legal_out)
            if n > 1:
                taken = action_index(action)  # type: ignore[arg-type]
                start = len(rows)
                for j in range(n):
                    action_features(row, int(legal_out[j]), features)
                    rows.append(features.copy())
                    groups.append(len(chosen))
                    if int(legal_out[j]) == taken:
                        pick = start + j
                chosen.append(pick)
                games.append(g)
            state.apply(seat, action)  # type: ignore[arg-type]
    return Decisions(np.array(rows).reshape(-1, K), np.array(groups, dtype=np.int64),
                     np.array(chosen, dtype=np.int64), np.array(games, dtype=np.int64))


def _probabilities(d: Decisions, w: Floats) -> Floats:
    scores = d.x @ w
    top = np.full(len(d.chosen), -np.inf)
    np.maximum.at(top, d.group, scores)
    e = np.exp(scores - top[d.group])
    total = np.zeros(len(d.chosen))
    np.add.at(total, d.group, e)
    out: Floats = e / total[d.group]
    return out


def log_loss(d: Decisions, w: Floats) -> float:
    """Mean negative log-probability of the chosen actions."""
    p = _probabilities(d, w)
    return float(-np.mean(np.log(np.maximum(p[d.chosen], 1e-12))))


def fit(d: Decisions, l2: float, steps: int = 25) -> Floats:
    """The logit's weights by Newton steps (L2 penalty `l2` on every weight)."""
    w = np.zeros(K)
    for _ in range(steps):
        p = _probabilities(d, w)
        mean = np.zeros((len(d.chosen), K))
        np.add.at(mean, d.group, p[:, None] * d.x)
        centred = d.x - mean[d.group]
        gradient = d.x[d.chosen].sum(axis=0) - (p[:, None] * d.x).sum(axis=0) - l2 * w
        hessian = -(centred * p[:, None]).T @ centred - l2 * np.eye(K)
        step = np.linalg.solve(hessian, gradient)
        w = w - step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def split(d: Decisions, games: set[int]) -> Decisions:
    """The decisions of `games`, groups renumbered."""
    keep_groups = np.array([int(g) in games for g in d.game])
    old = np.flatnonzero(keep_groups)
    new_of = {int(o): i for i, o in enumerate(old)}
    rows = np.array([keep_groups[int(g)] for g in d.group])
    index = np.flatnonzero(rows)
    row_new = {int(r): i for i, r in enumerate(index)}
    return Decisions(d.x[index], np.array([new_of[int(g)] for g in d.group[index]], dtype=np.int64),
                     np.array([row_new[int(c)] for c in d.chosen[old]], dtype=np.int64), d.game[old])


def run(spec: PlayoutFitSpec) -> dict[str, Any]:
    """Collect, fit on three quarters of the games, report the held-out log-loss; the weights by name."""
    data = collect(spec)
    cut = max(1, spec.games * 3 // 4)
    train, held = split(data, set(range(cut))), split(data, set(range(cut, spec.games)))
    weights = fit(train, spec.l2)
    uniform = np.zeros(K)
    report: dict[str, Any] = {
        "spec": asdict(spec), "recipe": spec.recipe(), "decisions": len(data.chosen),
        "held_out_decisions": len(held.chosen),
        "weights": {name: round(float(v), 4) for name, v in zip(FEATURES, weights, strict=True)},
    }
    if len(held.chosen):
        report["held_out_log_loss"] = {"uniform": round(log_loss(held, uniform), 4),
                                       "fitted": round(log_loss(held, weights), 4)}
    return report


def write(report: dict[str, Any], out: Path) -> None:
    """The weights file the playout policy reads (its recipe and held-out figures beside the weights)."""
    out.write_text(json.dumps({key: report[key] for key in ("recipe", "weights", "decisions",
                                                            "held_out_log_loss") if key in report}, indent=1) + "\n")
