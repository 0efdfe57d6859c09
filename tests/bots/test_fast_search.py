"""The Geister expert's search on the compiled core (bots/geister/fast_search.py): reproducible, legal, the
tree's statistics add up, and its playout heuristic and evaluation are GeisterPolicy's."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import fast_search
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot, Tree
from ghostgames.bots.geister.heuristic import HEURISTIC, Heuristic
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.bots.geister.value import value_of_row
from ghostgames.bots.search_bots import expert_policy
from ghostgames.games.geister import GeisterState, fast
from ghostgames.games.geister.actions import Move
from tests.bots.positions import positions
from tests.games.geister.positions import position

OPTIONS: list[dict[str, Any]] = [{"exit": "escape", "max_plies": 300}, {"exit": "reach"}]


def _play_positions(options: dict[str, Any], seed: int, every: int = 3) -> list[tuple[GeisterState, int]]:
    """Copies of play-phase positions (both seats set up) along a random game."""
    out = []
    for state, seat in positions("geister", 2, options, seed, every):
        assert isinstance(state, GeisterState)
        if all(state.set_up):
            out.append((state.clone(), seat))
    return out


def _searched(options: dict[str, Any], seed: int, every: int = 3) -> list[tuple[GeisterState, int]]:
    """Play-phase positions where the expert searches (no move forced, more than one allowed)."""
    out = []
    for state, seat in _play_positions(options, seed, every):
        knowledge = SeatKnowledge(state, seat)
        policy = BeliefPolicy(knowledge)
        legal = knowledge.legal_actions()
        if len(legal) > 1 and policy.forced(legal, random.Random(0)) is None and len(policy.allowed(legal)) > 1:
            out.append((state, seat))
    return out


def _bot(iterations: int, **kwargs: Any) -> FastExpertBot:
    return FastExpertBot(Budget(iterations=iterations), expert_policy, **kwargs)


def test_expert_is_the_fast_search_and_expert_v2_the_python_one() -> None:
    assert isinstance(get_bot("expert:10"), FastExpertBot)
    assert isinstance(get_bot("hard"), FastExpertBot)
    assert get_bot("expert-v2:10").name == "expert-v2"
    assert not isinstance(get_bot("expert-v2"), FastExpertBot)


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_the_same_knowledge_and_seed_give_the_same_legal_move(options: dict[str, Any]) -> None:
    chosen = []
    for state, seat in _play_positions(options, seed=4)[:12]:
        moves = {str(get_bot("expert:300").choose(SeatKnowledge(state, seat), random.Random(s))) for s in (7, 7)}
        assert len(moves) == 1
        assert moves <= set(state.legal_texts(seat))
        chosen.append(moves.pop())
    assert len(chosen) >= 6


def test_different_seeds_search_differently() -> None:
    """The stream is seeded from the bot's rng: two seeds give two different trees."""
    state, seat = _searched(OPTIONS[0], seed=2)[4]
    trees = []
    for seed in (1, 2):
        bot = _bot(500)
        bot.choose(SeatKnowledge(state, seat), random.Random(seed))
        assert bot.last_tree is not None
        trees.append(bot.last_tree.root_children())
    assert trees[0] != trees[1]


def test_a_winning_move_is_played() -> None:
    state = position({"a6": (0, "good"), "c3": (0, "bad"), "d3": (1, "good"), "e5": (1, "bad")},
                     options={"exit": "escape"})
    assert {str(get_bot("expert:200").choose(SeatKnowledge(state, 0), random.Random(s))) for s in range(4)} <= {
        "a6 n", "a6 w"}
    reach = position({"a5": (0, "good"), "c3": (0, "bad"), "d3": (1, "good"), "e5": (1, "bad")})
    assert str(get_bot("expert:200").choose(SeatKnowledge(reach, 0), random.Random(0))) == "a5 n"


def test_an_enemy_ghost_about_to_escape_is_taken() -> None:
    ghosts = {
        "b1": (0, "bad"), "c2": (0, "good"), "d3": (0, "good"), "e2": (0, "bad"),
        "a1": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e5": (1, "bad"),
    }  # fmt: skip
    state = position(ghosts, turn=0, options={"exit": "escape"})
    assert {str(get_bot("expert:400").choose(SeatKnowledge(state, 0), random.Random(s))) for s in range(5)} == {
        "b1 w"}


def test_the_search_sees_a_win_two_moves_ahead() -> None:
    """Nothing is forced or guarded here: stepping onto the corner wins next move (nothing of theirs can reach
    a6 in one step), while waiting lets b5 take our good ghost. Only the search can tell."""
    ghosts = {
        "a5": (0, "good"), "c2": (0, "good"), "b2": (0, "bad"), "d2": (0, "bad"),
        "b5": (1, "bad"), "e5": (1, "good"), "d4": (1, "good"), "e6": (1, "bad"),
    }  # fmt: skip
    state = position(ghosts, turn=0, options={"exit": "escape"})
    knowledge = SeatKnowledge(state, 0)
    policy = BeliefPolicy(knowledge)
    legal = knowledge.legal_actions()
    assert policy.forced(legal, random.Random(0)) is None and policy.allowed(legal) == legal
    assert {str(get_bot("expert:3000").choose(knowledge, random.Random(s))) for s in range(4)} == {"a5 n"}


def _check_tree(tree: Tree, seat: int, allowed: set[int], iterations: int) -> None:
    size = int(tree.nodes.size[0])
    assert 1 < size <= iterations + 1  # one node added per iteration at most
    children = {node: tree.children(node) for node in range(size)}
    root_kids = children[0]
    assert {int(tree.nodes.move[c]) for c in root_kids} <= allowed
    assert sum(int(tree.nodes.visits[c]) for c in root_kids) == iterations
    for c in root_kids:
        assert int(tree.nodes.actor[c]) == seat
        assert 1 <= int(tree.nodes.avail[c]) <= iterations  # every root move is available in every world
    for node in range(1, size):
        kids = children[node]
        assert len({int(tree.nodes.move[c]) for c in kids}) == len(kids)  # one child per move
        assert int(tree.nodes.visits[node]) >= 1 + sum(int(tree.nodes.visits[c]) for c in kids)
        assert 0.0 <= float(tree.nodes.reward[node]) <= int(tree.nodes.visits[node])
        for c in kids:
            assert int(tree.nodes.actor[c]) == 1 - int(tree.nodes.actor[node])  # the seats alternate
            assert int(tree.nodes.avail[c]) >= int(tree.nodes.visits[c])
    # all iterations are in the tree: nodes created = iterations that did not end on a finished world early
    assert sum(int(tree.nodes.visits[n]) for n in range(1, size) if not children[n]) <= iterations


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_the_root_statistics_add_up(options: dict[str, Any]) -> None:
    checked = 0
    for state, seat in _searched(options, seed=6, every=5)[:5]:
        knowledge = SeatKnowledge(state, seat)
        allowed = BeliefPolicy(knowledge).allowed(knowledge.legal_actions())
        iterations = 700  # not a multiple of the chunk: the last chunk is shorter
        bot = _bot(iterations)
        bot.choose(knowledge, random.Random(checked))
        assert bot.last_tree is not None and bot.last_iterations == iterations
        _check_tree(bot.last_tree, seat, {fast.code_of(m) for m in allowed if isinstance(m, Move)}, iterations)
        checked += 1
    assert checked >= 3


def test_the_root_is_limited_to_the_guards_answers() -> None:
    """a3 is two steps from its exit a1, and two of ours can take it (b3 w, a4 s): the guard of `expert-v3`
    (`BeliefPolicy`, the bot searched here) allows just those, so the compiled search must spend every
    iteration on them (with one answer it would not search). (`expert`'s guard may let that capture wait
    while a keeper is in time, test_exit_races.py, and would allow more.)"""
    ghosts = {
        "b3": (0, "bad"), "c2": (0, "good"), "d4": (0, "good"), "a4": (0, "bad"),
        "a3": (1, "good"), "c5": (1, "good"), "d5": (1, "bad"), "e5": (1, "bad"),
    }  # fmt: skip
    state = position(ghosts, turn=0, options={"exit": "escape"})
    knowledge = SeatKnowledge(state, 0)
    legal = knowledge.legal_actions()
    answers = BeliefPolicy(knowledge).allowed(legal)
    assert {str(m) for m in answers} == {"b3 w", "a4 s"} and len(legal) > len(answers)
    bot = FastExpertBot(Budget(iterations=300), BeliefPolicy)
    chosen = bot.choose(knowledge, random.Random(0))
    assert bot.last_tree is not None and bot.last_iterations == 300
    root = bot.last_tree.root_children()
    assert set(root) == {fast.code_of(m) for m in answers if isinstance(m, Move)}
    assert sum(visits for visits, _, _ in root.values()) == 300
    assert str(chosen) in {"b3 w", "a4 s"}


def test_a_time_budget_runs_whole_chunks_and_stops() -> None:
    state, seat = _searched(OPTIONS[0], seed=3)[5]
    bot = FastExpertBot(Budget(seconds=0.05), expert_policy)
    move = bot.choose(SeatKnowledge(state, seat), random.Random(1))
    assert str(move) in state.legal_texts(seat)
    assert bot.last_iterations > 0 and bot.last_iterations % fast_search.CHUNK == 0


# --- the kernel's playout heuristic and evaluation against GeisterPolicy's --------------------------------
def _params() -> Heuristic:
    return GeisterPolicy.heuristic


# The shipped weights, and others drawn at random: the kernel must read each weight where Python does.
_WEIGHTS = [HEURISTIC, *(Heuristic(*random.Random(k).choices([0.0, 0.25, 0.5, 1.0, 2.0, 7.0], k=len(HEURISTIC)))
                         for k in range(3))]


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
@pytest.mark.parametrize("weights", _WEIGHTS, ids=["shipped", "random-1", "random-2", "random-3"])
def test_the_hand_evaluation_is_exactly_geister_policys(options: dict[str, Any], weights: Heuristic) -> None:
    checked = 0
    for seed in (1, 2, 3):
        for state, seat in _play_positions(options, seed, every=2):
            policy = GeisterPolicy(SeatKnowledge(state, seat))
            policy.heuristic = weights
            expected = policy.evaluate(state)
            row = fast.from_state(state)
            v0 = fast_search.leaf_value(row, 0, fast_search.HAND, weights, fast_search.shipped_value())
            v1 = fast_search.leaf_value(row, 1, fast_search.HAND, weights, fast_search.shipped_value())
            assert v0 == pytest.approx(expected[0], abs=1e-12)
            assert v1 == pytest.approx(expected[1], abs=1e-12)
            checked += 1
    assert checked > 40


def _python_sure_move(state: GeisterState, seat: int) -> str | None:
    """The move GeisterPolicy.rollout_action plays without a coin (hunt = push = 0 and a single draw cannot
    tell): found by asking it with coins that never fire."""
    policy = GeisterPolicy(SeatKnowledge(state, seat))
    policy.heuristic = HEURISTIC._replace(hunt=0.0, push=0.0)
    picks = {str(policy.rollout_action(state, seat, random.Random(s))) for s in range(30)}
    return picks.pop() if len(picks) == 1 else None


def _kernel_picks(state: GeisterState, hunt: float, push: float, draws: int = 300) -> Counter[str]:
    row = fast.from_state(state)
    rng = fast.new_rng(11)
    params = _params()._replace(hunt=hunt, push=push)
    scratch = [np.empty(fast.MAX_MOVES, dtype=np.int32) for _ in range(3)]
    texts = {fast.code_of(m): str(m) for m in state.legal_actions(state.turn) if isinstance(m, Move)}
    return Counter(texts[fast_search.rollout_move(row, rng, params, *scratch)] for _ in range(draws))


def _python_picks(state: GeisterState, hunt: float, push: float, draws: int = 300) -> Counter[str]:
    policy = GeisterPolicy(SeatKnowledge(state, state.turn))
    policy.heuristic = HEURISTIC._replace(hunt=hunt, push=push)
    rng = random.Random(11)
    return Counter(str(policy.rollout_action(state, state.turn, rng)) for _ in range(draws))


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_the_playout_heuristic_picks_the_same_kinds_of_move(options: dict[str, Any]) -> None:
    """Sure moves (leaving, a good ghost onto an exit under `reach`, taking a ghost on our own exit corner)
    are the same move; with the capture coin always on the kernel picks among exactly Python's captures, with
    the forward coin always on among exactly its forward steps, with both off among all legal moves."""
    sure = 0
    compared = 0
    for seed in (1, 2, 3, 4):
        for state, _ in _play_positions(options, seed, every=2):
            seat = state.turn
            expected_sure = _python_sure_move(state, seat)
            if expected_sure is not None and len(state.legal_actions(seat)) > 1:
                assert set(_kernel_picks(state, 0.0, 0.0, 20)) == {expected_sure}
                sure += 1
                continue
            for hunt, push in ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0)):
                assert set(_kernel_picks(state, hunt, push)) == set(_python_picks(state, hunt, push))
            compared += 1
    assert compared > 20
    if options["exit"] == "escape":
        assert sure > 0


def test_the_playout_always_leaves_when_it_can() -> None:
    state = position({"f6": (0, "good"), "b1": (1, "bad"), "e5": (1, "good"), "c3": (0, "bad")},
                     options={"exit": "escape"})
    assert set(_kernel_picks(state, 0.5, 0.5, 50)) == {"f6 n"}


def test_the_learned_leaf_is_the_shipped_value_for_either_seat() -> None:
    """`LEARNED` scores a leaf with the value learned by self-play, from the asking seat's side; a bot
    searching with it at once (no playout) still plays a legal move, the same one for the same seed."""
    value = fast_search.shipped_value()
    checked = 0
    for state, seat in _searched(OPTIONS[0], seed=5)[:6]:
        row = fast.from_state(state)
        expected = value_of_row(row, *value)
        got = fast_search.leaf_value(row, seat, fast_search.LEARNED, _params(), value)
        assert got == pytest.approx(expected if seat == 0 else 1.0 - expected, abs=1e-12)
        hand = fast_search.leaf_value(row, seat, fast_search.HAND, _params(), value)
        assert hand != pytest.approx(got)
        blend = fast_search.leaf_value(row, seat, fast_search.BLEND, _params(), value)
        assert blend == pytest.approx((hand + got) / 2, abs=1e-12)  # BLEND: the mean of the two
        checked += 1
    assert checked == 6
    state, seat = _searched(OPTIONS[0], seed=5)[3]
    choices = {str(_bot(300, evaluator=fast_search.LEARNED, rollout_limit=0).choose(SeatKnowledge(state, seat),
                                                                                   random.Random(0)))
               for _ in range(2)}
    assert len(choices) == 1 and choices <= set(state.legal_texts(seat))


@pytest.mark.parametrize("options", OPTIONS, ids=["escape", "reach"])
def test_the_playout_lists_the_moves_exactly_as_fast_legal_moves(options: dict[str, Any]) -> None:
    """rollout_move makes its moves in one pass instead of calling fast.legal_moves (a hot path): whenever no
    sure move ends the pass early, the moves it listed are fast.legal_moves's steps, in the same order, so
    the same random draw picks the same move."""
    checked = 0
    for seed in (1, 2, 3):
        for state, _ in _play_positions(options, seed, every=2):
            if _python_sure_move(state, state.turn) is not None:
                continue
            row = fast.from_state(state)
            reference = np.empty(fast.MAX_MOVES, dtype=np.int32)
            steps = [int(c) for c in reference[: fast.legal_moves(row, reference)] if fast.STEP[c] >= 0]
            legal, forward, captures = (np.full(fast.MAX_MOVES, -1, dtype=np.int32) for _ in range(3))
            fast_search.rollout_move(row, fast.new_rng(1), _params(), legal, forward, captures)
            assert [int(c) for c in legal[: len(steps)]] == steps
            assert legal[len(steps)] == -1 or len(steps) == fast.MAX_MOVES
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("prior_after", [0, 1])
def test_the_prior_is_the_learned_value_of_a_world_the_belief_allows(prior_after: int) -> None:
    """With `prior_visits` a node keeps the learned value of the position its move made, for the seat that
    chose it, in one of the colourings the belief gives weight to: from its making (`prior_after` 0) or from
    its second visit (1), so that a node visited once is never scored. Without it the prior is unused and
    the search is the shipped one."""
    state, seat = _searched(OPTIONS[0], seed=5)[3]
    knowledge = SeatKnowledge(state, seat)
    value = fast_search.shipped_value()
    hidden, colourings, _ = fast_search.belief_arrays(BeliefPolicy(knowledge))
    with_prior = _bot(400, prior_visits=4.0, prior_after=prior_after)
    with_prior.choose(knowledge, random.Random(0))
    tree = with_prior.last_tree
    assert tree is not None
    base = fast.from_state(knowledge.sample_world(random.Random(0)))  # the hidden colours are re-dealt below
    scored = 0
    for node in tree.children(0):
        code, visits, prior = int(tree.nodes.move[node]), int(tree.nodes.visits[node]), float(tree.nodes.prior[node])
        if visits <= prior_after:
            assert math.isnan(prior), (code, visits, prior)  # not walked since it was made: never scored
            continue
        possible = set()
        for colouring in colourings:
            row = base.copy()
            row[fast.GOOD + hidden] = colouring
            fast.apply_move(row, code)
            v0 = value_of_row(row, *value)
            possible.add(round(v0 if seat == 0 else 1.0 - v0, 12))
        assert round(prior, 12) in possible
        scored += 1
    assert scored >= 2
    used = tree.nodes.visits[1 : int(tree.nodes.size[0])]
    unscored = np.isnan(tree.nodes.prior[1 : int(tree.nodes.size[0])])
    assert (unscored == (used <= prior_after)).all()  # scored exactly the nodes walked after `prior_after` visits
    plain = _bot(400)
    plain.choose(knowledge, random.Random(0))
    assert plain.last_tree is not None
    assert np.isnan(plain.last_tree.nodes.prior[1 : int(plain.last_tree.nodes.size[0])]).all()
    assert plain.last_tree.root_children() != tree.root_children()  # the prior changed where visits went
