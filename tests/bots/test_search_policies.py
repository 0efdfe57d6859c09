"""Each game's folder under bots/ declares the policies its search bots use (bots/search_bots.py finds them)."""

from __future__ import annotations

from ghostgames.bots.policy import SearchPolicy
from ghostgames.bots.search_bots import KINDS, declared_policies, policy_of
from ghostgames.games import available


def test_every_game_declares_a_plain_policy_that_loads_and_searches() -> None:
    declared = declared_policies()
    assert set(declared) == set(available())
    for game, kinds in declared.items():
        assert "plain" in kinds and set(kinds) <= set(KINDS), game
        for kind in kinds:
            policy = policy_of(kind, game)
            assert issubclass(policy, SearchPolicy) and policy is not SearchPolicy, (game, kind)


def test_a_kind_a_game_does_not_declare_is_its_plain_policy() -> None:
    assert policy_of("expert-v1", "ghooost") is policy_of("plain", "ghooost")
    assert policy_of("expert", "geister") is not policy_of("plain", "geister")
    assert policy_of("plain", "a game with no bots folder") is SearchPolicy
