"""The card games' compiled search tree: ISMCTS's tree as arrays, its growth by a budget, its new nodes and backup.

Ghooost! and The Last search with the same algorithm as `ghostgames.bots.ismcts` (one shared tree of action
sequences, UCB with availability counts, one node added per iteration, each seat's reward backed up for the
seat that chose), each in a numba kernel on its own compiled core. What is the game's own stays in
bots/<game>/fast_search.py: how a world is dealt, how the walk gets its legal actions and plays them, the
playout and the reward. What is the algorithm's is here, once:

- `Tree`: one row a node in an integer array (the columns below) and the summed rewards beside it, grown
  between kernel calls; `grow` spends a budget in chunks, the time checked between them; `most_visited`
  is the choice.
- `add_child` and `back_up`, which the kernels call once an iteration (inlined into them).

The walk's step at a node (each legal child gains an availability, then expand an untried action or select
by UCB) stays written out in each kernel: it is taken at every node of every walk, and called as a function
(plain or inlined by numba alike) it cost The Last 8% of its iterations a CPU second at 4 players and Ghooost!
2-3% at 3 (measured when this module was made, 5 December 2026; the commit that wrote the step out again).
Geister's search (bots/geister/fast_search.py) keeps a tree of its own: one array a column, and a learned
prior per node that these games do not have.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.budget import Budget
from ghostgames.jit import compiled_into_callers
from ghostgames.rules.contract import Action

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# Columns of the tree's integer array: the seat that chose the node's action, that action's code, the
# node's first child and next sibling (-1: none), its visits, and how often its action was available.
ACTOR, ACTION, FIRST, SIBLING, VISITS, AVAIL = range(6)
COLUMNS = 6


@compiled_into_callers
def add_child(tree: Ints, reward: Floats, size: Ints, parent: int, actor: int, action: int) -> int:
    """A new node below `parent` (its first child from now on) for `actor` playing `action`; its number.
    The tree must have room for it (`Tree.room_for`)."""
    child = size[0]
    size[0] += 1
    tree[child, ACTOR] = actor
    tree[child, ACTION] = action
    tree[child, FIRST] = -1
    tree[child, SIBLING] = tree[parent, FIRST]
    tree[child, VISITS] = 0
    tree[child, AVAIL] = 1
    reward[child] = 0.0
    tree[parent, FIRST] = child
    return int(child)


@compiled_into_callers
def back_up(tree: Ints, reward: Floats, path: Ints, depth: int, rewards: Floats) -> None:
    """After a playout: each node of the walk (path[:depth]) gains a visit and the reward of the seat that
    chose it (`rewards`, by seat)."""
    for d in range(depth):
        visited = path[d]
        tree[visited, VISITS] += 1
        reward[visited] += rewards[tree[visited, ACTOR]]


def root_codes(legal: Sequence[Action], code_of: Callable[[Any], int]) -> tuple[dict[int, Action], Ints]:
    """The root's actions by their codes (`code_of`: the game's `encoding.action_index`), and the codes in
    ascending order, as the kernels take them."""
    actions = {code_of(action): action for action in legal}
    return actions, np.array(sorted(actions), dtype=np.int64)


class Tree:
    """The search tree's arrays (node 0 the root, `size[0]` nodes in use), grown between kernel calls."""

    def __init__(self, seat: int, capacity: int) -> None:
        self.nodes = np.full((capacity, COLUMNS), -1, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.size = np.ones(1, dtype=np.int64)
        self.nodes[0, ACTOR] = seat
        self.nodes[0, VISITS] = 0

    def room_for(self, more: int) -> None:
        """Make room for `more` nodes beyond those in use (at least doubling, so that growth stays rare)."""
        need = int(self.size[0]) + more
        if need > len(self.reward):
            grown = max(need, 2 * len(self.reward))
            nodes = np.full((grown, COLUMNS), -1, dtype=np.int64)
            nodes[: len(self.reward)] = self.nodes
            reward = np.zeros(grown, dtype=np.float64)
            reward[: len(self.reward)] = self.reward
            self.nodes, self.reward = nodes, reward

    def grow(self, budget: Budget, chunk: int, run_chunk: Callable[[Tree, int], None]) -> int:
        """Spend `budget` in calls `run_chunk(tree, count)` of at most `chunk` iterations each, with room made
        for `count` more nodes before each (one node an iteration at most); the iterations run. A time
        budget is checked between calls: a kernel call cannot look at the clock."""
        clock = budget.clock()
        while (count := clock.take(chunk)) > 0:
            self.room_for(count)
            run_chunk(self, count)
        return clock.done

    def root_visits(self) -> dict[int, int]:
        """Root action code -> visits."""
        out: dict[int, int] = {}
        child = int(self.nodes[0, FIRST])
        while child >= 0:
            out[int(self.nodes[child, ACTION])] = int(self.nodes[child, VISITS])
            child = int(self.nodes[child, SIBLING])
        return out

    def most_visited(self, actions: Mapping[int, Action]) -> Action:
        """The root action (`actions`: by code) visited most; among equals the one of the lowest code."""
        visits = self.root_visits()
        return actions[max(sorted(actions), key=lambda code: visits.get(code, 0))]

