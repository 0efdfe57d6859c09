"""The `>>>` examples in the contract's docstrings (and the games' printing) run, and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ghostgames.rules.contract",
    "ghostgames.rules.reasons",
    "ghostgames.rules.registry",
    "ghostgames.games.geister.state",
    "ghostgames.games.ghooost.state",
    "ghostgames.games.thelast.state",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no example"


def test_the_contract_shows_every_main_call() -> None:
    """Each part of the contract a newcomer uses first has an example of its own."""
    from ghostgames.rules.contract import Game, Outcome, State

    for method in (Game.new, Game.parse_action, State.apply, State.legal_actions, State.view, State.outcome,
                   State.clone, Outcome):
        assert ">>> " in (method.__doc__ or ""), method.__qualname__
