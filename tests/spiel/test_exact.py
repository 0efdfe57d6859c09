"""Small variants for exact methods: the tree written out for OpenSpiel's C++ CFR and exploitability, and our
bots as tabular policies over it."""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ghostgames[spiel]')")

from ghostgames.bots import get_bot  # noqa: E402
from ghostgames.spiel import register  # noqa: E402
from ghostgames.spiel.botpolicy import bot_table, tabular, uniform_table  # noqa: E402
from ghostgames.spiel.exact import ExactGame, exact_game  # noqa: E402

register()

TINY = "ghostgames_thelast(colours=2,values=2,hand=1)"  # 4 cards, hands of 1: every play is forced
SMALLEST = "ghostgames_thelast(colours=2,values=4,hand=2)"  # 8 cards, hands of 2: the smallest with choices


def assert_legal(exact: ExactGame, table: dict[str, list[tuple[int, float]]]) -> None:
    """A distribution over the set's legal actions at every information set, and nothing else."""
    assert set(table) == set(exact.infosets)
    for key, pairs in table.items():
        legal = range(len(exact.infosets[key].actions))
        assert all(action in legal and probability >= 0 for action, probability in pairs), key
        assert math.isclose(sum(p for _, p in pairs), 1.0), key


def test_the_tree_is_the_adapters_game() -> None:
    """Same chance, same information sets: every deal's chance sums to 1, and walking the EFG game meets
    exactly the information sets we kept, each with its number of legal actions."""
    exact = exact_game(pyspiel.load_game(TINY))
    seen: Counter[str] = Counter()
    terminals = []

    def walk(state: pyspiel.State) -> None:
        if state.is_terminal():
            terminals.append(state.returns())
            return
        if state.is_chance_node():
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        else:
            key = state.information_state_string()
            seen[key] += 1
            assert len(state.legal_actions()) == len(exact.infosets[key].actions)
        for action in state.legal_actions():
            walk(state.child(action))

    walk(exact.game.new_initial_state())
    assert set(seen) == set(exact.infosets)
    # 4! deals of the 4 cards (hands of 1 need no order) times 2 leaders, one play each
    assert len(terminals) == 48
    assert all(sum(r) == 0 for r in terminals)


def test_bot_policies_are_legal_distributions() -> None:
    exact = exact_game(pyspiel.load_game(TINY))
    for table in (uniform_table(exact), bot_table(exact, get_bot("rules")),
                  bot_table(exact, get_bot("ismcts:10"), samples=3)):
        assert_legal(exact, table)
        assert pyspiel.exploitability(exact.game, tabular(table)) == pytest.approx(0.0)  # nothing to choose


@pytest.mark.slow
def test_cfr_beats_uniform_and_bots_are_legal_on_the_smallest_variant() -> None:
    """Hands of 2: CFR's average policy is far less exploitable than uniform play after a few iterations,
    and is the less exploitable the more it runs; the rules bot's policy is a legal distribution."""
    exact = exact_game(pyspiel.load_game(SMALLEST))
    uniform = pyspiel.exploitability(exact.game, tabular(uniform_table(exact)))
    solver = pyspiel.CFRSolver(exact.game)
    values = []
    for _ in range(3):
        for _ in range(5):
            solver.evaluate_and_update_policy()
        values.append(pyspiel.exploitability(exact.game, solver.average_policy()))
    assert values[0] < uniform / 2
    assert all(later < earlier for earlier, later in pairwise(values))
    rules = bot_table(exact, get_bot("rules"))
    assert_legal(exact, rules)
    assert 0 < pyspiel.exploitability(exact.game, tabular(rules)) <= 1


def test_sorted_hands_are_dealt_with_the_chances_of_a_shuffle() -> None:
    """Drawing a hand lowest first gives every hand the chance a shuffled deck gives it: 1 / C(8, 2) for
    the first seat's 2 cards out of 8."""
    game = pyspiel.load_game(SMALLEST)
    chances: Counter[tuple[int, int]] = Counter()
    state = game.new_initial_state()
    for first, p in state.chance_outcomes():
        after = state.child(first)
        for second, q in after.chance_outcomes():
            chances[(first, second)] += p * q
    assert len(chances) == math.comb(8, 2)
    assert all(first < second for first, second in chances)
    assert all(math.isclose(c, 1 / math.comb(8, 2)) for c in chances.values())
