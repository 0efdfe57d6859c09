"""Training the Geister value (`bots/geister/value.py`) on self-play positions, and measuring it.

Method (Monte-Carlo value regression): a few positions of every self-play game (`self_play.py`) are kept
with the game's result for seat 0 (win 1, draw 0.5, loss 0), and the model is fitted to them with Adam on
the logistic loss (numpy). The value thus predicts how the game ends when it is played on in the playouts'
style, which is what the search's hand evaluation stands in for at the end of a cut-off playout.

The games come in rounds: each round plays its share of the games (from round 2 a share `guided` played by
the value trained so far), adds their positions to the data and trains on everything seen so far; after
each round a checkpoint plays fixed games of the `value` bot against fixed opponents (the learning curve).
Everything is derived from the seed, so a seed gives the same weights on the same machine.

`fine_tune` trains the value further on positions of the search's own games (`positions.py`).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister.value import FEATURES, GeisterValue, features_batch
from ghostgames.executor import Executor, given_or_local
from ghostgames.games.geister import fast
from ghostgames.learn.geister.self_play import GAME_PLIES, positions
from ghostgames.rules.chance import derive_rng

Rows = NDArray[np.int32]
Floats = NDArray[np.float64]

# --- the fit (numpy) --------------------------------------------------------------------------------------
@dataclass
class Adam:
    """Adam over the model's four arrays, with a little L2 on the weights."""

    model: GeisterValue
    rate: float = 0.003
    l2: float = 1e-5
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    moments: list[tuple[Floats, Floats]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.moments = [(np.zeros_like(a), np.zeros_like(a)) for a in self.model.arrays]

    def step(self, grads: tuple[Floats, ...]) -> None:
        self.steps += 1
        t = self.steps
        for array, grad, (m, v) in zip(self.model.arrays, grads, self.moments, strict=True):
            g = grad + self.l2 * array
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**t)
            v_hat = v / (1 - self.beta2**t)
            array -= self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def _scores(model: GeisterValue, x: Floats) -> tuple[Floats, Floats, Floats]:
    """Per row: the score, the hidden pre-activations and the hidden activations."""
    pre = x @ model.hidden_w.T + model.hidden_b
    act = np.maximum(pre, 0.0)
    return x @ model.linear + act @ model.out_w, pre, act


def predict(model: GeisterValue, x: Floats) -> Floats:
    """P(seat 0 wins) for features (N, 2, FEATURES), the numpy twin of value_of_row."""
    z = _scores(model, x[:, 0])[0] - _scores(model, x[:, 1])[0]
    p: Floats = 1.0 / (1.0 + np.exp(-z))
    return p


def gradients(model: GeisterValue, x: Floats, y: Floats) -> tuple[float, tuple[Floats, ...]]:
    """Mean logistic loss of a batch and its gradient for (linear, hidden_w, hidden_b, out_w)."""
    z0, pre0, act0 = _scores(model, x[:, 0])
    z1, pre1, act1 = _scores(model, x[:, 1])
    p = 1.0 / (1.0 + np.exp(-(z0 - z1)))
    loss = float(log_loss(p, y))
    dz = (p - y) / len(y)
    g_linear = x[:, 0].T @ dz - x[:, 1].T @ dz
    g_out = act0.T @ dz - act1.T @ dz
    d0 = (dz[:, None] * model.out_w[None, :]) * (pre0 > 0)
    d1 = -(dz[:, None] * model.out_w[None, :]) * (pre1 > 0)
    g_hidden_w = d0.T @ x[:, 0] + d1.T @ x[:, 1]
    g_hidden_b = d0.sum(axis=0) + d1.sum(axis=0)
    return loss, (g_linear, g_hidden_w, g_hidden_b, g_out)


def log_loss(p: Floats, y: Floats) -> float:
    q = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def accuracy(p: Floats, y: Floats) -> float:
    """Share of decided games whose winner the value favours (draws left out)."""
    decided = y != 0.5
    return float(np.mean((p[decided] > 0.5) == (y[decided] > 0.5))) if decided.any() else 0.0


def featurize(rows: Rows) -> Floats:
    out = np.empty((len(rows), 2, FEATURES))
    features_batch(rows, out)
    return out


def initial_model(hidden: int, rng: np.random.Generator) -> GeisterValue:
    model = GeisterValue.zeros(hidden)
    model.hidden_w[:] = rng.normal(0.0, 1.0 / math.sqrt(FEATURES), model.hidden_w.shape)
    model.out_w[:] = rng.normal(0.0, 0.1, hidden)
    return model


def fit(adam: Adam, rows: Rows, y: Floats, epochs: float, batch: int, rng: np.random.Generator) -> float:
    """`epochs` passes of minibatch Adam over the positions `rows` with results `y` (features computed per
    batch, so the data stays small); returns the mean training loss of the last pass. Fewer positions than
    a batch make one smaller batch."""
    batch = min(batch, len(y))
    steps = max(1, int(epochs * len(y) / batch))
    losses: list[float] = []
    order = rng.permutation(len(y))
    at = 0
    x = np.empty((batch, 2, FEATURES))
    for _ in range(steps):
        if at + batch > len(order):
            order, at = rng.permutation(len(y)), 0
        pick = np.sort(order[at : at + batch])
        at += batch
        features_batch(rows[pick], x)
        loss, grads = gradients(adam.model, x, y[pick])
        adam.step(grads)
        losses.append(loss)
    tail = losses[-max(1, len(y) // batch) :]
    return float(np.mean(tail))


# --- the hand evaluation on the same positions -------------------------------------------------------------
def hand_values(rows: Rows) -> Floats:
    """GeisterPolicy.evaluate (the search's hand evaluation, P(seat 0 wins)) of full rows."""
    from ghostgames.bots.base import SeatKnowledge
    from ghostgames.bots.geister.search import GeisterPolicy
    from ghostgames.games import get_game

    game = get_game("geister")
    out = np.empty(len(rows))
    policy: GeisterPolicy | None = None
    for i, row in enumerate(rows):
        state = game.load(fast.to_json(row))
        if policy is None:
            policy = GeisterPolicy(SeatKnowledge(state, 0))
        out[i] = policy.evaluate(state)[0]
    return out


def calibrate(p: Floats, y: Floats) -> tuple[float, float]:
    """(a, b) of the best sigmoid(a * logit(p) + b) on (p, y), a 2-parameter logistic fit (Newton)."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    t = np.log(q / (1 - q))
    a, b = 1.0, 0.0
    for _ in range(50):
        r = 1.0 / (1.0 + np.exp(-np.clip(a * t + b, -500, 500)))  # clipped: a separable sample diverges
        w = r * (1 - r) + 1e-9
        g = np.array([np.sum((r - y) * t), np.sum(r - y)])
        h = np.array([[np.sum(w * t * t), np.sum(w * t)], [np.sum(w * t), np.sum(w)]])
        da, db = np.linalg.solve(h + 1e-9 * np.eye(2), g)
        a, b = a - da, b - db
    return float(a), float(b)


def apply_calibration(p: Floats, ab: tuple[float, float]) -> Floats:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    out: Floats = 1.0 / (1.0 + np.exp(-np.clip(ab[0] * np.log(q / (1 - q)) + ab[1], -500, 500)))
    return out


# --- the learning curve: the `value` bot against fixed opponents ---------------------------------------------
def eval_game(model: GeisterValue, opponent: str, seed: int, worlds: int, index: int) -> str:
    """Game `index` (escape rule, 300 plies) of the value bot against `opponent`, seats alternating: the
    value bot's result. The same game for every model (seeds from `seed` and the game number)."""
    from ghostgames.bots import SeatKnowledge, get_bot
    from ghostgames.bots.value_bot import ValueBot
    from ghostgames.games import get_game

    ours = ValueBot(model, worlds)
    theirs = get_bot(opponent)
    game_seed = derive_rng(seed, "train-eval-game", index).randrange(2**63)
    decisions = derive_rng(seed, "train-eval-bots", index)
    state = get_game("geister").new(2, {"exit": "escape", "max_plies": GAME_PLIES}, seed=game_seed)
    our_seat = index % 2
    while state.to_act():
        seat = min(state.to_act())
        bot = ours if seat == our_seat else theirs
        state.apply(seat, bot.choose(SeatKnowledge(state, seat), random.Random(decisions.randrange(2**63))))
    outcome = state.outcome()
    assert outcome is not None
    return outcome.results[our_seat].result


def play_against(model: GeisterValue, opponent: str, games: int, seed: int, worlds: int,
                 executor: Executor | None = None) -> dict[str, float]:
    """`games` games of the value bot against `opponent` (`eval_game`), run by `executor` (default: here)."""
    with given_or_local(executor) as runner:
        results = [result for _, result in runner.run(functools.partial(eval_game, model, opponent, seed, worlds),
                                                      range(games))]
    wins = results.count("win")
    draws = results.count("draw")
    return {"games": games, "wins": wins, "draws": draws, "win_rate": wins / games}


# --- the whole run ------------------------------------------------------------------------------------------
OPPONENTS = ("random", "charge", "rules")


@dataclass(frozen=True)
class TrainSpec:
    seed: int = 1
    games: int = 100_000  # self-play games in all
    checkpoints: int = 4  # rounds of self-play + fit, each followed by a checkpoint
    keep: int = 4  # positions kept per game
    hidden: int = 32  # hidden units (0: logistic regression)
    epochs: float = 2.0  # passes over the data so far, per round
    batch: int = 256
    rate: float = 0.003
    guided: float = 0.2  # share of the games of rounds 2.. played by the value so far (0: all by the playouts)
    heldout_games: int = 2_000
    eval_games: int = 40  # games per opponent at each checkpoint
    worlds: int = 8  # belief worlds the value bot scores each move in, at the checkpoints
    opponents: tuple[str, ...] = OPPONENTS

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "opponents": list(self.opponents)}


Report = Callable[[str], None]  # called with what starts next; each call ends one step of `steps(spec)`


def steps(spec: TrainSpec) -> int:
    """Steps the run reports: per round self-play and a fit, per checkpoint one match per opponent."""
    return 2 * spec.checkpoints + (spec.checkpoints + 1) * len(spec.opponents)


def train(spec: TrainSpec, report: Report | None = None,
          executor: Executor | None = None) -> tuple[GeisterValue, dict[str, Any]]:
    """Self-play, fit and checkpoints; returns the model and the curve (a JSON-able dict). `executor` runs
    the rollout tasks and the checkpoint games (processes here or a Ray cluster; the same weights either way:
    every game's seeds come from its number); the learner fits here."""
    tell: Report = report or (lambda what: None)
    rng = np.random.default_rng(derive_rng(spec.seed, "fit").getrandbits(64))
    model = initial_model(spec.hidden, rng)
    adam = Adam(model, rate=spec.rate)
    held_rows, held_y = positions(spec.heldout_games, spec.keep, spec.seed, "heldout", executor=executor)
    held_x = featurize(held_rows)
    curve: list[dict[str, Any]] = []
    xs: list[Rows] = []
    ys: list[Floats] = []

    def checkpoint(games_so_far: int, train_loss: float | None) -> None:
        p = predict(model, held_x)
        point: dict[str, Any] = {"games": games_so_far, "positions": int(sum(len(y) for y in ys)),
                                 "train_loss": train_loss, "heldout_loss": log_loss(p, held_y),
                                 "heldout_accuracy": accuracy(p, held_y), "win_rate": {}}
        for opponent in spec.opponents:
            tell(f"checkpoint {len(curve)}: value vs {opponent}")
            point["win_rate"][opponent] = play_against(model, opponent, spec.eval_games, spec.seed, spec.worlds,
                                                       executor)
        curve.append(point)

    checkpoint(0, None)
    per_round = [spec.games // spec.checkpoints + (1 if r < spec.games % spec.checkpoints else 0)
                 for r in range(spec.checkpoints)]
    played = 0
    for r, count in enumerate(per_round):
        tell(f"round {r + 1}: self-play")
        rows, y = positions(count, spec.keep, spec.seed, f"self-play-{r}", spec.guided if r > 0 else 0.0, model,
                            executor)
        xs.append(rows)
        ys.append(y)
        played += count
        tell(f"round {r + 1}: fit")
        loss = fit(adam, np.concatenate(xs), np.concatenate(ys), spec.epochs, spec.batch, rng)
        checkpoint(played, loss)
    return model, {"spec": spec.to_json(), "features": FEATURES, "curve": curve}


def compare_with_hand(model: GeisterValue, seed: int, games: int, keep: int,
                      executor: Executor | None = None) -> dict[str, Any]:
    """Held-out log-loss and accuracy of the learned value and of the hand evaluation (as it is, and
    recalibrated on other positions with two parameters, to be fair to a scale it was never fitted for)."""
    rows, y = positions(games, keep, seed, "compare", executor=executor)
    fit_rows, fit_y = positions(games, keep, seed, "compare-calibration", executor=executor)
    learned = predict(model, featurize(rows))
    hand = hand_values(rows)
    ab = calibrate(hand_values(fit_rows), fit_y)
    hand_cal = apply_calibration(hand, ab)
    return {
        "positions": len(y),
        "draw_share": float(np.mean(y == 0.5)),
        "learned": {"log_loss": log_loss(learned, y), "accuracy": accuracy(learned, y)},
        "hand": {"log_loss": log_loss(hand, y), "accuracy": accuracy(hand, y)},
        "hand_calibrated": {"log_loss": log_loss(hand_cal, y), "accuracy": accuracy(hand_cal, y),
                            "a": ab[0], "b": ab[1]},
        "constant": {"log_loss": log_loss(np.full(len(y), float(np.mean(fit_y))), y)},
    }


def plot_curve(result: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result["curve"]
    games = [p["games"] for p in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for opponent in result["spec"]["opponents"]:
        left.plot(games, [100 * p["win_rate"][opponent]["win_rate"] for p in curve], marker="o", label=opponent)
    left.set_xlabel("self-play games")
    left.set_ylabel("value bot win rate (%)")
    left.set_ylim(0, 100)
    left.set_title(f"vs fixed opponents, {result['spec']['eval_games']} games each")
    left.legend(loc="lower right")
    right.plot(games, [p["heldout_loss"] for p in curve], marker="o", label="held-out log-loss")
    right.set_xlabel("self-play games")
    right.set_ylabel("log-loss")
    right.set_title("predicting the result of held-out positions")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- further training on the search's own games ---------------------------------------------------------------
@dataclass(frozen=True)
class FineTuneSpec:
    held_every: int = 5  # every k-th game is held out of the fit, to measure it
    # passes over the positions (a third made the held-out loss worse: docs/research/geister-learned-value.md)
    epochs: int = 2
    rate: float = 0.0005
    batch: int = 256
    seed: int = 1


def fine_tune(start: GeisterValue, rows: Rows, y: Floats, games: NDArray[np.int32],
              spec: FineTuneSpec = FineTuneSpec()) -> tuple[GeisterValue, dict[str, Any]]:
    """`start` trained further on positions of whole games (`games`: the game each row came from), with the
    games whose number is a multiple of `held_every` held out. Returns the new model and, on the held-out
    positions, the log-loss and accuracy of a constant, the hand evaluation (as it is and recalibrated on
    training positions), the starting weights and the new ones."""
    held = games % spec.held_every == 0
    train_rows, train_y, held_rows, held_y = rows[~held], y[~held], rows[held], y[held]
    held_x = featurize(held_rows)
    report: dict[str, Any] = {"spec": spec.__dict__, "games": len(set(games.tolist())),
                              "train_positions": len(train_y), "held_positions": len(held_y)}

    def score(name: str, p: Floats) -> None:
        report[name] = {"log_loss": log_loss(p, held_y), "accuracy": accuracy(p, held_y)}

    score("constant", np.full(len(held_y), float(np.mean(train_y))))
    hand = hand_values(held_rows)
    score("hand", hand)
    sample = slice(None, None, max(1, len(train_y) // 5000))  # about 5,000 positions fit the calibration
    score("hand_calibrated", apply_calibration(hand, calibrate(hand_values(train_rows[sample]), train_y[sample])))
    score("start", predict(start, held_x))
    model = GeisterValue(*(a.copy() for a in start.arrays))
    adam = Adam(model, rate=spec.rate)
    rng = np.random.default_rng(spec.seed)
    report["curve"] = []
    for _ in range(spec.epochs):
        loss = fit(adam, train_rows, train_y, 1.0, spec.batch, rng)
        report["curve"].append({"train_loss": loss, "heldout_loss": log_loss(predict(model, held_x), held_y)})
    score("trained", predict(model, held_x))
    return model, report
