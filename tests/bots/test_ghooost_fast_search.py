"""Ghooost!'s expert searches on the compiled core: its tree keeps the counts ISMCTS needs, it plays only
legal actions (2-6 players, both decks), it cannot tell worlds apart that its seat cannot, its re-deal keeps
what the seat knows, and its compiled playout and rewards are GhooostPolicy's (and analysis/match.py's
expected points) where they are meant to be the same."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from ghostgames.analysis.match import expected_gain
from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ghooost.fast_search import (
    EQUITY_SAMPLES,
    FINISH_SCALE,
    MATCH_WEIGHT,
    PLAYOUT_LIMIT,
    ROLLOUT_LIMIT,
    ExpectedPointsPolicy,
    GhooostExpertPolicy,
    SampledEquityPolicy,
    ShortPlayoutPolicy,
    all_orders,
    expected_points_bot,
    expected_round,
    finish_order,
    match_equity,
    order_rank,
    play_out,
    playout_action,
    playout_rewards,
    rank_shares,
    redeal,
    round_shares,
    sampled_equity_bot,
    seat_rewards,
    short_playout_bot,
    tabled_equity,
    tabled_equity_bot,
)
from ghostgames.bots.ghooost.search import GhooostPolicy
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.policy import rank_rewards
from ghostgames.games import get_game
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.cards import KINDS
from ghostgames.games.ghooost.encoding import ACTIONS, action_index
from ghostgames.games.ghooost.reasons import ROUND_LIMIT
from ghostgames.games.ghooost.scoring import leaders, match_outcome, match_winner, round_points
from ghostgames.games.ghooost.state import GhooostState
from tests.bots.positions import positions
from tests.bots.tree_checks import check_tree_counts

GAME = get_game("ghooost")
SCRATCH = np.empty(fast.MAX_ACTIONS, dtype=np.int32)
# (players, options): every player count, both decks, single rounds and matches, `replay` may and must
TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {"max_turns": 200}),
    (3, {"deck": "original", "max_turns": 200}),
    (4, {"replay": "must", "max_turns": 200, "match": False}),
    (5, {"deck": "original", "max_turns": 150}),
    (6, {"max_turns": 150, "replay": "must"}),
]


def legal_of(row: fast.Row) -> list[int]:
    return [int(a) for a in SCRATCH[: fast.legal_actions(row, SCRATCH)]]


def test_every_iteration_passes_through_one_root_action_and_only_legal_ones() -> None:
    state = GAME.new(3, {}, seed=11)
    seat = min(state.to_act())
    knowledge = SeatKnowledge(state, seat)
    policy = GhooostExpertPolicy(knowledge)
    legal = knowledge.legal_actions()
    choice, iterations = policy.compiled_choice(legal, Budget(iterations=700), 0.7, random.Random(4)) or (None, 0)
    assert iterations == 700 and choice in legal
    tree = policy.last_tree
    assert tree is not None
    check_tree_counts(tree, 700, {action_index(a) for a in legal})  # type: ignore[arg-type]


def test_the_expert_and_the_hard_level_search_ghooost_on_the_compiled_core() -> None:
    state = GAME.new(2, {}, seed=3)
    seat = min(state.to_act())
    for name in ("expert:200", "hard"):
        bot = get_bot(name)
        assert isinstance(bot, IsmctsBot)
        assert isinstance(bot.policy(SeatKnowledge(state, seat)), GhooostExpertPolicy)
    bot = get_bot("expert:200")
    assert isinstance(bot, IsmctsBot)
    action = bot.choose(SeatKnowledge(state, seat), random.Random(1))
    assert str(action) in state.legal_texts(seat) and bot.last_iterations == 200
    # the expert's playouts run 40 actions; the expert before, with 20, stays nameable as a plug-in
    assert GhooostExpertPolicy.playout_limit == PLAYOUT_LIMIT == 2 * ROLLOUT_LIMIT
    before = short_playout_bot()
    assert isinstance(before, IsmctsBot)
    policy = before.policy(SeatKnowledge(state, seat))
    assert isinstance(policy, ShortPlayoutPolicy) and policy.playout_limit == ROLLOUT_LIMIT == 20


def expected_points_150() -> IsmctsBot:
    return IsmctsBot(Budget(iterations=150), ExpectedPointsPolicy, 0.5)


@pytest.mark.parametrize("make", [lambda: get_bot("expert:150"), expected_points_150],
                         ids=["expert", "expected-points"])
@pytest.mark.parametrize(("players", "options"), TABLES, ids=lambda v: str(v))
def test_the_expert_plays_legal_actions_and_cannot_tell_hidden_cards_apart(players: int, options: dict[str, Any],
                                                                          make: Any) -> None:
    """Worlds that differ only in what the seat cannot see give the same choice for the same seed (the
    expert, and the expert before the match's equity)."""
    bot = make()
    checked = 0
    for seed in (1, 2, 3):
        for state, seat in positions("ghooost", players, options, seed, every=9):
            twin = state.sample_world(seat, random.Random(seed * 1000 + checked))
            assert twin.view(seat) == state.view(seat)
            first = bot.choose(SeatKnowledge(state, seat), random.Random(7))
            second = bot.choose(SeatKnowledge(twin, seat), random.Random(7))
            assert str(first) == str(second), state.view(seat)
            assert str(first) in state.legal_texts(seat)
            checked += 1
            if checked % 8 == 7:
                break
    assert checked >= 12


def test_the_redeal_keeps_what_the_seat_knows_and_moves_the_rest() -> None:
    """Hand, known cards, sizes, public zones unchanged; the hidden cards keep their multiset; and they do
    move (over many re-deals some hidden card lands elsewhere)."""
    rng = fast.new_rng(5)
    moved = 0
    for players in (2, 3, 4, 5, 6):
        for state, seat in positions("ghooost", players, {"max_turns": 120}, players, every=13):
            assert isinstance(state, GhooostState)
            row = fast.from_state(state, record=False)
            again = row.copy()
            redeal(again, seat, rng)
            hidden = Counter[int]()
            hidden_again = Counter[int]()
            for s in range(players):
                hand = slice(fast.HANDS + s * KINDS, fast.HANDS + (s + 1) * KINDS)
                if s == seat:
                    assert (again[hand] == row[hand]).all()
                else:
                    known = row[fast.KNOWN + s * KINDS : fast.KNOWN + (s + 1) * KINDS]
                    assert (again[hand] >= known).all()
                    for kind in range(KINDS):
                        hidden[kind] += int(row[hand][kind] - known[kind])
                        hidden_again[kind] += int(again[hand][kind] - known[kind])
                mansion = slice(fast.MANSIONS + s * fast.MANSION_CAP, fast.MANSIONS + (s + 1) * fast.MANSION_CAP)
                hidden.update(int(c) for c in row[mansion][: row[fast.MANSION_COUNT + s]])
                hidden_again.update(int(c) for c in again[mansion][: again[fast.MANSION_COUNT + s]])
            crypt = slice(fast.CRYPT, fast.CRYPT + int(row[fast.CRYPT_COUNT]))
            hidden.update(int(c) for c in row[crypt])
            hidden_again.update(int(c) for c in again[crypt])
            assert +hidden == +hidden_again
            outside = np.ones(fast.FIELDS, dtype=bool)
            for s in range(players):
                if s != seat:
                    outside[fast.HANDS + s * KINDS : fast.HANDS + (s + 1) * KINDS] = False
            outside[fast.MANSIONS : fast.MANSIONS + players * fast.MANSION_CAP] = False
            outside[crypt] = False
            assert (again[outside] == row[outside]).all()
            moved += int((again != row).any())
    assert moved > 20


def test_the_compiled_evaluation_and_rewards_are_the_python_policys() -> None:
    """round_shares is GhooostPolicy.evaluate; a finished round's rewards are its rank_rewards; the expected
    points of the round under way are analysis/match.py's expected_gain."""
    out = np.empty(fast.SEATS, dtype=np.float64)
    evaluated = finished = 0
    for players in (2, 3, 4, 5, 6):
        for seed in range(3):
            options = {"max_turns": 150, "match": seed == 1, "deck": ("tarot", "original")[seed % 2]}
            for state, seat in positions("ghooost", players, options, seed, every=11):
                assert isinstance(state, GhooostState)
                row = fast.from_state(state, record=False)
                policy = GhooostPolicy(SeatKnowledge(state, seat))
                round_shares(row, out)
                assert out[:players] == pytest.approx(policy.evaluate(state), abs=1e-9)
                for s in range(players):
                    gain, _ = expected_round(row, s)
                    assert gain == pytest.approx(expected_gain(state, s), abs=1e-9)
                evaluated += 1
            ended = GAME.new(players, {**options, "match": False, "max_turns": 60 + 40 * seed}, seed=seed)
            rng = random.Random(seed)
            while ended.to_act():
                seat = min(ended.to_act())
                ended.apply(seat, rng.choice(ended.legal_actions(seat)))
            outcome = ended.outcome()
            assert outcome is not None and isinstance(ended, GhooostState)
            seat_rewards(fast.from_state(ended, record=False), out, 0.5)
            assert out[:players] == pytest.approx(rank_rewards(outcome), abs=1e-9)
            finished += 1
    assert evaluated > 100 and finished == 15


def test_the_compiled_playout_action_is_the_python_policys() -> None:
    """Legal everywhere; without a card to play it is the Python policy's own choice (done, gamble, turn);
    with one and done, gamble or turn beside it, it plays a card about 90% of the time."""
    rng = fast.new_rng(9)
    plays = with_plays = 0
    checked = 0
    for players in (2, 3, 4, 5, 6):
        for seed in range(2):
            options = {"max_turns": 200, "replay": ("may", "must")[seed], "deck": ("tarot", "original")[seed]}
            for state, seat in positions("ghooost", players, options, seed, every=3):
                assert isinstance(state, GhooostState)
                row = fast.from_state(state, record=False)
                legal = legal_of(row)
                has_play = any(type(ACTIONS[a]).__name__ == "Play" for a in legal)
                fallback = any(str(ACTIONS[a]) in ("done", "gamble", "turn") for a in legal)
                for _ in range(4):
                    action = int(playout_action(row, rng))
                    assert action in legal
                    if has_play and fallback:
                        with_plays += 1
                        plays += type(ACTIONS[action]).__name__ == "Play"
                if not has_play:
                    python = GhooostPolicy(SeatKnowledge(state, seat)).rollout_action(state, seat, random.Random(0))
                    if str(python) != "pass" and str(python) != "take":
                        assert ACTIONS[int(playout_action(row, rng))] == python
                checked += 1
    assert checked > 300
    assert 0.85 < plays / with_plays < 0.95


def test_in_a_match_the_reward_counts_points_and_bouh() -> None:
    """Match rewards are shares of pairwise logistics (they add up to half the players), a Bouh! more or
    fewer points lower a seat's, and a round just lost in a match leaves its loser the lowest."""
    out = np.empty(fast.SEATS, dtype=np.float64)
    worse = np.empty(fast.SEATS, dtype=np.float64)
    checked = 0
    for players in (3, 4, 5, 6):
        for state, seat in positions("ghooost", players, {"max_turns": 150, "match": True}, players, every=17):
            assert isinstance(state, GhooostState)
            row = fast.from_state(state, record=False)
            seat_rewards(row, out, MATCH_WEIGHT)
            assert sum(out[:players]) == pytest.approx(players / 2)
            for field, change in ((fast.BOUH, 1), (fast.POINTS, -2)):
                changed = row.copy()
                changed[field + seat] += change
                seat_rewards(changed, worse, MATCH_WEIGHT)
                assert worse[seat] < out[seat]
            checked += 1
    assert checked > 20
    lost = 0
    for seed in range(12):
        row = fast.from_state(GAME.new(3, {"match": True, "max_turns": 1000}, seed=seed),  # type: ignore[arg-type]
                              record=False)
        stream = fast.new_rng(seed)
        while fast.seat_to_act(row) >= 0:
            fast.apply_action(row, playout_action(row, stream))
        loser = int(row[fast.NEXT_STARTER])
        if loser >= 0:  # a round lost inside the match (not drawn at the turn limit)
            seat_rewards(row, out, MATCH_WEIGHT)
            assert all(out[loser] < out[s] for s in range(3) if s != loser)
            lost += 1
    assert lost >= 3


def exact_equity(points: list[int], bouh: list[int], round_index: int, max_rounds: int, depth: int) -> list[float]:
    """The match equity by enumeration from the scoring module's own rules: every finishing order of each
    later round equally likely, `depth` rounds deep (a match still undecided there counts 0.5 a seat: the
    tests keep that mass tiny); each seat's share of the others it beats in match_outcome's ranks."""
    p = len(points)
    winner = match_winner(points, bouh)
    if winner is not None or round_index + 1 >= max_rounds:
        top = [winner] if winner is not None else leaders(points, bouh)
        outcome = match_outcome(points, bouh, top, ROUND_LIMIT, rounds=max_rounds)
        ranks = [r.rank for r in outcome.results]
        return [sum(1.0 if ranks[o] > ranks[s] else 0.5 if ranks[o] == ranks[s] else 0.0
                    for o in range(p) if o != s) / (p - 1) for s in range(p)]
    if depth == 0:
        return [0.5] * p
    total = [0.0] * p
    orders = list(itertools.permutations(range(p)))
    for order in orders:
        gained = round_points(p, list(order[:-1]), order[-1])
        more = [b + (1 if s == order[-1] else 0) for s, b in enumerate(bouh)]
        below = exact_equity([a + g for a, g in zip(points, gained, strict=True)], more, round_index + 1, max_rounds,
                             depth - 1)
        total = [t + b / len(orders) for t, b in zip(total, below, strict=True)]
    return total


def test_the_match_equity_is_the_expected_final_rank_share_of_fair_rounds() -> None:
    """Between rounds of a match the equity is the enumerated one (fair rounds, the scoring module's end and
    ranks) within the sampling error; a seat already at one Bouh! is worth less than one without; the round
    limit ends the match at once; the 2-player (no match) rewards are seat_rewards' unchanged."""
    row = fast.from_state(GAME.new(3, {"match": True}, seed=5), record=False)  # type: ignore[arg-type]
    rng = fast.new_rng(2)
    out = np.empty(fast.SEATS, dtype=np.float64)
    row[fast.STATUS] = fast.DEALING
    tables = (([5, 5, 0], [0, 0, 1]), ([5, 4, 0], [0, 1, 1]), ([2, 3, 0], [0, 0, 1]), ([0, 0, 0], [0, 0, 0]))
    for points, bouh in tables:
        row[fast.POINTS : fast.POINTS + 3] = points
        row[fast.BOUH : fast.BOUH + 3] = bouh
        match_equity(row, rng, 40_000, out)
        exact = exact_equity(points, bouh, int(row[fast.ROUND]), int(row[fast.MAX_ROUNDS]), 5)
        assert out[:3] == pytest.approx(exact, abs=0.01), (points, bouh)
        assert sum(out[:3]) == pytest.approx(1.5)
    row[fast.POINTS : fast.POINTS + 3] = [3, 3, 3]
    row[fast.BOUH : fast.BOUH + 3] = [0, 1, 0]
    match_equity(row, rng, 4000, out)
    assert out[1] < out[0] - 0.1 and out[1] < out[2] - 0.1
    row[fast.MAX_ROUNDS] = row[fast.ROUND] + 1  # this deal is the last: whoever leads after it wins
    row[fast.POINTS : fast.POINTS + 3] = [9, 0, 0]
    match_equity(row, rng, 200, out)
    assert out[0] == pytest.approx(1.0)
    plain = np.empty(fast.SEATS, dtype=np.float64)
    for state, _ in positions("ghooost", 2, {"max_turns": 200}, 3, every=20):
        two = fast.from_state(state, record=False)  # type: ignore[arg-type]
        seat_rewards(two, plain, 1.0)
        playout_rewards(two, out, 1.0, rng, 4)
        assert out[:2] == pytest.approx(plain[:2], abs=0.0)


def test_the_finishing_order_keeps_who_is_out_and_puts_fewer_cards_first() -> None:
    """A permutation with the seats already out first in their order; of the others the one with fewer
    cards left finishes first more often, by about round_shares' logistic for two."""
    rng = fast.new_rng(4)
    order = np.empty(fast.SEATS, dtype=np.int64)
    checked = 0
    for players in (3, 4, 6):
        for state, _ in positions("ghooost", players, {"max_turns": 300, "match": True}, players, every=9):
            assert isinstance(state, GhooostState)
            row = fast.from_state(state, record=False)
            finish_order(row, rng, order)
            assert sorted(order[:players]) == list(range(players))
            assert list(order[: len(state.out_order)]) == state.out_order
            checked += 1
    assert checked > 30
    row = fast.from_state(GAME.new(3, {"match": True}, seed=8), record=False)  # type: ignore[arg-type]
    row[fast.IS_OUT] = 1
    row[fast.OUT_ORDER] = 0
    row[fast.OUT_COUNT] = 1
    row[fast.SIZES + 1] += 3  # seat 1 holds 3 cards more than seat 2
    fewer_first = 0
    for _ in range(4000):
        finish_order(row, rng, order)
        assert order[0] == 0
        fewer_first += int(order[1]) == 2
    assert fewer_first / 4000 == pytest.approx(1 / (1 + np.exp(-3 / 3.0)), abs=0.03)


def test_the_expert_scores_matches_by_their_equity_and_plays_two_player_rounds_as_before() -> None:
    """The expert's match reward is the equity alone; the expert before (a plug-in) mixed half the round with
    expected points; on a 2-player round (no match) both, and the expert of the morning of 5 December
    (SampledEquityPolicy: the expert's changes since are to the match equity only), choose alike, so the
    2-player rows stand."""
    state = GAME.new(2, {"max_turns": 200}, seed=6)
    seat = min(state.to_act())
    assert GhooostExpertPolicy.match_weight == 1.0 and GhooostExpertPolicy.equity_samples == EQUITY_SAMPLES > 0
    before = expected_points_bot()
    assert isinstance(before, IsmctsBot)
    policy = before.policy(SeatKnowledge(state, seat))
    assert isinstance(policy, ExpectedPointsPolicy)
    assert policy.match_weight == MATCH_WEIGHT and policy.equity_samples == 0
    compared = 0
    for game_state, actor in positions("ghooost", 2, {"max_turns": 200}, 6, every=15):
        knowledge = SeatKnowledge(game_state, actor)
        legal = knowledge.legal_actions()
        picks = [cls(knowledge).compiled_choice(legal, Budget(iterations=300), 0.5, random.Random(3))
                 for cls in (GhooostExpertPolicy, ExpectedPointsPolicy, SampledEquityPolicy)]
        assert picks[0] == picks[1] == picks[2]
        compared += 1
    assert compared > 5


def test_a_tie_worth_one_makes_the_rank_share_the_mean_ranks_own_measure() -> None:
    """Tied seats share the better rank (scoring.match_outcome), so with a tie counting 1 each seat's share is
    exactly (players - rank) / (players - 1); with a half (the expert's equity) a tie is worth less than the
    rank it earns, and without ties the two agree."""
    out = np.empty(fast.SEATS, dtype=np.float64)
    for ranks in ([1, 2, 2, 4, 5], [1, 1, 3, 4], [1, 2, 3, 4, 5], [2, 1, 3, 3, 3, 6]):
        p = len(ranks)
        array = np.array(ranks, dtype=np.int64)
        rank_shares(array, p, out, 1.0)
        assert list(out[:p]) == pytest.approx([(p - r) / (p - 1) for r in ranks])
        rank_shares(array, p, out)
        halves = [(p - r - 0.5 * (ranks.count(r) - 1)) / (p - 1) for r in ranks]
        assert list(out[:p]) == pytest.approx(halves)


def test_the_fitted_equity_finishes_rounds_at_the_fitted_scale_and_counts_ties_as_ranks() -> None:
    """The expert finishes rounds at the fitted scale, counts ties as 1 and tables its equity; the expert
    before (SampledEquityPolicy) differs in these three settings only;
    finish_order at the fitted scale puts the seat with 3 cards fewer first by that scale's logistic; the
    plug-ins make 1200-iteration bots of those policies."""
    assert GhooostExpertPolicy.finish_scale == FINISH_SCALE > SampledEquityPolicy.finish_scale
    assert GhooostExpertPolicy.tie_credit == 1.0 and SampledEquityPolicy.tie_credit == 0.5
    assert GhooostExpertPolicy.tabled and not SampledEquityPolicy.tabled
    assert SampledEquityPolicy.match_weight == GhooostExpertPolicy.match_weight
    assert SampledEquityPolicy.equity_samples == GhooostExpertPolicy.equity_samples == EQUITY_SAMPLES
    rng = fast.new_rng(5)
    order = np.empty(fast.SEATS, dtype=np.int64)
    row = fast.from_state(GAME.new(3, {"match": True}, seed=8), record=False)  # type: ignore[arg-type]
    row[fast.IS_OUT] = 1
    row[fast.OUT_ORDER] = 0
    row[fast.OUT_COUNT] = 1
    row[fast.SIZES + 1] += 3
    fewer_first = 0
    for _ in range(4000):
        finish_order(row, rng, order, FINISH_SCALE)
        fewer_first += int(order[1]) == 2
    assert fewer_first / 4000 == pytest.approx(1 / (1 + np.exp(-3 / FINISH_SCALE)), abs=0.03)
    state = GAME.new(4, {"match": True}, seed=3)
    seat = min(state.to_act())
    knowledge = SeatKnowledge(state, seat)
    for factory, policy in ((sampled_equity_bot, SampledEquityPolicy), (tabled_equity_bot, GhooostExpertPolicy)):
        bot = factory()
        assert isinstance(bot, IsmctsBot) and type(bot.policy(knowledge)) is policy
        assert bot.choose(knowledge, random.Random(1)) in knowledge.legal_actions()


def test_the_tabled_equity_is_the_sampled_one_without_its_noise() -> None:
    """order_rank finds each order's row of all_orders; at a playout's end (a round under way or just ended)
    the equity read from the round's table is match_equity's over many draws, at the same scale and ties."""
    for p in (3, 5):
        orders = all_orders(p)
        assert [order_rank(order, p) for order in orders] == list(range(len(orders)))
    rng = fast.new_rng(6)
    tabled = np.empty(fast.SEATS, dtype=np.float64)
    sampled = np.empty(fast.SEATS, dtype=np.float64)
    policy = GhooostExpertPolicy.__new__(GhooostExpertPolicy)
    checked = Counter[str]()
    for players in (4, 5):
        for state, _ in positions("ghooost", players, {"max_turns": 500, "match": True}, 1, every=60):
            row = fast.from_state(state, record=False)  # type: ignore[arg-type]
            if row[fast.STATUS] != fast.RUNNING:
                continue
            orders, table = policy.round_table(row)
            assert table.shape == (len(orders), players)
            end = row.copy()
            play_out(end, rng, 40)
            if end[fast.STATUS] == fast.OVER or not tabled_equity(end, orders, table, FINISH_SCALE, tabled):
                continue
            match_equity(end, rng, 20_000, sampled, FINISH_SCALE, 1.0)
            assert tabled[:players] == pytest.approx(sampled[:players], abs=0.03)
            checked["ended" if end[fast.STATUS] == fast.DEALING else "running"] += 1
    assert checked["running"] > 5
    for sampled in (SampledEquityPolicy, ExpectedPointsPolicy):  # the experts before draw or use no equity
        assert sampled.__new__(sampled).round_table(row)[1].shape[0] == 0
