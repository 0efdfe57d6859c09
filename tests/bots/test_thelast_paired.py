"""benchmarks/thelast_paired.py: the paired difference of two bots is the mean of their per-game differences,
a bot with two seats counts with the mean of its seats, and a game without one of them is left out; and
benchmarks/thelast_same_deals.py pairs one seat's bots across two tables (the last test)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def benchmark(name: str) -> ModuleType:
    """The script benchmarks/<name>.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def paired() -> ModuleType:
    return benchmark("thelast_paired")


def _game(seats: list[str], scores: list[float]) -> dict[str, object]:
    return {"seats": seats, "results": [{"score": s, "rank": 0, "result": "loss"} for s in scores]}


def test_paired_differences_average_per_game_and_seats_of_one_bot(tmp_path: Path) -> None:
    games = [
        _game(["a", "b", "c"], [2.0, 10.0, 5.0]),
        _game(["b", "c", "a"], [4.0, 1.0, 6.0]),
        _game(["a", "b", "a"], [1.0, 3.0, 5.0]),  # a sits twice: its mean, 3.0
        _game(["c", "b", "c"], [0.0, 7.0, 2.0]),  # no a: left out of a's pairs
    ]
    file = tmp_path / "games.json"
    file.write_text(json.dumps({"games": games}))
    out = paired().figures(json.loads(file.read_text())["games"])
    by_pair = {(p["first"], p["second"]): p for p in out["paired"]}
    ab = by_pair[("a", "b")]
    assert ab["games"] == 3
    assert ab["difference"][0] == pytest.approx(((2 - 10) + (6 - 4) + (3 - 3)) / 3)
    assert ab["difference"][1] < ab["difference"][0] < ab["difference"][2]
    assert by_pair[("b", "c")]["games"] == 3  # the third game has no c
    assert out["bots"]["a"]["seat_games"] == 4
    assert out["bots"]["a"]["penalty"][0] == pytest.approx((2 + 6 + 1 + 5) / 4)


def test_by_deal_every_interval_is_over_deals_and_a_bot_counts_with_its_mean_on_each() -> None:
    games = [  # deal 1 in three rotations, deal 2 in three rotations
        {**_game(["a", "b", "c"], [2.0, 10.0, 5.0]), "seed": 1},
        {**_game(["c", "a", "b"], [4.0, 1.0, 6.0]), "seed": 1},
        {**_game(["b", "c", "a"], [7.0, 0.0, 3.0]), "seed": 1},
        {**_game(["a", "b", "c"], [9.0, 2.0, 4.0]), "seed": 2},
        {**_game(["c", "a", "b"], [1.0, 5.0, 8.0]), "seed": 2},
        {**_game(["b", "c", "a"], [3.0, 6.0, 4.0]), "seed": 2},
    ]
    out = paired().figures(games, by_deal=True)
    assert out["units"] == 2 and out["bots"]["a"]["seat_games"] == 6
    a = [(2 + 1 + 3) / 3, (9 + 5 + 4) / 3]
    b = [(10 + 6 + 7) / 3, (2 + 8 + 3) / 3]
    assert out["bots"]["a"]["penalty"][0] == pytest.approx(sum(a) / 2)
    assert out["bots"]["a"]["penalty"][2] - out["bots"]["a"]["penalty"][0] == pytest.approx(1.96 * abs(a[0] - a[1]) / 2)
    ab = next(p for p in out["paired"] if (p["first"], p["second"]) == ("a", "b"))
    assert ab["games"] == 2
    assert ab["difference"][0] == pytest.approx((a[0] - b[0] + a[1] - b[1]) / 2)


def test_same_deals_pairs_a_renamed_bot_by_deal_and_refuses_other_seats() -> None:
    """thelast_same_deals.py: another bot in the same seats (`--after-bot`) pairs game by game, or by deal."""
    before = [{**_game(["x", "b"], [4.0, 1.0]), "seed": 5}, {**_game(["b", "x"], [2.0, 8.0]), "seed": 5},
              {**_game(["x", "b"], [0.0, 3.0]), "seed": 6}, {**_game(["b", "x"], [6.0, 2.0]), "seed": 6}]
    after = [{**_game(["y", "b"], [1.0, 1.0]), "seed": 5}, {**_game(["b", "y"], [2.0, 5.0]), "seed": 5},
             {**_game(["y", "b"], [3.0, 3.0]), "seed": 6}, {**_game(["b", "y"], [6.0, 1.0]), "seed": 6}]
    module = benchmark("thelast_same_deals")
    assert module.differences(before, after, "x", "y") == [-3.0, -3.0, 3.0, -1.0]
    assert module.differences(before, after, "x", "y", by_deal=True) == [-3.0, 1.0]
    moved = [{**after[0], "seats": ["b", "y"]}, *after[1:]]
    with pytest.raises(SystemExit):
        module.differences(before, moved, "x", "y")


def test_orders_pair_by_deal_within_each_order_and_test_the_target_against_the_rest() -> None:
    """benchmarks/thelast_orders.py: a game's order is read from its seats, only deals played in every order
    count, and the order test is the target order's difference minus its mean over the others, per deal."""
    from benchmarks.thelast_orders import analyse, order_of

    assert order_of(["c", "a", "b"], "a") == ("a", "b", "c")
    games = [  # order a,b,c: deals 1 and 2; order a,c,b: deals 1, 2 and 3 (3 is not in every order)
        {**_game(["a", "b", "c"], [2.0, 6.0, 5.0]), "seed": 1},   # a - b = -4
        {**_game(["c", "a", "b"], [4.0, 3.0, 3.0]), "seed": 1},   # a - b = 0
        {**_game(["a", "b", "c"], [8.0, 2.0, 1.0]), "seed": 2},   # +6
        {**_game(["b", "c", "a"], [1.0, 1.0, 3.0]), "seed": 2},   # +2
        {**_game(["a", "c", "b"], [1.0, 0.0, 4.0]), "seed": 1},   # -3
        {**_game(["b", "a", "c"], [5.0, 5.0, 2.0]), "seed": 1},   # 0
        {**_game(["a", "c", "b"], [3.0, 9.0, 3.0]), "seed": 2},   # 0
        {**_game(["c", "b", "a"], [0.0, 7.0, 1.0]), "seed": 2},   # -6
        {**_game(["a", "c", "b"], [9.0, 0.0, 0.0]), "seed": 3},
    ]
    out = analyse(games, "a", "b", ("a", "b", "c"))
    assert out["deals"] == [1, 2]
    rows = {tuple(r["order"]): r for r in out["orders"]}
    assert rows[("a", "b", "c")]["difference"][0] == pytest.approx((-2 + 4) / 2)
    assert rows[("a", "c", "b")]["difference"][0] == pytest.approx((-1.5 + -3) / 2)
    assert rows[("a", "c", "b")]["games"] == 4
    assert out["order_test"][0] == pytest.approx(((-2 - -1.5) + (4 - -3)) / 2)
    assert out["balanced"]["units"] == 2 and out["balanced"]["games"] == 8
    after = {(r["bot"], r["after"]): r for r in out["by_successor"]}
    # a sits right before b in order a,b,c: deal 1 scores 2 and 3, deal 2 scores 8 and 3
    assert after[("a", "b")]["penalty"][0] == pytest.approx(((2 + 3) / 2 + (8 + 3) / 2) / 2)
    assert after[("a", "b")]["seat_games"] == 4
    with pytest.raises(SystemExit):
        analyse(games, "a", "b", ("a", "b", "d"))


def test_orders_of_a_cycle_run_pair_each_order_over_its_own_deals() -> None:
    """benchmarks/thelast_orders.py --cycle: each deal in one order; an order's difference is over its own deals,
    the table over every deal, and a file with a deal in two orders is refused (it is not a cycle run)."""
    from benchmarks.thelast_orders import analyse_cycle

    games = [  # order a,b,c: deals 1 and 2; order a,c,b: deal 3
        {**_game(["a", "b", "c"], [2.0, 6.0, 5.0]), "seed": 1},   # a - b = -4
        {**_game(["c", "a", "b"], [4.0, 3.0, 3.0]), "seed": 1},   # 0
        {**_game(["b", "c", "a"], [1.0, 1.0, 3.0]), "seed": 2},   # +2
        {**_game(["a", "c", "b"], [1.0, 0.0, 4.0]), "seed": 3},   # -3
        {**_game(["b", "a", "c"], [5.0, 5.0, 2.0]), "seed": 3},   # 0
    ]
    out = analyse_cycle(games, "a", "b")
    rows = {tuple(r["order"]): r for r in out["orders"]}
    assert rows[("a", "b", "c")]["difference"][0] == pytest.approx((-2 + 2) / 2)
    assert rows[("a", "b", "c")]["deals"] == 2 and rows[("a", "b", "c")]["games"] == 3
    assert rows[("a", "c", "b")]["difference"][0] == pytest.approx(-1.5)
    assert out["deals"] == [1, 2, 3]
    assert out["balanced"]["units"] == 3 and out["balanced"]["games"] == 5
    with pytest.raises(SystemExit, match="more than one order"):
        analyse_cycle([*games, {**_game(["a", "c", "b"], [0.0, 0.0, 0.0]), "seed": 1}], "a", "b")
    with pytest.raises(SystemExit, match="more than one order"):  # in two of three orders, not in all
        analyse_cycle([*games, {**_game(["a", "c", "b"], [0.0, 0.0, 0.0]), "seed": 1},
                       {**_game(["a", "b", "d"], [0.0, 0.0, 0.0]), "seed": 4}], "a", "b")
