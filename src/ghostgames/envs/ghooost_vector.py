"""Many Ghooost! games at once for learning code: a Gymnasium `VectorEnv` on the compiled core
(ghostgames.games.ghooost.fast), against random or `rules` opponents or in self-play. The conventions are
the card games' (envs/card_vector.py) and every batched environment's (envs/batched.py).

A game is what the table plays: one round with 2 players (or `match` False), else a match of rounds until a
second Bouh! (or `max_rounds`); its reward (+1 win, -1 loss, 0 draw) comes on the step that ended it, and
its `ranks` (every seat's rank from 1, (N, players)) are in `info["final_info"]` (SAME_STEP) or
`info["ranks"]` (NEXT_STEP). Random rounds are long (most reach `max_turns`, 1000 by default). With an
opponent, a game that ends before its learner's first decision (a Kitty and extra turns with a short
`max_turns` allow it; below twice the players it is refused) is dealt again unreported. The batch is
stepped on the calling thread; `state(i)` is not offered (the core keeps no log, which the reference's
saved form holds): `row(i)` gives the core's row.
"""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

import numpy as np

from ghostgames.envs import ghooost_kernels
from ghostgames.envs.card_vector import CardVectorEnv
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.state import GhooostOptions


class GhooostVectorEnv(CardVectorEnv):
    """`num_envs` games of Ghooost! with `players` players (2 to 6, default 2) stepped together. `options` are
    Ghooost!'s table options (deck, replay, match, max_turns, max_rounds, first); `opponent` "random",
    "rules" or None for self-play; `learner_seat` a seat or "alternate"; `copy=False` returns the
    environment's own arrays, which the next step overwrites; `autoreset_mode` SAME_STEP (default) or
    NEXT_STEP."""

    game = "ghooost"
    default_players = 2
    title = "Ghooost!"
    ended = "ranks"
    options_model = GhooostOptions
    core: ClassVar[ModuleType] = fast
    kernels: ClassVar[ModuleType] = ghooost_kernels
    row_type = np.int32

    def _check_options(self) -> None:
        """With an opponent, a round must let every seat's turn come: a learner whose turn never came would
        be dealt game after game."""
        if self.opponent is not None and self.options.max_turns < 2 * self.players:
            raise ValueError(f"max_turns {self.options.max_turns} may end a round before the learner's turn: give "
                             f"at least {2 * self.players} (twice the players) with an opponent")

    def _table_of(self) -> tuple[int, ...]:
        first = self.options.first
        return (self.players, *fast.options_of(self.options, self.players), -1 if first is None else first)
