"""Many Geister games at once for learning code: a Gymnasium `VectorEnv` on the compiled core
(ghostgames.games.geister.fast), against a compiled opponent or in self-play.

With an `opponent` ("random", "charge", "rules", "defender", or a Python callable) each game has one learner
seat (`learner_seat`: 0, 1, or "alternate" from game to game); `step` takes the learner's action and plays
the opponent's turns inside, so every observation is the learner's, before a decision of its own. A reward
(+1 win, -1 loss, 0 draw) comes on the learner's step that ended the game, whoever made the last move.
Without an opponent (self-play) the learner of each game is its seat to act, step by step
(`info["seat"]`), and the reward is that of the seat that just acted (`info["rewards"]` has both seats').

Games that end start again as envs/batched.py says (SAME_STEP by default, or NEXT_STEP), the finished
game's `winner` (0, 1, or 2 for a draw) in `info["final_info"]` or `info["winner"]`.

Each observation is exactly `state.encode(seat)` and
`state.legal_mask(seat)` of its seat: nothing that seat may not know.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray
from pydantic import ValidationError

from ghostgames.bots.geister.fast_opponents import KINDS, SCRATCH
from ghostgames.envs import vector_kernels
from ghostgames.envs.batched import (
    NOTHING,
    START_GAME,
    BatchedVectorEnv,
    Observation,
    Opponent,
    Rng,
    check_autoreset,
    check_num_envs,
)
from ghostgames.envs.common import observation_space
from ghostgames.envs.vector_kernels import SELF
from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import ACTION_COUNT, PLANES, VECTOR
from ghostgames.games.geister.state import GeisterOptions, GeisterState

__all__ = ["NOTHING", "START_GAME", "GeisterVectorEnv", "Opponent", "most_threads"]


def most_threads() -> int:
    """The threads numba may use in this process (its NUMBA_NUM_THREADS: the cores, unless set lower)."""
    most: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at run time from the environment
    return most


class GeisterVectorEnv(BatchedVectorEnv):
    """`num_envs` Geister games stepped together. `options` are Geister's table options (exit, max_plies,
    disclose, first); `opponent` is a named compiled bot, a callable (slower: Python per opponent move) or
    None for self-play; `learner_seat` 0, 1 or "alternate"; `threads` is how many cores step the batch
    (default: all numba may use; a step waits for its slowest thread, so on a busy shared machine 1 can be
    as fast); `copy=False` returns the environment's own arrays, which the next step overwrites;
    `autoreset_mode` SAME_STEP (default) or NEXT_STEP (see the module's docstring)."""

    ended = "winner"
    title = "Geister"

    def __init__(self, num_envs: int, options: Mapping[str, Any] | None = None, seed: int | None = None,
                 threads: int | None = None, copy: bool = True, opponent: str | Opponent | None = None,
                 learner_seat: int | str = 0, render_mode: None = None,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP) -> None:
        num_envs = check_num_envs(num_envs)
        try:
            self.options = GeisterOptions.model_validate(dict(options or {}))
        except ValidationError as err:
            fields = ", ".join(GeisterOptions.model_fields)
            raise ValueError(f"bad Geister options ({fields} are known): {err}") from None
        if render_mode is not None:
            raise ValueError(f"GeisterVectorEnv draws nothing: render_mode is None, not {render_mode!r} "
                             "(env.state(i).render() shows game i as text)")
        most = most_threads()
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or not 1 <= threads <= most):
            raise ValueError(f"threads is 1 to {most} (the cores numba may use here), or None for all, not {threads!r}")
        self.threads = most if threads is None else threads
        self._kind, self._python_opponent = self._opponent_of(opponent)
        self.opponent = opponent
        self._setup(num_envs, observation_space(get_game("geister"), 2), ACTION_COUNT, copy, seed, learner_seat,
                    self._kind == SELF, check_autoreset(autoreset_mode), render_mode)
        self._check_learner_seat(2)
        if self._kind != SELF and self.options.max_plies == 1:
            raise ValueError("max_plies=1 ends a game before the learner moves when the opponent starts: "
                             "give at least 2 with an opponent")
        n = self.num_envs
        self._states = np.zeros((n, fast.FIELDS), dtype=np.int32)
        self._boards = np.zeros((n, PLANES, 6, 6), dtype=np.float32)
        self._vectors = np.zeros((n, VECTOR), dtype=np.float32)
        self._masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self._final_boards = np.zeros_like(self._boards)
        self._final_vectors = np.zeros_like(self._vectors)
        self._final_masks = np.zeros_like(self._masks)
        self._learner = np.zeros(n, dtype=np.int8)  # per game, the seat whose observation is shown
        self._seats = self._learner  # (the shown seat is the learner, in self-play the seat to act)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._winners = np.zeros(n, dtype=np.int8)
        self._pending = np.zeros(n, dtype=np.bool_)
        self._scratch = np.zeros((n, SCRATCH), dtype=np.int32)
        self._game_rng = fast.new_rng(0, n, "games")
        self._action_rng = fast.new_rng(0, n, "actions")

    # --- for checking and search ---------------------------------------------------------------------
    def state(self, index: int) -> GeisterState:
        """Game `index` as a reference GeisterState, secrets included (not for a seat's eyes). The compiled
        core keeps no move list, so its `moves` is empty."""
        if not 0 <= index < self.num_envs:
            raise IndexError(f"game index is 0 to {self.num_envs - 1}, not {index}")
        state = get_game("geister").load(fast.to_json(self._states[index]))
        assert isinstance(state, GeisterState)
        return state

    # --- helpers -------------------------------------------------------------------------------------
    @contextmanager
    def _threads(self) -> Iterator[None]:
        """numba's thread count is the whole process's: set ours for one call, only when it differs, and
        give the caller's back afterwards."""
        before = numba.get_num_threads()
        if before == self.threads:
            yield
            return
        numba.set_num_threads(self.threads)
        try:
            yield
        finally:
            numba.set_num_threads(before)

    def _rules(self) -> NDArray[np.int32]:
        o = self.options
        rules = (int(o.exit == "escape"), o.max_plies or 0, int(o.disclose), -1 if o.first is None else o.first)
        return np.array(rules, dtype=np.int32)

    def _opponent_of(self, opponent: str | Opponent | None) -> tuple[int, Opponent | None]:
        if opponent is None:
            return SELF, None
        if isinstance(opponent, str):
            if opponent not in KINDS:
                names = ", ".join(repr(k) for k in KINDS)
                raise ValueError(f"opponent is one of {names}, a callable (observation, mask) -> action index, "
                                 f"or None for self-play; not {opponent!r}")
            return KINDS[opponent], None
        if callable(opponent):
            return vector_kernels.EXTERNAL, opponent
        raise ValueError(f"opponent is a bot name, a callable or None, not {opponent!r}")

    def _clear(self) -> None:
        self._rewards[:] = 0.0
        self._done[:] = False
        self._winners[:] = fast.RUNNING

    def _run_kernel(self, actions: NDArray[np.int64]) -> None:
        with self._threads():
            vector_kernels.batch_play(
                self._states, self._game_rng, actions, self._kind, self._learner,
                int(self.learner_seat == "alternate"), self._rules(), self._scratch, self._rewards, self._done,
                self._winners, self._final_boards, self._final_vectors, self._final_masks, self._pending,
                self._boards, self._vectors, self._masks)

    def _opponent_view(self, i: int) -> tuple[int, dict[str, NDArray[np.float32]], NDArray[np.int8]]:
        row = self._states[i]
        seat = int(fast.seat_to_act(row))
        board = np.zeros((PLANES, 6, 6), dtype=np.float32)
        vector = np.zeros(VECTOR, dtype=np.float32)
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        fast.encode(row, seat, board, vector)
        fast.legal_mask(row, seat, mask)
        return seat, {"board": board, "vector": vector}, mask

    def _observation(self, ended: NDArray[np.bool_] | None = None) -> Observation:
        if ended is None or not ended.any():
            return {"observation": {"board": self._out(self._boards), "vector": self._out(self._vectors)},
                    "action_mask": self._out(self._masks)}
        boards, vectors, masks = self._boards.copy(), self._vectors.copy(), self._masks.copy()
        boards[ended], vectors[ended], masks[ended] = (
            self._final_boards[ended], self._final_vectors[ended], self._final_masks[ended])
        return {"observation": {"board": boards, "vector": vectors}, "action_mask": masks}

    def _finals(self, ended: NDArray[np.intp]) -> list[Observation]:
        boards, vectors, masks = self._final_boards[ended], self._final_vectors[ended], self._final_masks[ended]
        return [{"observation": {"board": boards[k], "vector": vectors[k]}, "action_mask": masks[k]}
                for k in range(len(ended))]  # rows of one copy each, not a copy per game

    def _results(self, done: NDArray[np.bool_]) -> NDArray[Any]:
        return np.where(done, self._winners, -1).astype(np.int8)

    def _all_rewards(self) -> NDArray[np.float32]:
        both = np.zeros((self.num_envs, 2), dtype=np.float32)
        won = self._done & (self._winners < 2)
        both[won, self._winners[won]] = 1.0
        both[won, 1 - self._winners[won]] = -1.0
        return both

    def _random_into(self, out: NDArray[np.int64]) -> None:
        with self._threads():
            fast.batch_random_actions(self._states, self._action_rng, out)

    def _seat_count(self) -> int:
        return 2

    def _new_rng(self, seed: int, label: str) -> Rng:
        rng: Rng = fast.new_rng(seed, 1, label)
        return rng
