"""Many The Last matches at once for learning code: a Gymnasium `VectorEnv` on the compiled core
(ghostgames.games.thelast.fast), against random or `rules` opponents or in self-play. The conventions are
the card games' (envs/card_vector.py) and every batched environment's (envs/batched.py).

A reward comes on the step that ended the match (lowest total penalty wins, ties share, all equal is a
draw); the finished match's `totals` (every seat's total penalty, (N, players)) are in `info["final_info"]`
(SAME_STEP) or `info["totals"]` (NEXT_STEP). The batch is stepped on the calling thread. The core keeps no
pile order, which the reference's saved form needs, so there is no `state(i)`: `row(i)` gives the core's row.
"""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

import numpy as np

from ghostgames.envs import thelast_kernels
from ghostgames.envs.card_vector import CardVectorEnv
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.state import TheLastOptions


class TheLastVectorEnv(CardVectorEnv):
    """`num_envs` matches of The Last with `players` players (2 to 5, default 3) stepped together. `options`
    are The Last's table options (rounds, colours, values, hand); `opponent` "random", "rules" or None for self-play;
    `learner_seat` a seat or "alternate"; `copy=False` returns the environment's own arrays, which the next
    step overwrites; `autoreset_mode` SAME_STEP (default) or NEXT_STEP."""

    game = "thelast"
    default_players = 3
    title = "The Last"
    ended = "totals"
    options_model = TheLastOptions
    core: ClassVar[ModuleType] = fast
    kernels: ClassVar[ModuleType] = thelast_kernels
    row_type = np.int64

    def _table_of(self) -> tuple[int, ...]:
        return fast.config(self.players, self.options)
