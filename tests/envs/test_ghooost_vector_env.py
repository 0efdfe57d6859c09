"""The batched Ghooost! environment (envs/ghooost_vector.py) against reference GhooostStates: played alongside
through single rounds, and set to random positions of matches."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ghostgames.envs.batched import NOTHING
from ghostgames.envs.ghooost_vector import GhooostVectorEnv
from ghostgames.games import get_game
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.cards import KINDS
from ghostgames.games.ghooost.state import GhooostOptions, GhooostState
from tests.bots.positions import positions
from tests.envs.card_checks import assert_same_arrays, play_alongside, single

GAME = get_game("ghooost")
COUNT = fast.ACTION_COUNT


def reference_of(row: np.ndarray[Any, Any], players: int, options: dict[str, Any]) -> GhooostState:
    """The reference state of a game the core has just dealt (no card moved yet): the same hands, mansions,
    crypt and starter."""
    checked = GhooostOptions.model_validate({**options, "players": players})
    state = GhooostState(GAME, checked, 0, players)  # type: ignore[arg-type]
    cards = [k for seat in range(players) for k in range(KINDS) for _ in range(int(row[fast.HANDS + seat * KINDS + k]))]
    for seat in range(players):
        at = fast.MANSIONS + seat * fast.MANSION_CAP
        cards += [int(c) for c in row[at : at + int(row[fast.MANSION_COUNT + seat])]]
    cards += [int(c) for c in row[fast.CRYPT : fast.CRYPT + int(row[fast.CRYPT_COUNT])]]
    state.deal(int(row[fast.FIRST]), cards)
    return state


@pytest.mark.parametrize(("players", "options"), [
    (2, {"max_turns": 120}), (3, {"match": False, "deck": "original", "replay": "must", "max_turns": 150}),
    (4, {"match": False, "max_turns": 100}), (6, {"match": False, "max_turns": 200})])
def test_self_play_observes_exactly_what_the_reference_encodes_for_the_seat_to_act(
        players: int, options: dict[str, Any]) -> None:
    n = 4
    env = GhooostVectorEnv(n, players, options, seed=players)
    ended = play_alongside(env, lambda row: reference_of(row, players, options),
                           lambda state: [r.rank for r in state.outcome().results], 260)
    assert ended >= n


@pytest.mark.parametrize(("players", "options"), [(3, {"max_turns": 150}), (5, {"max_turns": 150, "replay": "must"})])
def test_every_seats_observation_and_mask_are_the_references_on_random_positions_of_matches(
        players: int, options: dict[str, Any]) -> None:
    """Random positions of matches (any round, any seat to act), set into the environment's row: what it
    shows is the reference's encoding and mask for that seat."""
    env = GhooostVectorEnv(1, players, options, seed=1)
    env.reset()
    checked = 0
    for seed in range(2):
        for state, seat in positions("ghooost", players, options, seed, every=7):
            env._states[0] = fast.from_state(state)
            env._play(np.array([NOTHING]))
            obs = env._observation()
            assert env._seats[0] == seat
            assert_same_arrays(single(obs, 0), state.encode(seat))
            np.testing.assert_array_equal(obs["action_mask"][0].astype(bool), state.legal_mask(seat))
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (3, "rules"), (6, "rules")])
def test_against_an_opponent_the_learner_sees_only_its_own_decisions(players: int, opponent: str) -> None:
    n = 2 * players
    env = GhooostVectorEnv(n, players, {"max_turns": 80, "max_rounds": 2}, seed=1, opponent=opponent,
                           learner_seat="alternate")
    obs, info = env.reset()
    learners = np.arange(n) % players
    finished = 0
    for _ in range(250):
        np.testing.assert_array_equal(info["seat"], learners)
        for i in range(n):
            row = env.row(i)
            assert fast.seat_to_act(row) == learners[i]
            mask = np.empty(COUNT, dtype=np.int8)
            fast.legal_mask(row, int(learners[i]), mask)
            np.testing.assert_array_equal(obs["action_mask"][i], mask)
        obs, reward, done, _, info = env.step(env.random_actions())
        assert (reward[~done] == 0.0).all() and np.isin(reward[done], (-1.0, 0.0, 1.0)).all()
        for i in np.flatnonzero(done):
            finished += 1
            ranks = info["final_info"]["ranks"][i]
            assert ranks.min() >= 1 and ranks.max() <= players
            if reward[i] == 1.0:
                assert ranks[learners[i]] == 1
            assert info["final_obs"][i]["observation"]["table"][10] == 1.0  # the game is over
    assert finished >= n



def test_the_example_in_docs_learning_md_runs_and_finishes_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parents[2] / "docs" / "learning.md").read_text()
    [example] = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "GhooostVectorEnv(" in b]
    exec(compile(example, "docs/learning.md", "exec"), {})
    printed = capsys.readouterr().out
    match = re.search(r"(\d+) rounds, the learner's mean result against rules: ([+-][\d.]+)", printed)
    # A random learner against `rules` at two players loses nearly every round (-0.94 when written).
    assert match and int(match[1]) > 500 and float(match[2]) < -0.6, printed


def test_games_that_end_before_the_learners_turn_are_dealt_again_and_too_short_rounds_are_refused() -> None:
    """With rounds of 6 turns at 3 players, many end before the learner's second turn and some before its
    first: every step still shows the learner to act, with a legal mask."""
    with pytest.raises(ValueError, match="at least 6"):
        GhooostVectorEnv(2, 3, {"max_turns": 5, "match": False}, opponent="rules")
    GhooostVectorEnv(2, 3, {"max_turns": 1, "match": False})  # self-play: every turn is the learner's
    env = GhooostVectorEnv(8, 3, {"max_turns": 6, "match": False}, seed=2, opponent="rules", learner_seat="alternate")
    obs, info = env.reset()
    ended = 0
    for _ in range(60):
        for i in range(8):
            assert fast.seat_to_act(env.row(i)) == info["seat"][i] == i % 3 and obs["action_mask"][i].any()
        obs, _, done, _, info = env.step(env.random_actions())
        ended += int(done.sum())
    assert ended >= 60
