"""Ratings are a fold over rated records: the live ratings (folded as each record is stored) equal a
rebuild from nothing, on SQLite and on PostgreSQL; guests play unrated; each change names its record."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from ghostgames.bench.records import random_record
from ghostgames.storage import Repository
from ghostgames.storage.ratings import bot_key
from tests.infra.services import Postgres

PEOPLE = ["Ann", "bob", "Cy", "dee", "Eve", "fay"]
GAMES = [("geister", 2), ("ghooost", 2), ("ghooost", 4), ("ghooost", 6), ("thelast", 3), ("thelast", 5)]


def fill(repo: Repository, games: int, seed: int) -> list[int]:
    """Accounts for PEOPLE and a guest, then `games` finished games among them and bots."""
    for name in PEOPLE:
        repo.create_account(name, "hash", timedelta(days=1))
    repo.claim_guest("guesty", timedelta(days=1))
    rng = random.Random(seed)
    ids = []
    for index in range(games):
        game, players = GAMES[index % len(GAMES)]
        record, outcome = random_record(game, players, seed * 1000 + index)
        seated = rng.sample([*PEOPLE, "guesty", "bot:hard", "bot:easy"], players)
        names = [f"{k[4:]} bot" if k.startswith("bot:") else k for k in seated]
        keys = [k if k.startswith("bot:") else k.lower() for k in seated]
        ids.append(repo.save_record(record, "table", names, outcome.to_json(), seat_keys=keys, rated=True))
    return ids


def check_live_equals_rebuilt(repo: Repository) -> None:
    live = repo.ratings_snapshot()
    assert live["ratings"] and live["changes"]
    folded = repo.rebuild_ratings()
    assert folded > 0
    assert repo.ratings_snapshot() == live


def test_live_ratings_equal_a_rebuild_on_sqlite(tmp_path: Path) -> None:
    repo = Repository(str(tmp_path / "r.db"))
    ids = fill(repo, 60, seed=3)
    check_live_equals_rebuilt(repo)
    check_profiles(repo, ids)
    repo.close()


def check_profiles(repo: Repository, ids: list[int]) -> None:
    """Profiles, pages of games and leaderboards agree with the records stored."""
    seated = {name.lower(): 0 for name in PEOPLE}
    for record_id in ids:
        stored = repo.get_record(record_id)
        assert stored is not None and stored.seat_keys is not None
        for key in stored.seat_keys:
            if key in seated:
                seated[key] += 1
    for key, count in seated.items():
        profile = repo.profile(key)
        assert profile is not None and sum(profile["games"].values()) == count
        listed, before = [], None
        while True:
            page = repo.player_games(key, before=before, limit=7)
            assert page is not None
            listed += [item["id"] for item in page["items"]]
            if page["next"] is None:
                break
            before = page["next"]
        assert len(listed) == count and listed == sorted(listed, reverse=True)
    assert repo.profile("guesty") is None  # guests have no profile
    board = repo.leaderboard("ghooost", limit=3)
    places = [row["place"] for row in board["items"]]
    assert places == [1, 2, 3] and board["next"] == 3
    ordinals = [row["mu"] - 3 * row["sigma"] for row in board["items"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_live_ratings_equal_a_rebuild_on_postgres(postgres: Postgres) -> None:
    repo = Repository(postgres.fresh_database("ratings_fold"))
    ids = fill(repo, 40, seed=4)
    check_live_equals_rebuilt(repo)
    check_profiles(repo, ids)
    repo.close()


def test_a_guest_makes_a_game_unrated_and_every_change_names_its_record(tmp_path: Path) -> None:
    repo = Repository(str(tmp_path / "r.db"))
    repo.create_account("Ann", "hash", timedelta(days=1))
    repo.claim_guest("guesty", timedelta(days=1))
    record, outcome = random_record("geister", 2, 11)
    with_guest = repo.save_record(record, "table", ["Ann", "guesty"], outcome.to_json(),
                                  seat_keys=["ann", "guesty"], rated=True)
    unrated_table = repo.save_record(record, "table", ["Ann", "hard bot"], outcome.to_json(),
                                     seat_keys=["ann", bot_key("hard")], rated=False)
    assert repo.ratings_snapshot() == {"ratings": [], "changes": [], "verdicts": []}
    rated = repo.save_record(record, "table", ["Ann", "hard bot"], outcome.to_json(),
                             seat_keys=["ann", bot_key("hard")], rated=True)
    snapshot = repo.ratings_snapshot()
    assert {c[0] for c in snapshot["changes"]} == {rated}
    assert {r[1] for r in snapshot["ratings"]} == {"ann", "bot:hard"}
    assert with_guest != unrated_table != rated
    repo.close()
