"""One seat against ghostgames bots: a Gymnasium environment for single-agent learning code.

The other seats are played by bots from `ghostgames.bots` (random by default; any name `get_bot`
accepts, e.g. "rules", "ismcts:200", "easy"). They decide from their own seat's knowledge only, as at
a table. The learner observes its `encode(seat)` arrays (or, with observation="info_state", its
`encode_info_state(seat)` arrays, which remember the whole game) and the action mask; the reward comes at the
end (+1 win, -1 loss, 0 draw).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.base import Bot
from ghostgames.envs.common import (
    RENDER_MODES,
    REWARD,
    IllegalPolicy,
    ObservationKind,
    check_settings,
    decode,
    new_state,
    observation_space,
    observe,
    render_text,
)
from ghostgames.rules.contract import IllegalAction, State


class GhostGamesSolo(gym.Env[dict[str, Any], np.int64]):
    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012 - gymnasium declares it as a plain attribute

    def __init__(self, game: str = "geister", players: int | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "random", options: Mapping[str, Any] | None = None,
                 illegal: IllegalPolicy = "lose", render_mode: str | None = None,
                 observation: ObservationKind = "view") -> None:
        settings = check_settings(game, players, options, illegal, render_mode, observation)
        self.observation_kind = settings.observation
        self.game, self.players, self.options = settings.game, settings.players, settings.options
        self.illegal, self.render_mode = settings.illegal, settings.render_mode
        if not 0 <= seat < self.players:
            raise ValueError(f"seat is 0 to {self.players - 1} for {self.players} players, not {seat}")
        self.seat = seat
        others = [s for s in range(self.players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"give one opponent bot, or one per other seat ({len(others)}), not {len(names)}")
        self.bots: dict[int, Bot] = {s: get_bot(name) for s, name in zip(others, names, strict=True)}
        self.observation_space = observation_space(self.game, self.players, self.observation_kind)
        self.action_space = spaces.Discrete(self.game.action_count(self.players))
        self.state: State[Any] | None = None
        self._bot_rng = random.Random(0)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.state = new_state(self.game, self.players, self.options, None, self.np_random)
        self._bot_rng = random.Random(int(self.np_random.integers(2**63)))
        self._others_play()
        return self._observe(self.state), {}

    def step(self, action: np.int64 | int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self._running()
        if state.outcome() is not None:
            raise RuntimeError("the game is over: call reset()")
        try:
            chosen = decode(self.game, state, self.seat, action)
        except IllegalAction as err:
            if self.illegal == "raise":
                raise
            self.state = None  # the game ends here; the next call must be reset()
            return self._observe(state), REWARD["loss"], True, False, {"illegal_action": err.reason}
        state.apply(self.seat, chosen)
        self._others_play()
        outcome = state.outcome()
        if outcome is None:
            return self._observe(state), 0.0, False, False, {}
        result = outcome.results[self.seat]
        return self._observe(state), REWARD[result.result], True, False, {"outcome": outcome.to_json()}

    # gymnasium 1.2 (which RLlib pins) types render's result as an unbound type variable; 1.4 accepts str
    def render(self) -> str | None:  # type: ignore[override,unused-ignore]
        """'ansi': the learner's own view as text; 'human': that text printed."""
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    # --- helpers ------------------------------------------------------------------------------------
    def _running(self) -> State[Any]:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _observe(self, state: State[Any]) -> dict[str, Any]:
        return observe(state, self.seat, self.observation_kind)

    def _others_play(self) -> None:
        """The bots act until the learner may act or the game is over."""
        state = self._running()
        while (acting := state.to_act()) and self.seat not in acting:
            seat = min(acting)
            state.apply(seat, self.bots[seat].choose(SeatKnowledge(state, seat), self._bot_rng))
