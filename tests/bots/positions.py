"""Positions along seeded random games of every game, and games played out by bots, for the bot property
tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from ghostgames.bots import Bot, SeatKnowledge
from ghostgames.games import get_game
from ghostgames.rules.contract import State

# (game, players, options) the bot tests cover: every game, and more than two players where allowed.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("geister", 2, {"exit": "escape", "max_plies": 300}),
    ("geister", 2, {"exit": "reach"}),
    ("ghooost", 2, {"max_turns": 200}),
    ("ghooost", 4, {"max_turns": 200}),
    ("ghooost", 3, {"max_turns": 200, "replay": "must"}),
    ("thelast", 2, {}),
    ("thelast", 3, {}),
]


def positions(
    game: str, players: int, options: dict[str, Any], seed: int, every: int
) -> Iterator[tuple[State[Any], int]]:
    """(state, seat to act) at every `every`-th action of one random game; the state is the live one."""
    state = get_game(game).new(players, options, seed=seed)
    rng = random.Random(seed)
    step = 0
    while state.to_act():
        seat = min(state.to_act())
        if step % every == 0:
            yield state, seat
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1


def play_to_the_end(state: State[Any], bots: Sequence[Bot], rng: random.Random) -> None:
    """`bots` (one a seat) play `state` out, sharing `rng`; each action must be legal and the game must end."""
    while state.to_act():
        seat = min(state.to_act())
        action = bots[seat].choose(SeatKnowledge(state, seat), rng)
        assert str(action) in state.legal_texts(seat)
        state.apply(seat, action)
    assert state.outcome() is not None
