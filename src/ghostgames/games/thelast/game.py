"""The Last game object: options, creation, loading and reading actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.thelast import actions, encoding, info_state
from ghostgames.games.thelast.actions import TheLastAction
from ghostgames.games.thelast.cards import COLOURS
from ghostgames.games.thelast.state import TheLastOptions, TheLastState
from ghostgames.rules.contract import Event, Game

_COLOUR_LINES = ", ".join(f"{c.letter} = {c.name} {c.symbol}" for c in COLOURS)

HELP = f"""The Last: 48 cards, values 1-12 in four colours ({_COLOUR_LINES}).
A card is its colour letter and value: R12, b3 (lower case works; so do 'red 12' and '▲12').
Each trick a points card is turned face up. Then, from the leader on:
  play R12   play a card. The leader plays anything; the others must follow the led colour if they can;
             the LAST player must play a colour already in the trick (any of them) if they can.
The last player's colour wins the trick; the highest card of that colour takes the points card.
The winner then decides:
  keep       lay the points card face down in front of you (its value is your penalty), or
  swap B3    take the points card into your hand and lay B3 from your hand face down instead.
After the last trick the face-down values are added up; the lowest total penalty wins.
2 players: a ghost pile plays its top card in its turn, whatever it is; when the ghost wins, the
points card scores for nobody and the ghost leads. Option rounds=N plays N rounds; totals decide.
Smaller games, same rules, never rated: colours=N (2-4: red, blue, green, yellow in that order),
values=N (1 to N in each colour), hand=N (cards in each hand, the ghost's pile and the points pile).
The deck must hold the deal: e.g. colours=2 values=4 hand=2 with 2 players (8 cards)."""


class TheLastGame(Game[TheLastOptions, TheLastAction]):
    name = "thelast"
    title = "The Last"
    verbs = ("play", "keep", "swap")
    min_players = 2
    max_players = 5
    Options = TheLastOptions

    def _new(self, players: int, options: TheLastOptions, seed: int) -> TheLastState:
        state = TheLastState(self, players, options, seed)
        events: list[Event] = []
        state.deal_round(events)
        return state

    def load(self, data: Mapping[str, Any]) -> TheLastState:
        return TheLastState.from_json(self, data)

    def parse_action(self, text: str) -> TheLastAction:
        return actions.parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> TheLastAction:
        return actions.action_from_json(data)

    def help_text(self) -> str:
        return HELP

    # --- for learning code (layout: ghostgames.games.thelast.encoding) ---------------------------
    def action_count(self, players: int) -> int:
        self.check_players(players)
        return encoding.ACTION_COUNT

    def action_index(self, action: TheLastAction, seat: int) -> int:
        return encoding.action_index(action)

    def action_at(self, index: int, seat: int) -> TheLastAction:
        return encoding.action_at(index)

    def observation_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        self.check_players(players)
        return encoding.observation_shapes(players)

    def encode_view(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        return encoding.encode_view(view)

    def info_state_shapes(self, players: int) -> dict[str, tuple[int, ...]]:
        self.check_players(players)
        return info_state.info_state_shapes(players)

    def encode_info_state(self, view: Mapping[str, Any]) -> dict[str, NDArray[np.float32]]:
        return info_state.encode_info_state(view)
