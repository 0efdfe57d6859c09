"""The learned playout policy (bots/geister/playout_policy.py): its features read only what the mover knows,
the moves made are read back from consecutive positions, the fit finds weights that made the choices, the
playout draws by the table, and `ghostgames train geister-playout` writes a policy the expert can use."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import fast_search
from ghostgames.bots.geister import playout_policy as pp
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.heuristic import HEURISTIC
from ghostgames.bots.geister.picture import exit_distance
from ghostgames.bots.search_bots import expert_policy
from ghostgames.commands.train import PLAYOUT_RECIPE
from ghostgames.games.geister import GeisterState, fast
from ghostgames.games.geister.board import DIRECTIONS, parse_square
from ghostgames.learn.geister.positions import parse_parts
from tests.bots.positions import positions
from tests.games.geister.positions import position

OPTIONS: list[dict[str, Any]] = [{"exit": "escape", "max_plies": 300}, {"exit": "reach"}]


def _rows(options: dict[str, Any], seed: int) -> list[np.ndarray[Any, Any]]:
    """Rows of the play-phase positions of one random game, every one."""
    return [fast.from_state(state) for state, _ in positions("geister", 2, options, seed, 1)
            if isinstance(state, GeisterState) and all(state.set_up)]


def _bits(row: np.ndarray[Any, Any]) -> tuple[list[int], list[int]]:
    legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
    bits = np.empty(fast.MAX_MOVES, dtype=np.int32)
    n = pp.decision_bits(row, legal, bits)
    return ([] if n < 0 else legal[:n].tolist()), ([pp.sure(n)] if n < 0 else bits[:n].tolist())


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_features_never_read_the_enemys_colours(options: dict[str, Any]) -> None:
    """Property: re-colour the enemy's living ghosts every possible way (as a world the search deals may) and
    the mover's moves, their features and the learned move for each draw stay the same."""
    rng = random.Random(3)
    table = pp.table_of(np.array([rng.uniform(-2, 2) for _ in range(pp.K)]))
    scratch = [np.empty(fast.MAX_MOVES, dtype=np.int32) for _ in range(2)]
    cumulative = np.empty(fast.MAX_MOVES, dtype=np.float64)
    checked = 0
    for seed in (1, 2):
        for row in _rows(options, seed)[::3]:
            enemy = [g for g in range(8 * (1 - row[fast.TURN]), 8 * (2 - row[fast.TURN])) if row[fast.POS + g] >= 0]
            expected = _bits(row)
            moves = [pp.learned_move(row, u, table, *scratch, cumulative) for u in (0.0, 0.3, 0.7, 0.99)]
            for _ in range(6):
                other = row.copy()
                for g in enemy:
                    other[fast.GOOD + g] = rng.randint(0, 1)
                assert _bits(other) == expected
                assert [pp.learned_move(other, u, table, *scratch, cumulative) for u in (0.0, 0.3, 0.7, 0.99)] == moves
            checked += 1
    assert checked > 10


def _code(text: str) -> int:
    """'c3 n' -> the core's move code."""
    origin, direction = text.split()
    return parse_square(origin) * 4 + DIRECTIONS.index(direction)


def test_a_moves_features_are_what_it_does() -> None:
    """A hand-made position, seat 0 to move (it leaves by a6 and f6; the enemy by a1 and f1, so the enemy
    ghost on b1 is one step from leaving)."""
    state = position({"c3": (0, "good"), "c4": (1, "bad"), "e2": (0, "bad"), "b1": (1, "good"),
                      "a2": (0, "bad"), "f5": (1, "good")}, options={"exit": "escape"})
    legal, bits = _bits(fast.from_state(state))
    by_move = dict(zip(legal, bits, strict=True))
    closes = pp.FEATURES[9]

    def has(move: str, feature: str) -> bool:
        return bool(by_move[_code(move)] >> pp.FEATURES.index(feature) & 1)

    assert has("c3 n", "captures a ghost") and has("c3 n", "captures with a good ghost")
    assert has("c3 n", "good ghost steps towards its exits")
    assert has("c3 e", "good ghost leaves a square next to an enemy ghost")
    assert has("c3 s", "good ghost steps away from its exits")
    assert not has("c3 s", "good ghost steps towards its exits")
    assert has("a2 s", "bad ghost lands next to an enemy ghost") and has("a2 s", closes)
    assert has("a2 n", "bad ghost steps towards its exits") and not has("a2 n", closes)
    assert not has("e2 n", closes) and not has("e2 n", "captures a ghost")
    away = 1 << pp.FEATURES.index("bad ghost steps away from its exits")
    assert by_move[_code("e2 w")] == away | 1 << pp.FEATURES.index(closes)  # nothing else


def test_the_learned_move_draws_by_the_table_and_keeps_the_sure_moves() -> None:
    """The draw walks the moves in order: u = 0 takes the first listed move and u just under 1 the last; with
    all weight on captures only captures are drawn; a sure move (leaving) is made whatever the table says."""
    state = position({"c3": (0, "good"), "c4": (1, "bad"), "e2": (0, "bad"), "b1": (1, "good"),
                      "f5": (1, "good")}, options={"exit": "escape"})
    row = fast.from_state(state)
    legal, bits = _bits(row)
    scratch = [np.empty(fast.MAX_MOVES, dtype=np.int32) for _ in range(2)]
    cumulative = np.empty(fast.MAX_MOVES, dtype=np.float64)
    flat = pp.table_of(np.zeros(pp.K))
    assert pp.learned_move(row, 0.0, flat, *scratch, cumulative) == legal[0]
    assert pp.learned_move(row, 0.999999, flat, *scratch, cumulative) == legal[-1]
    hunter = pp.table_of(np.array([30.0] + [0.0] * (pp.K - 1)))
    captures = {code for code, b in zip(legal, bits, strict=True) if b & 1}
    assert captures and {pp.learned_move(row, u, hunter, *scratch, cumulative)
                         for u in np.linspace(0, 0.999, 50)} == captures
    leaving = position({"f6": (0, "good"), "b1": (1, "bad"), "e5": (1, "good"), "c3": (0, "bad")},
                       options={"exit": "escape"})
    leave_row = fast.from_state(leaving)
    leave = int(fast.ESCAPE_CODE[0][list(fast.ESCAPE_SQUARE[0]).index(parse_square("f6"))])
    assert _bits(leave_row)[1] == [leave]
    assert {pp.learned_move(leave_row, u, hunter, *scratch, cumulative) for u in (0.0, 0.5, 0.9)} == {leave}


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_the_sure_moves_are_the_hand_playouts(options: dict[str, Any]) -> None:
    """Where the hand playout makes a sure move, the learned one makes the same move, and only there: the
    hand playout with both coins off draws among all moves, so a position where it always gives one move of
    several has a sure move."""
    params = HEURISTIC._replace(hunt=0.0, push=0.0)
    scratch = [np.empty(fast.MAX_MOVES, dtype=np.int32) for _ in range(3)]
    sure_seen = 0
    for seed in (1, 2, 3):
        for row in _rows(options, seed):
            legal, bits = _bits(row)
            hand = {fast_search.rollout_move(row, fast.new_rng(k), params, *scratch) for k in range(12)}
            if not legal:
                assert hand == {bits[0]}
                sure_seen += 1
            else:
                assert len(hand) > 1 or len(legal) == 1
    assert sure_seen > 0


def test_the_expert_plays_its_playouts_with_a_given_policy() -> None:
    """The same search with the learned playout gives other root statistics than with the hand playout (the
    table is used), the same ones for the same seed, and a legal move."""
    state, seat = next((s.clone(), seat) for s, seat in positions("geister", 2, OPTIONS[0], 4, 1)
                       if isinstance(s, GeisterState) and all(s.set_up) and s.ply > 8)
    table = pp.table_of(np.array([-1.0, 0.5, -0.5, 0.2, -0.4, -0.6, 1.0, 1.2, -0.2, 0.3, 0.3]))

    def stats(**kwargs: Any) -> dict[int, tuple[int, int, float]]:
        bot = FastExpertBot(Budget(iterations=3000), expert_policy, **kwargs)
        move = bot.choose(SeatKnowledge(state, seat), random.Random(0))
        assert str(move) in state.legal_texts(seat)
        assert bot.last_tree is not None
        return bot.last_tree.root_children()

    learned = stats(playout_table=table)
    assert learned == stats(playout_table=table)
    assert learned != stats()


def test_the_packaged_policy_is_the_documented_fit_and_the_expert_plays_with_it() -> None:
    """The package's policy is the default recipe's fit that docs/learning.md reports (its weights are in the
    fit's JSON), and `expert` (so `hard`) searches with it, while `expert-hand` keeps the hand playout: other
    root statistics for the same seed."""
    fit = json.loads((Path(__file__).parents[2] / "benchmarks/results/playout-policy-20000.json").read_text())
    assert fit["recipe"] == "expert:20000=400 seed 7"  # `expert` then: today's `expert-hand`
    # The command's default plays those games again: the same bot (the hand playout), games and seed.
    (part,) = parse_parts(PLAYOUT_RECIPE)
    assert part.games == 400 and part.bot.partition(":")[2] == "20000"
    recipe_bot = get_bot(part.bot)
    assert isinstance(recipe_bot, FastExpertBot) and recipe_bot.playout_table.size == 0
    packaged = pp.PlayoutPolicy.load()
    assert np.allclose(packaged.weights, [fit["weights"][name] for name in pp.FEATURES])
    state, seat = next((s.clone(), seat) for s, seat in positions("geister", 2, OPTIONS[0], 4, 1)
                       if isinstance(s, GeisterState) and all(s.set_up) and s.ply > 8)

    def stats(name: str) -> dict[int, tuple[int, int, float]]:
        bot = get_bot(name)
        assert isinstance(bot, FastExpertBot) and bot.name == name.partition(":")[0]
        move = bot.choose(SeatKnowledge(state, seat), random.Random(0))
        assert str(move) in state.legal_texts(seat) and bot.last_tree is not None
        return bot.last_tree.root_children()

    hard = get_bot("hard")
    assert isinstance(hard, FastExpertBot) and np.array_equal(hard.playout_table, packaged.table)
    hand = get_bot("expert-hand")
    assert isinstance(hand, FastExpertBot) and hand.playout_table.size == 0
    assert stats("expert:3000") != stats("expert-hand:3000")


def test_the_cores_exit_distances_are_the_pictures() -> None:
    assert [[int(d) for d in row] for row in fast.EXIT_DISTANCE] == [
        [exit_distance(sq, owner) for sq in range(fast.SQUARES)] for owner in (0, 1)]


def test_a_policy_is_saved_with_its_features_and_read_back(tmp_path: Path) -> None:
    policy = pp.PlayoutPolicy(np.arange(pp.K, dtype=np.float64) / 10)
    policy.save(tmp_path / "p.npz")
    assert np.array_equal(pp.PlayoutPolicy.load(tmp_path / "p.npz").weights, policy.weights)
    np.savez(tmp_path / "old.npz", weights=np.zeros(3), features=np.array(["a", "b", "c"]))
    with pytest.raises(ValueError, match="fit it again"):
        pp.PlayoutPolicy.load(tmp_path / "old.npz")


