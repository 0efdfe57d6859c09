"""Bots and Ghooost!'s option `replay`: under `may` a double or triple's extra turn can be ended with
`done`; the rules bot takes it only for a card it would shed anyway, and the search weighs `done` like any
other action."""

from __future__ import annotations

import random

import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.ghooost.search import GhooostPolicy
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.games.ghooost import DONE
from tests.games.ghooost.positions import build


def test_review_9_the_rules_bot_ends_an_extra_turn_it_has_no_ordinary_card_for() -> None:
    # after 9 9 the hand holds a 1, a jack, Kitty and a low 5: only reserve cards may follow, so `done`
    state = build(["9 9 1 11", "6 6 6 2"], cemetery="7", crypt="2 2 3 3 4 K 5")
    state.apply(0, "play 9 9")
    assert "done" in state.legal_texts(0) and {"play 1", "play 11", "play K"} <= set(state.legal_texts(0))
    assert get_bot("rules").choose(SeatKnowledge(state, 0), random.Random(1)) == DONE


def test_review_9_the_rules_bot_plays_again_when_it_has_a_card_to_shed() -> None:
    state = build(["9 9 1 11", "6 6 6 2"], cemetery="7", crypt="2 2 3 3 4 13 10")
    state.apply(0, "play 9 9")  # draws 10 and 13
    action = get_bot("rules").choose(SeatKnowledge(state, 0), random.Random(1))
    assert str(action) == "play 10"


@pytest.mark.parametrize("bot_name", ["ismcts:60", "expert:60"])
def test_review_9_the_search_bots_weigh_done_and_choose_a_legal_action(bot_name: str) -> None:
    state = build(["9 9 1 11", "6 6 6 2", "5 13 13 14"], cemetery="7", crypt="2 2 3 3 4 K 5")
    state.apply(0, "play 9 9")
    knowledge = SeatKnowledge(state, 0)
    bot = get_bot(bot_name)
    assert isinstance(bot, IsmctsBot)
    root = bot.search(0, GhooostPolicy(knowledge), random.Random(5))
    assert DONE in root.children and root.children[DONE].visits > 0
    assert str(bot.choose(knowledge, random.Random(5))) in state.legal_texts(0)


def test_review_9_a_playout_ends_an_optional_extra_turn_rather_than_gamble_when_it_plays_no_card() -> None:
    state = build(["9 9 5 6", "6 6 6 2"], cemetery="7", crypt="2 2 3 3 4 4 4")
    state.apply(0, "play 9 9")  # draws 4 4: nothing may follow the 9s
    assert state.legal_texts(0) == ["take", "gamble", "done"]
    policy = GhooostPolicy(SeatKnowledge(state, 0))
    assert {str(policy.rollout_action(state, 0, random.Random(seed))) for seed in range(20)} == {"done"}
