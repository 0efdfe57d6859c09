"""The batched Geister environment (envs/vector.py) against reference GeisterStates played alongside."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from ghostgames.bots import get_bot
from ghostgames.bots.base import SeatKnowledge
from ghostgames.envs.vector import GeisterVectorEnv, most_threads
from ghostgames.games import get_game
from ghostgames.games.geister import GeisterState
from ghostgames.games.geister.board import START
from ghostgames.rules import IllegalAction

GAME = get_game("geister")


@pytest.mark.parametrize(
    "options",
    [{"exit": "escape", "max_plies": 40}, {"exit": "reach", "disclose": True}, {"exit": "escape", "first": 1}],
)
def test_each_game_observes_exactly_what_the_reference_encodes_for_its_seat_to_act(options: dict[str, Any]) -> None:
    env = GeisterVectorEnv(12, options, seed=3, threads=1)
    obs, info = env.reset()
    mirrors = [env.state(i) for i in range(env.num_envs)]
    assert all(m.pos == [START[g >> 3][g & 7] for g in range(16)] and not any(m.set_up) for m in mirrors)
    finished = 0
    for _ in range(250):
        for i, mirror in enumerate(mirrors):
            seat = int(info["seat"][i])
            assert seat == min(mirror.to_act())
            expected = mirror.encode(seat)
            np.testing.assert_array_equal(obs["observation"]["board"][i], expected["board"])
            np.testing.assert_array_equal(obs["observation"]["vector"][i], expected["vector"])
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), mirror.legal_mask(seat))
        actions = env.random_actions()
        movers = info["seat"].copy()
        for i, mirror in enumerate(mirrors):
            seat = int(info["seat"][i])
            mirror.apply(seat, GAME.action_at(int(actions[i]), seat))
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any() and rewards.shape == (env.num_envs,)
        np.testing.assert_array_equal(info.get("_final_obs", np.zeros(env.num_envs, bool)), terminated)
        for i, mirror in enumerate(mirrors):
            outcome = mirror.outcome()
            assert bool(terminated[i]) == (outcome is not None)
            if outcome is None:
                assert info["rewards"][i].tolist() == [0.0, 0.0] and rewards[i] == 0.0
                continue
            finished += 1
            both = [{"win": 1.0, "loss": -1.0, "draw": 0.0}[r.result] for r in outcome.results]
            mover = int(movers[i])  # self-play: the reward is the seat's that just acted
            assert info["rewards"][i].tolist() == both and rewards[i] == both[mover]
            final = info["final_obs"][i]
            np.testing.assert_array_equal(final["observation"]["board"], mirror.encode(mover)["board"])
            assert info["final_info"]["winner"][i] == (2 if both == [0.0, 0.0] else both.index(1.0))
            fresh = env.state(i)  # the game that started in its place
            assert fresh.ply == 0 and not any(fresh.set_up) and obs["observation"]["vector"][i][0] == 1.0
            mirrors[i] = fresh
    assert finished >= 6  # games end (and restart) within the run


def test_a_seed_repeats_every_game_and_another_seed_does_not() -> None:
    def run(seed: int) -> list[np.ndarray[Any, Any]]:
        env = GeisterVectorEnv(8, {"exit": "escape"}, seed=seed, threads=1)
        env.reset()
        out = []
        for _ in range(60):
            actions = env.random_actions()
            out.append(actions)
            env.step(actions)
        return out

    same = run(7), run(7)
    assert all((a == b).all() for a, b in zip(*same, strict=True))
    assert any((a != b).any() for a, b in zip(run(7), run(8), strict=True))


@pytest.mark.parametrize("opponent", [None, "rules"])
def test_threads_do_not_change_the_games(opponent: str | None) -> None:
    def run(threads: int) -> np.ndarray[Any, Any]:
        env = GeisterVectorEnv(64, {"exit": "reach"}, seed=5, threads=threads, copy=False, opponent=opponent)
        env.reset()
        for _ in range(80):
            env.step(env.random_actions())
        return env._states.copy()

    np.testing.assert_array_equal(run(1), run(most_threads()))


def test_the_environment_gives_numbas_thread_count_back_after_each_call() -> None:
    """numba's thread count belongs to the whole process: the environment sets its own only for its calls."""
    most = most_threads()
    if most < 2:
        pytest.skip("numba may use one thread here: there is no other count to give back")
    env = GeisterVectorEnv(4, seed=1, threads=1)
    numba.set_num_threads(most)
    try:
        env.reset()
        assert numba.get_num_threads() == most
        env.step(env.random_actions())
        assert numba.get_num_threads() == most
    finally:
        numba.set_num_threads(most)


def test_bad_actions_are_refused_saying_what_would_work_and_change_nothing() -> None:
    env = GeisterVectorEnv(4, seed=1, threads=1)
    env.reset()
    before = env._states.copy()
    with pytest.raises(ValueError, match=r"integer array of shape \(4,\), not shape \(3,\)"):
        env.step([70, 70, 70])
    with pytest.raises(TypeError, match=r"action indices are integers .* not float64"):
        env.step(np.zeros(4))
    with pytest.raises(ValueError, match=r"game 2: action index 214 is outside 0..213"):
        env.step([0, 0, 214, 0])
    setups = env.random_actions()
    illegal = setups.copy()
    illegal[1] = 100  # a move while the ghosts are not placed yet
    with pytest.raises(IllegalAction, match=r"game 1: action 100 is not legal for seat 0 now .* legal there: 0, 1, 2"):
        env.step(illegal)
    np.testing.assert_array_equal(env._states, before)
    env.step(setups)  # the refused calls lost nothing: the same step still works


def test_bad_settings_are_refused_when_the_environment_is_made() -> None:
    with pytest.raises(ValueError, match="num_envs is a whole number of games, at least 1"):
        GeisterVectorEnv(0)
    with pytest.raises(ValueError, match=r"bad Geister options .*exit"):
        GeisterVectorEnv(2, {"exit": "fly"})
    with pytest.raises(ValueError, match="threads is 1 to"):
        GeisterVectorEnv(2, threads=0)
    with pytest.raises(RuntimeError, match="call reset"):
        GeisterVectorEnv(2).step([0, 0])
    with pytest.raises(ValueError, match="opponent is one of 'random', 'charge', 'rules', 'defender'"):
        GeisterVectorEnv(2, opponent="strong")
    with pytest.raises(ValueError, match='learner_seat is 0, 1 or "alternate"'):
        GeisterVectorEnv(2, opponent="rules", learner_seat=2)
    with pytest.raises(ValueError, match="learner_seat needs an opponent"):
        GeisterVectorEnv(2, learner_seat=1)


def test_observations_lie_in_the_gymnasium_spaces_of_the_other_environments() -> None:
    env = GeisterVectorEnv(3, seed=2)
    obs, _ = env.reset()
    for _ in range(20):
        obs, *_ = env.step(env.random_actions())
    space = env.single_observation_space
    for i in range(3):
        single = {"observation": {k: v[i] for k, v in obs["observation"].items()}, "action_mask": obs["action_mask"][i]}
        assert space.contains(single)
    assert env.single_action_space.n == 214


def test_a_mirror_is_a_real_reference_state() -> None:
    env = GeisterVectorEnv(1, seed=4)
    env.reset()
    assert isinstance(env.state(0), GeisterState)
    with pytest.raises(IndexError, match="game index is 0 to 0"):
        env.state(1)


def test_the_rollout_example_in_docs_learning_md_runs_and_finishes_games(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "learning.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    [example] = [b for b in blocks if "GeisterVectorEnv(" in b]
    exec(compile(example, "docs/learning.md", "exec"), {})
    printed = capsys.readouterr().out
    match = re.search(r"(\d+) games, the learner's mean result against rules: ([+-][\d.]+)", printed)
    assert match and int(match[1]) > 0 and float(match[2]) < 0, printed  # a random policy loses to rules


# --- against an opponent ----------------------------------------------------------------------------------
@pytest.mark.parametrize("opponent", ["random", "charge", "rules", "defender"])
def test_the_learner_sees_only_its_own_decisions_and_gets_every_final_reward(opponent: str) -> None:
    """Reference states follow each game; between two learner steps the opponent's moves (read from the
    compiled row) must be legal, and the learner's observation is its own seat's encode."""
    env = GeisterVectorEnv(8, {"exit": "escape", "max_plies": 120}, seed=11, threads=1, opponent=opponent,
                           learner_seat="alternate")
    obs, info = env.reset()
    assert info["seat"].tolist() == [0, 1] * 4
    finished = 0
    results = []
    for _ in range(200):
        seats = info["seat"].copy()
        for i in range(env.num_envs):
            mirror = env.state(i)
            assert min(mirror.to_act()) == seats[i] or mirror.set_up[seats[i]] is False
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), mirror.legal_mask(int(seats[i])))
            np.testing.assert_array_equal(obs["observation"]["vector"][i], mirror.encode(int(seats[i]))["vector"])
        obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        assert rewards.shape == (8,) and rewards.dtype == np.float32 and not truncated.any()
        assert set(np.flatnonzero(rewards)) <= set(np.flatnonzero(terminated))
        for i in np.flatnonzero(terminated):
            finished += 1
            winner = int(info["final_info"]["winner"][i])
            expected = 0.0 if winner == 2 else (1.0 if winner == seats[i] else -1.0)
            assert rewards[i] == expected
            results.append(expected)
            assert info["final_obs"][i]["observation"]["vector"][2] == 1.0  # the over phase, seen by the learner
            assert info["seat"][i] == 1 - seats[i]  # alternate: the next game swaps seats
    assert finished >= 8
    if opponent != "random":
        assert np.mean(results) < -0.5  # the bots beat a random learner, whichever ended the game


def test_a_python_opponent_gets_its_own_observation_and_mask() -> None:
    seen: list[int] = []

    def first_legal(observation: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        assert observation["board"].shape == (6, 6, 6) and mask.shape == (214,)
        seen.append(int(observation["vector"][7]))
        return int(np.flatnonzero(mask)[0])

    env = GeisterVectorEnv(4, {"exit": "reach"}, seed=3, threads=1, opponent=first_legal, learner_seat=1)
    obs, info = env.reset()
    assert seen and (info["seat"] == 1).all()
    for _ in range(60):
        for i in range(4):
            assert obs["action_mask"][i].astype(bool).tolist() == env.state(i).legal_mask(1).tolist()
        obs, *_ = env.step(env.random_actions())

    def cheat(observation: dict[str, np.ndarray[Any, Any]], mask: np.ndarray[Any, Any]) -> int:
        return 213 if not mask[213] else 212

    env = GeisterVectorEnv(2, seed=3, threads=1, opponent=cheat, learner_seat=1)
    with pytest.raises(IllegalAction, match="the opponent returned"):
        env.reset()


def test_seed_lists_repeat_each_game_whatever_the_batch_and_wrong_lengths_are_refused() -> None:
    def first_game_actions(seed: Any, n: int) -> list[int]:
        env = GeisterVectorEnv(n, threads=1, opponent="rules")
        env.reset(seed=seed)
        return [int(env.step(env.random_actions())[0]["action_mask"][0].sum()) for _ in range(30)]

    assert first_game_actions(5, 1) == first_game_actions([5, 9, 9], 3) == first_game_actions(5, 4)
    env = GeisterVectorEnv(3, threads=1)
    with pytest.raises(ValueError, match=r"a list of 3 seeds .* this list has 2"):
        env.reset(seed=[1, 2])
    env.reset(seed=[1, None, 3])
    assert env.np_random_seed == 1


def test_it_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    import gymnasium as gym
    from gymnasium.vector import AutoresetMode, VectorEnv

    env = GeisterVectorEnv(5, seed=1, threads=1, opponent="rules")
    assert isinstance(env, VectorEnv) and env.unwrapped is env and env.spec is None and env.render_mode is None
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert isinstance(env.action_space, gym.spaces.MultiDiscrete) and env.action_space.shape == (5,)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    assert isinstance(env.np_random, np.random.Generator)
    assert env.single_action_space.n == 214
    env.close()
    assert env.closed


def test_gymnasiums_vector_wrappers_work_on_it_unchanged() -> None:
    from gymnasium.spaces import flatten
    from gymnasium.wrappers.vector import DictInfoToList, NormalizeReward, RecordEpisodeStatistics

    base = GeisterVectorEnv(6, {"exit": "escape", "max_plies": 60}, seed=2, threads=1, opponent="charge")
    env = DictInfoToList(NormalizeReward(RecordEpisodeStatistics(base)))
    obs, infos = env.reset(seed=2)
    assert isinstance(infos, list) and len(infos) == 6
    episodes = []
    for _ in range(80):
        obs, rewards, terminated, _truncated, infos = env.step(base.random_actions())
        assert rewards.shape == (6,)
        episodes += [info["episode"] for info in infos if "episode" in info]
        for i in np.flatnonzero(terminated):
            assert "final_obs" in infos[i] and "episode" in infos[i]
    assert episodes and all(e["r"] in (-1.0, 0.0, 1.0) and e["l"] >= 1 for e in episodes)
    # Gymnasium 1.x's observation wrappers (FlattenObservation) take NEXT_STEP environments only, since
    # they would not transform final_obs; docs/learning.md flattens with one numpy line instead, which
    # gives each game's row exactly as gymnasium.spaces.flatten does for one observation:
    flat = np.concatenate([obs["action_mask"], obs["observation"]["board"].reshape(6, -1),
                           obs["observation"]["vector"]], axis=1)
    for i in range(6):
        single = {"observation": {k: v[i] for k, v in obs["observation"].items()}, "action_mask": obs["action_mask"][i]}
        np.testing.assert_array_equal(flat[i], flatten(base.single_observation_space, single))
    from gymnasium.wrappers.vector import FlattenObservation

    # the default SAME_STEP mode is refused (gymnasium 1.2, which RLlib pins, by an assert; 1.3 on by a ValueError)
    with pytest.raises((ValueError, AssertionError)):
        FlattenObservation(base)


@pytest.mark.parametrize("opponent", ["rules", None])
def test_next_step_autoreset_plays_the_same_games_one_step_later(opponent: str | None) -> None:
    """NEXT_STEP shows a finished game's last observation with terminated, then (ignoring that game's next
    action) its new game's first one with reward 0: exactly SAME_STEP's games, final_obs in its place."""
    from gymnasium.vector import AutoresetMode

    options = {"exit": "escape", "max_plies": 40}
    same = GeisterVectorEnv(1, options, seed=5, threads=1, opponent=opponent)
    later = GeisterVectorEnv(1, options, seed=5, threads=1, opponent=opponent,
                             autoreset_mode=AutoresetMode.NEXT_STEP)
    assert later.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP  # the class's own is not changed
    obs_a, _ = same.reset()
    obs_b, _ = later.reset()
    ended = 0
    for _ in range(150):
        np.testing.assert_array_equal(obs_a["observation"]["board"], obs_b["observation"]["board"])
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"])
        action = same.random_actions()
        obs_a, reward_a, done_a, _, info_a = same.step(action)
        obs_b, reward_b, done_b, _, info_b = later.step(action)
        assert reward_b[0] == reward_a[0] and done_b[0] == done_a[0]
        if done_a[0]:
            ended += 1
            final = info_a["final_obs"][0]
            np.testing.assert_array_equal(obs_b["observation"]["vector"][0], final["observation"]["vector"])
            np.testing.assert_array_equal(obs_b["action_mask"][0], final["action_mask"])
            assert "final_obs" not in info_b and info_b["winner"][0] == info_a["final_info"]["winner"][0]
            obs_b, reward_b, done_b, _, _ = later.step(np.array([0]))  # any index: it is ignored
            assert reward_b[0] == 0.0 and not done_b[0]
    assert ended >= 2


def test_gymnasiums_observation_wrappers_work_on_the_next_step_mode() -> None:
    from gymnasium.spaces import flatten
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import FlattenObservation, RecordEpisodeStatistics

    base = GeisterVectorEnv(4, {"exit": "escape", "max_plies": 40}, seed=3, threads=1, opponent="rules",
                            autoreset_mode=AutoresetMode.NEXT_STEP)
    env = RecordEpisodeStatistics(FlattenObservation(base))
    flat, _ = env.reset(seed=3)
    assert flat.shape == (4, 214 + 6 * 6 * 6 + 24) and env.observation_space.contains(flat)
    episodes = 0
    for _ in range(120):
        raw = base._observation()  # the base's own arrays for this step, to compare with the wrapper's rows
        for i in range(4):
            single = {"observation": {k: v[i] for k, v in raw["observation"].items()},
                      "action_mask": raw["action_mask"][i]}
            if not base._restarting[i]:
                np.testing.assert_array_equal(flat[i], flatten(base.single_observation_space, single))
        flat, _, _, _, infos = env.step(base.random_actions())
        episodes += int(infos.get("_episode", np.zeros(4, bool)).sum())
    assert episodes >= 2


class _Keeping(random.Random):
    """A Random that remembers the lists it chose from (what a Python bot chose among)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.lists: list[list[Any]] = []

    def choice(self, seq: Any) -> Any:
        self.lists.append(list(seq))
        return super().choice(seq)


@pytest.mark.parametrize("opponent", ["charge", "rules", "defender"])
def test_every_opponent_move_in_the_env_is_one_its_python_bot_would_play(opponent: str) -> None:
    """Reference states follow each game through the learner's actions; the opponent's setup and moves
    are read back from the environment and must be legal, and each move one its Python bot chooses among."""
    env = GeisterVectorEnv(6, {"exit": "escape", "max_plies": 150}, seed=4, threads=1, opponent=opponent,
                           learner_seat="alternate")
    _, info = env.reset()
    mirrors = [env.state(i) for i in range(env.num_envs)]
    bot = get_bot(opponent)
    moves_checked = 0
    for _ in range(150):
        seats = info["seat"].copy()
        actions = env.random_actions()
        _, _, terminated, _, info = env.step(actions)
        for i in range(env.num_envs):
            after = env.state(i)
            if terminated[i]:
                mirrors[i] = after  # a new game (its own opening is checked by the game before it)
                continue
            me, them = int(seats[i]), 1 - int(seats[i])
            mirror = mirrors[i]
            mirror.apply(me, GAME.action_at(int(actions[i]), me))
            if not mirror.set_up[them]:
                placed = []
                for action in mirror.legal_actions(them):
                    copy = mirror.clone()
                    copy.apply(them, action)
                    if copy.good == after.good:
                        placed.append(copy)
                [mirror] = placed
            if mirror.pos != after.pos:
                rng = _Keeping()
                picked = bot.choose(SeatKnowledge(mirror, them), rng)
                offered = {str(a) for a in rng.lists[0]} if rng.lists else {str(picked)}
                played = []
                for action in mirror.legal_actions(them):
                    copy = mirror.clone()
                    copy.apply(them, action)
                    if copy.pos == after.pos:
                        played.append((str(action), copy))
                [(move, mirror)] = played
                assert move in offered, (move, offered)
                moves_checked += 1
            assert mirror.pos == after.pos and mirror.good == after.good
            mirrors[i] = mirror
    assert moves_checked > 300
