"""The Ghooost! game object: options, creation, loading and reading actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.games.ghooost import actions, encoding, info_state
from ghostgames.games.ghooost.actions import GhooostAction
from ghostgames.games.ghooost.state import GhooostOptions, GhooostState
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.contract import Game
from ghostgames.rules.options import OptionError

HELP = """Ghooost!: get rid of your hand and then your face-down mansion; the last player holding cards loses.
Cards: values 1-14 (11 jack, 12 knight, 13 queen, 14 king), K = Kitty, X = Miss Copy. Only values matter.
  play 7 7 X   play ghosts of one value, Miss Copy (X) copying them; they must be >= the top value
  play K       play Kitty cards alone ('play K K'): the next player loses a turn
  take         take the whole cemetery (Kitty included) into your hand
  gamble       before midnight: turn the crypt's top card and play it; if it cannot be played, take it
               with the cemetery
  turn         after midnight, with an empty hand: turn your mansion's top card and play it (or take it
               with the cemetery)
  pass         only when nothing else is allowed
  done         end your turn instead of taking the extra turn a double or triple gives (option replay may)
Before midnight (while the crypt has cards) you refill to 4 after every action. Powers: a 1 is always
playable; after a 3 only 1, 3 or 12; after a 12 only 1 or 12; an 8 reverses the direction; a jack clears
the cemetery and you must play again; 4 alike (or completing 4 with the cemetery's top) clear the cemetery
and you must play again; 2 or 3 cards from the hand: you may play again (after the refill) or say 'done';
with the option replay 'must' you have to. One play gives at most one extra turn, and going out ends it.
Kitty and quartets may always be played."""


class GhooostGame(Game[GhooostOptions, GhooostAction]):
    name = "ghooost"
    title = "Ghooost!"
    verbs = ("play", *actions.SIMPLE_KINDS)
    min_players = 2
    max_players = 6
    Options = GhooostOptions

    def _new(self, players: int, options: GhooostOptions, seed: int) -> GhooostState:
        if options.first is not None and options.first >= players:
            raise OptionError(f"option 'first' takes a seat from 0 to {players - 1}, not {options.first}")
        first = options.first if options.first is not None else derive_rng(seed, "first").randrange(players)
        state = GhooostState(self, options, seed, players)
        state.deal(first)
        return state

    def load(self, data: Mapping[str, Any]) -> GhooostState:
        return GhooostState.from_json(self, data)

    def parse_action(self, text: str) -> GhooostAction:
        return actions.parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> GhooostAction:
        return actions.action_from_json(data)

    def help_text(self) -> str:
        return HELP

    # --- learning code (layout in encoding.py) ---------------------------------------------------------
    def action_count(self, players: int) -> int:
        self.check_players(players)
        return encoding.ACTION_COUNT

    def action_index(self, action: GhooostAction, seat: int) -> int:
        return encoding.action_index(action)

    def action_at(self, index: int, seat: int) -> GhooostAction:
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
