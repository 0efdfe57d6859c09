"""The expert's setup, chosen with the learned value: which four of its start squares hold good ghosts.

A setup is the one choice the search cannot make (nothing is known of the enemy yet), so it used to be
uniform. The value trained on the search's own games (`SEARCH_WEIGHTS_FILE`) scores the position right
after both setups, so each of the 70 setups has a mean value against the 70 enemy setups, both seats
moving first in turn. A setup and its mirror image (left and right swapped) are worth the same under the
rules, so the two means are averaged, which evens out some of the fit's noise. The expert then picks
uniformly among the best quarter (`KEEP`): a single best setup would tell an opponent who knows it where
the good ghosts stand; 17 setups keep about four of the six bits a uniform choice hides.

The choice reads the exit rule and the seat only, never the enemy, so it cannot peek.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.geister.value import SEARCH_WEIGHTS_FILE, GeisterValue, value_of_row
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Setup
from ghostgames.games.geister.board import START
from ghostgames.rules.contract import Action

Floats = NDArray[np.float64]

SETUPS = len(fast.SETUP_GOOD)  # 70: which 4 of the 8 ghosts are good
KEEP = SETUPS // 4  # the expert picks among the best quarter
_INDEX = {tuple(int(x) for x in good): i for i, good in enumerate(fast.SETUP_GOOD)}
# MIRROR[i]: setup i with both rows read from the other side (ghosts 0-3 the front row, 4-7 the back row,
# each from the owner's left).
MIRROR = tuple(_INDEX[tuple(int(x) for x in good[3::-1]) + tuple(int(x) for x in good[:3:-1])]
               for good in fast.SETUP_GOOD)


def setup_values(model: GeisterValue, escape: bool) -> Floats:
    """Each setup's mean value for the seat that chose it, against a uniformly random enemy setup, averaged
    over who moves first and over the setup and its mirror image."""
    arrays = model.kernel_arrays
    row = np.zeros(fast.FIELDS, dtype=np.int32)
    raw = np.zeros(SETUPS)
    for mine in range(SETUPS):
        total = 0.0
        for theirs in range(SETUPS):
            for first in (0, 1):
                fast.new_game(row, int(escape), 300, 0, first)
                fast.apply_setup(row, 0, mine)
                fast.apply_setup(row, 1, theirs)
                total += value_of_row(row, *arrays)
        raw[mine] = total / (2 * SETUPS)
    return (raw + raw[list(MIRROR)]) / 2


def best_setups(values: Floats, keep: int = KEEP) -> tuple[int, ...]:
    """The `keep` setups of highest value, best first (the lower index first on a tie)."""
    return tuple(sorted(range(len(values)), key=lambda i: (-values[i], i))[:keep])


def predicted_gain(values: Floats, keep: int = KEEP) -> float:
    """How much more the best `keep` setups are worth, on average, than a uniformly random setup."""
    return float(values[list(best_setups(values, keep))].mean() - values.mean())


@functools.cache
def chosen_setups(escape: bool, weights: str | None = None, keep: int = KEEP) -> tuple[int, ...]:
    """The setups the expert picks from under the exit rule, scored with the weights in `weights` (None:
    the packaged SEARCH_WEIGHTS_FILE); computed once per process (about 20 ms once compiled)."""
    model = GeisterValue.load(weights, packaged=SEARCH_WEIGHTS_FILE)
    return best_setups(setup_values(model, escape), keep)


def good_squares(index: int, seat: int) -> frozenset[int]:
    """The start squares that setup `index` fills with good ghosts for `seat`."""
    return frozenset(START[seat][k] for k in range(8) if fast.SETUP_GOOD[index, k])


def choose_setup(legal: Sequence[Action], seat: int, escape: bool, rng: random.Random,
                 weights: str | None = None, keep: int = KEEP) -> Action:
    """One of `chosen_setups`, uniformly, as the legal Setup action of `seat`."""
    good = good_squares(rng.choice(chosen_setups(escape, weights, keep)), seat)
    return next(a for a in legal if isinstance(a, Setup) and a.good == good)
