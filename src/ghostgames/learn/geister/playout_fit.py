"""Fitting the learned playout policy (`bots/geister/playout_policy.py`) to the moves a search made: each
decision read back from two consecutive positions of its games, its moves as the policy's feature bits, and
the weights of a multinomial logit fitted by Newton's method, and the plot of its learning curve
(`ghostgames train geister-playout`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister import playout_policy
from ghostgames.bots.geister.playout_policy import K, decision_bits
from ghostgames.games.geister import fast
from ghostgames.jit import compiled, forget_stale_kernels

Row = NDArray[np.int32]
_POS = fast.POS


@compiled
def _chosen(row: Row, after: Row, legal: NDArray[np.int32], n: int) -> int:
    """Which of the first n moves in `legal` turns `row` into `after` (compared by where the ghosts stand),
    or -1."""
    trial = np.empty(fast.FIELDS, dtype=np.int32)
    for i in range(n):
        trial[:] = row
        fast.apply_move(trial, legal[i])
        same = True
        for g in range(16):
            if trial[_POS + g] != after[_POS + g]:
                same = False
                break
        if same:
            return i
    return -1


forget_stale_kernels(sys.modules[__name__], (_chosen,), inlined=(fast, playout_policy))


@dataclass
class Decisions:
    """Each decision's moves as feature bits (-1 past its moves) and the index of the move made."""

    bits: NDArray[np.int32]
    chosen: NDArray[np.int64]
    games: NDArray[np.int32]  # the game each decision came from

    @classmethod
    def from_games(cls, rows: NDArray[np.int32], games: NDArray[np.int32]) -> Decisions:
        """The decisions in consecutive positions of the same game (`positions.py` keeps every one);
        positions with a sure move, and the last of each game, are left out."""
        all_bits, chosen, game_of = [], [], []
        legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
        bits = np.empty(fast.MAX_MOVES, dtype=np.int32)
        for t in range(len(rows) - 1):
            row, after = rows[t], rows[t + 1]
            if games[t] != games[t + 1] or after[fast.PLY] != row[fast.PLY] + 1 or row[fast.WINNER] != fast.RUNNING:
                continue
            n = decision_bits(row, legal, bits)
            if n < 0:
                continue
            i = _chosen(row, after, legal, n)
            if i < 0:
                continue  # `after` is not one step of the seat to move: not a pair of consecutive positions
            padded = np.full(fast.MAX_MOVES, -1, dtype=np.int32)
            padded[:n] = bits[:n]
            all_bits.append(padded)
            chosen.append(i)
            game_of.append(games[t])
        return cls(np.array(all_bits, dtype=np.int32).reshape(len(chosen), fast.MAX_MOVES),
                   np.array(chosen, dtype=np.int64), np.array(game_of, dtype=np.int32))

    def __len__(self) -> int:
        return len(self.chosen)

    def log_loss(self, weights: NDArray[np.float64]) -> float:
        """Mean -log P(the move made) under `weights`."""
        f, present = self._features()
        logits = np.where(present, f @ weights, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        log_z = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
        return float(np.mean(log_z - logits[np.arange(len(self)), self.chosen]))

    def hand_log_loss(self, hunt: float, push: float) -> float:
        """Mean -log P(the move made) under the hand playout (`fast_search.rollout_move`): a capture with
        chance `hunt`, else a good ghost's step towards its exits with chance `push`, else any move."""
        present = self.bits >= 0
        n = present.sum(axis=1, keepdims=True)
        capture = present & (self.bits & 1 > 0)
        forward = present & (self.bits & 2 > 0)
        n_capture = capture.sum(axis=1, keepdims=True)
        n_forward = forward.sum(axis=1, keepdims=True)
        hunting = np.where(n_capture > 0, hunt, 0.0)
        pushing = np.where(n_forward > 0, push, 0.0)
        p = (capture * hunting / np.maximum(n_capture, 1)
             + (1 - hunting) * (forward * pushing / np.maximum(n_forward, 1) + (1 - pushing) / n))
        return float(np.mean(-np.log(p[np.arange(len(self)), self.chosen])))

    def subset(self, keep: NDArray[np.bool_]) -> Decisions:
        return Decisions(self.bits[keep], self.chosen[keep], self.games[keep])

    def learning_curve(self, test: Decisions, weights: NDArray[np.float64], points: int = 5) -> list[dict[str, float]]:
        """The log-loss on `test` of fits on the first 1/2**(points-1), ..., 1/2 and all of these decisions'
        games (`weights`: the fit on all of them, already made): whether more games would still help."""
        games = np.unique(self.games)  # sorted
        counts = sorted({max(1, len(games) >> shift) for shift in range(1, points)} - {len(games)})
        curve: list[dict[str, float]] = []
        for count in counts:
            part = self.subset(self.games <= games[count - 1])
            curve.append({"games": count, "decisions": len(part), "log_loss": test.log_loss(part.fit())})
        return [*curve, {"games": len(games), "decisions": len(self), "log_loss": test.log_loss(weights)}]

    def _features(self) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        present = self.bits >= 0
        f = ((np.maximum(self.bits, 0)[:, :, None] >> np.arange(K)[None, None, :]) & 1).astype(np.float64)
        return f * present[:, :, None], present

    def fit(self, ridge: float = 1e-3, steps: int = 30) -> NDArray[np.float64]:
        """Maximum-likelihood weights (with a small ridge, so that a feature never seen stays at 0)."""
        f, present = self._features()
        made = f[np.arange(len(self)), self.chosen]
        w = np.zeros(K)
        for _ in range(steps):
            logits = np.where(present, f @ w, -np.inf)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("dm,dmk->dk", p, f)
            gradient = (mean - made).sum(axis=0) + ridge * len(self) * w
            second = np.einsum("dm,dmk,dml->kl", p, f, f) - mean.T @ mean
            hessian = second + ridge * len(self) * np.eye(K)
            step = np.linalg.solve(hessian, gradient)
            w -= step
            if np.max(np.abs(step)) < 1e-6:
                break
        return w


def plot_curve(curve: list[dict[str, float]], losses: dict[str, float], held_out: int, path: Path) -> None:
    """The learned policy's held-out log-loss by the number of games it was fitted on, beside the two fixed
    policies it replaces or is measured against (uniform and the hand playout)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(figsize=(6, 4))
    axes.plot([p["games"] for p in curve], [p["log_loss"] for p in curve], marker="o", label="learned policy")
    for name, style in (("uniform", ":"), ("hand playout", "--")):
        axes.axhline(losses[name], linestyle=style, color="grey", label=name)
    axes.set_xscale("log", base=2)
    axes.set_xticks([p["games"] for p in curve], [f"{p['games']:.0f}" for p in curve])
    axes.set_xlabel("games of the search fitted on")
    axes.set_ylabel("log-loss of the search's moves")
    axes.set_title(f"held out: {held_out} moves")
    axes.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
