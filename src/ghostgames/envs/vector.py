"""Many Geister games at once for learning code: a Gymnasium `VectorEnv` on the compiled core
(ghostgames.games.geister.fast), against a compiled opponent or in self-play.

With an `opponent` ("random", "charge", "rules", "defender", or a Python callable) each game has one learner
seat (`learner_seat`: 0, 1, or "alternate" from game to game); `step` takes the learner's action and plays
the opponent's turns inside, so every observation is the learner's, before a decision of its own. A reward
(+1 win, -1 loss, 0 draw) comes on the learner's step that ended the game, whoever made the last move.
Without an opponent (self-play) the learner of each game is its seat to act, step by step
(`info["seat"]`), and the reward is that of the seat that just acted (`info["rewards"]` has both seats').

Games that end start again in the same step (`AutoresetMode.SAME_STEP`, the default): the observation is the
new game's first, and `info["final_obs"]` / `info["final_info"]` (with their `_key` masks) hold the finished
game's last observation for its learner and its `winner`. With `autoreset_mode=AutoresetMode.NEXT_STEP`
(which Gymnasium's observation wrappers such as `FlattenObservation` require) a game that ends shows its last
observation itself, with `info["winner"]`, and the next step ignores that game's action and shows the new
game's first observation (reward 0, not terminated): the same games, one step later.

Each observation is exactly `state.encode(seat)` and
`state.legal_mask(seat)` of its seat: nothing that seat may not know.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray
from pydantic import ValidationError

from ghostgames.bots.geister.fast_opponents import KINDS, SCRATCH
from ghostgames.envs import vector_kernels
from ghostgames.envs.common import observation_space
from ghostgames.envs.vector_kernels import SELF
from ghostgames.games import get_game
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import ACTION_COUNT, PLANES, VECTOR
from ghostgames.games.geister.state import GeisterOptions, GeisterState
from ghostgames.rules.contract import IllegalAction

Observation = dict[str, Any]  # {"observation": {"board": (N, 6, 6, 6), "vector": (N, 24)}, "action_mask": (N, 214)}
StepResult = tuple[Observation, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]
# A Python opponent: (its seat's {"board", "vector"} observation, its legal mask (214,) int8) -> action index
Opponent = Callable[[dict[str, NDArray[np.float32]], NDArray[np.int8]], int]
START_GAME, NOTHING = -2, -1  # the kernels' "actions" that start a game, or leave it as it is


def most_threads() -> int:
    """The threads numba may use in this process (its NUMBA_NUM_THREADS: the cores, unless set lower)."""
    most: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set at run time from the environment
    return most


class GeisterVectorEnv(VectorEnv[Observation, NDArray[np.int64], NDArray[Any]]):
    """`num_envs` Geister games stepped together. `options` are Geister's table options (exit, max_plies,
    disclose, first); `opponent` is a named compiled bot, a callable (slower: Python per opponent move) or
    None for self-play; `learner_seat` 0, 1 or "alternate"; `threads` is how many cores step the batch
    (default: all numba may use; a step waits for its slowest thread, so on a busy shared machine 1 can be
    as fast); `copy=False` returns the environment's own arrays, which the next step overwrites;
    `autoreset_mode` SAME_STEP (default) or NEXT_STEP (see the module's docstring)."""

    # (a class attribute, as VectorEnv declares it)
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, num_envs: int, options: Mapping[str, Any] | None = None, seed: int | None = None,
                 threads: int | None = None, copy: bool = True, opponent: str | Opponent | None = None,
                 learner_seat: int | str = 0, render_mode: None = None,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number of games, at least 1, not {num_envs!r}")
        try:
            self.options = GeisterOptions.model_validate(dict(options or {}))
        except ValidationError as err:
            fields = ", ".join(GeisterOptions.model_fields)
            raise ValueError(f"bad Geister options ({fields} are known): {err}") from None
        if render_mode is not None:
            raise ValueError(f"GeisterVectorEnv draws nothing: render_mode is None, not {render_mode!r} "
                             "(env.state(i).render() shows game i as text)")
        self.num_envs = int(num_envs)
        most = most_threads()
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or not 1 <= threads <= most):
            raise ValueError(f"threads is 1 to {most} (the cores numba may use here), or None for all, not {threads!r}")
        self.threads = most if threads is None else threads
        self.copy = copy
        self._kind, self._opponent = self._opponent_of(opponent)
        self.opponent = opponent
        if learner_seat not in (0, 1, "alternate") or isinstance(learner_seat, bool):
            raise ValueError(f'learner_seat is 0, 1 or "alternate", not {learner_seat!r}')
        if self._kind == SELF and learner_seat != 0:
            raise ValueError("learner_seat needs an opponent: in self-play the learner plays both seats")
        if self._kind != SELF and self.options.max_plies == 1:
            raise ValueError("max_plies=1 ends a game before the learner moves when the opponent starts: "
                             "give at least 2 with an opponent")
        if autoreset_mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
            raise ValueError("autoreset_mode is AutoresetMode.SAME_STEP (the default) or AutoresetMode.NEXT_STEP, "
                             f"not {autoreset_mode!r}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.learner_seat = learner_seat
        self.render_mode = render_mode
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.single_observation_space = observation_space(get_game("geister"), 2)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = self.num_envs
        self._states = np.zeros((n, fast.FIELDS), dtype=np.int32)
        self._boards = np.zeros((n, PLANES, 6, 6), dtype=np.float32)
        self._vectors = np.zeros((n, VECTOR), dtype=np.float32)
        self._masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self._final_boards = np.zeros_like(self._boards)
        self._final_vectors = np.zeros_like(self._vectors)
        self._final_masks = np.zeros_like(self._masks)
        self._learner = np.zeros(n, dtype=np.int8)  # per game, the seat whose observation is shown
        self._rewards = np.zeros(n, dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._winners = np.zeros(n, dtype=np.int8)
        self._pending = np.zeros(n, dtype=np.bool_)
        self._restarting = np.zeros(n, dtype=np.bool_)  # NEXT_STEP: ended last step; its new game is waiting
        self._scratch = np.zeros((n, SCRATCH), dtype=np.int32)
        self._game_rng = fast.new_rng(0, n, "games")
        self._action_rng = fast.new_rng(0, n, "actions")
        self._seed = seed
        self._started = False

    # --- the Gymnasium interface ----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start every game. `seed` is one int (game i then plays from seed + i, as Gymnasium seeds its
        sub-environments), a list of one int or None per game, or None (the constructor's seed the first
        time, else unrepeatable games). A seeded game repeats exactly, on any machine and any number of
        threads and whatever the batch around it; so does `random_actions`."""
        if options:
            raise ValueError("reset takes no options: give the Geister options to GeisterVectorEnv(...)")
        if seed is None and not self._started:
            seed = self._seed  # the constructor's seed serves the first reset
        seeds = self._seeds(seed)
        super().reset(seed=seeds[0])
        self._game_rng = np.array([fast.new_rng(s, 1, "games")[0] for s in seeds], dtype=np.uint64)
        self._action_rng = np.array([fast.new_rng(s, 1, "actions")[0] for s in seeds], dtype=np.uint64)
        if self.learner_seat == "alternate":
            self._learner[:] = np.arange(self.num_envs) % 2
        else:
            self._learner[:] = int(self.learner_seat)
        self._play(np.full(self.num_envs, START_GAME, dtype=np.int64))
        self._restarting[:] = False
        self._started = True
        return self._observation(), {"seat": self._out(self._learner), "_seat": np.ones(self.num_envs, np.bool_)}

    def step(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> StepResult:
        """One action index per game, for its learner. Returns (observation, reward (N,) float32: the
        learner's, terminated, truncated (always False: the move limit is a rule and ends in a draw), info)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.closed:
            raise RuntimeError("this environment is closed")
        chosen = self._check(actions)
        if self._restarting.any():  # NEXT_STEP: these games' new positions are shown now; no action of theirs
            chosen[self._restarting] = NOTHING
        self._play(chosen)
        done = self._done.copy()
        info: dict[str, Any] = {"seat": self._out(self._learner), "_seat": np.ones(self.num_envs, np.bool_)}
        if self._kind == SELF:
            both = np.zeros((self.num_envs, 2), dtype=np.float32)
            won = done & (self._winners < 2)
            both[won, self._winners[won]] = 1.0
            both[won, 1 - self._winners[won]] = -1.0
            info["rewards"], info["_rewards"] = both, np.ones(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._restarting = done.copy()
            if done.any():
                info["winner"] = np.where(done, self._winners, -1).astype(np.int8)
                info["_winner"] = done.copy()
            return self._observation(ended=done), self._rewards.copy(), done, truncated, info
        if done.any():
            finals = np.full(self.num_envs, None, dtype=object)
            ended = np.flatnonzero(done)
            boards, vectors, masks = self._final_boards[ended], self._final_vectors[ended], self._final_masks[ended]
            for k, i in enumerate(ended):  # rows of one copy each, not a copy per game
                finals[i] = {"observation": {"board": boards[k], "vector": vectors[k]}, "action_mask": masks[k]}
            info["final_obs"], info["_final_obs"] = finals, done.copy()
            info["final_info"] = {"winner": np.where(done, self._winners, -1).astype(np.int8), "_winner": done.copy()}
            info["_final_info"] = done.copy()
        return self._observation(), self._rewards.copy(), done, truncated, info

    def random_actions(self) -> NDArray[np.int64]:
        """A uniformly random legal action index per game, as sampling its action mask uniformly would
        give (compiled, from the game itself; seeded with the environment)."""
        if not self._started:
            raise RuntimeError("call reset() before random_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        with self._threads():
            fast.batch_random_actions(self._states, self._action_rng, out)
        return out

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: no threads or processes of its own."""

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

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int]:
        n = self.num_envs
        if seed is None:
            return [secrets.randbits(63) for _ in range(n)]  # no seed: games nobody can repeat
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(n)]
        if isinstance(seed, Sequence) and not isinstance(seed, str):
            if len(seed) != n:
                raise ValueError(f"reset(seed=...) takes one int, None, or a list of {n} seeds (int or None, one "
                                 f"per game); this list has {len(seed)}")
            return [secrets.randbits(63) if s is None else int(s) for s in seed]
        raise ValueError(f"reset(seed=...) takes one int, None, or a list of {n} ints or Nones, not {seed!r}")

    def _play(self, actions: NDArray[np.int64]) -> None:
        """Run the step kernel (learner's actions, or START_GAME) and, for a Python opponent, its turns."""
        self._rewards[:] = 0.0
        self._done[:] = False
        self._winners[:] = fast.RUNNING
        rules = self._rules()
        while True:
            with self._threads():
                vector_kernels.batch_play(
                    self._states, self._game_rng, actions, self._kind, self._learner,
                    int(self.learner_seat == "alternate"), rules, self._scratch, self._rewards, self._done,
                    self._winners, self._final_boards, self._final_vectors, self._final_masks, self._pending,
                    self._boards, self._vectors, self._masks)
            if self._opponent is None or not self._pending.any():
                return
            actions = np.full(self.num_envs, NOTHING, dtype=np.int64)
            for i in np.flatnonzero(self._pending):
                actions[i] = self._ask_opponent(int(i), self._opponent)

    def _ask_opponent(self, i: int, opponent: Opponent) -> int:
        """The Python opponent's action in game i, from its own seat's observation and mask."""
        row = self._states[i]
        seat = int(fast.seat_to_act(row))
        board = np.zeros((PLANES, 6, 6), dtype=np.float32)
        vector = np.zeros(VECTOR, dtype=np.float32)
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        fast.encode(row, seat, board, vector)
        fast.legal_mask(row, seat, mask)
        action = opponent({"board": board, "vector": vector}, mask)
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < ACTION_COUNT \
                or not mask[int(action)]:
            legal = ", ".join(str(a) for a in np.flatnonzero(mask)[:10])
            raise IllegalAction(f"game {i}: the opponent returned {action!r}, not a legal action index for seat "
                                f"{seat} (legal there: {legal}, …; pick one where the mask is 1)")
        return int(action)

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _observation(self, ended: NDArray[np.bool_] | None = None) -> Observation:
        """The learners' observations; the games in `ended` (NEXT_STEP) show their finished position."""
        if ended is None or not ended.any():
            return {"observation": {"board": self._out(self._boards), "vector": self._out(self._vectors)},
                    "action_mask": self._out(self._masks)}
        boards, vectors, masks = self._boards.copy(), self._vectors.copy(), self._masks.copy()
        boards[ended], vectors[ended], masks[ended] = (
            self._final_boards[ended], self._final_vectors[ended], self._final_masks[ended])
        return {"observation": {"board": boards, "vector": vectors}, "action_mask": masks}

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
        # (a game restarting under NEXT_STEP takes any index: its action is ignored)
        illegal = np.flatnonzero((self._masks[np.arange(n), chosen] == 0) & ~self._restarting)
        if illegal.size:
            i = int(illegal[0])
            legal = np.flatnonzero(self._masks[i])
            shown = ", ".join(str(a) for a in legal[:10]) + (", …" if legal.size > 10 else "")
            raise IllegalAction(
                f"game {i}: action {int(chosen[i])} is not legal for seat {int(self._learner[i])} now "
                f"({illegal.size} game(s) with an illegal action); legal there: {shown} "
                "(the observation's action_mask; env.random_actions() picks legal ones)"
            )
        return chosen
