"""How a decision is judged from the search's estimates: the one place that holds the thresholds, the
noise rule and the accuracy formula, the same for every game (docs/analysis.md explains them).

An estimate is the seat's expected reward in [0, 1] (see `analysis.estimate`), so a drop of 0.10 means "a
tenth of a game lost" whatever the game; that is why one set of thresholds serves all three."""

from __future__ import annotations

import math

# Upper bounds of the drop (best estimate minus the played move's) for each label, checked in order.
BEST_BELOW = 0.02
GOOD_BELOW = 0.05
INACCURACY_BELOW = 0.10
MISTAKE_BELOW = 0.20  # at or above: blunder
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")

# The noise rule: a drop counts as a mistake or a blunder only when it exceeds NOISE_SIGMAS standard errors
# of the difference of the two sampled means; otherwise it is at most an inaccuracy.
NOISE_SIGMAS = 2.0
# A mean near 0 or 1 from few samples would claim no noise at all; its variance is taken as at least this.
MIN_VARIANCE = 0.05

# A missed win: a move estimated at least WIN_AT existed and the move played was MISSED_WIN_DROP or more
# below it (beyond the noise).
WIN_AT = 0.90
MISSED_WIN_DROP = 0.20

# Accuracy of one decision: 100 at no drop, falling linearly to 0 at a drop of ACCURACY_ZERO_AT.
ACCURACY_ZERO_AT = 0.25


def standard_error(mean: float, visits: int) -> float:
    """The binomial standard error of a mean of `visits` rewards in [0, 1]: p(1 - p) bounds the variance of
    any reward in [0, 1] with mean p, so this never understates the noise of a shaped reward either."""
    if visits <= 0:
        return math.inf
    return math.sqrt(max(mean * (1.0 - mean), MIN_VARIANCE) / visits)


def noise(best: float, best_visits: int, played: float, played_visits: int) -> float:
    """How large a drop must be before it is more than sampling noise."""
    return NOISE_SIGMAS * math.hypot(standard_error(best, best_visits), standard_error(played, played_visits))


def label(drop: float, margin: float, played_is_best: bool) -> str:
    """best / good / inaccuracy / mistake / blunder for a drop, capped at inaccuracy within the noise."""
    if played_is_best or drop < BEST_BELOW:
        return "best"
    if drop < GOOD_BELOW:
        return "good"
    if drop < INACCURACY_BELOW or drop <= margin:
        return "inaccuracy"
    return "mistake" if drop < MISTAKE_BELOW else "blunder"


def missed_win(best: float, drop: float, margin: float) -> bool:
    return best >= WIN_AT and drop >= MISSED_WIN_DROP and drop > margin


def decision_accuracy(drop: float) -> float:
    return 100.0 * max(0.0, 1.0 - drop / ACCURACY_ZERO_AT)


def accuracy(drops: list[float]) -> float | None:
    """The mean of the decisions' accuracies (None without a decision to judge)."""
    return sum(decision_accuracy(d) for d in drops) / len(drops) if drops else None
