"""Rating updates checked against openskill itself: 2, 4 and 6 players, with ties, one game and a series."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ghostgames.storage.ratings import Skill, rate_game


def outcome(ranks: list[int]) -> dict[str, object]:
    return {"results": [{"result": "win" if r == 1 else "loss", "rank": r, "score": 0.0} for r in ranks],
            "reason": "test"}


CASES = {
    "2 players, a win": [1, 2],
    "2 players, a draw": [1, 1],
    "4 players, two tied second": [1, 2, 2, 4],
    "6 players, ties at the top and bottom": [1, 1, 3, 4, 5, 5],
}


@pytest.mark.parametrize("ranks", list(CASES.values()), ids=list(CASES))
def test_one_game_moves_ratings_as_the_library_does(ranks: list[int]) -> None:
    keys = [f"p{i}" for i in range(len(ranks))]
    priors = {key: Skill(20.0 + 2 * i, 5.0 + 0.5 * i) for i, key in enumerate(keys)}
    changes = rate_game(priors, keys, outcome(ranks))

    library = PlackettLuce()  # a separate instance: the defaults, as the library ships them
    expected = library.rate([[library.rating(mu=priors[k].mu, sigma=priors[k].sigma)] for k in keys], ranks=ranks)
    assert [c.player for c in changes] == keys
    for change, team in zip(changes, expected, strict=True):
        assert change.before == priors[change.player]
        assert change.after.mu == pytest.approx(team[0].mu, abs=1e-12)
        assert change.after.sigma == pytest.approx(team[0].sigma, abs=1e-12)
        assert change.after.sigma < change.before.sigma  # every game makes the estimate surer


@pytest.mark.parametrize("players", [2, 4, 6])
def test_tied_equals_stay_equal_and_the_winner_gains(players: int) -> None:
    ranks = [1, *([2] * (players - 1))]
    keys = [f"p{i}" for i in range(players)]
    changes = rate_game({}, keys, outcome(ranks))
    new = Skill.new()
    assert changes[0].after.mu > new.mu and changes[0].win
    losers = {(c.after.mu, c.after.sigma) for c in changes[1:]}
    assert len(losers) == 1 and changes[1].after.mu < new.mu


def test_a_series_of_games_is_the_library_applied_in_turn() -> None:
    library = PlackettLuce()
    players = {k: library.rating() for k in ("ann", "bob", "cy", "dee")}
    skills: dict[str, Skill] = {}
    games = [(["ann", "bob"], [1, 2]), (["bob", "cy", "dee", "ann"], [1, 1, 3, 4]),
             (["dee", "ann"], [1, 1]), (["cy", "ann", "bob"], [2, 1, 3])]
    for keys, ranks in games:
        for change in rate_game(skills, keys, outcome(ranks)):
            skills[change.player] = change.after
        rated = library.rate([[players[k]] for k in keys], ranks=ranks)
        players.update({k: team[0] for k, team in zip(keys, rated, strict=True)})
    for key, rating in players.items():
        assert skills[key].mu == pytest.approx(rating.mu, abs=1e-12)
        assert skills[key].sigma == pytest.approx(rating.sigma, abs=1e-12)


def test_a_bot_level_seated_twice_keeps_its_rating_and_the_others_are_rated() -> None:
    keys = ["ann", "bot:hard", "bot:hard", "bob"]
    changes = rate_game({}, keys, outcome([1, 2, 3, 4]))
    assert [c.player for c in changes] == ["ann", "bob"]
    assert changes[0].after.mu > 25 > changes[1].after.mu


def test_the_shown_rating_starts_at_the_base_and_rises_with_certainty() -> None:
    assert Skill.new().shown()["rating"] == 1000
    assert Skill(25.0, 4.0).shown()["rating"] > Skill.new().shown()["rating"]
    assert Skill(25.0, 4.0).shown()["uncertainty"] < Skill.new().shown()["uncertainty"]
