"""What a seat sees, as OpenSpiel's observation and information-state strings and tensors.

Strings: the observation is the seat's `view` (JSON, keys sorted); the information state adds, before it,
the seat's share of every event so far (`Event.for_seat`), so it keeps what the seat saw happen, in order
(perfect recall). Tensors: the observation tensor is the game's encoding of the view (`State.encode`),
flattened in the order of `Game.observation_shapes`; the information-state tensor is the game's
perfect-recall encoding (`State.encode_info_state`, in the order of `Game.info_state_shapes`; docs/spiel.md
says what each keeps). A public observer (no private information) uses the spectator's view; one with every
player's private information, the full state.
"""

from __future__ import annotations

import json
from math import prod
from typing import Any

import numpy as np
import pyspiel

from ghostgames.rules.contract import Game


def _text(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class SpielObserver:
    """OpenSpiel's Python observer: `tensor` and `dict` filled by `set_from`, strings by `string_from`."""

    def __init__(self, game: Game[Any, Any], players: int, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the ghostgames observers take no parameters, not {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.game = game
        self.perfect_recall = bool(obs_type.perfect_recall)
        self.private = obs_type.private_info
        shapes = game.info_state_shapes if self.perfect_recall else game.observation_shapes
        self.shapes = shapes(players) if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER else {}
        self.tensor = np.zeros(sum(prod(shape) for shape in self.shapes.values()), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, shape in self.shapes.items():
            self.dict[name] = self.tensor[start : start + prod(shape)].reshape(shape)
            start += prod(shape)

    def set_from(self, state: Any, player: int) -> None:
        self.tensor.fill(0.0)
        if state.inner is None or not self.shapes:
            return  # nothing is known while the cards are dealt
        encode = state.inner.encode_info_state if self.perfect_recall else state.inner.encode
        for name, array in encode(player).items():
            self.dict[name][...] = array

    def string_from(self, state: Any, player: int) -> str:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return str(state)
        seat = player if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER else None
        if state.inner is None:
            return f"seat {seat}: dealing, {len(state.drawn)} dealt"
        view = _text(state.inner.view(seat))
        if not self.perfect_recall:
            return view
        seen = "\n".join(_text([event.for_seat(seat) for event in events]) for events in state.steps)
        return f"seat {seat}\n{seen}\n{view}"
