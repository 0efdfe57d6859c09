"""What every tree of the card games' compiled searches (bots/fast_tree.py) must hold after a search."""

from __future__ import annotations

from ghostgames.bots.fast_tree import ACTION, FIRST, SIBLING, VISITS, Tree


def check_tree_counts(tree: Tree, iterations: int, root_codes: set[int]) -> None:
    """Each of `iterations` went through exactly one root action and the root's children are `root_codes`;
    every node below the root was visited, and no node's children were visited more than the node itself."""
    roots = tree.root_visits()
    assert sum(roots.values()) == iterations
    assert set(roots) == root_codes
    nodes = tree.nodes
    for node in range(1, int(tree.size[0])):
        assert nodes[node, VISITS] >= 1
        child, below = int(nodes[node, FIRST]), 0
        while child >= 0:
            below += int(nodes[child, VISITS])
            assert nodes[child, ACTION] >= 0
            child = int(nodes[child, SIBLING])
        assert below <= nodes[node, VISITS]
