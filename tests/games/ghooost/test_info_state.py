"""Ghooost!'s information-state tensor (info_state.py): shapes, only what the seat may know, the record kept."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ghostgames.games import get_game
from ghostgames.games.ghooost.info_state import KINDS, RECENT
from ghostgames.games.ghooost.state import GhooostState
from tests import contract_checks as checks

GAME = get_game("ghooost")
CASES = [(2, {"match": False}, 3), (3, {"deck": "original"}, 5), (4, {"max_turns": 150}, 11), (6, {}, 23)]
LIMIT = 600


def positions(players: int, options: dict[str, Any], seed: int) -> Iterator[GhooostState]:
    for state, _seat, _action in checks.random_positions("ghooost", players, options, seed, limit=LIMIT):
        assert isinstance(state, GhooostState)
        yield state


def read_line(text: str) -> tuple[str, list[str], list[str], str | None] | None:
    """A seat's log line in words as (kind, cards put down, cards taken, card turned); None for what is no
    decision (a draw, going out). The words are for people: this reader only checks that the moves the
    information state reads say what the words say, and refuses a line it does not know."""
    if text.startswith("plays "):
        return "play", text[len("plays ") :].split(",")[0].split(), [], None
    if text.startswith("takes the cemetery: "):
        return "take", [], text.split(": ", 1)[1].split(), None
    if text.startswith("turns "):
        card, where = text.split()[1], "gamble" if " from the crypt" in text else "turn"
        if ", cannot play it and takes: " in text:
            return f"{where}_take", [], text.split(": ", 1)[1].split(), card
        return f"{where}_play", [card], [], card
    if text == "passes":
        return "pass", [], [], None
    if text == "ends the turn":
        return "done", [], [], None
    if text.startswith(("draws ", "is out")):
        return None
    raise ValueError(f"a Ghooost! log line this reader does not know: {text!r}")


def logged_decisions(view: dict[str, Any]) -> list[list[Any]]:
    """This round's decisions as the log's words tell them, in the form of the view's moves."""
    log = view["log"]
    start = max(i for i, (who, text) in enumerate(log) if who is None and text.startswith("round "))
    return [[who, *entry] for who, text in log[start + 1 :] if who is not None and (entry := read_line(text))]


def _same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return one.keys() == other.keys() and all(np.array_equal(one[k], other[k]) for k in one)


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_the_arrays_have_the_stated_shapes_dtype_and_range_and_hold_the_observation(
    players: int, options: dict[str, Any], seed: int
) -> None:
    shapes = GAME.info_state_shapes(players)
    for step, state in enumerate(positions(players, options, seed)):
        if step % 5:
            continue
        for seat in range(players):
            arrays = state.encode_info_state(seat)
            assert {k: a.shape for k, a in arrays.items()} == shapes
            assert all(a.dtype == np.float32 and a.min() >= 0.0 and a.max() <= 1.0 for a in arrays.values())
            observation = state.encode(seat)
            assert _same({k: arrays[k] for k in observation}, observation)


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_the_recent_rows_are_the_rounds_last_decisions_in_order(
    players: int, options: dict[str, Any], seed: int
) -> None:
    for step, state in enumerate(positions(players, options, seed)):
        if step % 7:
            continue
        seat = step % players
        decisions = [(who, kind) for who, kind, *_ in logged_decisions(state.view(seat))]
        recent = state.encode_info_state(seat)["recent"]
        expected = list(reversed(decisions))[:RECENT]
        read = [((int(np.argmax(row[:players])) + seat) % players, KINDS[int(np.argmax(row[players : players + 8]))])
                for row in recent[: len(expected)]]
        assert read == expected
        assert not recent[len(expected) :].any()


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_the_tensor_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    players: int, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    for step, state in enumerate(positions(players, options, seed)):
        if step % 11:
            continue
        for seat in range(players):
            assert _same(state.encode_info_state(seat), state.sample_world(seat, rng).encode_info_state(seat))


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_every_decision_changes_every_seats_tensor(players: int, options: dict[str, Any], seed: int) -> None:
    """Each decision is made in the open (its log line), so it is new knowledge for every seat."""
    previous: list[dict[str, Any]] | None = None
    for state in positions(players, options, seed):
        now = [state.encode_info_state(seat) for seat in range(players)]
        if previous is not None:
            assert all(not _same(a, b) for a, b in zip(previous, now, strict=True))
        previous = now


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_every_readers_moves_say_what_the_log_says_and_nothing_more(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """The moves are the public log in values: the same for every reader, spectators included, and each
    one the decision its log line tells in words (so they hold no secret the log does not)."""
    for step, state in enumerate(positions(players, options, seed)):
        if step % 3:
            continue
        views = [state.view(seat) for seat in [None, *range(players)]]
        assert all(view["moves"] == views[0]["moves"] for view in views)
        assert views[0]["moves"] == logged_decisions(views[0])

