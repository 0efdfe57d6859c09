"""The Last expert's search on the compiled core: single-observer ISMCTS whose iterations run in numba.

The algorithm is `ghostgames.bots.ismcts`'s (one shared tree of action sequences, UCB with availability
counts, one node added per iteration, each seat's reward backed up for the seat that chose it) and the
reward is `search.TheLastPolicy`'s (half rank, half the penalty against the others' mean). What changes is
where the time goes:

- Worlds come from the seat's knowledge (`SeatKnowledge.sample_world`: the voids and the swaps it keeps)
  as rows of the compiled core: `fast_worlds.WorldRows` deals them in the core and writes each world's
  dealt cards over the position's row, the same rows as `fast.from_state` of `sample_world`'s states from
  the same draws of the same `random.Random`, at a fraction of the cost. A pool of `POOL` worlds is drawn
  per chunk and each serves `REUSE` iterations, taken in turn (iteration i plays world i mod POOL): chosen
  when a world cost about ten playouts, and kept so that the decisions stay what they were.
- Tree walk, uniform random playout and backup run in one kernel call per chunk. The tree is a set of
  preallocated arrays (actor, action, first child, next sibling, visits, availability; summed reward): it,
  its step at a node and the budget's chunks are Ghooost!'s too (bots/fast_tree.py).
- Random numbers come from a splitmix64 stream seeded from the bot's rng, and the worlds from the same
  rng, so under an iteration budget a choice is a pure function of (knowledge, rng): the no-peek test
  holds it to that.

The root's actions are the ones the policy allows (all legal ones here); the most visited is played.
At 2-3 players playouts are uniform (`rules` playouts, the logit's alone, a shallow tree, other rewards and
backups were measured and not kept: docs/research/thelast-multiplayer.md says where they replay).
From 4 players the playouts are opponent-aware (OPPONENTS): the searching seat plays uniformly and every
other seat `rules`' move in 40% of its decisions, the logit's in 40%, a uniform one in the rest (measured
better than uniform playouts at 4-5 players and worse at 3). The logit is drawn from per-card score tables
(playout_policy.score_tables) and the choice is written into the playout loop, so these playouts cost about
what uniform ones do.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots import fast_tree
from ghostgames.bots.budget import Budget
from ghostgames.bots.fast_tree import (
    ACTION,
    ACTOR,
    AVAIL,
    FIRST,
    SIBLING,
    VISITS,
    Tree,
    add_child,
    back_up,
    root_codes,
)
from ghostgames.bots.thelast import fast_rules, playout_policy
from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.bots.thelast.playout_policy import TABLES, learned_action_tabled, score_tables, shipped_weights
from ghostgames.bots.thelast.search import TheLastPolicy
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import ACTION_COUNT, action_index
from ghostgames.games.thelast.fast_worlds import WorldRows
from ghostgames.games.thelast.state import TheLastState
from ghostgames.jit import forget_stale_kernels, new_streams, own_kernels
from ghostgames.rules.contract import Action

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

POOL = 16  # worlds sampled per chunk
REUSE = 8  # iterations each world of a chunk serves
CHUNK = POOL * REUSE  # iterations per kernel call; a time budget is checked between calls
_PHASE, _ACTOR, _PLAYERS, _TOTAL = fast.PHASE, fast.ACTOR, fast.PLAYERS, fast.TOTAL
_DEAL, _OVER = fast.DEAL, fast.OVER
# playouts: uniform, or OPPONENTS: the root seat uniform, every other seat by its row of `mix` (`rules`, the
# learned logit of bots/thelast/playout_policy.py, uniform)
RANDOM, OPPONENTS = 0, 1
NO_TABLES = np.ones((TABLES, fast.VALUE.shape[0]), dtype=np.float64)  # uniform, unused
SEATS = 8  # rows of a mix: more than The Last's 5 seats


@fast.compiled
def seat_rewards(s: Ints, out: Floats, rank_weight: float = 0.5, scale: float = 8.0) -> None:
    """TheLastPolicy.rewards of a finished row (by default): `rank_weight` of the share of the others beaten
    (ties half), the rest a logistic of how far the seat's total penalty lies under the others' mean
    (`scale` points: one step)."""
    players = s[_PLAYERS]
    everyone = 0
    for p in range(players):
        everyone += s[_TOTAL + p]
    for p in range(players):
        mine = s[_TOTAL + p]
        beaten = 0.0
        for q in range(players):
            if q != p:
                other = s[_TOTAL + q]
                if other > mine:
                    beaten += 1.0
                elif other == mine:
                    beaten += 0.5
        others = (everyone - mine) / max(players - 1, 1)
        out[p] = rank_weight * beaten / max(players - 1, 1) \
            + (1.0 - rank_weight) / (1.0 + math.exp((mine - others) / scale))


@fast.compiled
def opponents_playout(s: Ints, rng: fast.Rng, root: int, tables: Floats, mix: Floats, moves: int = -1) -> int:
    """The OPPONENTS playout: `moves` actions (all, to the end of the match, when negative; later rounds dealt
    at random), and the last action taken (-1 for none). The root seat (the searcher) plays uniformly, as the
    search's own playout; any other seat `rules_action` with probability mix[seat, 0], the logit (its
    `score_tables`) with mix[seat, 1], else uniformly. Each reads only the acting seat's cards of the world.
    The choice is written into the loop, not a function called per move: so called (even inlined by numba),
    the playouts ran at 60% of the uniform playouts' speed, written out at 85-100% (the research log)."""
    action = -1
    while moves != 0:
        seat = fast.seat_to_act(s)
        if seat < 0:
            break
        if seat == root:
            action = fast.random_action(s, rng, 0)
        else:
            draw = fast.random_below(rng, 0, 1 << 20) / float(1 << 20)
            if draw < mix[seat, 0]:
                action = rules_action(s)
            elif draw < mix[seat, 0] + mix[seat, 1]:
                action = learned_action_tabled(s, tables, rng)
            else:
                action = fast.random_action(s, rng, 0)
        fast.step(s, action, rng, 0)
        moves -= 1
    return action


@fast.compiled
def opponent_action(s: Ints, rng: fast.Rng, root: int, tables: Floats, mix: Floats) -> int:
    """The OPPONENTS playout's choice for the seat to act (`opponents_playout`'s first move, on a copy)."""
    return opponents_playout(s.copy(), rng, root, tables, mix, 1)


@fast.compiled
def play_out(s: Ints, rng: fast.Rng, kind: int, tables: Floats, root: int, mix: Floats) -> None:
    """To the end of the match, dealing any round that waits for its cards: uniformly random actions, or
    (OPPONENTS) `opponents_playout` with `root` the searching seat and the logit's `score_tables` `tables`."""
    none = np.empty(0, dtype=np.int64)  # random_playout keeps no log
    while s[_PHASE] != _OVER:
        if s[_PHASE] == _DEAL:
            fast.random_deal(s, rng, 0)
        elif kind == OPPONENTS:
            opponents_playout(s, rng, root, tables, mix)
        else:
            fast.random_playout(s, rng, 0, none)


@fast.compiled
def iterate(worlds: Ints, count: int, root_actions: Ints, exploration: float, tree: Ints, reward: Floats,
            size: Ints, rng: fast.Rng, kind: int, rank_weight: float, scale: float, tables: Floats,
            mix: Floats) -> None:
    """`count` iterations into the tree (node 0 the root, `size[0]` nodes used; room for `count` more),
    iteration i on a copy of worlds[i mod their number]; each node backs up the reward of the seat that chose it.
    `kind`: play_out's; `tables`: the OPPONENTS playout's logit as `score_tables`; `mix`: its shares per seat."""
    s = np.empty(worlds.shape[1], dtype=np.int64)
    legal = np.empty(fast.MAX_ACTIONS, dtype=np.int64)
    flags = np.zeros(ACTION_COUNT, dtype=np.int8)  # 1: legal here, 2: legal and already a child
    path = np.empty(worlds.shape[1], dtype=np.int64)  # far more than a match has decisions in one round
    rewards = np.empty(8, dtype=np.float64)
    for it in range(count):
        s[:] = worlds[it % worlds.shape[0]]
        node = 0
        depth = 0
        while fast.seat_to_act(s) >= 0:
            actor = s[_ACTOR]
            if node == 0:
                n = root_actions.shape[0]
                legal[:n] = root_actions
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
        play_out(s, rng, kind, tables, tree[0, ACTOR], mix)
        seat_rewards(s, rewards, rank_weight, scale)
        back_up(tree, reward, path, depth, rewards)


@cache
def shipped_tables() -> Floats:
    """`score_tables` of the packaged playout weights, computed once."""
    return score_tables(shipped_weights())


class TheLastExpertPolicy(TheLastPolicy):
    """The Last's expert: TheLastPolicy's knowledge, searched by the kernel above (`last_tree`: the tree of
    its latest decision, for tests and the analysis of a search)."""

    last_tree: Tree | None = None
    playout_kind = RANDOM  # at tables smaller than `opponent_players`; from there OPPONENTS
    opponent_players = 4  # the player count (public) from which the others play as players do in playouts
    rank_weight = 0.5  # the reward's share of rank (the rest: the penalty against the others' mean)
    penalty_scale = 8.0
    pool = POOL
    reuse = REUSE
    opponent_rules = 0.4  # OPPONENTS playouts: the other seats' share of `rules` moves
    opponent_learned = 0.4  # and of the logit's (the rest uniform)
    state_worlds = False  # the worlds dealt as states and converted (the path before WorldRows: the same worlds)

    def compiled_choice(self, legal: Sequence[Action], budget: Budget, exploration: float,
                        rng: random.Random) -> tuple[Action, int] | None:
        seat = self.knowledge.seat
        actions, root_actions = root_codes(legal, action_index)
        stream = new_streams(rng, 1)
        kind, tables, mix = self.playout_of_decision(), self.playout_tables(), self.opponent_mix()
        # the rows straight from the dealt cards (the same worlds from the same draws as `sample_world`'s)
        rows: WorldRows | None = None if self.state_worlds else self.knowledge.fast_worlds()

        def run_chunk(tree: Tree, count: int) -> None:
            """`count` iterations on a pool of worlds freshly drawn (up to `pool` of them), taken in turn."""
            pool = min(self.pool, count)
            worlds = np.empty((pool, fast.FIELDS), dtype=np.int64)
            if rows is not None:
                rows.sample(rng, worlds)
            else:
                for w in range(pool):
                    world = self.knowledge.sample_world(rng)
                    assert isinstance(world, TheLastState)
                    worlds[w] = fast.from_state(world)
            iterate(worlds, count, root_actions, exploration, tree.nodes, tree.reward, tree.size, stream,
                    kind, self.rank_weight, self.penalty_scale, tables, mix)

        tree = Tree(seat, CHUNK + 1)
        done = tree.grow(budget, self.pool * self.reuse, run_chunk)
        self.last_tree = tree
        return tree.most_visited(actions), done

    def playout_tables(self) -> Floats:
        """The OPPONENTS playout's logit (the packaged weights) as `score_tables` (unused by uniform playouts)."""
        return shipped_tables() if self.playout_of_decision() == OPPONENTS else NO_TABLES

    def playout_of_decision(self) -> int:
        """The playout kind of this decision: `playout_kind`, turned into OPPONENTS when it is uniform and the
        table has `opponent_players` or more (measured better at 4-5 players, worse at 3: the research log)."""
        if self.playout_kind == RANDOM and self.knowledge.players >= self.opponent_players:
            return OPPONENTS
        return self.playout_kind

    def opponent_mix(self) -> Floats:
        """The OPPONENTS playout's shares per seat (row: `rules`, the logit; the rest uniform): the class's
        settings."""
        mix = np.zeros((SEATS, 2), dtype=np.float64)
        if self.playout_of_decision() == OPPONENTS:
            mix[:, 0] = self.opponent_rules
            mix[:, 1] = self.opponent_learned
        return mix


class UniformPlayoutPolicy(TheLastExpertPolicy):
    """The expert as it was before the opponent-aware playouts (uniform playouts at every table): the
    trainers' player (learn/thelast/), so that the shipped weights still replay, and a baseline to measure."""

    opponent_players = 1 << 30


# numba checks a cached kernel against its own file only: compile afresh when what it inlines changes
forget_stale_kernels(sys.modules[__name__], own_kernels(sys.modules[__name__]),
                     inlined=(fast, fast_rules, playout_policy, fast_tree))
