"""Option values typed in chat: on/off belongs to on/off options only."""

from __future__ import annotations

import pytest

from ghostgames.games import get_game
from ghostgames.rules.options import OptionError


@pytest.mark.parametrize(("game", "players", "name"), [
    ("ghooost", 3, "max_turns"), ("ghooost", 3, "max_rounds"), ("geister", 2, "max_plies"), ("thelast", 3, "rounds"),
])
@pytest.mark.parametrize("value", ["on", "off", True, False])
def test_review_12_on_or_off_is_no_number_for_a_numeric_option(game: str, players: int, name: str,
                                                                value: object) -> None:
    with pytest.raises(OptionError, match=rf"option '{name}' takes a whole number from \d+ to \d+"):
        get_game(game).new(players=players, options={name: value}, seed=1)


@pytest.mark.parametrize(("game", "players", "name"), [("ghooost", 3, "match"), ("geister", 2, "disclose")])
def test_on_and_off_still_set_an_on_off_option(game: str, players: int, name: str) -> None:
    assert getattr(get_game(game).new(players=players, options={name: "on"}, seed=1).options, name) is True
    assert getattr(get_game(game).new(players=players, options={name: "off"}, seed=1).options, name) is False
