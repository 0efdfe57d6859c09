"""Every seat an agent: PettingZoo's agent-environment-cycle API over any ghostgames game.

Agents are "seat_0", "seat_1", …; the agent to act is a seat in `to_act()` (the lowest: in Geister's
simultaneous setup both seats set up, one after the other, neither seeing the other's choice). Each agent
observes only its own `encode(seat)` (or with observation="info_state" its perfect-recall
`encode_info_state(seat)`) and its action mask.

`state()` is PettingZoo's global state for centralised training (a critic that sees everything while
each actor sees only its own observation): every seat's observation arrays side by side, so it holds
every secret any seat holds (every hand, every ghost's colour). Never feed it to an acting policy. The live
game is `game_state` (a ghostgames `State`), for code that needs the rules themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ghostgames.envs.common import (
    RENDER_MODES,
    IllegalPolicy,
    ObservationKind,
    check_settings,
    decode,
    illegal_rewards,
    new_state,
    observation_space,
    observe,
    render_text,
    rewards,
)
from ghostgames.rules.contract import IllegalAction, State


class GhostGamesAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    metadata: ClassVar[dict[str, Any]] = {"name": "ghostgames_v0", "render_modes": RENDER_MODES, "render_fps": 1,
                                          "is_parallelizable": False}

    def __init__(self, game: str = "geister", players: int | None = None, options: Mapping[str, Any] | None = None,
                 illegal: IllegalPolicy = "lose", render_mode: str | None = None,
                 observation: ObservationKind = "view") -> None:
        super().__init__()
        settings = check_settings(game, players, options, illegal, render_mode, observation)
        self.observation_kind = settings.observation
        self.game, self.players, self.options = settings.game, settings.players, settings.options
        self.illegal, self.render_mode = settings.illegal, settings.render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(self.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.game, self.players, self.observation_kind)
        self._action_space: spaces.Space[Any] = spaces.Discrete(self.game.action_count(self.players))
        self._rng = np.random.default_rng()
        self._shapes = self.game.observation_shapes(self.players)
        size = self.players * sum(int(np.prod(shape)) for shape in self._shapes.values())
        self.state_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.game_state: State[Any] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = new_state(self.game, self.players, self.options, seed, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_act()

    def observe(self, agent: str) -> dict[str, Any]:
        return observe(self._running(), self._seat[agent], self.observation_kind)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to act: give an action index, not None")
        state, seat = self._running(), self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            chosen = decode(self.game, state, seat, action)
        except IllegalAction as err:
            if self.illegal == "raise":
                raise
            self._finish(illegal_rewards(self.players, seat))
            self.infos[agent] = {"illegal_action": err.reason}
            self._accumulate_rewards()
            return
        state.apply(seat, chosen)
        outcome = state.outcome()
        if outcome is not None:
            self._finish(rewards(outcome))
        else:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state (see the module's docstring): each seat's observation arrays, flattened in the
        order of `observation_shapes`, seat after seat; `state_space` describes it. It holds every secret
        a seat holds, so it is for centralised critics only; what no seat knows (the order of undealt
        cards) is chance to come, not in it."""
        state = self._running()
        parts: list[np.ndarray[Any, np.dtype[np.float32]]] = []
        for seat in range(self.players):
            arrays = state.encode(seat)
            parts.extend(arrays[name].ravel() for name in self._shapes)
        return np.concatenate(parts).astype(np.float32, copy=False)

    def render(self) -> str | None:
        """'ansi': the spectator's view as text (nothing secret); 'human': that text printed."""
        if self.render_mode is None or self.game_state is None:
            return None
        text = render_text(self.game_state, None)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        self.game_state = None

    # --- helpers ------------------------------------------------------------------------------------
    def _running(self) -> State[Any]:
        if self.game_state is None:
            raise RuntimeError("call reset() first")
        return self.game_state

    def _to_act(self) -> str:
        return self.possible_agents[min(self._running().to_act())]

    def _finish(self, seat_rewards: list[float]) -> None:
        for agent, reward in zip(self.possible_agents, seat_rewards, strict=True):
            self.rewards[agent] = reward
            self.terminations[agent] = True


def env(**kwargs: Any) -> GhostGamesAEC:
    """PettingZoo's customary factory name."""
    return GhostGamesAEC(**kwargs)
