"""The Last's smaller decks and shorter hands: validated like every option, played by the same rules, and
never standard for ratings."""

from __future__ import annotations

import random

import pytest

from ghostgames.games import get_game
from ghostgames.rules.options import OptionError
from ghostgames.tables import fair_play

GAME = get_game("thelast")
SMALL = {"colours": 2, "values": 4, "hand": 2}


def test_bad_sizes_are_refused_naming_what_works() -> None:
    with pytest.raises(OptionError, match=r"'colours' takes a whole number from 2 to 4"):
        GAME.options(2, {"colours": 5})
    with pytest.raises(OptionError, match="at most hand 2"):
        GAME.options(2, {"colours": 2, "values": 4, "hand": 3})
    with pytest.raises(OptionError, match="at most hand 6"):
        GAME.options(2, {"colours": 2})  # the rules' 12 cards a hand do not fit in 24 cards
    with pytest.raises(OptionError, match="at most hand 4"):
        GAME.options(4, {"colours": 2, "values": 10, "hand": 5})  # 4 hands and the points pile


def test_a_small_deck_deals_only_its_cards_and_plays_out() -> None:
    for players in (2, 3):
        for seed in range(20):
            state = GAME.new(players, SMALL, seed)
            rng = random.Random(seed)
            dealt = [c for hand in state.hands for c in hand] + state.points + [state.points_card]
            assert len(dealt) == 8 and all(c % 12 < 4 and c // 12 < 2 for c in dealt)
            while not state.is_over():
                seat = min(state.to_act())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                state.sample_world(seat, rng).check()
            again = GAME.load(state.to_json())
            assert again.outcome() == state.outcome()


def test_small_decks_are_not_standard() -> None:
    assert fair_play.settings_problems("thelast", 2, {}) == []
    assert fair_play.settings_problems("thelast", 2, {"colours": 4, "values": 12, "hand": None}) == []
    problems = fair_play.settings_problems("thelast", 2, SMALL)
    assert [p.args["option"] for p in problems] == ["colours", "values", "hand"]
