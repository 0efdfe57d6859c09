"""The card games' compiled search tree (bots/fast_tree.py): new nodes link in as their parent's first child,
the backup credits each node's chooser, the budget is spent in whole chunks with room made before each, and
the choice is the most visited root action, the lowest code among equals."""

from __future__ import annotations

import numpy as np

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
from ghostgames.games.thelast.encoding import action_at, action_index


def test_a_new_node_becomes_its_parents_first_child_and_the_backup_credits_whoever_chose_it() -> None:
    tree = Tree(seat=1, capacity=8)
    first = add_child(tree.nodes, tree.reward, tree.size, 0, 1, 5)
    second = add_child(tree.nodes, tree.reward, tree.size, 0, 1, 7)
    below = add_child(tree.nodes, tree.reward, tree.size, first, 2, 3)
    nodes = tree.nodes
    assert (first, second, below) == (1, 2, 3) and int(tree.size[0]) == 4
    assert nodes[0, FIRST] == second and nodes[second, SIBLING] == first and nodes[first, SIBLING] == -1
    assert nodes[first, FIRST] == below and nodes[below, FIRST] == -1
    assert [int(nodes[below, c]) for c in (ACTOR, ACTION, VISITS, AVAIL)] == [2, 3, 0, 1]
    back_up(nodes, tree.reward, np.array([first, below, 0], dtype=np.int64), 2, np.array([0.1, 0.7, 0.2]))
    assert [int(nodes[n, VISITS]) for n in range(4)] == [0, 1, 0, 1]  # the root and path[2:] untouched
    assert tree.reward.tolist()[:4] == [0.0, 0.7, 0.0, 0.2]
    assert tree.root_visits() == {7: 0, 5: 1}


def test_an_iteration_budget_is_spent_in_whole_chunks_with_room_made_before_each() -> None:
    tree = Tree(seat=0, capacity=4)
    counts: list[int] = []

    def run_chunk(grown: Tree, count: int) -> None:
        assert len(grown.reward) >= int(grown.size[0]) + count  # one new node an iteration fits
        for _ in range(count):
            add_child(grown.nodes, grown.reward, grown.size, 0, 0, len(counts))
        counts.append(count)

    assert tree.grow(Budget(iterations=700), 256, run_chunk) == 700
    assert counts == [256, 256, 188]
    assert int(tree.size[0]) == 701
    chunk_of, child = [], int(tree.nodes[0, FIRST])  # the root's children, newest first, all kept by each growth
    while child >= 0:
        chunk_of.append(int(tree.nodes[child, ACTION]))
        child = int(tree.nodes[child, SIBLING])
    assert chunk_of == [2] * 188 + [1] * 256 + [0] * 256


def test_the_choice_is_the_most_visited_root_action_the_lowest_code_among_equals() -> None:
    legal = [action_at(code) for code in (9, 4, 6)]
    actions, codes = root_codes(legal, action_index)
    assert codes.tolist() == [4, 6, 9] and actions == {9: legal[0], 4: legal[1], 6: legal[2]}
    tree = Tree(seat=0, capacity=8)
    for code, visits in ((9, 3), (4, 3), (6, 1)):
        child = add_child(tree.nodes, tree.reward, tree.size, 0, 0, code)
        tree.nodes[child, VISITS] = visits
    assert tree.most_visited(actions) == legal[1]
    tree.nodes[3, VISITS] = 4  # code 6
    assert tree.most_visited(actions) == legal[2]
