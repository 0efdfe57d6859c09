"""The Geister game object: options, creation, loading and reading actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.geister import actions, encoding, info_state
from ghostgames.games.geister.actions import Move, Setup
from ghostgames.games.geister.state import GeisterOptions, GeisterState
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import Game

HELP = """Geister: each side has 4 good and 4 bad ghosts; only the owner knows which is which.
Setup (both at once, in secret): 'setup' and the 4 start squares of your good ghosts,
  e.g. 'setup b1 c1 d2 e2' (seat 0 starts on b1-e2, seat 1 on b5-e6).
Move: a square and a direction n/e/s/w (north = towards row 6 for everybody), e.g. 'b2 n';
  'b2-b3' and 'b2b3' also work. Moving onto an enemy ghost captures it and shows its colour.
Win: bring a good ghost to an exit (seat 0: a6/f6, seat 1: a1/f1) - with option exit=escape it must
  then leave the board with one more move ('a6 n', 'a6 w' or 'a6 out') - or capture all 4 enemy good
  ghosts, or get all 4 of your bad ghosts captured. A move that reaches an exit and takes the 4th
  enemy bad ghost loses: the capture decides."""


class GeisterGame(Game[GeisterOptions, Setup | Move]):
    name = "geister"
    title = "Geister"
    verbs = ("setup",)  # a move begins with its square
    chosen_setup = True
    min_players = 2
    max_players = 2
    Options = GeisterOptions

    def _new(self, players: int, options: GeisterOptions, seed: int) -> GeisterState:
        first = options.first if options.first is not None else derive_rng(seed, "first").randrange(2)
        return GeisterState(self, options, seed, first)

    def load(self, data: Mapping[str, Any]) -> GeisterState:
        return GeisterState.from_json(self, data)

    def parse_action(self, text: str) -> Setup | Move:
        return actions.parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> Setup | Move:
        return actions.action_from_json(data)

    def help_text(self) -> str:
        return HELP

    # For learning code; the layout is in encoding.py's docstring (seat 1 sees the board turned 180 degrees).
    def action_count(self, players: int) -> int:
        self.check_players(players)
        return encoding.ACTION_COUNT

    def action_index(self, action: Setup | Move, seat: int) -> int:
        return encoding.action_index(action, seat)

    def action_at(self, index: int, seat: int) -> Setup | Move:
        return encoding.action_at(index, seat)

    def observation_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        self.check_players(players)
        return encoding.observation_shapes()

    def encode_view(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        return encoding.encode_view(view)

    def info_state_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        self.check_players(players)
        return info_state.info_state_shapes()

    def encode_info_state(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        return info_state.encode_info_state(view)
