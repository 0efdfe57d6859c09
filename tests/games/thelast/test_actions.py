"""The Last's text and JSON forms of actions, and the help text that documents them."""

from __future__ import annotations

import pytest

from ghostgames.games import get_game
from ghostgames.games.thelast import KEEP, Play, Swap
from ghostgames.games.thelast.cards import COLOURS, card, parse_card
from ghostgames.rules import IllegalAction, parse_json_action

GAME = get_game("thelast")


@pytest.mark.parametrize("text", ["play R12", "PLAY r12", "play r 12", "r12", "play red 12", "play ▲12", " play  R12 "])
def test_play_forms_all_read_as_the_same_action(text: str) -> None:
    action = GAME.parse_action(text)
    assert isinstance(action, Play) and action.card == card(0, 12)
    assert str(action) == "play R12"


@pytest.mark.parametrize(("text", "canonical"), [("keep", "keep"), ("KEEP", "keep"), ("swap b3", "swap B3"),
                                                 ("Swap blue 3", "swap B3"), ("swap ●3", "swap B3")])
def test_keep_and_swap_forms(text: str, canonical: str) -> None:
    assert str(GAME.parse_action(text)) == canonical


def test_every_card_has_a_colour_name_letter_and_symbol_that_read_back() -> None:
    assert len({c.letter for c in COLOURS}) == len({c.symbol for c in COLOURS}) == len({c.name for c in COLOURS}) == 4
    for colour_index, colour in enumerate(COLOURS):
        for value in range(1, 13):
            for word in (colour.letter, colour.name, colour.symbol):
                assert parse_card(f"{word}{value}") == card(colour_index, value)


@pytest.mark.parametrize("text", ["", "play", "play X3", "play R13", "play R0", "swap", "keep R3", "jump"])
def test_unreadable_actions_raise_and_name_the_forms(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(text)
    assert "play R12" in err.value.reason


def test_json_forms_read_back() -> None:
    assert parse_json_action(GAME, {"type": "play", "card": "Y7"}) == GAME.parse_action("play Y7")
    assert parse_json_action(GAME, {"type": "keep"}) is KEEP
    swap = parse_json_action(GAME, {"type": "swap", "card": "g1"})
    assert isinstance(swap, Swap) and swap.to_json() == {"type": "swap", "card": "G1"}
    with pytest.raises(IllegalAction):
        GAME.action_from_json({"type": "pass"})


def test_help_text_documents_the_forms_and_colours() -> None:
    text = GAME.help_text()
    for form in ("play R12", "keep", "swap B3"):
        assert form in text
    for colour in COLOURS:
        assert colour.name in text and colour.symbol in text


def test_options_default_to_one_round_and_reject_bad_values() -> None:
    standard_deck = {"colours": 4, "values": 12, "hand": None}
    assert GAME.options(3).model_dump() == {"rounds": 1, **standard_deck}
    assert GAME.options(4, {"rounds": "3"}).model_dump() == {"rounds": 3, **standard_deck}
    with pytest.raises(ValueError, match="rounds"):
        GAME.options(3, {"rounds": 0})
    with pytest.raises(ValueError, match="2 to 5"):
        GAME.new(6)


@pytest.mark.parametrize("rounds", [0, "0", 101, -3])
def test_review_12_a_rounds_value_out_of_range_names_the_range(rounds: object) -> None:
    with pytest.raises(ValueError) as err:
        GAME.options(3, {"rounds": rounds})
    assert str(err.value) == f"option 'rounds' takes a whole number from 1 to 100, not {rounds!r}"
