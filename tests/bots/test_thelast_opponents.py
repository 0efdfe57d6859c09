"""Telling `rules` players from the round's public history (bots/thelast/opponents.py): `rules` players are
never contradicted, players who throw random cards are, and only the view is read."""

from __future__ import annotations

import random

import pytest

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.thelast.opponents import records
from ghostgames.games import get_game


def _play(players: int, seed: int, bots: list[str], stop: int) -> list[dict[int, tuple[int, int]]]:
    """Each seat's (checked, broken) from seat 0's view after every action until `stop` actions."""
    state = get_game("thelast").new(players, {}, seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(stop):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        state.apply(seat, get_bot(bots[seat]).choose(SeatKnowledge(state, seat), rng))
        if state.outcome() is None:
            seen.append({p: (r.checked, r.broken) for p, r in records(state.view(0)).items()})
    return seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rules_players_are_checked_and_never_contradicted_random_ones_are(players: int) -> None:
    bots = ["rules", "random"] * 3
    checked_rules = broken_random = 0
    for seed in range(4):
        seen = _play(players, seed, bots[:players], 400)
        for snapshot in seen:
            for seat, (_, broken) in snapshot.items():
                if bots[seat] == "rules":
                    assert broken == 0
        last = seen[-1]
        checked_rules += sum(last[s][0] for s in range(players) if bots[s] == "rules")
        broken_random += sum(last[s][1] for s in range(players) if bots[s] == "random")
    assert checked_rules >= 8 and broken_random >= 4


def test_the_records_read_only_what_the_seat_sees() -> None:
    state = get_game("thelast").new(4, {}, seed=9)
    rng = random.Random(9)
    rules = get_bot("rules")
    compared = 0
    while state.outcome() is None:
        seat = min(state.to_act())
        twin = state.sample_world(0, random.Random(compared))
        assert twin.view(0) == state.view(0)
        assert records(twin.view(0)) == records(state.view(0))
        state.apply(seat, rules.choose(SeatKnowledge(state, seat), rng))
        compared += 1
    assert compared >= 20
