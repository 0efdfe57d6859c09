"""The three games as RLlib multi-agent environments: every seat an agent ("seat_0", "seat_1", …), turn by
turn. After each step only the seat to act gets an observation (what RLlib then asks an action of): its own
`encode(seat)` arrays flattened into one vector ("observations") and its action mask ("action_mask"), the
layout RLlib's action-masking modules read. When the game ends every seat gets its last observation and its
reward (+1 win, -1 loss, 0 draw); before that a seat that has acted gets 0 with each observation (RLlib
wants a reward beside every observation after an agent's first action). Nothing a seat may not know reaches
its observation.

Needs the extra: pip install 'ghostgames[rllib]'. docs/distributed.md shows PPO training a shared policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from ghostgames.envs.common import check_settings, decode, illegal_rewards, new_state, rewards
from ghostgames.rules.contract import IllegalAction, State

Observation = dict[str, np.ndarray[Any, np.dtype[np.float32]]]
Step = tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]


class GhostGamesMultiAgentEnv(MultiAgentEnv):
    """`config` (RLlib passes the env_config dict): game, players, options; an illegal action (impossible
    with the mask applied) loses the game for its seat, as in the other wrappers."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        settings = check_settings(config.get("game", "geister"), config.get("players"), config.get("options"),
                                  "lose", None)
        self.game, self.players, self.options = settings.game, settings.players, settings.options
        self.possible_agents = [f"seat_{seat}" for seat in range(self.players)]
        self.agents = list(self.possible_agents)
        self._shapes = self.game.observation_shapes(self.players)
        size = sum(int(np.prod(shape)) for shape in self._shapes.values())
        actions = self.game.action_count(self.players)
        space = spaces.Dict({"observations": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                             "action_mask": spaces.Box(0.0, 1.0, (actions,), dtype=np.float32)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(actions))
        self._rng = np.random.default_rng()
        self.state: State[Any] | None = None
        self._acted: set[str] = set()  # seats that have acted this game

    def reset(self, *, seed: int | None = None,  # type: ignore[override]  # as step
              options: dict[str, Any] | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = new_state(self.game, self.players, self.options, None, self._rng)
        self.agents = list(self.possible_agents)
        self._acted = set()
        return {self._to_act(): self._observe(self._seat_to_act())}, {}

    def step(self, action_dict: MultiAgentDict) -> Step:  # type: ignore[override]  # RLlib's own clash with gym
        state = self._running()
        seat = self._seat_to_act()
        agent = f"seat_{seat}"
        if agent not in action_dict:
            raise IllegalAction(f"{agent} is to act: give its action")
        self._acted.add(agent)
        try:
            state.apply(seat, decode(self.game, state, seat, action_dict[agent]))
        except IllegalAction:
            return self._end(illegal_rewards(self.players, seat))
        outcome = state.outcome()
        if outcome is not None:
            return self._end(rewards(outcome))
        nxt = self._to_act()
        paid: MultiAgentDict = {name: 0.0 for name in (agent, nxt) if name in self._acted}
        return {nxt: self._observe(self._seat_to_act())}, paid, {"__all__": False}, {"__all__": False}, {}

    # --- helpers ------------------------------------------------------------------------------------
    def _running(self) -> State[Any]:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _seat_to_act(self) -> int:
        return min(self._running().to_act())

    def _to_act(self) -> str:
        return f"seat_{self._seat_to_act()}"

    def _observe(self, seat: int) -> Observation:
        state = self._running()
        arrays = state.encode(seat)
        flat = np.concatenate([np.asarray(arrays[name], dtype=np.float32).ravel() for name in self._shapes])
        return {"observations": flat, "action_mask": state.legal_mask(seat).astype(np.float32)}

    def _end(self, seat_rewards: list[float]) -> Step:
        """Every seat's last observation and reward; the episode is over for all."""
        obs = {agent: self._observe(seat) for seat, agent in enumerate(self.possible_agents)}
        reward = dict(zip(self.possible_agents, seat_rewards, strict=True))
        return obs, reward, {"__all__": True}, {"__all__": False}, {}
