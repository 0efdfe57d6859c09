"""The batched The Last environment (envs/thelast_vector.py) against reference TheLastStates played alongside."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ghostgames.envs.common import rewards
from ghostgames.envs.thelast_vector import TheLastVectorEnv
from ghostgames.games import get_game
from ghostgames.games.thelast import TheLastOptions, TheLastState, fast
from ghostgames.rules import IllegalAction

GAME = get_game("thelast")


def reference_of(row: np.ndarray[Any, Any], players: int, options: dict[str, Any]) -> TheLastState:
    """The reference state of a match the core has just dealt (no card played yet): the same deal, the same
    first leader (the core leaves the points pile's cards in place as it turns them up)."""
    state = TheLastState(GAME, players, TheLastOptions.model_validate({**options, "players": players}), seed=0)
    size, count, ghost = int(row[fast.SIZE]), int(row[fast.COUNT]), int(row[fast.GHOST])
    deck: list[int] = []
    for p in range(count):
        if p == ghost:
            deck += [int(c) for c in row[fast.GHOST_PILE : fast.GHOST_PILE + size]]
        else:
            deck += [c for c in range(48) if int(row[fast.HAND + p]) >> c & 1]
    deck += [int(c) for c in row[fast.POINTS : fast.POINTS + size]]
    deck += [c for c in range(48) if int(row[fast.SPARE]) >> c & 1]
    state.deal_round([], deck=deck, first=int(row[fast.ROUND_LEADER]))
    return state


def single(obs: dict[str, Any], i: int) -> dict[str, Any]:
    return {name: array[i] for name, array in obs["observation"].items()}


def assert_same_arrays(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert got.keys() == want.keys()
    for name, array in want.items():
        np.testing.assert_array_equal(got[name], array, err_msg=name)


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"colours": 3, "values": 8, "hand": 5}), (4, {}),
                                                  (5, {"hand": 4})])
def test_self_play_observes_exactly_what_the_reference_encodes_for_the_seat_to_act(
        players: int, options: dict[str, Any]) -> None:
    n = 6
    env = TheLastVectorEnv(n, players, options, seed=players)
    obs, info = env.reset()
    mirrors = [reference_of(env.row(i), players, options) for i in range(n)]
    ended = 0
    for _ in range(120):
        for i, state in enumerate(mirrors):
            seat = min(state.to_act())
            assert info["seat"][i] == seat
            assert_same_arrays(single(obs, i), state.encode(seat))
            np.testing.assert_array_equal(obs["action_mask"][i].astype(bool), state.legal_mask(seat))
        actions = env.random_actions()
        obs, reward, done, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, state in enumerate(mirrors):
            seat = min(state.to_act())
            state.apply(seat, GAME.action_at(int(actions[i]), seat))
            outcome = state.outcome()
            assert done[i] == (outcome is not None)
            if outcome is None:
                assert reward[i] == 0.0 and not info["rewards"][i].any()
                continue
            ended += 1
            assert list(info["rewards"][i]) == rewards(outcome) and reward[i] == rewards(outcome)[seat]
            final = info["final_obs"][i]
            assert_same_arrays(final["observation"], state.encode(seat))
            assert not final["action_mask"].any()
            assert list(info["final_info"]["totals"][i]) == state.totals()
            mirrors[i] = reference_of(env.row(i), players, options)
    assert ended >= n


@pytest.mark.parametrize("players", [2, 3, 5])
def test_against_random_opponents_the_learner_sees_only_its_own_decisions(players: int) -> None:
    n = 2 * players
    env = TheLastVectorEnv(n, players, {"rounds": 2}, seed=1, opponent="random", learner_seat="alternate")
    obs, info = env.reset()
    learners = np.arange(n) % players
    finished = 0
    for _ in range(400):
        np.testing.assert_array_equal(info["seat"], learners)
        for i in range(n):
            row = env.row(i)
            assert fast.seat_to_act(row) == learners[i]
            mask = np.empty(97, dtype=np.int8)
            fast.legal_mask(row, int(learners[i]), mask)
            np.testing.assert_array_equal(obs["action_mask"][i], mask)
        assert (obs["observation"]["table"][:, 3] == 1.0).all()  # "this seat is to act"
        obs, reward, done, _, info = env.step(env.random_actions())
        assert (reward[~done] == 0.0).all() and np.isin(reward[done], (-1.0, 0.0, 1.0)).all()
        for i in np.flatnonzero(done):
            finished += 1
            totals = info["final_info"]["totals"][i]
            mine = totals[learners[i]]
            expected = 0.0 if (totals == mine).all() else (1.0 if mine == totals.min() else -1.0)
            assert reward[i] == expected
            assert info["final_obs"][i]["observation"]["table"][2] == 1.0  # the match is over
            assert info["final_obs"][i]["observation"]["table"][4] == 1.0  # in its last round
    assert finished >= n


def test_rules_opponents_beat_random_ones_for_the_same_random_learner() -> None:
    """The opponents really play `rules` (bots/thelast/fast_rules.py): a random learner does worse against
    them than against random ones."""
    means = {}
    for opponent in ("random", "rules"):
        env = TheLastVectorEnv(32, 3, seed=3, opponent=opponent, learner_seat="alternate", copy=False)
        env.reset()
        results: list[float] = []
        while len(results) < 300:
            _, reward, done, _, _ = env.step(env.random_actions())
            results += list(reward[done])
        means[opponent] = float(np.mean(results))
    assert means["rules"] < means["random"] - 0.2, means


def test_a_seed_repeats_every_match_whatever_the_batch_and_another_seed_does_not() -> None:
    def play(env: TheLastVectorEnv, seed: Any) -> list[np.ndarray[Any, Any]]:
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"]["hand"].copy()]
        for _ in range(60):
            obs, *_ = env.step(env.random_actions())
            seen.append(obs["observation"]["hand"].copy())
        return seen

    a = play(TheLastVectorEnv(3, 4, seed=0, opponent="random"), 7)
    b = play(TheLastVectorEnv(3, 4, seed=0, opponent="random"), 7)
    c = play(TheLastVectorEnv(3, 4, seed=0, opponent="random"), 8)
    d = play(TheLastVectorEnv(1, 4, seed=0, opponent="random"), [8])  # game 0 of seed 8 alone
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(c, d, strict=True))


@pytest.mark.parametrize("opponent", ["random", None])
def test_next_step_autoreset_plays_the_same_matches_one_step_later(opponent: str | None) -> None:
    from gymnasium.vector import AutoresetMode

    same = TheLastVectorEnv(1, 3, seed=5, opponent=opponent)
    later = TheLastVectorEnv(1, 3, seed=5, opponent=opponent, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert later.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs_a, _ = same.reset()
    obs_b, _ = later.reset()
    ended = 0
    for _ in range(150):
        assert_same_arrays(single(obs_a, 0), single(obs_b, 0))
        np.testing.assert_array_equal(obs_a["action_mask"], obs_b["action_mask"])
        action = same.random_actions()
        obs_a, reward_a, done_a, _, info_a = same.step(action)
        obs_b, reward_b, done_b, _, info_b = later.step(action)
        assert reward_b[0] == reward_a[0] and done_b[0] == done_a[0]
        if done_a[0]:
            ended += 1
            final = info_a["final_obs"][0]
            assert_same_arrays(single(obs_b, 0), final["observation"])
            np.testing.assert_array_equal(obs_b["action_mask"][0], final["action_mask"])
            assert "final_obs" not in info_b
            np.testing.assert_array_equal(info_b["totals"][0], info_a["final_info"]["totals"][0])
            obs_b, reward_b, done_b, _, _ = later.step(np.array([0]))  # any index: it is ignored
            assert reward_b[0] == 0.0 and not done_b[0]
    assert ended >= 2


def test_it_is_a_gymnasium_vector_env_with_batched_spaces() -> None:
    import gymnasium as gym
    from gymnasium.vector import VectorEnv

    env = TheLastVectorEnv(5, 4, seed=1, opponent="random", copy=False)
    assert isinstance(env, VectorEnv) and env.single_action_space.n == 97
    assert isinstance(env.action_space, gym.spaces.MultiDiscrete) and env.action_space.shape == (5,)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    env.close()
    assert env.closed


def test_bad_settings_and_actions_are_refused_saying_what_would_work() -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        TheLastVectorEnv(2, 6)
    with pytest.raises(ValueError, match="rounds"):
        TheLastVectorEnv(2, 3, {"round": 2})
    with pytest.raises(ValueError, match="'random', 'rules' or None"):
        TheLastVectorEnv(2, 3, opponent="charge")
    with pytest.raises(ValueError, match="needs an opponent"):
        TheLastVectorEnv(2, 3, learner_seat=1)
    with pytest.raises(ValueError, match="0 to 2"):
        TheLastVectorEnv(2, 3, opponent="random", learner_seat=3)
    env = TheLastVectorEnv(2, 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array([0, 0]))
    obs, _ = env.reset()
    illegal = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), int(env.random_actions()[1])])
    before = env.row(0)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(illegal)
    np.testing.assert_array_equal(env.row(0), before)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0]))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.array([0.5, 1.0]))


def test_the_example_in_docs_learning_md_runs_and_finishes_matches(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "learning.md").read_text()
    [example] = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "TheLastVectorEnv(" in b]
    exec(compile(example, "docs/learning.md", "exec"), {})
    printed = capsys.readouterr().out
    match = re.search(r"(\d+) matches, the learner's mean result against random: ([+-][\d.]+)", printed)
    # One seat of three playing at random wins a third of its matches: a mean near 1/3 - 2/3.
    assert match and int(match[1]) > 1000 and -0.45 < float(match[2]) < -0.2, printed
