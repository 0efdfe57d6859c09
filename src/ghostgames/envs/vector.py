"""Many Geister games at once for learning code: a Gymnasium `VectorEnv`-style self-play environment on
the compiled core (ghostgames.games.geister.fast), spread over the machine's cores.

Each of the `num_envs` games is played by both seats; every step, each game's seat to act (`info["seat"]`)
plays one action index of the fixed 214-index space (encoding.py). The observation of each game is that
seat's own, exactly `state.encode(seat)` and `state.legal_mask(seat)`: nothing the seat may not know.
A game that ends reports `terminated`, its rewards and winner, and starts again at once (the observation
is then the new game's first one, `info["autoreset"]` says which games did). It needs no extra package;
`single_observation_space` and `single_action_space` need gymnasium (`pip install 'ghostgames[research]'`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import ACTION_COUNT, PLANES, VECTOR
from ghostgames.games.geister.state import GeisterOptions, GeisterState
from ghostgames.rules.contract import IllegalAction

Observation = dict[str, Any]  # {"observation": {"board": (N, 6, 6, 6), "vector": (N, 24)}, "action_mask": (N, 214)}
StepResult = tuple[Observation, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]


def most_threads() -> int:
    """The threads numba may use in this process (its NUMBA_NUM_THREADS: the cores, unless set lower)."""
    most: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at run time from the environment
    return most


class GeisterVectorEnv:
    """`num_envs` Geister games stepped together. `options` are Geister's table options (exit, max_plies,
    disclose, first); `threads` is how many cores step the batch (default: all numba may use; a step waits
    for its slowest thread, so on a busy shared machine 1 can be as fast); `copy=False` returns the
    environment's own arrays, which the next step overwrites (faster; copy them if you keep them)."""

    metadata: Mapping[str, Any] = {"autoreset_mode": "same-step"}

    def __init__(self, num_envs: int, options: Mapping[str, Any] | None = None, seed: int | None = None,
                 threads: int | None = None, copy: bool = True) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number of games, at least 1, not {num_envs!r}")
        try:
            self.options = GeisterOptions.model_validate(dict(options or {}))
        except ValidationError as err:
            fields = ", ".join(GeisterOptions.model_fields)
            raise ValueError(f"bad Geister options ({fields} are known): {err}") from None
        self.num_envs = int(num_envs)
        most = most_threads()
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or not 1 <= threads <= most):
            raise ValueError(f"threads is 1 to {most} (the cores numba may use here), or None for all, not {threads!r}")
        self.threads = most if threads is None else threads
        self.copy = copy
        n = self.num_envs
        self._states = np.zeros((n, fast.FIELDS), dtype=np.int32)
        self._boards = np.zeros((n, PLANES, 6, 6), dtype=np.float32)
        self._vectors = np.zeros((n, VECTOR), dtype=np.float32)
        self._masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self._seats = np.zeros(n, dtype=np.int8)
        self._rewards = np.zeros((n, 2), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._winners = np.zeros(n, dtype=np.int8)
        self._game_rng = fast.new_rng(0, n, "games")
        self._action_rng = fast.new_rng(0, n, "actions")
        self._seed = seed
        self._started = False

    # --- the Gymnasium-style interface --------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None) -> tuple[Observation,
                                                                                                    dict[str, Any]]:
        """Start every game. With a seed (here or at construction) the games and `random_actions` repeat
        exactly, on any machine and any number of threads."""
        if options:
            raise ValueError("reset takes no options: give the Geister options to GeisterVectorEnv(...)")
        if seed is None and not self._started:
            seed = self._seed  # the constructor's seed serves the first reset
        if seed is None:
            seed = secrets.randbits(63)  # no seed: games nobody can repeat
        self._game_rng = fast.new_rng(seed, self.num_envs, "games")
        self._action_rng = fast.new_rng(seed, self.num_envs, "actions")
        with self._threads():
            fast.batch_reset(self._states, self._game_rng, *self._rules(), self._boards, self._vectors,
                             self._masks, self._seats)
        self._started = True
        return self._observation(), {"seat": self._out(self._seats)}

    def step(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> StepResult:
        """One action index per game, for its seat to act. Returns (observation, rewards (N, 2): one column
        per seat, terminated, truncated (always False: the move limit is a rule and ends in a draw),
        info with "seat", "winner" (-1 running, seat, 2 draw) and "autoreset")."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = self._check(actions)
        with self._threads():
            fast.batch_step(self._states, self._game_rng, chosen, *self._rules(), self._boards, self._vectors,
                            self._masks, self._seats, self._rewards, self._done, self._winners)
        done = self._out(self._done)
        info = {"seat": self._out(self._seats), "winner": self._out(self._winners), "autoreset": done.copy()}
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observation(), self._out(self._rewards), done, truncated, info

    def random_actions(self) -> NDArray[np.int64]:
        """A uniformly random legal action index per game, as sampling its action mask uniformly would
        give (compiled, from the game itself; seeded with the environment)."""
        if not self._started:
            raise RuntimeError("call reset() before random_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        with self._threads():
            fast.batch_random_actions(self._states, self._action_rng, out)
        return out

    def close(self) -> None:
        """Nothing to release (no threads or processes of its own); here for the Gymnasium interface."""

    @property
    def single_action_space(self) -> Any:
        from gymnasium import spaces

        return spaces.Discrete(ACTION_COUNT)

    @property
    def single_observation_space(self) -> Any:
        from ghostgames.envs.common import observation_space

        return observation_space(get_game("geister"), 2)

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

    def _rules(self) -> tuple[int, int, int, int]:
        o = self.options
        return int(o.exit == "escape"), o.max_plies or 0, int(o.disclose), -1 if o.first is None else o.first

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _observation(self) -> Observation:
        return {"observation": {"board": self._out(self._boards), "vector": self._out(self._vectors)},
                "action_mask": self._out(self._masks)}

    def _check(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> NDArray[np.int64]:
        """Refuse a wrong shape, type, range or an illegal index, saying what would work."""
        array = np.asarray(actions)
        n = self.num_envs
        if array.shape != (n,):
            raise ValueError(f"step takes one action index per game: an integer array of shape ({n},), "
                             f"not shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"action indices are integers (e.g. numpy int64), not {array.dtype}; "
                            "pick them from the action mask, e.g. env.random_actions()")
        wrong = np.flatnonzero((array < 0) | (array >= ACTION_COUNT))
        if wrong.size:
            i = int(wrong[0])
            raise ValueError(f"game {i}: action index {int(array[i])} is outside 0..{ACTION_COUNT - 1}")
        chosen = array.astype(np.int64)
        illegal = np.flatnonzero(self._masks[np.arange(n), chosen] == 0)
        if illegal.size:
            i = int(illegal[0])
            legal = np.flatnonzero(self._masks[i])
            shown = ", ".join(str(a) for a in legal[:10]) + (", …" if legal.size > 10 else "")
            raise IllegalAction(
                f"game {i}: action {int(chosen[i])} is not legal for seat {int(self._seats[i])} now "
                f"({illegal.size} game(s) with an illegal action); legal there: {shown} "
                "(the observation's action_mask; env.random_actions() picks legal ones)"
            )
        return chosen
