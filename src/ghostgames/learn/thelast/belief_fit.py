"""Fitting the weights of The Last's belief (bots/thelast/belief-weights.json), for
`ghostgames train thelast-belief`.

Games at 3, 4 and 5 players (and 2, with the ghost) are played to the end between `rules` and the expert's
search without a belief (`UniformPlayoutPolicy` at a small budget, so that the data does not change with the
weights fitted on it), each seat the expert with chance `expert_share`, else `rules`. At every decision,
for the seat to act and each other seat p, every card the acting seat cannot place (and p may hold: not of a
colour p showed a void in) is a row: its marks (belief.marks of the acting seat's view), the label "p holds
it" (read from the state, here only, to label the data), and as offset the log-odds of the uniform deal
(p's unknown cards over the cards p may hold). The weights are a logistic regression with that offset,
L2-regularised, fitted by Newton steps on the first three quarters of the games; the last quarter is held
out, and the report compares its log-loss under the uniform deal (all weights 0) and under the fit.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots import Bot, SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast.belief import FEATURES, marks
from ghostgames.bots.thelast.fast_search import UniformPlayoutPolicy
from ghostgames.games import get_game
from ghostgames.games.thelast.cards import COLOUR_BIT
from ghostgames.games.thelast.deductions import NEVER
from ghostgames.games.thelast.state import TheLastState
from ghostgames.rules.chance import derive_rng

Floats = NDArray[np.float64]
PLAYER_COUNTS = (3, 4, 5, 2)


@dataclass(frozen=True)
class BeliefFitSpec:
    games: int = 160
    seed: int = 1
    l2: float = 1.0
    iterations: int = 300  # the data's expert: iterations a move
    expert_share: float = 0.5  # the chance that a seat is the expert (else `rules`)

    def recipe(self) -> str:
        return (f"ghostgames train thelast-belief --games {self.games} --seed {self.seed} --l2 {self.l2} "
                f"--iterations {self.iterations} --expert-share {self.expert_share}")


@dataclass
class Rows:
    """The fitting data: marks (n, features), labels (n,), offsets (n,), and each row's game."""

    x: Floats
    y: Floats
    offset: Floats
    game: NDArray[np.int64]


def _bots(iterations: int) -> list[Bot]:
    return [get_bot("rules"), IsmctsBot(Budget(iterations=iterations), UniformPlayoutPolicy, 0.5)]


def _rows_of(state: TheLastState, seat: int) -> tuple[list[Floats], list[float], list[float]]:
    """The rows of one decision of `seat`: each other seat's candidate cards."""
    view = state.view(seat)
    marked = marks(view)
    lines = state.timelines()
    others = [p for p in range(len(state.hands)) if p != seat]  # the 2-player ghost's pile too
    unplaced = [c for p in others for c in state.hands[p] if c not in state.shown_hand[p]]
    unplaced += [c for p in others for c in state.piles[p] if c not in state.shown_pile[p]]
    unplaced += state.points + state.spare
    xs: list[Floats] = []
    ys: list[float] = []
    offsets: list[float] = []
    for p in range(state.players):
        if p == seat:
            continue
        void = lines[p].voids_between(-2, NEVER)
        candidates = [c for c in unplaced if not COLOUR_BIT[c] & void]
        unknown = len(state.hands[p]) - len(state.shown_hand[p])
        if unknown <= 0 or len(candidates) <= unknown:
            continue
        base = unknown / len(candidates)
        offset = math.log(base / (1.0 - base))
        hand = set(state.hands[p])
        for c in candidates:
            xs.append(marked[p, c])
            ys.append(1.0 if c in hand else 0.0)
            offsets.append(offset)
    return xs, ys, offsets


def play_rows(spec: BeliefFitSpec) -> Rows:
    """Play the spec's games and gather their rows (deterministic from the seed)."""
    game = get_game("thelast")
    bots = _bots(spec.iterations)
    xs: list[Floats] = []
    ys: list[float] = []
    offsets: list[float] = []
    index: list[int] = []
    for g in range(spec.games):
        rng = derive_rng(spec.seed, "thelast-belief", g)
        players = PLAYER_COUNTS[g % len(PLAYER_COUNTS)]
        seats = [bots[1] if rng.random() < spec.expert_share else bots[0] for _ in range(players)]
        state = game.new(players, {}, seed=rng.randrange(2**31))
        assert isinstance(state, TheLastState)
        while state.outcome() is None:
            seat = min(state.to_act())
            x, y, o = _rows_of(state, seat)
            xs.extend(x)
            ys.extend(y)
            offsets.extend(o)
            index.extend([g] * len(y))
            chosen = seats[seat].choose(SeatKnowledge(state, seat), random.Random(rng.randrange(2**31)))
            state.apply(seat, str(chosen))
    return Rows(np.array(xs, dtype=np.float64).reshape(-1, len(FEATURES)), np.array(ys), np.array(offsets),
                np.array(index, dtype=np.int64))


def log_loss(rows: Rows, weights: Floats) -> float:
    """Mean negative log-likelihood of the labels."""
    z = rows.offset + rows.x @ weights
    return float(np.mean(np.logaddexp(0.0, z) - rows.y * z))


def fit(rows: Rows, l2: float, steps: int = 30) -> Floats:
    """The L2-regularised logistic regression with offset, by Newton steps from zero (convex: one optimum)."""
    w = np.zeros(rows.x.shape[1])
    n = len(rows.y)
    for _ in range(steps):
        z = rows.offset + rows.x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        gradient = rows.x.T @ (p - rows.y) / n + l2 * w / n
        hessian = (rows.x * (p * (1 - p))[:, None]).T @ rows.x / n + (l2 / n) * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return w


def fit_weights(spec: BeliefFitSpec, rows: Rows) -> tuple[Floats, dict[str, Any]]:
    """Fit on the first three quarters of the games; score the last quarter."""
    cut = spec.games * 3 // 4
    train = Rows(rows.x[rows.game < cut], rows.y[rows.game < cut], rows.offset[rows.game < cut],
                 rows.game[rows.game < cut])
    held = Rows(rows.x[rows.game >= cut], rows.y[rows.game >= cut], rows.offset[rows.game >= cut],
                rows.game[rows.game >= cut])
    weights = fit(train, spec.l2)
    report = {
        "rows": {"train": len(train.y), "held_out": len(held.y)},
        "held_out_log_loss": {"uniform": log_loss(held, np.zeros(len(FEATURES))), "fitted": log_loss(held, weights)},
        "weights": {name: round(float(v), 4) for name, v in zip(FEATURES, weights, strict=True)},
    }
    return weights, report


def save_weights(path: Path, weights: Floats, spec: BeliefFitSpec) -> None:
    path.write_text(json.dumps({
        "recipe": spec.recipe(), "spec": asdict(spec),
        "weights": {name: round(float(v), 4) for name, v in zip(FEATURES, weights, strict=True)},
    }, indent=1) + "\n")
