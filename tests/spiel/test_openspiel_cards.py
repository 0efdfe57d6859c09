"""Our Ghooost! playout as OpenSpiel's evaluator, and the match runner of benchmarks/openspiel_cards.py: both on
a few real decisions of OpenSpiel's own ISMCTSBot."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ghostgames[spiel]')")

from open_spiel.python.algorithms import ismcts  # noqa: E402

from ghostgames.bots.budget import Budget  # noqa: E402
from ghostgames.spiel import register  # noqa: E402
from ghostgames.spiel.evaluator import GhooostPlayoutEvaluator  # noqa: E402
from ghostgames.tournament.seating import cyclic_orders  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_cards", ROOT / "benchmarks" / "openspiel_cards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_cards"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def dealt(name: str, seed: int) -> pyspiel.State:
    register()
    state = pyspiel.load_game(name).new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_the_playout_evaluator_scores_on_the_round_returns_scale_and_leaves_the_state_alone(players: int) -> None:
    state = dealt(f"ghostgames_ghooost(players={players},max_turns=60)", players)
    before = str(state)
    evaluator = GhooostPlayoutEvaluator(seed=1)
    values = evaluator.evaluate(state)
    assert str(state) == before
    assert evaluator.playouts == 1
    assert len(values) == players
    # the one loser pays 1, the others get 1 / (players - 1): every expectation lies between
    assert all(-1.0 <= v <= 1.0 / (players - 1) + 1e-9 for v in values)
    assert sum(p for _, p in evaluator.prior(state)) == pytest.approx(1.0)


def test_openspiels_ismcts_with_our_evaluator_plays_legal_moves() -> None:
    state = dealt("ghostgames_ghooost(players=3,max_turns=60)", 5)
    evaluator = GhooostPlayoutEvaluator(seed=2)
    bot = ismcts.ISMCTSBot(state.get_game(), evaluator, 2.0, 6, random_state=np.random.RandomState(3))
    asked = 0
    for _ in range(4):
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        if len(legal) > 1:  # with one legal action the bot answers without searching
            asked += 1
        state.apply_action(action)
    assert evaluator.playouts >= asked > 0


def test_the_match_runner_plays_whole_games_with_openspiel_searching_in_its_seats() -> None:
    bench = benchmark()
    game = bench.load("ghooost", 2, 30)
    clock = bench.Clock(seconds=None, simulations=3)
    clock.history.append((3, 0.01))  # our bots follow OpenSpiel's pace; no warm-up needed for a test
    rotations = bench.rotations(("ismcts:8", bench.OPENSPIEL))
    games = [bench.play(game, rotations[g], g, 40 + g, clock, "playout", 2.0) for g in range(2)]
    assert [g["seats"] for g in games] == [["ismcts:8", "openspiel"], ["openspiel", "ismcts:8"]]
    for g in games:
        seat = g["seats"].index(bench.OPENSPIEL)
        assert g["openspiel_simulations"][seat] and set(g["openspiel_simulations"][seat]) == {3}
        assert g["evaluator_playouts"][str(seat + 1)] > 0
        assert sorted(r["rank"] for r in g["results"]) in ([1, 2], [1, 1])
    rows = bench.summarize(["ismcts:8", bench.OPENSPIEL], games)
    assert [r["seat_games"] for r in rows] == [2, 2]


def test_the_match_runner_fits_openspiels_simulations_to_the_time_a_move() -> None:
    bench = benchmark()
    game = bench.load("thelast", 3, 0)
    clock = bench.Clock(seconds=0.02, simulations=None)
    bench.warm_up(game, clock, "random", 2.0, seed=7, moves=2)
    assert len(clock.history) == 2
    result = bench.play(game, bench.rotations(("rules", "ismcts:8", bench.OPENSPIEL))[1], 1, 9, clock, "random", 2.0)
    seat = result["seats"].index(bench.OPENSPIEL)
    assert result["openspiel_simulations"][seat]  # it searched on its own turns
    assert len(clock.history) == 2 + len(result["openspiel_simulations"][seat])
    assert sorted(r["rank"] for r in result["results"])[0] == 1


def test_a_duplicate_run_gives_every_bot_every_hand_of_a_deal_and_its_interval_counts_deals() -> None:
    bench = benchmark()
    game = bench.load("thelast", 3, 0)
    clock = bench.Clock(seconds=0.01, simulations=None)
    bots = ["rules", "ismcts:8", "random"]
    seats = bench.rotations(tuple(bots))
    games = [bench.play(game, seats[g % 3], g, 500 + g // 3, clock, "random", 2.0) for g in range(6)]
    for deal in (games[:3], games[3:]):
        assert len({g["seed"] for g in deal}) == 1
        for bot in bots:  # every seat of the deal, once
            assert sorted(g["seats"].index(bot) for g in deal) == [0, 1, 2]
    rows = bench.summarize(bots, games, by_deal=True)
    for row in rows:
        scores = [g["results"][g["seats"].index(row["bot"])]["score"] for g in games]
        per_deal = [sum(scores[:3]) / 3, sum(scores[3:]) / 3]
        mean = sum(per_deal) / 2
        half = bench.Z95 * abs(per_deal[0] - per_deal[1]) / 2  # two deals: sd |a - b| / sqrt 2, over sqrt 2
        assert row["score"][0] == pytest.approx(mean)
        assert row["score"][2] - row["score"][0] == pytest.approx(half)


def test_seatings_rotate_one_order_cycle_the_orders_by_deal_or_give_every_seating_once() -> None:
    bench = benchmark()
    bots = ["e", "i", "r", "o"]
    named = [["e", "i", "r", "o"], ["o", "e", "i", "r"], ["r", "o", "e", "i"], ["i", "r", "o", "e"]]
    assert bench.deal_seatings(bots, "rotations", 7) == named
    orders = cyclic_orders(bots)
    assert len(orders) == 6 and orders[0] == tuple(bots)
    cycled = [bench.deal_seatings(bots, "cycle", seed) for seed in range(100, 106)]
    assert sorted(tuple(c[0]) for c in cycled) == sorted(orders)  # six seeds in a row: each order once
    assert all(c == bench.rotations(tuple(c[0])) for c in cycled)
    every = bench.deal_seatings(bots, "every", 0)
    assert len(every) == 24 and sorted(map(tuple, every)) == sorted(itertools.permutations(bots))
    assert every[:4] == named  # the order named comes first, as a plain duplicate run plays it
    for seatings in (every, [s for c in cycled for s in c]):
        for bot in bots:  # each bot sits right before each other bot equally often
            after = [s[(s.index(bot) + 1) % 4] for s in seatings]
            assert sorted(after.count(b) for b in bots if b != bot) == [8, 8, 8]
    alike = ["e", "x", "y", "o", "o"]  # two seats of one bot: 12 distinct orders, 60 distinct seatings
    assert len(cyclic_orders(alike)) == 12
    assert len({tuple(s) for s in bench.deal_seatings(alike, "every", 0)}) == 60


def test_a_plugin_bot_thinks_the_clocks_seconds_and_a_budgeted_name_its_iterations(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # before, every name with a colon was read as an iteration budget, and a plug-in played its default iterations
    monkeypatch.syspath_prepend(str(ROOT))  # `benchmarks.thelast_variants` is imported by its path
    bench = benchmark()
    clock = bench.Clock(seconds=0.03, simulations=None)
    assert bench.our_bot("benchmarks.thelast_variants:expert_states", clock).budget == Budget(seconds=0.03)
    assert bench.our_bot("ismcts", clock).budget == Budget(seconds=0.03)
    assert bench.our_bot("ismcts:40", clock).budget == Budget(iterations=40)
