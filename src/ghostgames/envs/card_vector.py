"""What the card games' batched environments share (TheLastVectorEnv, GhooostVectorEnv): each game is a row of
its compiled core, each observation one flat float32 row split into the game's named arrays, and one kernel
call (envs/<game>_kernels.py, on the calling thread) plays the learners' actions and the opponents' turns.

With `opponent` "random", "rules" or a Python callable (observation, mask) -> action index (slower: Python per
opponent move; it gets its own seat's named arrays and mask) each game has one learner seat (`learner_seat`: a
seat, or "alternate": game i's learner is seat i % players); `step` takes the learner's action and plays the
other seats' turns inside (uniformly random legal actions, the `rules` bot compiled, or the callable's choices),
so every observation is the learner's, before a decision of its own. Without an opponent (self-play) the learner
of each game is its seat to act (`info["seat"]`). A reward (+1 win, -1 loss, 0 draw, as the game's Outcome says)
comes on the step that ended the game: the learner's, or in self-play the seat that just acted, with every seat's
in `info["rewards"]` (N, players). Autoreset as envs/batched.py says.

Each observation is exactly `state.encode(seat)` and `state.legal_mask(seat)` of its seat (the cores are
proven equal to the references): nothing that seat may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray
from pydantic import BaseModel, ValidationError

from ghostgames.envs.batched import (
    BatchedVectorEnv,
    Observation,
    Opponent,
    Rng,
    check_autoreset,
    check_num_envs,
)
from ghostgames.envs.common import observation_space
from ghostgames.games import get_game

SELF, RANDOM, RULES, EXTERNAL = 0, 1, 2, 3  # who plays the seats other than the learner, as the kernels take it
OPPONENTS = {"random": RANDOM, "rules": RULES}
REWARD_OF = np.array([-1.0, 1.0, 0.0], dtype=np.float32)  # per LOSS, WIN, DRAW (the cores' numbers)


class CardVectorEnv(BatchedVectorEnv):
    """`num_envs` games of one card game with `players` players stepped together; a subclass names the game,
    its core and kernels."""

    game: ClassVar[str]  # the registry's name
    default_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]
    row_type: ClassVar[type[np.integer[Any]]]  # the core's row dtype
    core: ClassVar[ModuleType]  # games/<game>/fast.py
    kernels: ClassVar[ModuleType]  # envs/<game>_kernels.py: batch_play and batch_random_actions

    def __init__(self, num_envs: int, players: int | None = None, options: Mapping[str, Any] | None = None,
                 seed: int | None = None, copy: bool = True, opponent: str | Opponent | None = None,
                 learner_seat: int | str = 0, render_mode: None = None,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP) -> None:
        num_envs = check_num_envs(num_envs)
        rules = get_game(self.game)
        players = self.default_players if players is None else players
        if isinstance(players, bool) or not isinstance(players, int) or \
                not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"{self.title} is played by {rules.min_players} to {rules.max_players} players, "
                             f"not {players!r}")
        try:
            self.options: Any = self.options_model.model_validate({**dict(options or {}), "players": players})
        except ValidationError as err:
            fields = ", ".join(f for f in self.options_model.model_fields if f != "players")
            raise ValueError(f"bad {self.title} options ({fields} are known): {err}") from None
        if render_mode is not None:
            raise ValueError(f"{type(self).__name__} draws nothing: render_mode is None, not {render_mode!r}")
        if opponent is not None and not callable(opponent) and opponent not in OPPONENTS:
            raise ValueError(f"opponent is 'random', 'rules', a callable (observation, mask) -> action index or "
                             f"None for self-play, not {opponent!r}")
        self.players = players
        self.opponent = opponent
        self._python_opponent = opponent if callable(opponent) else None
        self._kind = SELF if opponent is None else EXTERNAL if callable(opponent) else OPPONENTS[opponent]
        self._setup(num_envs, observation_space(rules, players), rules.action_count(players), copy, seed,
                    learner_seat, opponent is None, check_autoreset(autoreset_mode), render_mode)
        self._check_learner_seat(players)
        self._check_options()
        n, size, count = num_envs, self._observation_size(), self.action_count
        self._shapes = rules.observation_shapes(players)
        self._table = np.array(self._table_of(), dtype=np.int64)
        self._states = np.zeros((n, self._fields()), dtype=self.row_type)
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, count), dtype=np.int8)
        self._final_obs = np.zeros_like(self._obs)
        self._final_masks = np.zeros_like(self._masks)
        self._learner = np.zeros(n, dtype=np.int8)  # per game, its learner seat (with an opponent)
        self._seats = np.zeros(n, dtype=np.int8)  # per game, the seat whose observation is shown
        self._rewards = np.zeros(n, dtype=np.float32)
        self._seat_rewards = np.zeros((n, players), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._pending = np.zeros(n, dtype=np.bool_)  # a Python opponent is to act there
        self._scores = np.zeros((n, players), dtype=np.int64)
        # what the kernels' batch_play writes, in envs/card_kernels.py's order
        self._outputs = (self._obs, self._masks, self._seats, self._rewards, self._seat_rewards, self._done,
                         self._scores, self._final_obs, self._final_masks, self._pending)
        self._game_rng = self._new_rng(0, "games").repeat(n)
        self._action_rng = self._new_rng(0, "actions").repeat(n)

    def row(self, index: int) -> NDArray[Any]:
        """Game `index` as the core's row (a copy; secrets included, for checking code, not a seat's eyes)."""
        if not 0 <= index < self.num_envs:
            raise IndexError(f"game index is 0 to {self.num_envs - 1}, not {index}")
        row: NDArray[Any] = self._states[index].copy()
        return row

    # --- what a card game adds ------------------------------------------------------------------------
    def _check_options(self) -> None:
        """Refuse options that this environment cannot play (none by default)."""

    def _table_of(self) -> tuple[int, ...]:
        """The game's numbers as the kernels' `_start` takes them."""
        raise NotImplementedError

    # --- the hooks of BatchedVectorEnv ----------------------------------------------------------------
    def _observation_size(self) -> int:
        size: int = self.core.observation_size(self.players)
        return size

    def _fields(self) -> int:
        fields: int = self.core.FIELDS
        return fields

    def _seat_count(self) -> int:
        return self.players

    def _new_rng(self, seed: int, label: str) -> Rng:
        rng: Rng = self.core.new_rng(seed, 1, label)
        return rng

    def _clear(self) -> None:
        self._rewards[:] = 0.0
        self._seat_rewards[:] = 0.0
        self._done[:] = False

    def _run_kernel(self, actions: NDArray[np.int64]) -> None:
        self.kernels.batch_play(self._states, self._game_rng, actions, self._kind, self._learner, self._table,
                                self._outputs)

    def _opponent_view(self, i: int) -> tuple[int, dict[str, NDArray[np.float32]], NDArray[np.int8]]:
        row = self._states[i]
        seat = int(self.core.seat_to_act(row))
        flat = np.zeros(self._obs.shape[1], dtype=np.float32)
        mask = np.zeros(self.action_count, dtype=np.int8)
        self.core.encode(row, seat, flat)
        self.core.legal_mask(row, seat, mask)
        return seat, self._named(flat), mask

    def _random_into(self, out: NDArray[np.int64]) -> None:
        self.kernels.batch_random_actions(self._states, self._action_rng, out)

    def _named(self, flat: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The named arrays (N, ...) of flat observations (N, size), or (...) of one (size,): views of `flat`."""
        out: dict[str, NDArray[np.float32]] = {}
        at = 0
        lead = flat.shape[:-1]
        for name, shape in self._shapes.items():
            size = int(np.prod(shape))
            out[name] = flat[..., at : at + size].reshape(*lead, *shape)
            at += size
        return out

    def _observation(self, ended: NDArray[np.bool_] | None = None) -> Observation:
        if ended is None or not ended.any():
            return {"observation": self._named(self._out(self._obs)), "action_mask": self._out(self._masks)}
        obs, masks = self._obs.copy(), self._masks.copy()
        obs[ended], masks[ended] = self._final_obs[ended], self._final_masks[ended]
        return {"observation": self._named(obs), "action_mask": masks}

    def _finals(self, ended: NDArray[np.intp]) -> list[Observation]:
        obs, masks = self._final_obs[ended], self._final_masks[ended]  # one copy for all: each final is a row
        return [{"observation": self._named(obs[k]), "action_mask": masks[k]} for k in range(len(ended))]

    def _results(self, done: NDArray[np.bool_]) -> NDArray[Any]:
        return self._scores.copy()

    def _all_rewards(self) -> NDArray[np.float32]:
        return self._seat_rewards.copy()

