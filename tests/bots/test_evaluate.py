"""`PolicyBot` (a function over arrays as a bot) and `ghostgames.evaluate` (a bot against opponents)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import ghostgames
from ghostgames.bots import PolicyBot, RandomBot, SeatKnowledge
from ghostgames.games import get_game
from ghostgames.rules.contract import IllegalAction
from ghostgames.tournament import evaluate, wilson_interval


def first_legal(obs: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
    return int(np.flatnonzero(mask)[0])


def test_the_package_top_exports_the_research_entry_points() -> None:
    assert ghostgames.evaluate is evaluate
    assert ghostgames.PolicyBot is PolicyBot
    with pytest.raises(AttributeError):
        ghostgames.no_such_thing  # noqa: B018


@pytest.mark.parametrize("game", ["geister", "ghooost", "thelast"])
def test_a_policy_bot_plays_the_index_its_function_picks(game: str) -> None:
    state = get_game(game).new(2, seed=4)
    seen: list[tuple[set[str], np.ndarray[Any, Any]]] = []

    def policy(obs: dict[str, Any], mask: np.ndarray[Any, Any]) -> int:
        seen.append((set(obs), mask))
        return first_legal(obs, mask)

    bot = PolicyBot(policy)
    seat = min(state.to_act())
    knowledge = SeatKnowledge(state, seat)
    action = bot.choose(knowledge, random.Random(1))
    assert action == knowledge.action_at(first_legal({}, knowledge.legal_mask()))
    assert action in knowledge.legal_actions()
    names, mask = seen[0]
    assert names == set(knowledge.encode()) and mask.dtype == np.bool_


def test_a_policy_taking_three_arguments_gets_the_bots_seeded_generator() -> None:
    def sample(obs: dict[str, Any], mask: np.ndarray[Any, Any], rng: random.Random) -> int:
        return int(rng.choice(list(np.flatnonzero(mask))))

    first = evaluate(PolicyBot(sample, "sampler"), "random", games=4, seed=9)
    again = evaluate(PolicyBot(sample, "sampler"), "random", games=4, seed=9)
    def games(result: ghostgames.tournament.Evaluation) -> list[tuple[Any, ...]]:
        return [(g.seed, g.seats, g.results, g.actions) for g in result.results["random"]]

    assert games(first) == games(again) and first.bot == "sampler"
    assert len({g.actions for g in first.results["random"]}) > 1  # the sampler did not play one fixed line


def test_a_policy_that_breaks_the_mask_or_returns_no_index_is_refused() -> None:
    state = get_game("geister").new(2, seed=4)
    knowledge = SeatKnowledge(state, min(state.to_act()))
    illegal = int(np.flatnonzero(~knowledge.legal_mask())[0])
    with pytest.raises(IllegalAction, match=f"index {illegal}"):
        PolicyBot(lambda obs, mask: illegal).choose(knowledge, random.Random(1))
    with pytest.raises(IllegalAction):
        PolicyBot(lambda obs, mask: -1).choose(knowledge, random.Random(1))
    with pytest.raises(TypeError, match="not an action index"):
        PolicyBot(lambda obs, mask: "up").choose(knowledge, random.Random(1))
    with pytest.raises(TypeError, match="wraps a function"):
        PolicyBot(3)  # type: ignore[arg-type]


def test_evaluate_takes_names_factories_and_instances_alternates_seats_and_gives_wilson_intervals() -> None:
    result = evaluate(PolicyBot(first_legal, "first"), ["random", RandomBot, RandomBot()], games=6, seed=2)
    assert result.bot == "first" and result.game == "geister"
    assert list(result.rows) == ["random", "random #2", "random #3"]
    for name, stats in result.rows.items():
        games = result.results[name]
        assert [g.seats.index("first") for g in games] == [0, 1, 0, 1, 0, 1]
        assert stats.seats == 6 and stats.wins + stats.draws + stats.losses == 6
        assert (stats.win_low, stats.win_high) == wilson_interval(stats.wins, 6)
    # the same seed deals the same games to every opponent: the first game's seed is shared
    assert len({games[0].seed for games in result.results.values()}) == 1
    assert "first on Geister" in str(result) and "win rate (95% CI)" in str(result)


def test_evaluating_a_bot_against_itself_keeps_the_two_apart_and_unknown_names_fail_first() -> None:
    result = evaluate("random", "random", games=2, seed=0, game="thelast")
    assert list(result.rows) == ["random (opponent)"]
    assert {name for g in result.results["random (opponent)"] for name in g.seats} == {"random", "random (opponent)"}
    with pytest.raises(KeyError, match="no bot"):
        evaluate("random", ["nosuchbot"], games=1)
    with pytest.raises(ValueError, match="at least one opponent"):
        evaluate("random", [], games=1)


def test_evaluate_with_three_players_gives_the_opponent_every_other_seat() -> None:
    result = evaluate("rules", "random", games=3, seed=1, game="thelast", players=3)
    assert [g.seats.count("rules") for g in result.results["random"]] == [1, 1, 1]
    assert sorted(g.seats.index("rules") for g in result.results["random"]) == [0, 1, 2]
