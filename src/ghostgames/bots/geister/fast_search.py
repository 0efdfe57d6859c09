"""The Geister expert's search on the compiled core: single-observer ISMCTS in numba.

The same algorithm as `ghostgames.bots.ismcts` (one shared tree of action sequences, UCB with availability
counts, one node added per iteration, each seat's reward backed up for the seat that chose) and the same
knowledge as the Python expert (`expert.BeliefPolicy`): worlds' enemy colours drawn from the fitted belief,
the exit guard and the winning moves decided in Python before the search, the playout heuristic of
`search.GeisterPolicy.rollout_action` and its hand evaluation `evaluate`. It runs about twenty times as
many iterations a second as the same search in Python, `expert-v2` (benchmarks/fast_search_speed.py).

One deliberate difference: the Python search grows every root move and keeps the guard's choice for the
end; here the root holds only the moves the guard allows, so every iteration goes to them.

- Worlds: everything but the enemy's hidden colours is known, so the row is built once from one
  `sample_world` and each iteration only re-colours the hidden ghosts with a colouring drawn from the
  belief (at most C(8,4) = 70 of them, enumerated by belief.py) on a splitmix64 stream seeded from the
  bot's rng: under an iteration budget a choice is a pure function of (knowledge, rng).
- Tree: preallocated arrays, one entry per node (visits, availability, summed reward for the seat that
  chose, that seat, the move code, first child, next sibling); grown between chunks, kept across chunks so
  that a time budget is checked every `CHUNK` iterations.
- Leaves: `leaf_value(row, seat, evaluator, params, value)` is the one place a playout cut short is
  scored: the hand evaluation (`HAND`), the value learned by self-play (`LEARNED`, `value.py`) or their
  mean (`BLEND`).
- Prior (off in the shipped expert): with `prior_visits` m > 0 a node also keeps the learned value of its
  position, which UCB counts as m visits, so that it steers a node while the node is seldom visited. With
  `prior_after` 1 the value is scored on the node's second visit, not when it is made: most nodes are
  never visited again, so most of the value's cost is saved.
- Playout (on in the shipped expert, off in `expert-hand`): with a `playout_table` the playouts draw their
  moves from the policy fitted to the search's own moves (`playout_policy.learned_move`) instead of
  `rollout_move`.

The Python search stays for what the kernel does not cover (other games; setups are decided without search).
"""

from __future__ import annotations

import functools
import math
import random
import sys
import time

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import playout_policy, value
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.playout_policy import learned_move
from ghostgames.bots.geister.search import GeisterPolicy
from ghostgames.bots.geister.value import GeisterValue, value_of_row
from ghostgames.bots.ismcts import IsmctsBot, PolicyFactory
from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.jit import compiled, forget_stale_kernels
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import Action

Row = NDArray[np.int32]
Floats = NDArray[np.float64]
Weights = tuple[Floats, Floats, Floats, Floats]  # the learned value, as GeisterValue.kernel_arrays


# Leaf evaluators for `leaf_value`.
HAND, LEARNED, BLEND = 0, 1, 2
# The hand evaluation's and the playout's constants, in `params` order (taken from GeisterPolicy).
PARAMS = ("hunt", "push", "bad_lost", "last_bad")
CHUNK = 256  # iterations per kernel call: the time budget is checked between calls
MAX_DEPTH = 2048  # a tree path longer than this is cut (a leaf is then scored where it stands)
_ROOT_MOVE = -1
_NO_TABLE = np.empty(0, dtype=np.float64)

_POS, _GOOD, _BOARD, _TURN, _WINNER = fast.POS, fast.GOOD, fast.BOARD, fast.TURN, fast.WINNER
_ESCAPE_RULE, _RUNNING, _DRAW = fast.ESCAPE_RULE, fast.RUNNING, fast.DRAW
_STEP, _IS_EXIT, _EXIT_DISTANCE = fast.STEP, fast.IS_EXIT, fast.EXIT_DISTANCE
_ESCAPE_SQUARE, _ESCAPE_CODE = fast.ESCAPE_SQUARE, fast.ESCAPE_CODE
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_LOG_TABLE = 1 << 14  # UCB's log(availability) for small counts, read from a table (math.log's own values)
_LOG = np.array([math.log(n) if n > 0 else 0.0 for n in range(_LOG_TABLE)], dtype=np.float64)
_S11 = np.uint64(11)


@compiled
def uniform(rng: fast.Rng) -> float:
    """A uniform float in [0, 1) from stream 0 of `rng` (the top 53 bits)."""
    return float(fast.next_random(rng, 0) >> _S11) * _TO_UNIT


# --- the playout and the leaf ------------------------------------------------------------------------------
@compiled
def rollout_move(row: Row, rng: fast.Rng, params: NDArray[np.float64], legal: NDArray[np.int32],
                 forward: NDArray[np.int32], captures: NDArray[np.int32]) -> int:
    """GeisterPolicy.rollout_action for the seat to move: leave when it can (or, under `reach`, step a good
    ghost onto an exit), take a ghost on our own exit corner, else capture with chance `hunt`, else bring a
    good ghost closer to its exits with chance `push`, else any legal move. The first of the sure moves in
    the reference's move order wins, as in Python. `legal`, `forward`, `captures`: scratch arrays.

    The moves are made here in one pass, in `fast.legal_moves`'s order (each ghost's steps, then the
    escapes): most of a playout's time is this function, and one pass instead of listing the moves and then
    reading them again makes the whole search about a fifth faster, with the same moves drawn."""
    seat = row[_TURN]
    escape = row[_ESCAPE_RULE] == 1
    n = 0
    n_forward = 0
    n_captures = 0
    for g in range(seat * 8, seat * 8 + 8):
        origin = row[_POS + g]
        if origin < 0:
            continue
        good = row[_GOOD + g] == 1
        for d in range(4):
            code = origin * 4 + d
            target = _STEP[code]
            if target < 0:
                continue
            other = row[_BOARD + target]
            if other >= 0 and (other >> 3) == seat:
                continue
            legal[n] = code
            n += 1
            if good:
                if not escape and _IS_EXIT[seat, target] == 1:
                    return int(code)
                if _EXIT_DISTANCE[seat, target] < _EXIT_DISTANCE[seat, origin]:
                    forward[n_forward] = code
                    n_forward += 1
            if other >= 0:  # an enemy ghost
                if _IS_EXIT[1 - seat, target] == 1:
                    return int(code)
                captures[n_captures] = code
                n_captures += 1
    if escape:
        for i in range(_ESCAPE_CODE.shape[1]):
            ghost = row[_BOARD + _ESCAPE_SQUARE[seat, i]]
            if ghost >= 0 and (ghost >> 3) == seat and row[_GOOD + ghost] == 1:
                return int(_ESCAPE_CODE[seat, i])
    if n_captures > 0 and uniform(rng) < params[0]:
        return int(captures[fast.random_below(rng, 0, n_captures)])
    if n_forward > 0 and uniform(rng) < params[1]:
        return int(forward[fast.random_below(rng, 0, n_forward)])
    return int(legal[fast.random_below(rng, 0, n)])


@compiled
def hand_value(row: Row, params: NDArray[np.float64]) -> float:
    """GeisterPolicy.evaluate: seat 0's chance from good ghosts alive, bad ghosts lost, the last bad ghost
    and how close the best good ghost is to leaving (a logistic of the two seats' worth)."""
    escape = row[_ESCAPE_RULE] == 1
    worth0 = 0.0
    worth1 = 0.0
    for s in range(2):
        goods = 0
        bads_left = 0
        nearest = 1000
        for g in range(s * 8, s * 8 + 8):
            sq = row[_POS + g]
            if sq < 0:
                continue
            if row[_GOOD + g] == 1:
                goods += 1
                nearest = min(nearest, _EXIT_DISTANCE[s, sq])
            else:
                bads_left += 1
        value = 1.0 * goods + params[2] * (4 - bads_left)
        if bads_left == 1:
            value += params[3]
        if goods > 0:
            if escape:
                nearest += 1
            value += 0.3 * max(0, 6 - nearest)
            if nearest <= 1 and row[_TURN] == s:
                value += 1.5
        if s == 0:
            worth0 = value
        else:
            worth1 = value
    return 1.0 / (1.0 + math.exp(-(worth0 - worth1)))


@compiled
def leaf_value(row: Row, seat: int, evaluator: int, params: NDArray[np.float64], value: Weights) -> float:
    """`seat`'s reward in [0, 1] for a world whose playout was cut short: the hand evaluation (`HAND`), the
    value learned by self-play (`LEARNED`, `value.value_of_row` with the weights in `value`), or the mean of
    the two (`BLEND`)."""
    if evaluator == HAND:
        v0 = hand_value(row, params)
    elif evaluator == LEARNED:
        v0 = value_of_row(row, value[0], value[1], value[2], value[3])
    else:
        v0 = 0.5 * (hand_value(row, params) + value_of_row(row, value[0], value[1], value[2], value[3]))
    return v0 if seat == 0 else 1.0 - v0


@compiled
def playout(row: Row, rng: fast.Rng, limit: int, params: NDArray[np.float64], evaluator: int, value: Weights,
            table: NDArray[np.float64], legal: NDArray[np.int32], forward: NDArray[np.int32],
            captures: NDArray[np.int32], cumulative: NDArray[np.float64]) -> float:
    """Seat 0's reward for playing `row` on for at most `limit` plies: 1 / 0 / 0.5 for a finished game, else
    `leaf_value`. The moves are `rollout_move`'s, or with a nonempty `table` the learned playout policy's
    (`playout_policy.learned_move`)."""
    steps = 0
    learned = table.shape[0] > 0
    while row[_WINNER] == _RUNNING:
        if steps >= limit:
            return leaf_value(row, 0, evaluator, params, value)
        if learned:
            code = learned_move(row, uniform(rng), table, legal, forward, cumulative)
        else:
            code = rollout_move(row, rng, params, legal, forward, captures)
        fast.apply_move(row, code)
        steps += 1
    winner = row[_WINNER]
    if winner == _DRAW:
        return 0.5
    return 1.0 if winner == 0 else 0.0


# --- the tree ----------------------------------------------------------------------------------------------
@compiled
def search_chunk(base: Row, allowed: NDArray[np.int32], hidden: NDArray[np.int32], colourings: NDArray[np.int8],
                 cumulative: NDArray[np.float64], rng: fast.Rng, iterations: int, exploration: float, limit: int,
                 params: NDArray[np.float64], evaluator: int, value: Weights, table: NDArray[np.float64],
                 prior_visits: float, prior_after: int, visits: NDArray[np.int32], avail: NDArray[np.int32],
                 reward: NDArray[np.float64], prior: NDArray[np.float64], actor: NDArray[np.int8],
                 move: NDArray[np.int16], child: NDArray[np.int32], sibling: NDArray[np.int32],
                 size: NDArray[np.int64]) -> None:
    """`iterations` ISMCTS iterations from the root (node 0, the seat to move in `base`) into the tree arrays,
    which must have room for `iterations` more nodes (size[0] is the number in use). At the root only the
    moves in `allowed` are searched. Each iteration colours the hidden ghosts `hidden` with row k of
    `colourings` (1 good, 0 bad), k drawn with the cumulative weights `cumulative`. With `prior_visits` m > 0
    a node is scored by the learned value once, in the world of the iteration that walks it with
    `prior_after` visits (0: the one that makes it; `prior`, for the seat that chose; NaN until then), and
    UCB counts that as m visits: (reward + m * prior) / (visits + m), which the node's own visits soon
    outweigh. A nonempty `table` plays the playouts with the learned playout policy."""
    row = np.empty(fast.FIELDS, dtype=np.int32)
    legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
    untried = np.empty(fast.MAX_MOVES, dtype=np.int32)
    forward = np.empty(fast.MAX_MOVES, dtype=np.int32)
    captures = np.empty(fast.MAX_MOVES, dtype=np.int32)
    cumulative_moves = np.empty(fast.MAX_MOVES, dtype=np.float64)
    slot = np.full(fast.SQUARES * 4, -1, dtype=np.int32)  # move code -> child, for the node being walked
    path = np.empty(MAX_DEPTH, dtype=np.int32)
    n_colourings = colourings.shape[0]
    for _ in range(iterations):
        row[:] = base
        if hidden.shape[0] > 0:
            k = min(np.searchsorted(cumulative, uniform(rng) * cumulative[-1]), n_colourings - 1)
            for j in range(hidden.shape[0]):
                row[_GOOD + hidden[j]] = colourings[k, j]
        node = 0
        depth = 0
        while row[_WINNER] == _RUNNING and depth < MAX_DEPTH:
            mover = row[_TURN]
            if node == 0:
                n = allowed.shape[0]
                legal[:n] = allowed
            else:
                n = fast.legal_moves(row, legal)
            c = child[node]
            while c >= 0:
                slot[move[c]] = c
                c = sibling[c]
            n_untried = 0
            for i in range(n):
                found = slot[legal[i]]
                if found >= 0:
                    avail[found] += 1
                else:
                    untried[n_untried] = legal[i]
                    n_untried += 1
            chosen = -1
            if n_untried > 0:
                code = untried[fast.random_below(rng, 0, n_untried)]
                chosen = int(size[0])
                size[0] += 1
                visits[chosen] = 0
                avail[chosen] = 1
                reward[chosen] = 0.0
                prior[chosen] = np.nan
                actor[chosen] = mover
                move[chosen] = code
                child[chosen] = -1
                sibling[chosen] = child[node]
                child[node] = chosen
            else:
                best = -np.inf
                for i in range(n):
                    found = slot[legal[i]]
                    a = avail[found]
                    log_a = _LOG[a] if a < _LOG_TABLE else math.log(a)
                    if prior_visits > 0.0 and not math.isnan(prior[found]):  # scored
                        mean = (reward[found] + prior_visits * prior[found]) / (visits[found] + prior_visits)
                    else:
                        mean = reward[found] / visits[found]
                    score = mean + exploration * math.sqrt(log_a / visits[found])
                    if score > best:
                        best = score
                        chosen = found
            c = child[node]
            while c >= 0:
                slot[move[c]] = -1
                c = sibling[c]
            fast.apply_move(row, move[chosen])
            path[depth] = chosen
            depth += 1
            node = chosen
            if prior_visits > 0.0 and visits[chosen] >= prior_after and math.isnan(prior[chosen]):
                v0 = value_of_row(row, value[0], value[1], value[2], value[3])
                prior[chosen] = v0 if mover == 0 else 1.0 - v0
            if n_untried > 0:
                break
        r0 = playout(row, rng, limit, params, evaluator, value, table, legal, forward, captures, cumulative_moves)
        for d in range(depth):
            nd = path[d]
            visits[nd] += 1
            reward[nd] += r0 if actor[nd] == 0 else 1.0 - r0


KERNELS = (uniform, rollout_move, hand_value, leaf_value, playout, search_chunk)


forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, value, playout_policy))  # these inline all three


class Tree:
    """The search tree's arrays (node 0 is the root), grown by doubling."""

    def __init__(self, seat: int, capacity: int = 4096) -> None:
        self.visits = np.zeros(capacity, dtype=np.int32)
        self.avail = np.zeros(capacity, dtype=np.int32)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.prior = np.zeros(capacity, dtype=np.float64)
        self.actor = np.zeros(capacity, dtype=np.int8)
        self.move = np.zeros(capacity, dtype=np.int16)
        self.child = np.full(capacity, -1, dtype=np.int32)
        self.sibling = np.full(capacity, -1, dtype=np.int32)
        self.size = np.ones(1, dtype=np.int64)
        self.actor[0] = seat
        self.move[0] = _ROOT_MOVE

    def reserve(self, more: int) -> None:
        """Make room for `more` nodes beyond those in use."""
        need = int(self.size[0]) + more
        capacity = self.visits.shape[0]
        if need <= capacity:
            return
        while capacity < need:
            capacity *= 2
        for name in ("visits", "avail", "reward", "prior", "actor", "move", "child", "sibling"):
            old = getattr(self, name)
            new = np.zeros(capacity, dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def children(self, node: int) -> list[int]:
        """The nodes below `node`, newest first."""
        out = []
        c = int(self.child[node])
        while c >= 0:
            out.append(c)
            c = int(self.sibling[c])
        return out

    def root_children(self) -> dict[int, tuple[int, int, float]]:
        """Move code -> (visits, availability, summed reward for the root's seat) of every root child."""
        return {int(self.move[c]): (int(self.visits[c]), int(self.avail[c]), float(self.reward[c]))
                for c in self.children(0)}


def policy_params(policy: GeisterPolicy) -> NDArray[np.float64]:
    return np.array([float(getattr(policy, name)) for name in PARAMS], dtype=np.float64)


def belief_arrays(policy: BeliefPolicy) -> tuple[NDArray[np.int32], NDArray[np.int8], NDArray[np.float64]]:
    """The belief as the kernel takes it: hidden ghost ids, one row of colours per colouring, cumulative
    probabilities."""
    b = policy.belief
    hidden = np.array(b.hidden, dtype=np.int32)
    colourings = np.array([[1 if g in c else 0 for g in b.hidden] for c in b.colourings], dtype=np.int8)
    colourings = colourings.reshape(len(b.colourings), len(b.hidden))
    cumulative = np.cumsum(np.array(b.probabilities, dtype=np.float64))
    return hidden, colourings, cumulative


@functools.cache
def shipped_value() -> Weights:
    """The shipped learned value's arrays, as `leaf_value` takes them (loaded once per process)."""
    return GeisterValue.load().kernel_arrays


class FastExpertBot(IsmctsBot):
    """The expert: ISMCTS with `policy` (the expert's), searched on the compiled core for Geister moves;
    other games (and setups, chosen without search) go to the Python ISMCTS it extends. `rollout_limit`
    None: the policy's (GeisterPolicy's 14 plies)."""

    name = "expert"

    def __init__(self, budget: Budget, policy: PolicyFactory, exploration: float = 0.5,
                 rollout_limit: int | None = None, evaluator: int = HAND,
                 value: Weights | None = None, prior_visits: float = 0.0, prior_after: int = 0,
                 playout_table: NDArray[np.float64] | None = None) -> None:
        super().__init__(budget, policy, exploration)
        self.rollout_limit = rollout_limit
        self.evaluator = evaluator
        self.prior_visits = prior_visits  # > 0: nodes start from the learned value, as this many visits
        self.prior_after = prior_after  # ...scored when a node is walked with this many visits (0: when made)
        self.value = shipped_value() if value is None else value  # passed for HAND too: one compiled kernel
        # the learned playout policy's table (`playout_policy.table_of`); empty: rollout_move, as shipped
        self.playout_table = _NO_TABLE if playout_table is None else playout_table
        self.last_tree: Tree | None = None

    def search_among(self, knowledge: SeatKnowledge, policy: SearchPolicy, legal: list[Action],
                     rng: random.Random) -> Action:
        """Geister moves are searched here; other games and setups by the Python ISMCTS."""
        if knowledge.game.name != "geister" or not isinstance(legal[0], Move) or not isinstance(policy, BeliefPolicy):
            return super().search_among(knowledge, policy, legal, rng)
        world = knowledge.sample_world(rng)
        assert isinstance(world, GeisterState)
        moves = {fast.code_of(m): m for m in legal if isinstance(m, Move)}
        tree = self.search_compiled(world, knowledge.seat, policy, np.array(list(moves), dtype=np.int32), rng)
        stats = tree.root_children()
        best = max(moves, key=lambda code: stats.get(code, (0, 0, 0.0))[0])  # the first of the most visited
        return moves[best]

    def search_compiled(self, world: GeisterState, seat: int, policy: BeliefPolicy, allowed: NDArray[np.int32],
                        rng: random.Random) -> Tree:
        """Run the budget on `world` (its hidden enemy colours are re-dealt every iteration)."""
        base = fast.from_state(world)
        hidden, colourings, cumulative = belief_arrays(policy)
        stream = np.array([rng.getrandbits(64)], dtype=np.uint64)
        params = policy_params(policy)
        limit = policy.rollout_limit if self.rollout_limit is None else self.rollout_limit
        tree = Tree(seat)
        done = 0
        total = self.budget.iterations
        deadline = time.perf_counter() + (self.budget.seconds or 0.0)
        while True:
            chunk = CHUNK if total is None else min(CHUNK, total - done)
            if chunk <= 0:
                break
            tree.reserve(chunk)
            search_chunk(base, allowed, hidden, colourings, cumulative, stream, chunk, self.exploration,
                         int(limit if limit is not None else 1_000_000), params, self.evaluator, self.value,
                         self.playout_table, self.prior_visits, self.prior_after, tree.visits, tree.avail,
                         tree.reward, tree.prior, tree.actor, tree.move, tree.child, tree.sibling, tree.size)
            done += chunk
            if total is None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_tree = tree
        return tree


def warm_up() -> None:
    """Load the compiled search (or compile it, once per machine) and the packaged playout policy with a tiny
    search of a new game, as `expert` searches."""
    from ghostgames.bots.geister.playout import warm_up as warm_playouts
    from ghostgames.games import get_game

    warm_playouts()
    state = get_game("geister").new(players=2, seed=0)
    rng = random.Random(0)
    for seat in (0, 1):
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    bot = FastExpertBot(Budget(iterations=8), BeliefPolicy, playout_table=playout_policy.shipped_table())
    seat = min(state.to_act())
    bot.choose(SeatKnowledge(state, seat), rng)
