"""Every game's JSON action reader takes only the JSON types its forms name: a boolean is never a number
(Python counts `True` as the int 1) nor a square or a card, and a field holds one value, not several."""

from __future__ import annotations

from typing import Any

import pytest

from ghostgames.games import get_game
from ghostgames.rules import IllegalAction

WRONG_TYPES = [
    ("ghooost", {"type": "play", "value": True, "count": 1}),
    ("ghooost", {"type": "play", "value": 1, "count": True}),
    ("ghooost", {"type": "play", "value": 7, "count": 2, "copies": True}),
    ("ghooost", {"type": "play", "kitty": True}),
    ("ghooost", {"type": "play", "kitty": 1.0}),
    ("ghooost", {"type": "play", "kitty": 1, "value": 7, "count": 1}),
    ("geister", {"type": "setup", "good": [True, True, True, True]}),
    ("geister", {"type": "setup", "good": ["b1 c1", "d1", "e1"]}),
    ("geister", {"type": "setup", "good": "b1 c1 d1 e1"}),
    ("geister", {"type": "move", "from": True, "dir": "n"}),
    ("geister", {"type": "move", "from": "b2 n", "dir": ""}),
    ("thelast", {"type": "play", "card": True}),
    ("thelast", {"type": "swap", "card": 1}),
]


@pytest.mark.parametrize(("game", "data"), WRONG_TYPES)
def test_review_12_a_json_action_with_a_boolean_or_a_wrong_type_is_refused(game: str, data: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as err:
        get_game(game).action_from_json(data)
    assert '"type"' in err.value.reason  # the error shows the forms that would work


@pytest.mark.parametrize(
    ("game", "data", "text"),
    [
        ("ghooost", {"type": "play", "value": 7, "count": 2, "copies": 1}, "play 7 7 X"),
        ("ghooost", {"type": "play", "kitty": 2}, "play K K"),
        ("ghooost", {"type": "done"}, "done"),
        ("geister", {"type": "setup", "good": ["b1", "c1", "d1", "e1"]}, "setup b1 c1 d1 e1"),
        ("geister", {"type": "move", "from": "b2", "dir": "n"}, "b2 n"),
        ("thelast", {"type": "play", "card": "R12"}, "play R12"),
    ],
)
def test_the_documented_json_forms_still_read(game: str, data: dict[str, Any], text: str) -> None:
    rules = get_game(game)
    assert rules.action_from_json(data) == rules.parse_action(text)
