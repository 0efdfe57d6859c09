"""Property checks that every game must pass through the contract. Each game's test module calls
these with its own name, player counts and options; hypothesis picks the seeds."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from ghostgames.games import get_game
from ghostgames.rules import GameRecord, IllegalAction, State
from ghostgames.rules.reasons import REASONS


def random_positions(
    game_name: str, players: int, options: Mapping[str, Any], seed: int, limit: int = 2000
) -> Iterator[tuple[State[Any], int, Any]]:
    """Yield (state, seat, chosen legal action) along one random game, before each action is applied."""
    game = get_game(game_name)
    state = game.new(players, dict(options), seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        acting = sorted(state.to_act())
        if not acting:
            return
        seat = rng.choice(acting)
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = rng.choice(legal)
        yield state, seat, action
        state.apply(seat, action)


def play_out(game_name: str, players: int, options: Mapping[str, Any], seed: int) -> tuple[State[Any], GameRecord]:
    game = get_game(game_name)
    state = game.new(players, dict(options), seed=seed)
    record = GameRecord(game.name, players, dict(options), seed)
    rng = random.Random(seed)
    while state.to_act():
        seat = rng.choice(sorted(state.to_act()))
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, str(action))
        record.actions.append((seat, str(action)))
    return state, record


def check_legal_never_raises_and_ends(game_name: str, players: int, options: Mapping[str, Any], seed: int) -> None:
    state, _ = play_out(game_name, players, options, seed)
    assert state.outcome() is not None
    assert state.to_act() == frozenset()
    assert len(state.outcome().results) == players  # type: ignore[union-attr]


def check_illegal_raises_and_changes_nothing(
    game_name: str, players: int, options: Mapping[str, Any], seed: int
) -> None:
    """Actions legal somewhere in the game but not here must raise, with a reason, and change nothing."""
    seen: list[Any] = []
    tried = 0
    for state, seat, action in random_positions(game_name, players, options, seed, limit=400):
        seen.append(action)
        legal = set(map(str, state.legal_actions(seat)))
        before = json.dumps(state.to_json(), sort_keys=True)
        for candidate in seen[-30:]:
            for who in range(players):
                if who in state.to_act() and str(candidate) in set(map(str, state.legal_actions(who))):
                    continue
                with pytest.raises(IllegalAction) as err:
                    state.apply(who, candidate)
                assert err.value.reason
                assert err.value.code in REASONS["refusal"], err.value.reason  # a declared refusal code
                tried += 1
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert set(map(str, state.legal_actions(seat))) == legal
    assert tried > 0


def check_apply_legal_is_apply_without_the_checks(
    game_name: str, players: int, options: Mapping[str, Any], seed: int
) -> None:
    """`apply_legal` (no checks, for callers that pick from the legal actions) makes the same events and
    the same state as `apply` at every step of a game."""
    twin = get_game(game_name).new(players, dict(options), seed=seed)
    steps = 0
    for state, seat, action in random_positions(game_name, players, options, seed, limit=600):
        assert json.dumps(twin.to_json(), sort_keys=True) == json.dumps(state.to_json(), sort_keys=True)
        assert twin.apply_legal(seat, action) == state.clone().apply(seat, action)
        steps += 1
    assert steps > 0


def check_json_round_trip(game_name: str, players: int, options: Mapping[str, Any], seed: int) -> None:
    game = get_game(game_name)
    for state, _seat, _action in random_positions(game_name, players, options, seed, limit=300):
        data = json.loads(json.dumps(state.to_json()))
        again = game.load(data)
        assert again.to_json() == state.to_json()
        for seat in [None, *range(players)]:
            assert again.view(seat) == state.view(seat)


def check_record_replays(game_name: str, players: int, options: Mapping[str, Any], seed: int) -> None:
    state, record = play_out(game_name, players, options, seed)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert again.to_json() == state.to_json()
    assert again.outcome() == state.outcome()


def check_action_forms_round_trip(game_name: str, players: int, options: Mapping[str, Any], seed: int) -> None:
    game = get_game(game_name)
    count = 0
    for state, seat, _action in random_positions(game_name, players, options, seed, limit=200):
        for action in state.legal_actions(seat):
            assert game.parse_action(str(action)) == action
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            count += 1
    assert count > 0


def check_information_set_invariance(
    game_name: str, players: int, options: Mapping[str, Any], seed: int, worlds: int = 3
) -> None:
    """A seat's view and legal actions are the same in every world it cannot tell from the real one; a
    spectator's view in every world of the public sampler (seat None), and in those dealt after watching a
    move (`revealed_by`), the move is legal too."""
    rng = random.Random(seed)
    for state, mover, action in random_positions(game_name, players, options, seed, limit=300):
        for seat in range(players):
            view = state.view(seat)
            legal = list(map(str, state.legal_actions(seat)))
            for _ in range(worlds):
                world = state.sample_world(seat, rng)
                assert world.view(seat) == view
                assert list(map(str, world.legal_actions(seat))) == legal
        public = state.view(None)
        revealed = state.revealed_by(mover, action)
        assert revealed is None or revealed.view(None) == public
        for _ in range(worlds):
            assert state.sample_world(None, rng).view(None) == public
            if revealed is not None:
                world = revealed.sample_world(None, rng)
                assert world.view(None) == public
                assert action in world.legal_actions(mover)
