"""The analysis makes sense in every game (slow): `expert` against `random`, seats swapped every game,
both seats analysed at a small budget. benchmarks/analysis_sense.py prints the same figures at a larger size."""

from __future__ import annotations

from typing import Any

import pytest

from ghostgames.analysis.sense import measure


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options", "games", "budget"), [
    ("geister", {"exit": "escape", "max_plies": 300}, 4, 300),
    ("ghooost", {}, 2, 300),
    ("thelast", {}, 4, 1000),  # few decisions of The Last lose much: a smaller noise shows more of them
])
def test_random_is_called_wrong_far_more_often_than_expert_and_the_last_estimate_agrees_with_the_result(
        game: str, options: dict[str, Any], games: int, budget: int) -> None:
    sense = measure(game, 2, options, range(games), ["expert:200", "random"], budget)
    assert sense.judged["random"] >= 40 and sense.judged["expert:200"] >= 40
    assert sense.bad["random"] >= 5
    assert sense.rate("random") > 2 * sense.rate("expert:200")
    assert sense.last_judged >= games  # most games are decided
    assert sense.last_agrees >= 0.75 * sense.last_judged
