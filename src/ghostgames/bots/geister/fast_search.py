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
- Leaves: `leaf_value(row, seat, evaluator, heuristic, value)` is the one place a playout cut short is
  scored: the hand evaluation (`HAND`), the value learned by self-play (`LEARNED`, `value.py`) or their
  mean (`BLEND`), or the information-state value of the root's seat (`INFO`, `info_value.py`; the
  evaluator code then carries that seat: INFO + seat).
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
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import heuristic, info_value, playout_policy, value
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.heuristic import FAR, Heuristic, compiled_seat_worth, compiled_win_chance
from ghostgames.bots.geister.info_value import info_value_of_row
from ghostgames.bots.geister.playout_policy import learned_move
from ghostgames.bots.geister.value import GeisterValue, value_of_row
from ghostgames.bots.ismcts import IsmctsBot, PolicyFactory
from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.geister import fast
from ghostgames.games.geister.actions import Move
from ghostgames.games.geister.board import SQUARES
from ghostgames.games.geister.state import GeisterState
from ghostgames.jit import compiled, forget_stale_kernels
from ghostgames.rules.contract import Action

Row = NDArray[np.int32]
Floats = NDArray[np.float64]
Weights = tuple[Floats, Floats, Floats, Floats]  # the learned value, as GeisterValue.kernel_arrays


# Leaf evaluators for `leaf_value`.
HAND, LEARNED, BLEND = 0, 1, 2
INFO = 3  # ...and 4: the information-state value of seat 0 (3) or 1 (4), the root's seat, with `value` its weights
NO_LIMIT = 1_000_000  # a playout limit no game reaches
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


class Playouts(NamedTuple):
    """How a playout is played and how one cut short is scored."""

    limit: int  # plies before the leaf is scored
    heuristic: Heuristic  # the hand playout's chances and the hand evaluation's weights
    evaluator: int  # HAND, LEARNED, BLEND, or INFO + the root's seat
    value: Weights  # the learned value (passed for HAND too: one compiled kernel)
    table: Floats  # the learned playout policy's table; empty: the hand playout (`rollout_move`)


class Steering(NamedTuple):
    """How the tree picks among a node's children."""

    exploration: float  # UCB's constant
    prior_visits: float  # > 0: a node's learned value counts as this many visits
    prior_after: int  # ...scored when the node is walked with this many visits (0: when it is made)


class Belief(NamedTuple):
    """The colourings of the enemy's hidden ghosts a world is dealt from."""

    hidden: NDArray[np.int32]  # the hidden ghosts
    colourings: NDArray[np.int8]  # one row per colouring: 1 good, 0 bad, per hidden ghost
    cumulative: Floats  # the colourings' cumulative probabilities


class Nodes(NamedTuple):
    """The tree's arrays, one entry per node (node 0 the root); `size[0]` nodes in use."""

    visits: NDArray[np.int32]
    avail: NDArray[np.int32]  # times the node's move was available when its parent was walked
    reward: Floats  # summed reward for the seat that chose the node's move
    prior: Floats  # the learned value for that seat (NaN until scored)
    actor: NDArray[np.int8]  # the seat that chose
    move: NDArray[np.int16]  # the move code
    child: NDArray[np.int32]  # first child, -1 if none
    sibling: NDArray[np.int32]  # next sibling, -1 if none
    size: NDArray[np.int64]


@compiled
def uniform(rng: fast.Rng) -> float:
    """A uniform float in [0, 1) from stream 0 of `rng` (the top 53 bits)."""
    return float(fast.next_random(rng, 0) >> _S11) * _TO_UNIT


# --- the playout and the leaf ------------------------------------------------------------------------------
@compiled
def rollout_move(row: Row, rng: fast.Rng, h: Heuristic, legal: NDArray[np.int32],
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
    if n_captures > 0 and uniform(rng) < h.hunt:
        return int(captures[fast.random_below(rng, 0, n_captures)])
    if n_forward > 0 and uniform(rng) < h.push:
        return int(forward[fast.random_below(rng, 0, n_forward)])
    return int(legal[fast.random_below(rng, 0, n)])


@compiled
def hand_value(row: Row, h: Heuristic) -> float:
    """GeisterPolicy.evaluate: seat 0's chance, a logistic of the two seats' `heuristic.seat_worth`."""
    escape = row[_ESCAPE_RULE]
    worth0 = 0.0
    worth1 = 0.0
    for s in range(2):
        goods = 0
        bads_left = 0
        nearest = FAR
        for g in range(s * 8, s * 8 + 8):
            sq = row[_POS + g]
            if sq < 0:
                continue
            if row[_GOOD + g] == 1:
                goods += 1
                nearest = min(nearest, _EXIT_DISTANCE[s, sq])
            else:
                bads_left += 1
        worth = compiled_seat_worth(goods, bads_left, nearest + escape, row[_TURN] == s, h)
        if s == 0:
            worth0 = worth
        else:
            worth1 = worth
    return compiled_win_chance(worth0, worth1)


@compiled
def leaf_value(row: Row, seat: int, evaluator: int, h: Heuristic, value: Weights) -> float:
    """`seat`'s reward in [0, 1] for a world whose playout was cut short: the hand evaluation (`HAND`), the
    value learned by self-play (`LEARNED`, `value.value_of_row` with the weights in `value`), the mean of
    the two (`BLEND`); or, for INFO + r, the information-state value of seat r (`info_value`; `value` holds its
    weights), which reads none of the colours dealt to r's enemy."""
    if evaluator == HAND:
        v0 = hand_value(row, h)
    elif evaluator == INFO or evaluator == INFO + 1:
        me = evaluator - INFO
        v = info_value_of_row(row, me, value[0], value[1], value[2], value[3])
        v0 = v if me == 0 else 1.0 - v
    elif evaluator == LEARNED:
        v0 = value_of_row(row, value[0], value[1], value[2], value[3])
    else:
        v0 = 0.5 * (hand_value(row, h) + value_of_row(row, value[0], value[1], value[2], value[3]))
    return v0 if seat == 0 else 1.0 - v0


@compiled
def playout(row: Row, rng: fast.Rng, how: Playouts, legal: NDArray[np.int32], forward: NDArray[np.int32],
            captures: NDArray[np.int32], cumulative: NDArray[np.float64]) -> float:
    """Seat 0's reward for playing `row` on for at most `how.limit` plies: 1 / 0 / 0.5 for a finished game,
    else `leaf_value`. The moves are `rollout_move`'s, or with a nonempty table the learned playout policy's
    (`playout_policy.learned_move`). The arrays after `how`: scratch."""
    steps = 0
    learned = how.table.shape[0] > 0
    while row[_WINNER] == _RUNNING:
        if steps >= how.limit:
            return leaf_value(row, 0, how.evaluator, how.heuristic, how.value)
        if learned:
            code = learned_move(row, uniform(rng), how.table, legal, forward, cumulative)
        else:
            code = rollout_move(row, rng, how.heuristic, legal, forward, captures)
        fast.apply_move(row, code)
        steps += 1
    winner = row[_WINNER]
    if winner == _DRAW:
        return 0.5
    return 1.0 if winner == 0 else 0.0


# --- the tree ----------------------------------------------------------------------------------------------
@compiled
def deal_world(row: Row, base: Row, belief: Belief, rng: fast.Rng) -> None:
    """`row` = `base` with the hidden ghosts coloured by a colouring drawn from the belief."""
    row[:] = base
    hidden = belief.hidden
    if hidden.shape[0] > 0:
        cumulative = belief.cumulative
        k = min(np.searchsorted(cumulative, uniform(rng) * cumulative[-1]), belief.colourings.shape[0] - 1)
        for j in range(hidden.shape[0]):
            row[_GOOD + hidden[j]] = belief.colourings[k, j]


@compiled
def ucb(reward: float, visits: int, avail: int, prior: float, steering: Steering) -> float:
    """A child's UCB score: its mean reward (with its prior counted as `prior_visits` visits once scored)
    plus the exploration bonus for a move available `avail` times and chosen `visits` times."""
    log_a = _LOG[avail] if avail < _LOG_TABLE else math.log(avail)
    if steering.prior_visits > 0.0 and not math.isnan(prior):  # scored
        mean = (reward + steering.prior_visits * prior) / (visits + steering.prior_visits)
    else:
        mean = reward / visits
    return mean + steering.exploration * math.sqrt(log_a / visits)


@compiled
def search_chunk(base: Row, allowed: NDArray[np.int32], belief: Belief, steering: Steering, how: Playouts,
                 nodes: Nodes, rng: fast.Rng, iterations: int) -> None:
    """`iterations` ISMCTS iterations from the root (node 0, the seat to move in `base`) into `nodes`, which
    must have room for `iterations` more nodes. At the root only the moves in `allowed` are searched. Each
    iteration deals a world from the belief (`deal_world`), walks the tree down to a new node, plays the
    world out from there (`playout`) and backs the reward up the walk. With `steering.prior_visits` m > 0 a
    node is scored by the learned value once, in the world of the iteration that walks it with `prior_after`
    visits, and UCB counts that as m visits (`ucb`), which the node's own visits soon outweigh.

    The walk and the back-up stay in this one function: numba counts references to every array it passes
    to a helper, and helpers taking the tree's arrays made the whole search a fifth slower."""
    row = np.empty(fast.FIELDS, dtype=np.int32)
    legal = np.empty(fast.MAX_MOVES, dtype=np.int32)
    untried = np.empty(fast.MAX_MOVES, dtype=np.int32)
    forward = np.empty(fast.MAX_MOVES, dtype=np.int32)
    captures = np.empty(fast.MAX_MOVES, dtype=np.int32)
    cumulative_moves = np.empty(fast.MAX_MOVES, dtype=np.float64)
    slot = np.full(SQUARES * 4, -1, dtype=np.int32)  # move code -> child, for the node being walked
    path = np.empty(MAX_DEPTH, dtype=np.int32)
    visits, avail, reward, prior, actor, move, child, sibling, size = nodes
    value = how.value
    for _ in range(iterations):
        deal_world(row, base, belief, rng)
        # the walk: each step plays the chosen child's move on `row`, until a child is added or the game ends
        node = 0
        depth = 0
        while row[_WINNER] == _RUNNING and depth < MAX_DEPTH:
            mover = row[_TURN]
            if node == 0:
                n = allowed.shape[0]
                legal[:n] = allowed
            else:
                n = fast.legal_moves(row, legal)
            c = child[node]  # slot[code]: the child of `node` for that move, -1 for a move not tried yet
            while c >= 0:
                slot[move[c]] = c
                c = sibling[c]
            n_untried = 0
            for i in range(n):  # every legal move's child gains one availability
                found = slot[legal[i]]
                if found >= 0:
                    avail[found] += 1
                else:
                    untried[n_untried] = legal[i]
                    n_untried += 1
            chosen = -1
            if n_untried > 0:  # expand: a move not tried yet, drawn at random, becomes the first child
                chosen = int(size[0])
                size[0] += 1
                visits[chosen] = 0
                avail[chosen] = 1
                reward[chosen] = 0.0
                prior[chosen] = np.nan
                actor[chosen] = mover
                move[chosen] = untried[fast.random_below(rng, 0, n_untried)]
                child[chosen] = -1
                sibling[chosen] = child[node]
                child[node] = chosen
            else:  # select: the child with the best UCB score
                best = -np.inf
                for i in range(n):
                    found = slot[legal[i]]
                    score = ucb(reward[found], visits[found], avail[found], prior[found], steering)
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
            if steering.prior_visits > 0.0 and visits[chosen] >= steering.prior_after and math.isnan(prior[chosen]):
                v0 = value_of_row(row, value[0], value[1], value[2], value[3])
                prior[chosen] = v0 if mover == 0 else 1.0 - v0
            if n_untried > 0:
                break
        r0 = playout(row, rng, how, legal, forward, captures, cumulative_moves)
        for d in range(depth):  # the back-up: a visit, and the reward for the seat that chose
            nd = path[d]
            visits[nd] += 1
            reward[nd] += r0 if actor[nd] == 0 else 1.0 - r0


KERNELS = (uniform, rollout_move, hand_value, leaf_value, playout, deal_world, ucb, search_chunk)


forget_stale_kernels(sys.modules[__name__], KERNELS,
                     inlined=(fast, value, info_value, playout_policy, heuristic))  # all inlined


class Tree:
    """The search tree's arrays (node 0 is the root), grown by doubling."""

    def __init__(self, seat: int, capacity: int = 4096) -> None:
        self.nodes = Nodes(np.zeros(capacity, dtype=np.int32), np.zeros(capacity, dtype=np.int32),
                           np.zeros(capacity, dtype=np.float64), np.zeros(capacity, dtype=np.float64),
                           np.zeros(capacity, dtype=np.int8), np.zeros(capacity, dtype=np.int16),
                           np.full(capacity, -1, dtype=np.int32), np.full(capacity, -1, dtype=np.int32),
                           np.ones(1, dtype=np.int64))
        self.nodes.actor[0] = seat
        self.nodes.move[0] = _ROOT_MOVE

    def reserve(self, more: int) -> None:
        """Make room for `more` nodes beyond those in use."""
        need = int(self.nodes.size[0]) + more
        capacity = self.nodes.visits.shape[0]
        if need <= capacity:
            return
        while capacity < need:
            capacity *= 2
        grown = {}
        for name in Nodes._fields:
            old = getattr(self.nodes, name)
            if name != "size":
                new = np.zeros(capacity, dtype=old.dtype)
                new[: old.shape[0]] = old
                grown[name] = new
        self.nodes = self.nodes._replace(**grown)

    def children(self, node: int) -> list[int]:
        """The nodes below `node`, newest first."""
        out = []
        c = int(self.nodes.child[node])
        while c >= 0:
            out.append(c)
            c = int(self.nodes.sibling[c])
        return out

    def root_children(self) -> dict[int, tuple[int, int, float]]:
        """Move code -> (visits, availability, summed reward for the root's seat) of every root child."""
        n = self.nodes
        return {int(n.move[c]): (int(n.visits[c]), int(n.avail[c]), float(n.reward[c])) for c in self.children(0)}


def belief_arrays(policy: BeliefPolicy) -> Belief:
    """The belief as the kernel takes it: hidden ghost ids, one row of colours per colouring, cumulative
    probabilities."""
    b = policy.belief
    hidden = np.array(b.hidden, dtype=np.int32)
    colourings = np.array([[1 if g in c else 0 for g in b.hidden] for c in b.colourings], dtype=np.int8)
    colourings = colourings.reshape(len(b.colourings), len(b.hidden))
    cumulative = np.cumsum(np.array(policy.world_probabilities(), dtype=np.float64))
    return Belief(hidden, colourings, cumulative)


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
        belief = belief_arrays(policy)
        stream = np.array([rng.getrandbits(64)], dtype=np.uint64)
        limit = policy.rollout_limit if self.rollout_limit is None else self.rollout_limit
        evaluator = self.evaluator + seat if self.evaluator == INFO else self.evaluator  # INFO reads as the root
        how = Playouts(NO_LIMIT if limit is None else int(limit), policy.heuristic, evaluator, self.value,
                       self.playout_table)
        steering = Steering(self.exploration, self.prior_visits, self.prior_after)
        tree = Tree(seat)
        clock = self.budget.clock()  # a time budget is checked between chunks: a kernel call cannot look at it
        while (chunk := clock.take(CHUNK)) > 0:
            tree.reserve(chunk)
            search_chunk(base, allowed, belief, steering, how, tree.nodes, stream, chunk)
        self.last_iterations = clock.done
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
