"""Every bot plays complete games of every game with legal actions only; levels and budgets behave."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ghostgames.bots import BOTS, LEVELS, SeatKnowledge, choose_action, get_bot
from ghostgames.bots.budget import Budget
from ghostgames.games import get_game
from tests.bots.positions import TABLES, play_to_the_end

LINEUP = ["rules", "ismcts:5", "expert:5", "random"]
# Short Ghooost! rounds keep this test fast; the round then ends as a draw at the limit.
SHORT = [(g, p, {**o, "max_turns": 40} if g == "ghooost" else o) for g, p, o in TABLES]


@pytest.mark.parametrize(("game", "players", "options"), SHORT, ids=lambda v: str(v))
def test_every_bot_finishes_a_game_with_legal_actions_only(game: str, players: int, options: dict[str, Any]) -> None:
    state = get_game(game).new(players, options, seed=3)
    play_to_the_end(state, [get_bot(LINEUP[s % len(LINEUP)]) for s in range(players)], random.Random(3))


def test_levels_name_a_bot_and_a_thinking_time_of_at_most_a_second() -> None:
    assert set(LEVELS) == {"easy", "medium", "hard"}
    for name, (bot, seconds) in LEVELS.items():
        assert bot in BOTS
        assert seconds is None or 0 < seconds <= 1.0
        assert get_bot(name).name == get_bot(bot).name


def test_a_bot_name_may_carry_an_iteration_budget() -> None:
    bot = get_bot("ismcts:37")
    assert getattr(bot, "budget", None) == Budget(iterations=37)
    with pytest.raises(KeyError):
        get_bot("rules:5")
    with pytest.raises(KeyError):
        get_bot("ismcts:0")


def test_a_time_budget_stops_the_search() -> None:
    bot = get_bot("ismcts", seconds=0.05)
    state = get_game("geister").new(2, {"exit": "escape"}, seed=1)
    for seat in (0, 1):
        state.apply(seat, state.legal_actions(seat)[0])
    seat = min(state.to_act())
    action = bot.choose(SeatKnowledge(state, seat), random.Random(1))
    assert str(action) in state.legal_texts(seat)
    assert bot.last_iterations >= 1  # type: ignore[attr-defined]


def test_taking_iterations_in_chunks_grants_what_asking_one_by_one_would() -> None:
    one_by_one, chunked = Budget(iterations=300).clock(), Budget(iterations=300).clock()
    for most in (128, 128, 128, 128):
        asked = 0
        while asked < most and one_by_one.more():
            asked += 1
        assert chunked.take(most) == asked
    assert chunked.done == one_by_one.done == 300
    timed = Budget(seconds=0.001).clock()
    assert timed.take(64) == 64  # a first chunk always, so that a move is never chosen blind
    while timed.take(64):
        pass
    assert timed.take(64) == 0 and timed.done % 64 == 0


def test_choose_action_works_from_json_and_is_reproducible() -> None:
    state = get_game("thelast").new(3, {}, seed=8)
    seat = min(state.to_act())
    first = choose_action(state.to_json(), seat, "ismcts:12", 5)
    assert first == choose_action(state.to_json(), seat, "ismcts:12", 5)
    assert first in state.legal_texts(seat)


def test_the_geister_expert_takes_a_winning_escape_at_once() -> None:
    from tests.games.geister.positions import escape_at_hand

    state = escape_at_hand()
    action = get_bot("expert:50").choose(SeatKnowledge(state, 0), random.Random(0))
    assert str(action) in ("a6 n", "a6 w")
