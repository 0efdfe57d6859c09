"""Ghooost!'s expert search on the compiled core: single-observer ISMCTS whose iterations run in numba.

The algorithm is `ghostgames.bots.ismcts`'s (one shared tree of action sequences, UCB with availability
counts, one node added per iteration, each seat's reward backed up for the seat that chose it) and the
playout is `search.GhooostPolicy`'s (a random card 90% of the time, else `done`, else gamble or turn, scored
by the cards left against the others'), cut after 40 actions rather than 20 (fewer rounds drawn at the turn
limit against `rules`: docs/research/ghooost-expert.md). What changes:

- Worlds: one is drawn per decision by `SeatKnowledge.sample_world` and turned into a row of the compiled
  core (`fast.from_state`); every iteration then re-deals that row's hidden cards in the kernel (`redeal`:
  the other hands' cards nobody has seen go in, every mansion, the crypt; gathered by kind, so their order
  in the first world does not matter). That is `sample_world`'s draw, so each iteration has a fresh world
  at the cost of a shuffle, not of a Python sample.
- A search stops at the end of the round being played (the tree and the playouts alike). In a match
  (3+ players) the reward is the match's equity: each seat's expected share of the others it beats at the
  match's end, over a few continuations that finish the round under way in an order drawn from the cards
  left (fewer cards, sooner out) and then play every later round as a uniformly random order (players of
  equal strength) until somebody's second Bouh! decides it. So the search sees what a round is worth to
  the match: at 3 players the second out scores 3 and the first 2, a Bouh! near the end of a match costs
  more than at its start, and points count only while the match can still be won. How sure the guess of
  the round's order is was fitted to real rounds (FINISH_SCALE), a tie counts as the better rank it earns,
  and the equity after the round is tabled once a round for each finishing order and summed exactly at a
  playout's end (equity_table, tabled_equity), so four draws add no noise. The experts before
  (`SampledEquityPolicy`: drawn equity, a hand-set scale; `ExpectedPointsPolicy`: half the round and half a
  logistic of expected points) are kept as plug-ins; the Python `ismcts` plays on into the next round and
  scores its cards only.
- Tree walk, playout and backup run in one kernel call per chunk of iterations (the tree, its step at a node
  and the budget's chunks are The Last's too: bots/fast_tree.py); random numbers come from a
  splitmix64 stream seeded from the bot's rng (and the world from the same rng), so under an iteration
  budget a choice is a pure function of (knowledge, rng): the no-peek test holds it to that.

The root's actions are the policy's allowed ones (all legal ones); the most visited is played.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import zlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots import fast_tree
from ghostgames.bots.budget import Budget
from ghostgames.bots.fast_tree import ACTION, AVAIL, FIRST, SIBLING, VISITS, Tree, add_child, back_up, root_codes
from ghostgames.bots.ghooost.search import GhooostPolicy
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.games.ghooost import fast, scoring
from ghostgames.games.ghooost.cards import KINDS, KITTY
from ghostgames.games.ghooost.encoding import action_index
from ghostgames.games.ghooost.scoring import MATCH_END_BOUH
from ghostgames.games.ghooost.state import GhooostState
from ghostgames.jit import forget_stale_kernels, new_streams, own_kernels
from ghostgames.rules.contract import Action

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Row = fast.Row

CHUNK = 256  # iterations per kernel call; a time budget is checked between calls
PLAY_SHARE = 0.9  # GhooostPolicy.rollout_action: the share of playout decisions that play a card if one can
ROLLOUT_LIMIT = GhooostPolicy.rollout_limit or 0  # 20: the Python policy's, and the expert's before 4 December
PLAYOUT_LIMIT = 40  # the expert's (2000 iterations take about the time of 3000 with 20)
SCALE = 3.0  # cards: the logistic of cards left (GhooostPolicy.evaluate)
MATCH_SCALE = 2.0  # points: the logistic of expected match scores
BOUH_COST = 3.0  # points a Bouh! costs in the match score (a second one ranks its holder below the others)
MATCH_WEIGHT = 0.5  # the expert before 5 December: the share of a match's reward its match_shares made
NO_TABLE = np.zeros((0, 1), dtype=np.int64)  # playout_rewards without an equity table
NO_VALUES = np.zeros((0, 1), dtype=np.float64)
_TABLES: dict[tuple[object, ...], tuple[NDArray[np.int64], NDArray[np.float64]]] = {}  # round_table's, by round
EQUITY_SAMPLES = 4  # match continuations drawn per playout for match_equity (a fifth more time an iteration)
FINISH_SCALE = 10.8  # cards: the Plackett-Luce scale of a round's finishing order, fitted by maximum likelihood
# to 26 rounds of 4- and 5-player matches of the expert's table (95% bootstrap 8.3-15.4; SCALE's 3 is far
# too sure: benchmarks/finish_scale.py, docs/research/ghooost-expert.md)

_P, _TURN, _STATUS = fast.PLAYERS, fast.TURN, fast.STATUS
_HANDS, _KNOWN, _SIZES = fast.HANDS, fast.KNOWN, fast.SIZES
_MANSIONS, _MANSION_COUNT, _CAP = fast.MANSIONS, fast.MANSION_COUNT, fast.MANSION_CAP
_CRYPT, _CRYPT_COUNT = fast.CRYPT, fast.CRYPT_COUNT
_IS_OUT, _OUT_ORDER, _OUT_COUNT = fast.IS_OUT, fast.OUT_ORDER, fast.OUT_COUNT
_POINTS, _BOUH, _RANK, _MATCH_ON = fast.POINTS, fast.BOUH, fast.RANK, fast.MATCH_ON
_RUNNING, _DEALING, _OVER = fast.RUNNING, fast.DEALING, fast.OVER
_NEXT_STARTER, _TOP, _OPTIONAL = fast.NEXT_STARTER, fast.TOP_VALUE, fast.OPTIONAL_REPLAY
_DONE, _GAMBLE, _TURN_ACTION = fast.DONE_ACTION, fast.GAMBLE_ACTION, fast.TURN_ACTION
_MISS_COPY = KITTY + 1


# --- worlds -----------------------------------------------------------------------------------------------
@fast.compiled
def redeal(s: Row, seat: int, rng: fast.Rng) -> None:
    """Re-deal what `seat` cannot see, as `GhooostState.sample_world` does: the cards of the other hands
    beyond their `known` ones, every mansion and the crypt, shuffled together and dealt back with the same
    counts. The cards are gathered by kind, so the row's own hidden placement does not steer the deal."""
    p = s[_P]
    counts = np.zeros(KINDS, dtype=np.int64)
    for other in range(p):
        if other != seat:
            for kind in range(1, KINDS):
                counts[kind] += s[_HANDS + other * KINDS + kind] - s[_KNOWN + other * KINDS + kind]
        for j in range(s[_MANSION_COUNT + other]):
            counts[s[_MANSIONS + other * _CAP + j]] += 1
    for j in range(s[_CRYPT_COUNT]):
        counts[s[_CRYPT + j]] += 1
    total = 0
    for kind in range(KINDS):
        total += counts[kind]
    pool = np.empty(total, dtype=np.int32)
    at = 0
    for kind in range(KINDS):
        for _ in range(counts[kind]):
            pool[at] = kind
            at += 1
    for j in range(total - 1, 0, -1):
        k = fast.random_below(rng, 0, j + 1)
        pool[j], pool[k] = pool[k], pool[j]
    at = 0
    for other in range(p):
        if other != seat:
            hand = _HANDS + other * KINDS
            for kind in range(1, KINDS):
                s[hand + kind] = s[_KNOWN + other * KINDS + kind]
            fresh = s[_SIZES + other]
            for kind in range(1, KINDS):
                fresh -= s[hand + kind]
            for _ in range(fresh):
                s[hand + pool[at]] += 1
                at += 1
        for j in range(s[_MANSION_COUNT + other]):
            s[_MANSIONS + other * _CAP + j] = pool[at]
            at += 1
    for j in range(s[_CRYPT_COUNT]):
        s[_CRYPT + j] = pool[at]
        at += 1


# --- playouts and rewards -----------------------------------------------------------------------------------
@fast.compiled
def play_count(s: Row) -> int:
    """How many of the legal actions of the seat to act are plays (ghosts, Miss Copy help or Kitty)."""
    hand = _HANDS + s[_TURN] * KINDS
    table = fast.CHOICES_ON[s[_TOP], s[hand + _MISS_COPY]]
    plays = s[hand + KITTY]
    for value in range(1, KITTY):
        plays += table[value, s[hand + value]]
    return int(plays)


@fast.compiled
def playout_action(s: Row, rng: fast.Rng) -> int:
    """GhooostPolicy.rollout_action: a uniformly random play with probability PLAY_SHARE when there is one;
    else `done` when legal, else gamble or turn when legal, else any legal action at random."""
    plays = play_count(s)
    if plays > 0 and fast.random_below(rng, 0, 1 << 20) < PLAY_SHARE * (1 << 20):
        return int(fast.nth_action(s, fast.random_below(rng, 0, plays)))  # plays come first in legal order
    if s[_OPTIONAL] == 1:
        return _DONE
    if s[_CRYPT_COUNT] > 0:
        return _GAMBLE
    seat = s[_TURN]
    if s[_SIZES + seat] == 0 and s[_MANSION_COUNT + seat] > 0:
        return _TURN_ACTION
    return int(fast.random_action(s, rng, 0))


@fast.compiled
def cards_left(s: Row, seat: int) -> int:
    return 0 if s[_IS_OUT + seat] == 1 else int(s[_SIZES + seat] + s[_MANSION_COUNT + seat])


@fast.compiled
def round_shares(s: Row, out: Floats) -> None:
    """GhooostPolicy.evaluate of a round under way: each seat's mean over the others of a logistic of how
    many fewer cards (hand and mansion) it has left."""
    p = s[_P]
    for seat in range(p):
        share = 0.0
        mine = cards_left(s, seat)
        for other in range(p):
            if other != seat:
                share += 1.0 / (1.0 + math.exp((mine - cards_left(s, other)) / SCALE))
        out[seat] = share / (p - 1)


@fast.compiled
def rank_shares(ranks: Ints, p: int, out: Floats, tie: float = 0.5) -> None:
    """policy.rank_rewards: each seat's share of the others it beat, a tie counting `tie` (a half there; 1 gives
    exactly (p - rank) / (p - 1), the mean rank's own measure, as tied seats share the better rank)."""
    for seat in range(p):
        beaten = 0.0
        for other in range(p):
            if other != seat:
                if ranks[other] > ranks[seat]:
                    beaten += 1.0
                elif ranks[other] == ranks[seat]:
                    beaten += tie
        out[seat] = beaten / (p - 1)


@fast.compiled
def _points_at(p: int, place: int) -> int:
    """A seat's round points when it finishes at `place` (1 = first out; place p loses): scoring.round_points."""
    if place == p:
        return 0
    return 1 + (1 if place == 1 else 0) + (2 if place == p - 1 else 0)


@fast.compiled
def expected_round(s: Row, seat: int) -> tuple[float, float]:
    """`seat`'s expected points from the round under way and its chance of losing it (analysis/match.py's
    expected_gain: its place from the seats already out, and each other seat still in finishing first with
    a logistic of the cards left, as if independently)."""
    p = s[_P]
    out = s[_OUT_COUNT]
    for k in range(out):
        if s[_OUT_ORDER + k] == seat:
            return float(_points_at(p, k + 1)), 0.0
    ahead = np.zeros(p + 1, dtype=np.float64)  # ahead[j]: the chance that j of the others still in go out first
    ahead[0] = 1.0
    mine = cards_left(s, seat)
    for other in range(p):
        if other != seat and s[_IS_OUT + other] == 0:
            first = 1.0 / (1.0 + math.exp((cards_left(s, other) - mine) / SCALE))
            for j in range(p - 1, -1, -1):
                ahead[j] = ahead[j] * (1.0 - first) + (ahead[j - 1] * first if j > 0 else 0.0)
    gain = 0.0
    lose = 0.0
    for j in range(p):
        place = out + 1 + j
        if place <= p and ahead[j] > 0.0:
            gain += ahead[j] * _points_at(p, place)
            if place == p:
                lose += ahead[j]
    return gain, lose


@fast.compiled
def match_shares(s: Row, out: Floats) -> None:
    """Each seat's mean over the others of a logistic of its match score against theirs: points (expected at
    the round's end while it runs) less BOUH_COST per Bouh! (held, or the chance of getting one)."""
    p = s[_P]
    score = np.empty(p, dtype=np.float64)
    running = s[_STATUS] == _RUNNING
    for seat in range(p):
        gain, lose = expected_round(s, seat) if running else (0.0, 0.0)
        score[seat] = s[_POINTS + seat] + gain - BOUH_COST * (s[_BOUH + seat] + lose)
    for seat in range(p):
        share = 0.0
        for other in range(p):
            if other != seat:
                share += 1.0 / (1.0 + math.exp((score[other] - score[seat]) / MATCH_SCALE))
        out[seat] = share / (p - 1)


# --- the match's equity: the expected match rank, the rest of the match played as fair rounds --------------
@fast.compiled
def finish_order(s: Row, rng: fast.Rng, order: Ints, scale: float = SCALE) -> None:
    """A finishing order of the round under way into `order` (the loser last): the seats already out in
    their order, then the others drawn one at a time, each next out with weight exp(-cards left / `scale`)
    (Plackett-Luce: of two seats the one with fewer cards goes first by a logistic of the difference; SCALE,
    round_shares' own, or FINISH_SCALE, fitted to how rounds really end)."""
    p = s[_P]
    out = s[_OUT_COUNT]
    for k in range(out):
        order[k] = s[_OUT_ORDER + k]
    weight = np.zeros(p, dtype=np.float64)
    for seat in range(p):
        if s[_IS_OUT + seat] == 0:
            weight[seat] = math.exp(-cards_left(s, seat) / scale)
    for k in range(out, p):
        total = 0.0
        for seat in range(p):
            total += weight[seat]
        pick = fast.random_below(rng, 0, 1 << 30) / float(1 << 30) * total
        chosen = -1
        for seat in range(p):
            if weight[seat] > 0.0:
                chosen = seat
                pick -= weight[seat]
                if pick < 0.0:
                    break
        order[k] = chosen
        weight[chosen] = 0.0


@fast.compiled
def score_round(p: int, order: Ints, points: Ints, bouh: Ints) -> None:
    """scoring.round_points and the Bouh! of a round finished in `order` (the loser last)."""
    for k in range(p - 1):
        points[order[k]] += 1
    points[order[0]] += 1
    points[order[p - 2]] += 2
    bouh[order[p - 1]] += 1


@fast.compiled
def match_ranks(p: int, points: Ints, bouh: Ints, round_index: int, max_rounds: int, ranks: Ints) -> bool:
    """After round `round_index` (from 0) of a match: whether the match is over (a second Bouh! and one
    leader, or the round limit) and then each seat's rank in `ranks` (scoring.match_outcome: the winner or
    the tied leaders, then fewer than two Bouh!, then points; equal keys share a rank)."""
    most = 0
    anyone = False
    for seat in range(p):
        most = max(most, bouh[seat])
        anyone = anyone or bouh[seat] < MATCH_END_BOUH
    best = -1
    for seat in range(p):
        if (not anyone or bouh[seat] < MATCH_END_BOUH) and points[seat] > best:
            best = points[seat]
    top = np.zeros(p, dtype=np.int64)
    leaders = 0
    for seat in range(p):
        if (not anyone or bouh[seat] < MATCH_END_BOUH) and points[seat] == best:
            top[seat] = 1
            leaders += 1
    if not ((most >= MATCH_END_BOUH and leaders == 1) or round_index + 1 >= max_rounds):
        return False
    key = np.empty(p, dtype=np.int64)
    for seat in range(p):
        key[seat] = (1 - top[seat]) * 100_000 + (10_000 if bouh[seat] >= MATCH_END_BOUH else 0) - points[seat]
    for seat in range(p):
        ranks[seat] = 1
        for other in range(p):
            if key[other] < key[seat]:
                ranks[seat] += 1
    return True


@fast.compiled
def fair_rounds(p: int, points: Ints, bouh: Ints, round_index: int, max_rounds: int, rng: fast.Rng, order: Ints,
                ranks: Ints) -> None:
    """Rounds from `round_index` on, each a uniformly random finishing order, until the match is decided;
    its final ranks into `ranks` (`points` and `bouh` are played on)."""
    over = False
    while not over:
        for k in range(p):
            order[k] = k
        for k in range(p - 1, 0, -1):
            j = fast.random_below(rng, 0, k + 1)
            order[k], order[j] = order[j], order[k]
        score_round(p, order, points, bouh)
        over = match_ranks(p, points, bouh, round_index, max_rounds, ranks)
        round_index += 1


@fast.compiled
def match_equity(s: Row, rng: fast.Rng, samples: int, out: Floats, scale: float = SCALE, tie: float = 0.5) -> None:
    """Each seat's expected share of the others it beats at the match's end (rank_shares of the final
    ranks, a tie counting `tie`), over `samples` continuations: the round under way finished by
    finish_order (at `scale`), then every later round a uniformly random finishing order (players of equal
    strength) until the match is decided."""
    p = s[_P]
    points = np.empty(p, dtype=np.int64)
    bouh = np.empty(p, dtype=np.int64)
    order = np.empty(p, dtype=np.int64)
    ranks = np.empty(p, dtype=np.int64)
    shares = np.empty(p, dtype=np.float64)
    for seat in range(p):
        out[seat] = 0.0
    for _ in range(samples):
        for seat in range(p):
            points[seat] = s[_POINTS + seat]
            bouh[seat] = s[_BOUH + seat]
        round_index = s[fast.ROUND]
        over = False
        if s[_STATUS] == _RUNNING:
            finish_order(s, rng, order, scale)
            score_round(p, order, points, bouh)
            over = match_ranks(p, points, bouh, round_index, s[fast.MAX_ROUNDS], ranks)
            round_index += 1
        if not over:
            fair_rounds(p, points, bouh, round_index, s[fast.MAX_ROUNDS], rng, order, ranks)
        rank_shares(ranks, p, shares, tie)
        for seat in range(p):
            out[seat] += shares[seat] / samples


# --- the same equity without sampling noise at the leaves: a table over the round's finishing orders --------
# Within one search the match's points and Bouh! are fixed (the search stops at the round's end), so the
# equity after the round depends on its finishing order alone: tabled once a round for every order (fair
# later rounds sampled many times), then read at each playout's end as the expectation over the
# Plackett-Luce orders of the seats still in, summed exactly. match_equity's four draws made about three
# quarters of a playout reward's variance (docs/research/ghooost-expert.md).
TABLE_DRAWS = 100_000  # fair continuations per table, shared among its orders (a tenth of a second or so)


def all_orders(p: int) -> Ints:
    """Every finishing order of `p` seats in lexicographic order (row k is the order of lexicographic rank k)."""
    return np.array(list(itertools.permutations(range(p))), dtype=np.int64).reshape(-1, p)


@fast.compiled
def equity_table(p: int, points0: Ints, bouh0: Ints, round_index: int, max_rounds: int, orders: Ints, draws: int,
                 rng: fast.Rng, tie: float, table: Floats) -> None:
    """table[k, seat]: `seat`'s expected share of the others it beats at the match's end (ties counting
    `tie`) when the round `round_index` ends in orders[k]: exact when that round decides the match, else
    over `draws` continuations of fair rounds."""
    points = np.empty(p, dtype=np.int64)
    bouh = np.empty(p, dtype=np.int64)
    after_points = np.empty(p, dtype=np.int64)
    after_bouh = np.empty(p, dtype=np.int64)
    order = np.empty(p, dtype=np.int64)
    ranks = np.empty(p, dtype=np.int64)
    shares = np.empty(p, dtype=np.float64)
    for k in range(orders.shape[0]):
        for seat in range(p):
            after_points[seat] = points0[seat]
            after_bouh[seat] = bouh0[seat]
            table[k, seat] = 0.0
        score_round(p, orders[k], after_points, after_bouh)
        if match_ranks(p, after_points, after_bouh, round_index, max_rounds, ranks):
            rank_shares(ranks, p, shares, tie)
            for seat in range(p):
                table[k, seat] = shares[seat]
            continue
        for _ in range(draws):
            for seat in range(p):
                points[seat] = after_points[seat]
                bouh[seat] = after_bouh[seat]
            fair_rounds(p, points, bouh, round_index + 1, max_rounds, rng, order, ranks)
            rank_shares(ranks, p, shares, tie)
            for seat in range(p):
                table[k, seat] += shares[seat] / draws


@fast.compiled
def order_rank(order: Ints, p: int) -> int:
    """The lexicographic rank of a permutation of 0..p-1 (its row in all_orders)."""
    rank = 0
    for i in range(p):
        smaller = 0
        for j in range(i + 1, p):
            if order[j] < order[i]:
                smaller += 1
        factorial = 1
        for f in range(2, p - i):
            factorial *= f
        rank += smaller * factorial
    return rank


@fast.compiled
def tabled_equity(s: Row, orders: Ints, table: Floats, scale: float, out: Floats) -> bool:
    """The match equity of a playout's end from `table`: a round just ended by its own order; a round under
    way summed over every order of the seats still in, each weighed by its Plackett-Luce chance (weight
    exp(-cards left / `scale`), as finish_order draws them). False where the table does not apply (a round
    drawn at the turn limit)."""
    p = s[_P]
    count = s[_OUT_COUNT]
    prefix = np.empty(p, dtype=np.int64)
    for k in range(count):
        prefix[k] = s[_OUT_ORDER + k]
    if s[_STATUS] != _RUNNING:
        loser = s[_NEXT_STARTER]
        if loser < 0 or count != p - 1:
            return False
        prefix[p - 1] = loser
        row = order_rank(prefix, p)
        for seat in range(p):
            out[seat] = table[row, seat]
        return True
    rest = 0
    for seat in range(p):  # the seats still in, ascending: the first order of their block
        if s[_IS_OUT + seat] == 0:
            prefix[count + rest] = seat
            rest += 1
    first = order_rank(prefix, p)
    size = 1
    for f in range(2, rest + 1):
        size *= f
    weight = np.zeros(p, dtype=np.float64)
    for seat in range(p):
        if s[_IS_OUT + seat] == 0:
            weight[seat] = math.exp(-cards_left(s, seat) / scale)
        out[seat] = 0.0
    for row in range(first, first + size):
        chance = 1.0
        left = 0.0
        for k in range(count, p):
            left += weight[orders[row, k]]
        for k in range(count, p - 1):
            chance *= weight[orders[row, k]] / left
            left -= weight[orders[row, k]]
        for seat in range(p):
            out[seat] += chance * table[row, seat]
    return True


@fast.compiled
def seat_rewards(s: Row, out: Floats, match_weight: float) -> None:
    """The rewards of a row whose playout stopped: a finished game by its ranks (rank_rewards, as
    GhooostPolicy scores an outcome); a round under way by round_shares, a round just ended in a match by
    the ranks of that round (its loser last, the others tied, or all tied after a draw); in a match, mixed
    with match_shares (`match_weight` of the reward)."""
    p = s[_P]
    ranks = np.ones(p, dtype=np.int64)
    if s[_STATUS] == _OVER:
        for seat in range(p):
            ranks[seat] = s[_RANK + seat]
        rank_shares(ranks, p, out)
        return
    if s[_STATUS] == _RUNNING:
        round_shares(s, out)
    else:
        loser = s[_NEXT_STARTER]  # the loser starts the next deal; -1 after a drawn round
        if loser >= 0:
            ranks[loser] = 2
        rank_shares(ranks, p, out)
    if s[_MATCH_ON] == 1 and match_weight > 0.0:
        match = np.empty(p, dtype=np.float64)
        match_shares(s, match)
        for seat in range(p):
            out[seat] = (1.0 - match_weight) * out[seat] + match_weight * match[seat]


@fast.compiled
def playout_rewards(s: Row, out: Floats, match_weight: float, rng: fast.Rng,
                    equity_samples: int, scale: float = SCALE, tie: float = 0.5,
                    orders: Ints = NO_TABLE, table: Floats = NO_VALUES) -> None:
    """seat_rewards, or in a match not yet over with `equity_samples` > 0 the round's shares mixed with
    match_equity (`match_weight` of the reward; its round finished at `scale`, its ties counting `tie`) in
    place of match_shares; a match the playout ended is scored by its ranks with ties counting `tie`. With a
    `table` (equity_table's for this round) the equity is read from it (tabled_equity) where it applies."""
    if equity_samples <= 0 or s[_MATCH_ON] == 0:
        seat_rewards(s, out, match_weight)
        return
    if s[_STATUS] == _OVER:
        ranks = np.empty(s[_P], dtype=np.int64)
        for seat in range(s[_P]):
            ranks[seat] = s[_RANK + seat]
        rank_shares(ranks, s[_P], out, tie)
        return
    seat_rewards(s, out, 0.0)
    match = np.empty(s[_P], dtype=np.float64)
    if table.shape[0] == 0 or not tabled_equity(s, orders, table, scale, match):
        match_equity(s, rng, equity_samples, match, scale, tie)
    for seat in range(s[_P]):
        out[seat] = (1.0 - match_weight) * out[seat] + match_weight * match[seat]


@fast.compiled
def play_out(s: Row, rng: fast.Rng, limit: int) -> None:
    """At most `limit` of playout_action's actions, stopping at the end of the round."""
    for _ in range(limit):
        if s[_STATUS] != _RUNNING:
            return
        fast.apply_action(s, playout_action(s, rng))


# --- the search ----------------------------------------------------------------------------------------------
@fast.compiled
def iterate(base: Row, seat: int, count: int, root_actions: Ints, exploration: float, tree: Ints, reward: Floats,
            size: Ints, rng: fast.Rng, limit: int, match_weight: float, equity_samples: int, scale: float,
            tie: float, orders: Ints, table: Floats) -> None:
    """`count` iterations into the tree (node 0 the root, `size[0]` nodes used; room for `count` more), each
    on a copy of `base` with the hidden cards re-dealt."""
    s = np.empty(base.shape[0], dtype=np.int32)
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int32)
    flags = np.zeros(fast.ACTION_COUNT, dtype=np.int8)  # 1: legal here, 2: legal and already a child
    path = np.empty(tree.shape[0], dtype=np.int64)
    rewards = np.empty(fast.SEATS, dtype=np.float64)
    for _ in range(count):
        s[:] = base
        redeal(s, seat, rng)
        node = 0
        depth = 0
        while fast.seat_to_act(s) >= 0:
            actor = s[_TURN]
            if node == 0:
                n = root_actions.shape[0]
                for j in range(n):
                    legal[j] = root_actions[j]
            else:
                n = fast.legal_actions(s, legal)
            # expand or select (ISMCTS's step at a node, as bots/fast_tree.py says why it is written out here): each
            # child legal in this world gains an availability; an untried action drawn at random becomes a new
            # child, where the walk ends, or else the child of the best UCB score is taken
            for j in range(n):
                flags[legal[j]] = 1
            child = tree[node, FIRST]
            while child >= 0:
                if flags[tree[child, ACTION]] == 1:
                    tree[child, AVAIL] += 1
                    flags[tree[child, ACTION]] = 2
                child = tree[child, SIBLING]
            untried = 0
            for j in range(n):
                if flags[legal[j]] == 1:
                    untried += 1
            chosen = -1
            if untried > 0:
                pick = fast.random_below(rng, 0, untried)
                for j in range(n):
                    if flags[legal[j]] == 1:
                        if pick == 0:
                            chosen = add_child(tree, reward, size, node, actor, legal[j])
                            break
                        pick -= 1
            else:
                best = -np.inf
                child = tree[node, FIRST]
                while child >= 0:
                    if flags[tree[child, ACTION]] == 2:
                        visits = tree[child, VISITS]
                        score = reward[child] / visits + exploration * math.sqrt(math.log(tree[child, AVAIL]) / visits)
                        if score > best:
                            best = score
                            chosen = child
                    child = tree[child, SIBLING]
            for j in range(n):
                flags[legal[j]] = 0
            fast.apply_action(s, tree[chosen, ACTION])
            path[depth] = chosen
            depth += 1
            node = chosen
            if untried > 0:
                break
        play_out(s, rng, limit)
        playout_rewards(s, rewards, match_weight, rng, equity_samples, scale, tie, orders, table)
        back_up(tree, reward, path, depth, rewards)


class GhooostExpertPolicy(GhooostPolicy):
    """Ghooost!'s expert: GhooostPolicy's playouts, searched by the kernel above; in a match its reward is
    the match's equity alone (since 5 December 2026), finished at the fitted scale, a tie counted as the mean
    rank counts it and read from the round's table (tabled_equity: since the evening of 5 December,
    docs/research/ghooost-expert.md); in a single round the round's shares (`last_tree`: the tree of its
    latest decision, for tests and the analysis of a search)."""

    last_tree: Tree | None = None
    match_weight = 1.0
    playout_limit = PLAYOUT_LIMIT
    equity_samples = EQUITY_SAMPLES  # > 0: a match's share of the reward is match_equity over this many draws;
    # 0: match_shares' logistic of expected points
    finish_scale = FINISH_SCALE  # cards: how sure the guess of the round under way's finishing order is
    tie_credit = 1.0  # what a tie at the match's end is worth in the equity (1: the mean rank's own measure)
    tabled = True  # the equity read from a table over the round's finishing orders (equity_table); False:
    # match_equity's equity_samples draws a playout

    def round_table(self, base: Row) -> tuple[Ints, Floats]:
        """The orders and equity table of the round `base` is in (empty when not tabled, or outside a match
        round under way). Kept by the round's points, Bouh! and number, which every seat may know, and drawn
        from a stream seeded by them, so a decision stays a function of its knowledge and rng."""
        p = int(base[_P])
        if not self.tabled or self.equity_samples <= 0 or base[_MATCH_ON] == 0 or base[_STATUS] != _RUNNING:
            return NO_TABLE, NO_VALUES
        key = (p, tuple(int(v) for v in base[_POINTS:_POINTS + p]), tuple(int(v) for v in base[_BOUH:_BOUH + p]),
               int(base[fast.ROUND]), int(base[fast.MAX_ROUNDS]), self.tie_credit)
        if key not in _TABLES:
            if len(_TABLES) > 64:
                _TABLES.clear()
            orders = all_orders(p)
            table = np.zeros((len(orders), p), dtype=np.float64)
            stream = fast.new_rng(zlib.crc32(repr(key).encode()))
            equity_table(p, np.array(key[1], dtype=np.int64), np.array(key[2], dtype=np.int64), key[3], key[4],
                         orders, max(1, TABLE_DRAWS // len(orders)), stream, self.tie_credit, table)
            _TABLES[key] = (orders, table)
        return _TABLES[key]

    def compiled_choice(self, legal: Sequence[Action], budget: Budget, exploration: float,
                        rng: random.Random) -> tuple[Action, int] | None:
        seat = self.knowledge.seat
        actions, root_actions = root_codes(legal, action_index)
        world = self.knowledge.sample_world(rng)
        assert isinstance(world, GhooostState)
        base = fast.from_state(world, record=False)
        stream = new_streams(rng, 1)
        orders, table = self.round_table(base)

        def run_chunk(tree: Tree, count: int) -> None:
            iterate(base, seat, count, root_actions, exploration, tree.nodes, tree.reward, tree.size, stream,
                    self.playout_limit, self.match_weight, self.equity_samples, self.finish_scale, self.tie_credit,
                    orders, table)

        tree = Tree(seat, CHUNK + 1)
        done = tree.grow(budget, CHUNK, run_chunk)
        self.last_tree = tree
        return tree.most_visited(actions), done


class SampledEquityPolicy(GhooostExpertPolicy):
    """The expert of 5 December 2026 until the evening: the match equity over 4 draws a playout, the round
    under way finished at SCALE's 3 cards (far too sure: it held cards back to go out just before the loser
    and took the Bouh! in a third to a half of those rounds at 5 players), a tie counted a half."""

    finish_scale = SCALE
    tie_credit = 0.5
    tabled = False


def sampled_equity_bot(seconds: float | None = None) -> IsmctsBot:
    """A plug-in factory (`--bots ghostgames.bots.ghooost.fast_search:sampled_equity_bot`): the expert of
    5 December until the evening (`expert:1200` in that day's tables), 1200 iterations a move, or `seconds`."""
    bot = IsmctsBot(Budget(seconds=seconds) if seconds else Budget(iterations=1200), SampledEquityPolicy, 0.5)
    bot.name = "expert-sampled-equity"
    return bot


def tabled_equity_bot(seconds: float | None = None) -> IsmctsBot:
    """A plug-in factory (`--bots ghostgames.bots.ghooost.fast_search:tabled_equity_bot`): the expert's policy
    (the name its screens ran under, kept so that their commands replay), 1200 iterations a move, or `seconds`."""
    bot = IsmctsBot(Budget(seconds=seconds) if seconds else Budget(iterations=1200), GhooostExpertPolicy, 0.5)
    bot.name = "expert-tabled-equity"
    return bot


class ExpectedPointsPolicy(GhooostExpertPolicy):
    """The expert until 5 December 2026: in a match, half the round's shares and half match_shares (a
    logistic of the points expected at the round's end less BOUH_COST a Bouh!). It went out first as often
    as it could, which at 3 players earns a point less than going out second: level with `rules` in matches."""

    match_weight = MATCH_WEIGHT
    equity_samples = 0


def expected_points_bot(seconds: float | None = None) -> IsmctsBot:
    """A plug-in factory (`--bots ghostgames.bots.ghooost.fast_search:expected_points_bot`): the expert until
    5 December, 2000 iterations a move, or `seconds`."""
    bot = IsmctsBot(Budget(seconds=seconds) if seconds else Budget(iterations=2000), ExpectedPointsPolicy, 0.5)
    bot.name = "expert-expected-points"
    return bot


class RoundRewardPolicy(GhooostExpertPolicy):
    """The expert scoring a match's rounds by the round alone (no match points): kept to measure the match
    reward against (docs/bots.md)."""

    match_weight = 0.0
    equity_samples = 0


def round_reward_bot(seconds: float | None = None) -> IsmctsBot:
    """A plug-in factory for tournaments (`--bots ghostgames.bots.ghooost.fast_search:round_reward_bot`):
    3000 iterations a move, or `seconds`."""
    bot = IsmctsBot(Budget(seconds=seconds) if seconds else Budget(iterations=3000), RoundRewardPolicy, 0.5)
    bot.name = "expert-round-reward"
    return bot


class ShortPlayoutPolicy(ExpectedPointsPolicy):
    """The expert until the evening of 4 December 2026: playouts cut after 20 actions (kept to measure against)."""

    playout_limit = ROLLOUT_LIMIT


def short_playout_bot(seconds: float | None = None) -> IsmctsBot:
    """A plug-in factory for tournaments (`--bots ghostgames.bots.ghooost.fast_search:short_playout_bot`):
    the expert of before the evening of 4 December, 3000 iterations a move, or `seconds`."""
    bot = IsmctsBot(Budget(seconds=seconds) if seconds else Budget(iterations=3000), ShortPlayoutPolicy, 0.5)
    bot.name = "expert-short-playout"
    return bot


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]),
                     inlined=(fast, scoring, fast_tree))
