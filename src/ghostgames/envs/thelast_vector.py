"""Many The Last matches at once for learning code: a Gymnasium `VectorEnv` on the compiled core
(ghostgames.games.thelast.fast), against random opponents or in self-play. The shape follows
`GeisterVectorEnv` (vector.py); what differs is said here.

With `opponent="random"` each match has one learner seat (`learner_seat`: a seat, or "alternate": game i's
learner is seat i % players); `step` takes the learner's action and plays the other seats' turns inside
(uniformly random legal actions, compiled), so every observation is the learner's, before a decision of its
own. Without an opponent (self-play) the learner of each game is its seat to act (`info["seat"]`).
A reward (+1 win, -1 loss, 0 draw: lowest total penalty wins, ties share, all equal is a draw) comes on the
step that ended the match: the learner's, or in self-play the seat that just acted, with every seat's in
`info["rewards"]` (N, players).

Matches that end start again in the same step (`AutoresetMode.SAME_STEP`, the default): `info["final_obs"]`
and `info["final_info"]` (with their `_key` masks) hold the finished match's last observation for its learner
and `totals`, every seat's total penalty. With `AutoresetMode.NEXT_STEP` a match that ends shows its last
observation itself (with `info["totals"]`) and the next step ignores that game's action and shows the new
match's first observation.

Each observation is exactly `state.encode(seat)` and `state.legal_mask(seat)` of its seat (the core is proven
equal to the reference, tests/games/thelast/test_fast_core.py): nothing that seat may not know. The batch is
stepped on the calling thread.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray
from pydantic import ValidationError

from ghostgames.envs.common import observation_space
from ghostgames.games import get_game
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import ACTION_COUNT, observation_shapes
from ghostgames.games.thelast.state import TheLastOptions
from ghostgames.rules.contract import IllegalAction

Observation = dict[str, Any]  # {"observation": {name: (N, ...) as encoding.observation_shapes}, "action_mask": (N, 97)}
StepResult = tuple[Observation, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]
OPPONENTS = {"random": fast.RANDOM}


class TheLastVectorEnv(VectorEnv[Observation, NDArray[np.int64], NDArray[Any]]):
    """`num_envs` matches of The Last with `players` players stepped together. `options` are The Last's table
    options (rounds, colours, values, hand); `opponent` "random" or None for self-play; `learner_seat` a
    seat or "alternate"; `copy=False` returns the environment's own arrays, which the next step overwrites;
    `autoreset_mode` SAME_STEP (default) or NEXT_STEP (see the module's docstring)."""

    # (a class attribute, as VectorEnv declares it)
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, num_envs: int, players: int = 3, options: Mapping[str, Any] | None = None,
                 seed: int | None = None, copy: bool = True, opponent: str | None = None,
                 learner_seat: int | str = 0, render_mode: None = None,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number of games, at least 1, not {num_envs!r}")
        if isinstance(players, bool) or players not in (2, 3, 4, 5):
            raise ValueError(f"The Last is played by 2 to 5 players, not {players!r}")
        try:
            self.options = TheLastOptions.model_validate({**dict(options or {}), "players": players})
        except ValidationError as err:
            fields = ", ".join(f for f in TheLastOptions.model_fields if f != "players")
            raise ValueError(f"bad The Last options ({fields} are known): {err}") from None
        if render_mode is not None:
            raise ValueError(f"TheLastVectorEnv draws nothing: render_mode is None, not {render_mode!r}")
        if opponent is not None and opponent not in OPPONENTS:
            raise ValueError(f"opponent is 'random' or None for self-play, not {opponent!r}")
        seats = tuple(range(players))
        if isinstance(learner_seat, bool) or learner_seat not in (*seats, "alternate"):
            raise ValueError(f'learner_seat is a seat (0 to {players - 1}) or "alternate", not {learner_seat!r}')
        if opponent is None and learner_seat != 0:
            raise ValueError("learner_seat needs an opponent: in self-play the learner plays every seat")
        if autoreset_mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
            raise ValueError("autoreset_mode is AutoresetMode.SAME_STEP (the default) or AutoresetMode.NEXT_STEP, "
                             f"not {autoreset_mode!r}")
        self.num_envs = int(num_envs)
        self.players = players
        self.copy = copy
        self.opponent = opponent
        self._kind = fast.SELF if opponent is None else OPPONENTS[opponent]
        self.learner_seat = learner_seat
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.single_observation_space = observation_space(get_game("thelast"), players)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n, size = self.num_envs, fast.observation_size(players)
        self._table = np.array(fast.config(players, self.options), dtype=np.int64)
        self._states = np.zeros((n, fast.FIELDS), dtype=np.int64)
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self._final_obs = np.zeros_like(self._obs)
        self._final_masks = np.zeros_like(self._masks)
        self._learner = np.zeros(n, dtype=np.int8)  # per game, its learner seat (with an opponent)
        self._seats = np.zeros(n, dtype=np.int8)  # per game, the seat whose observation is shown
        self._rewards = np.zeros(n, dtype=np.float32)
        self._seat_rewards = np.zeros((n, players), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._totals = np.zeros((n, players), dtype=np.int64)
        self._restarting = np.zeros(n, dtype=np.bool_)  # NEXT_STEP: ended last step; its new match is waiting
        self._game_rng = fast.new_rng(0, n, "games")
        self._action_rng = fast.new_rng(0, n, "actions")
        self._seed = seed
        self._started = False

    # --- the Gymnasium interface ----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Start every match. `seed` is one int (game i then plays from seed + i), a list of one int or None
        per game, or None (the constructor's seed the first time, else unrepeatable matches). A seeded match
        repeats exactly, whatever the batch around it; so does `random_actions`."""
        if options:
            raise ValueError("reset takes no options: give The Last's options to TheLastVectorEnv(...)")
        if seed is None and not self._started:
            seed = self._seed
        seeds = self._seeds(seed)
        super().reset(seed=seeds[0])
        self._game_rng = np.array([fast.new_rng(s, 1, "games")[0] for s in seeds], dtype=np.uint64)
        self._action_rng = np.array([fast.new_rng(s, 1, "actions")[0] for s in seeds], dtype=np.uint64)
        if self.learner_seat == "alternate":
            self._learner[:] = np.arange(self.num_envs) % self.players
        else:
            self._learner[:] = int(self.learner_seat)
        self._play(np.full(self.num_envs, fast.START_GAME, dtype=np.int64))
        self._restarting[:] = False
        self._started = True
        return self._observation(), self._seat_info()

    def step(self, actions: NDArray[np.integer[Any]] | Sequence[int]) -> StepResult:
        """One action index per game, for its learner. Returns (observation, reward (N,) float32, terminated,
        truncated (always False: a match always ends by its rules), info)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.closed:
            raise RuntimeError("this environment is closed")
        chosen = self._check(actions)
        if self._restarting.any():  # NEXT_STEP: these games' new matches are shown now; no action of theirs
            chosen[self._restarting] = fast.NOTHING
        self._play(chosen)
        done = self._done.copy()
        info = self._seat_info()
        if self._kind == fast.SELF:
            info["rewards"], info["_rewards"] = self._seat_rewards.copy(), np.ones(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._restarting = done.copy()
            if done.any():
                info["totals"], info["_totals"] = self._totals.copy(), done.copy()
            return self._observation(ended=done), self._rewards.copy(), done, truncated, info
        if done.any():
            finals = np.full(self.num_envs, None, dtype=object)
            ended = np.flatnonzero(done)
            obs, masks = self._final_obs[ended], self._final_masks[ended]
            for k, i in enumerate(ended):  # rows of one copy each, not a copy per game
                finals[i] = {"observation": fast.unflatten(obs[k], self.players), "action_mask": masks[k]}
            info["final_obs"], info["_final_obs"] = finals, done.copy()
            info["final_info"] = {"totals": self._totals.copy(), "_totals": done.copy()}
            info["_final_info"] = done.copy()
        return self._observation(), self._rewards.copy(), done, truncated, info

    def random_actions(self) -> NDArray[np.int64]:
        """A uniformly random legal action index per game, as sampling its action mask uniformly would give
        (compiled, seeded with the environment)."""
        if not self._started:
            raise RuntimeError("call reset() before random_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        fast.batch_random_actions(self._states, self._action_rng, out)
        return out

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: no threads or processes of its own."""

    def row(self, index: int) -> NDArray[np.int64]:
        """Game `index` as the core's row (a copy; secrets included, for checking code, not a seat's eyes)."""
        if not 0 <= index < self.num_envs:
            raise IndexError(f"game index is 0 to {self.num_envs - 1}, not {index}")
        row: NDArray[np.int64] = self._states[index].copy()
        return row

    # --- helpers -------------------------------------------------------------------------------------
    def _seat_info(self) -> dict[str, Any]:
        return {"seat": self._out(self._seats), "_seat": np.ones(self.num_envs, np.bool_)}

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int]:
        n = self.num_envs
        if seed is None:
            return [secrets.randbits(63) for _ in range(n)]  # no seed: matches nobody can repeat
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            return [int(seed) + i for i in range(n)]
        if isinstance(seed, Sequence) and not isinstance(seed, str):
            if len(seed) != n:
                raise ValueError(f"reset(seed=...) takes one int, None, or a list of {n} seeds (int or None, one "
                                 f"per game); this list has {len(seed)}")
            return [secrets.randbits(63) if s is None else int(s) for s in seed]
        raise ValueError(f"reset(seed=...) takes one int, None, or a list of {n} ints or Nones, not {seed!r}")

    def _play(self, actions: NDArray[np.int64]) -> None:
        fast.batch_play(self._states, self._game_rng, actions, self._kind, self._learner, self._table, self._obs,
                        self._masks, self._seats, self._rewards, self._seat_rewards, self._done, self._totals,
                        self._final_obs, self._final_masks)

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _named(self, flat: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The batch's named arrays (N, ...) of flat observations (N, size): views of `flat`."""
        out: dict[str, NDArray[np.float32]] = {}
        at = 0
        for name, shape in observation_shapes(self.players).items():
            size = int(np.prod(shape))
            out[name] = flat[:, at : at + size].reshape(len(flat), *shape)
            at += size
        return out

    def _observation(self, ended: NDArray[np.bool_] | None = None) -> Observation:
        """The shown seats' observations; the games in `ended` (NEXT_STEP) show their finished match."""
        if ended is None or not ended.any():
            return {"observation": self._named(self._out(self._obs)), "action_mask": self._out(self._masks)}
        obs, masks = self._obs.copy(), self._masks.copy()
        obs[ended], masks[ended] = self._final_obs[ended], self._final_masks[ended]
        return {"observation": self._named(obs), "action_mask": masks}

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
