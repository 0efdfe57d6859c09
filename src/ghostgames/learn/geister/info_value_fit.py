"""Fitting the information-state value (`bots/geister/info_value.py`) to positions of the search's games.

Every position of a game (`positions.py`) gives two examples, one for each seat: what that seat knows of
the position (the enemy's colours on the board unread) and whether it went on to win (1, a draw 0.5, a loss
0). The recipe's games are the search against the sparring partners that run (`runner`, `rush`, `mixture`)
and against itself, so that the value learns what a race to our exits is worth against players who make it.

The fit is minibatch Adam on the logistic loss (value_training's `Adam`, numpy), from a small random start;
every k-th game is held out whole and scored after every pass, next to a constant and the hand evaluation
(as the search uses it, from the same seat's side), so the report says whether the value knows more than
the hand evaluation about how these games end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import info_value
from ghostgames.bots.geister.value import GeisterValue
from ghostgames.learn.geister.value_training import Adam, accuracy, hand_values, log_loss

Rows = NDArray[np.int32]
Floats = NDArray[np.float64]
Inputs = NDArray[np.float32]


@dataclass(frozen=True)
class InfoFitSpec:
    hidden: int = 32
    epochs: int = 1  # passes over the training examples (a second made the held-out loss worse)
    rate: float = 0.002
    batch: int = 256
    held_every: int = 5  # every k-th game is held out of the fit, to measure it
    seed: int = 1


def examples(rows: Rows, results: Floats) -> tuple[Inputs, Floats, Rows]:
    """Both seats' examples of every row: (features, result for that seat, the seat), seat 0's rows first."""
    n = len(rows)
    seats = np.concatenate([np.zeros(n, dtype=np.int32), np.ones(n, dtype=np.int32)])
    both = np.concatenate([rows, rows])
    x = np.empty((2 * n, info_value.INFO_FEATURES), dtype=np.float32)
    info_value.info_features_batch(both, seats, x)
    return x, np.concatenate([results, 1.0 - results]), seats


def predict(model: GeisterValue, x: Inputs) -> Floats:
    """P(the seat wins) for each row of features, the numpy twin of `info_value_of_row`."""
    pre = x @ model.hidden_w.T + model.hidden_b
    z = x @ model.linear + np.maximum(pre, 0.0) @ model.out_w
    p: Floats = 1.0 / (1.0 + np.exp(-z))
    return p


def gradients(model: GeisterValue, x: Inputs, y: Floats) -> tuple[float, tuple[Floats, ...]]:
    """Mean logistic loss of a batch and its gradient for (linear, hidden_w, hidden_b, out_w)."""
    pre = x @ model.hidden_w.T + model.hidden_b
    act = np.maximum(pre, 0.0)
    p = 1.0 / (1.0 + np.exp(-(x @ model.linear + act @ model.out_w)))
    dz = (p - y) / len(y)
    d_hidden = (dz[:, None] * model.out_w[None, :]) * (pre > 0)
    return log_loss(p, y), (x.T @ dz, d_hidden.T @ x, d_hidden.sum(axis=0), act.T @ dz)


def start_model(hidden: int, rng: np.random.Generator) -> GeisterValue:
    model = info_value.zeros(hidden)
    model.hidden_w[:] = rng.normal(0.0, 1.0 / math.sqrt(info_value.INFO_FEATURES), model.hidden_w.shape)
    model.out_w[:] = rng.normal(0.0, 0.1, hidden)
    return model


def fit(rows: Rows, results: Floats, games: Rows, spec: InfoFitSpec = InfoFitSpec()
        ) -> tuple[GeisterValue, dict[str, Any]]:
    """The value fitted to the positions `rows` (seat 0's result in `results`, the game of each in `games`),
    with the games whose number is a multiple of `held_every` held out; returns it and the measures on the
    held-out examples (a constant, the hand evaluation, the value after each pass)."""
    held_rows = games % spec.held_every == 0
    x, y, _ = examples(rows[~held_rows], results[~held_rows])
    held_x, held_y, held_seats = examples(rows[held_rows], results[held_rows])
    report: dict[str, Any] = {"spec": spec.__dict__, "features": info_value.INFO_FEATURES,
                              "games": len(set(games.tolist())), "train_examples": len(y),
                              "held_examples": len(held_y)}

    def score(name: str, p: Floats) -> dict[str, float]:
        report[name] = {"log_loss": log_loss(p, held_y), "accuracy": accuracy(p, held_y)}
        return dict(report[name])

    score("constant", np.full(len(held_y), float(np.mean(y))))
    hand0 = hand_values(rows[held_rows])
    score("hand", np.where(held_seats == 0, np.concatenate([hand0, hand0]), 1.0 - np.concatenate([hand0, hand0])))
    rng = np.random.default_rng(spec.seed)
    model = start_model(spec.hidden, rng)
    adam = Adam(model, rate=spec.rate)
    batch = min(spec.batch, len(y))
    report["curve"] = []
    for _ in range(spec.epochs):
        order = rng.permutation(len(y))
        losses = []
        for at in range(0, len(y) - batch + 1, batch):
            pick = order[at : at + batch]
            loss, grads = gradients(model, x[pick], y[pick])
            adam.step(grads)
            losses.append(loss)
        report["curve"].append({"train_loss": float(np.mean(losses)),
                                **score("trained", predict(model, held_x))})
    return model, report
