"""The per-seat model of the opponent-aware playouts (bots/thelast/seat_models.py): without moves it is the
prior, it recognises `rules` players and players who throw random cards from the round's public moves, and it
reads only the view (the expert's no-peek test with it: test_thelast_playout_policy.py)."""

from __future__ import annotations

import random

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.thelast.fast_search import TheLastExpertPolicy, shipped_tables
from ghostgames.bots.thelast.seat_models import posterior
from ghostgames.games import get_game

PRIOR = (0.4, 0.4, 0.2)


def _final_shares(seed: int, bots: list[str]) -> dict[int, tuple[float, float, float]]:
    """Seat 0's posterior before the last action of one round."""
    state = get_game("thelast").new(len(bots), {}, seed=seed)
    rng = random.Random(seed)
    shares = posterior(state.view(0), PRIOR, shipped_tables())
    while state.outcome() is None:
        shares = posterior(state.view(0), PRIOR, shipped_tables())
        seat = min(state.to_act())
        state.apply(seat, get_bot(bots[seat]).choose(SeatKnowledge(state, seat), rng))
    return shares


def test_without_moves_every_seat_keeps_the_prior() -> None:
    state = get_game("thelast").new(4, {}, seed=1)
    shares = posterior(state.view(0), PRIOR, shipped_tables())
    assert all(abs(a - b) < 1e-12 for row in shares.values() for a, b in zip(row, PRIOR, strict=True))


def test_rules_players_are_taken_for_rules_and_random_players_are_not() -> None:
    bots = ["rules", "rules", "random", "random"]
    rules_share = {"rules": [], "random": []}  # type: dict[str, list[float]]
    for seed in range(6):
        shares = _final_shares(seed, bots)
        for seat in (1, 2, 3):
            rules_share[bots[seat]].append(shares[seat][0])
    assert min(rules_share["rules"]) > 0.5 and sum(rules_share["rules"]) / 6 > 0.8
    # a random player may play like `rules` for a whole short round; most do not
    assert sum(rules_share["random"]) / 12 < 0.15 and sorted(rules_share["random"])[6] < 0.1


def test_the_expert_plays_the_posterior_as_its_playout_mix() -> None:
    class Bayes(TheLastExpertPolicy):
        bayes_mix = True

    state = get_game("thelast").new(4, {}, seed=2)
    rng = random.Random(2)
    rules = get_bot("rules")
    for _ in range(24):
        seat = min(state.to_act())
        state.apply(seat, rules.choose(SeatKnowledge(state, seat), rng))
    seat = min(state.to_act())
    mix = Bayes(SeatKnowledge(state, seat)).opponent_mix()
    shares = posterior(state.view(seat), PRIOR, shipped_tables())
    for other in range(4):
        expected = (0.4, 0.4) if other == seat else shares[other][:2]
        assert tuple(mix[other]) == expected
    assert any(mix[other][0] > 0.8 for other in range(4) if other != seat)
