"""The batched The Last environment (envs/thelast_vector.py) against reference TheLastStates played alongside."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ghostgames.envs.thelast_vector import TheLastVectorEnv
from ghostgames.games import get_game
from ghostgames.games.thelast import TheLastOptions, TheLastState, fast
from tests.envs.card_checks import play_alongside

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


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"colours": 3, "values": 8, "hand": 5}), (4, {}),
                                                  (5, {"hand": 4})])
def test_self_play_observes_exactly_what_the_reference_encodes_for_the_seat_to_act(
        players: int, options: dict[str, Any]) -> None:
    n = 6
    env = TheLastVectorEnv(n, players, options, seed=players)
    ended = play_alongside(env, lambda row: reference_of(row, players, options), lambda state: state.totals(), 120)
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


def test_the_example_in_docs_learning_md_runs_and_finishes_matches(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "learning.md").read_text()
    [example] = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "TheLastVectorEnv(" in b]
    exec(compile(example, "docs/learning.md", "exec"), {})
    printed = capsys.readouterr().out
    match = re.search(r"(\d+) matches, the learner's mean result against random: ([+-][\d.]+)", printed)
    # One seat of three playing at random wins a third of its matches: a mean near 1/3 - 2/3.
    assert match and int(match[1]) > 1000 and -0.45 < float(match[2]) < -0.2, printed
