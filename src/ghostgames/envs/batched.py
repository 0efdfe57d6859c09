"""What the three batched environments share (GeisterVectorEnv, TheLastVectorEnv, GhooostVectorEnv): the
Gymnasium `VectorEnv` conventions around a compiled kernel that steps every game of the batch.

A subclass holds its game's rows, observation buffers and kernel; this class holds the rest, alike for all:
the checks of the constructor's common arguments, seeds (one int, a list, or None), the action check that
says what would work, rewards on the step that ends a game, and both autoreset modes. With
`AutoresetMode.SAME_STEP` (the default) a game that ends starts again in the same step, and
`info["final_obs"]` / `info["final_info"]` (with their `_key` masks) hold the finished game's last
observation for its shown seat and its result (`ended`: "winner", "totals" or "ranks"); with
`AutoresetMode.NEXT_STEP` (which Gymnasium's observation wrappers such as `FlattenObservation` require) it
shows its last observation itself, with `info[ended]`, and the next step ignores that game's action and
shows the new game's first observation (reward 0, not terminated): the same games, one step later.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ghostgames.rules.contract import IllegalAction

Observation = dict[str, Any]  # {"observation": {name: (N, ...)}, "action_mask": (N, action count)}
StepResult = tuple[Observation, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]
START_GAME, NOTHING = -2, -1  # the kernels' "actions" that start a game, or leave it as it is
Rng = NDArray[np.uint64]
# A Python opponent: (its seat's named observation arrays, its legal mask int8) -> action index
Opponent = Callable[[dict[str, NDArray[np.float32]], NDArray[np.int8]], int]


def opponent_choice(opponent: Opponent, i: int, seat: int, observation: dict[str, NDArray[np.float32]],
                    mask: NDArray[np.int8]) -> int:
    """A Python opponent's action in game i for `seat`, refused (saying what would work) unless legal."""
    action = opponent(observation, mask)
    if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < len(mask) \
            or not mask[int(action)]:
        legal = ", ".join(str(a) for a in np.flatnonzero(mask)[:10])
        raise IllegalAction(f"game {i}: the opponent returned {action!r}, not a legal action index for seat "
                            f"{seat} (legal there: {legal}, …; pick one where the mask is 1)")
    return int(action)


def check_num_envs(num_envs: int) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
        raise ValueError(f"num_envs is a whole number of games, at least 1, not {num_envs!r}")
    return int(num_envs)


def check_autoreset(autoreset_mode: AutoresetMode) -> AutoresetMode:
    if autoreset_mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        raise ValueError("autoreset_mode is AutoresetMode.SAME_STEP (the default) or AutoresetMode.NEXT_STEP, "
                         f"not {autoreset_mode!r}")
    return AutoresetMode(autoreset_mode)


class BatchedVectorEnv(VectorEnv[Observation, NDArray[np.int64], NDArray[Any]]):
    """The shared part of a batched environment; a subclass's constructor calls `_setup` and fills the
    buffers named here, and implements the hooks at the end."""

    # (a class attribute, as VectorEnv declares it)
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012
    ended: ClassVar[str]  # the info key of a finished game's result
    title: ClassVar[str]  # the game's name in messages

    # Filled by the subclass: per game the shown seat, the legal mask shown, the reward and end of the last
    # step, and its random streams (games: deals and opponents; actions: random_actions).
    _seats: NDArray[np.int8]
    _masks: NDArray[np.int8]
    _rewards: NDArray[np.float32]
    _done: NDArray[np.bool_]
    _learner: NDArray[np.int8]
    _pending: NDArray[np.bool_]  # per game: a Python opponent is to act there
    _python_opponent: Opponent | None
    _game_rng: Rng
    _action_rng: Rng

    def _setup(self, num_envs: int, single_observation_space: spaces.Dict, action_count: int, copy: bool,
               seed: int | None, learner_seat: int | str, self_play: bool, autoreset_mode: AutoresetMode,
               render_mode: None) -> None:
        """The common attributes and spaces (arguments checked by the caller)."""
        self.num_envs = num_envs
        self.copy = copy
        self.learner_seat = learner_seat
        self.self_play = self_play
        self.autoreset_mode = autoreset_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self.action_count = action_count
        self.single_action_space = spaces.Discrete(action_count)
        self.single_observation_space = single_observation_space
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._restarting = np.zeros(num_envs, dtype=np.bool_)  # NEXT_STEP: ended last step; its new game waits
        self._seed = seed
        self._started = False

    def _check_learner_seat(self, seats: int) -> None:
        """learner_seat is a seat or "alternate" (game i's learner is seat i % seats), and only with an
        opponent."""
        seat = self.learner_seat
        if isinstance(seat, bool) or seat not in (*range(seats), "alternate"):
            choices = "0, 1" if seats == 2 else f"a seat (0 to {seats - 1})"
            raise ValueError(f'learner_seat is {choices} or "alternate", not {seat!r}')
        if self.self_play and seat != 0:
            raise ValueError("learner_seat needs an opponent: in self-play the learner plays every seat")

    # --- the Gymnasium interface ----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start every game. `seed` is one int (game i then plays from seed + i, as Gymnasium seeds its
        sub-environments), a list of one int or None per game, or None (the constructor's seed the first
        time, else unrepeatable games). A seeded game repeats exactly, whatever the batch around it; so does
        `random_actions`."""
        if options:
            raise ValueError(f"reset takes no options: give {self.title}'s options to {type(self).__name__}(...)")
        if seed is None and not self._started:
            seed = self._seed  # the constructor's seed serves the first reset
        seeds = self._seeds(seed)
        super().reset(seed=seeds[0])
        self._game_rng = np.array([self._new_rng(s, "games")[0] for s in seeds], dtype=np.uint64)
        self._action_rng = np.array([self._new_rng(s, "actions")[0] for s in seeds], dtype=np.uint64)
        if self.learner_seat == "alternate":
            self._learner[:] = np.arange(self.num_envs) % self._seat_count()
        else:
            self._learner[:] = int(self.learner_seat)
        self._play(np.full(self.num_envs, START_GAME, dtype=np.int64))
        self._restarting[:] = False
        self._started = True
        return self._observation(), self._seat_info()

    def step(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> StepResult:
        """One action index per game, for its shown seat. Returns (observation, reward (N,) float32: the
        reward of the seat that acted, terminated, truncated (always False: every game ends by its rules),
        info)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.closed:
            raise RuntimeError("this environment is closed")
        chosen = self._check(actions)
        if self._restarting.any():  # NEXT_STEP: these games' new positions are shown now; no action of theirs
            chosen[self._restarting] = NOTHING
        self._play(chosen)
        n = self.num_envs
        done = self._done.copy()
        info = self._seat_info()
        if self.self_play:
            info["rewards"], info["_rewards"] = self._all_rewards(), np.ones(n, np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._restarting = done.copy()
            if done.any():
                info[self.ended], info["_" + self.ended] = self._results(done), done.copy()
            return self._observation(ended=done), self._rewards.copy(), done, truncated, info
        if done.any():
            finals = np.full(n, None, dtype=object)
            ended = np.flatnonzero(done)
            for i, final in zip(ended, self._finals(ended), strict=True):
                finals[i] = final
            info["final_obs"], info["_final_obs"] = finals, done.copy()
            info["final_info"] = {self.ended: self._results(done), "_" + self.ended: done.copy()}
            info["_final_info"] = done.copy()
        return self._observation(), self._rewards.copy(), done, truncated, info

    def random_actions(self) -> NDArray[np.int64]:
        """A uniformly random legal action index per game, as sampling its action mask uniformly would
        give (compiled, from the game itself; seeded with the environment)."""
        if not self._started:
            raise RuntimeError("call reset() before random_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        self._random_into(out)
        return out

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: no threads or processes of its own."""

    # --- helpers -------------------------------------------------------------------------------------
    def _seat_info(self) -> dict[str, Any]:
        return {"seat": self._out(self._seats), "_seat": np.ones(self.num_envs, np.bool_)}

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
        """The kernel on the learners' actions (or START_GAME), then, for a Python opponent, on its actions
        until no game waits for one."""
        self._clear()
        while True:
            self._run_kernel(actions)
            opponent = self._python_opponent
            if opponent is None or not self._pending.any():
                return
            actions = np.full(self.num_envs, NOTHING, dtype=np.int64)
            for i in np.flatnonzero(self._pending):
                seat, observation, mask = self._opponent_view(int(i))
                actions[i] = opponent_choice(opponent, int(i), seat, observation, mask)

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _check(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> NDArray[np.int64]:
        """Refuse a wrong shape, type, range or an illegal index, saying what would work."""
        array = np.asarray(actions)
        n, count = self.num_envs, self.action_count
        if array.shape != (n,):
            raise ValueError(f"step takes one action index per game: an integer array of shape ({n},), "
                             f"not shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"action indices are integers (e.g. numpy int64), not {array.dtype}; "
                            "pick them from the action mask, e.g. env.random_actions()")
        wrong = np.flatnonzero((array < 0) | (array >= count))
        if wrong.size:
            i = int(wrong[0])
            raise ValueError(f"game {i}: action index {int(array[i])} is outside 0..{count - 1}")
        chosen = array.astype(np.int64)
        # (a game restarting under NEXT_STEP takes any index: its action is ignored)
        illegal = np.flatnonzero((self._masks[np.arange(n), chosen] == 0) & ~self._restarting)
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

    # --- hooks ----------------------------------------------------------------------------------------
    def _seat_count(self) -> int:
        """The seats a learner may take ("alternate" cycles through them)."""
        raise NotImplementedError

    def _new_rng(self, seed: int, label: str) -> Rng:
        """One random stream of the game's core for `label` ("games" or "actions") of a seed."""
        raise NotImplementedError

    def _clear(self) -> None:
        """Clear the step's rewards and ends before the kernel's first call of a step."""
        raise NotImplementedError

    def _run_kernel(self, actions: NDArray[np.int64]) -> None:
        """One kernel call: START_GAME, NOTHING or an action index per game; fills the buffers and marks
        `_pending` the games where a Python opponent is to act."""
        raise NotImplementedError

    def _opponent_view(self, i: int) -> tuple[int, dict[str, NDArray[np.float32]], NDArray[np.int8]]:
        """Game i's seat to act (a Python opponent's), its named observation arrays and its legal mask."""
        raise NotImplementedError

    def _observation(self, ended: NDArray[np.bool_] | None = None) -> Observation:
        """The shown seats' observations; the games in `ended` (NEXT_STEP) show their finished position."""
        raise NotImplementedError

    def _finals(self, ended: NDArray[np.intp]) -> list[Observation]:
        """The last observation of each finished game in `ended` (SAME_STEP's final_obs)."""
        raise NotImplementedError

    def _results(self, done: NDArray[np.bool_]) -> NDArray[Any]:
        """Per game the result stored under `ended` (meaningful where `done`)."""
        raise NotImplementedError

    def _all_rewards(self) -> NDArray[np.float32]:
        """Self-play: every seat's reward of the last step, (N, seats)."""
        raise NotImplementedError

    def _random_into(self, out: NDArray[np.int64]) -> None:
        """A uniformly random legal action per game into `out`, from the action streams."""
        raise NotImplementedError
