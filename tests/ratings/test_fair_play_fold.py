"""The fair-play rules in the fold: records stored over three days (one pair again and again, games with too
few own moves, nonstandard settings, games against a bot, records without own moves) are judged live as
they are stored, and `rebuild` judges them the same, verdicts included, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ghostgames.bench.records import random_record
from ghostgames.storage import Repository
from ghostgames.tables.fair_play import NONSTANDARD, PAIR, PAIR_LIMIT, PAIR_WINDOW, TOO_FEW_MOVES
from tests.infra.services import Postgres

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def store_three_days(repo: Repository) -> list[int]:
    for name in ("Ann", "Bob", "Cy"):
        repo.create_account(name, "hash", timedelta(days=1))
    rng = random.Random(5)
    when, ids = START, []
    for index in range(70):
        when += timedelta(minutes=rng.choice([5, 20, 90, 240]))
        kind = index % 7
        seats = [("ann", "Ann"), ("bob", "Bob")] if kind < 4 else [("ann", "Ann"), ("bot:hard", "hard bot")] \
            if kind < 6 else [("cy", "Cy"), ("bob", "Bob")]
        rng.shuffle(seats)
        options = {"max_plies": 40} if index % 11 == 3 else None  # a short cap: not standard
        record, outcome = random_record("geister", 2, 500 + index, options)
        moves = [sum(1 for s, _ in record.actions if s == seat) for seat in (0, 1)]
        own: list[int] | None = moves
        if index % 9 == 4:
            own = [0, moves[1]]  # seat 0 never moved itself (a resignation, or a bot took it over at once)
        elif index % 13 == 6:
            own = None  # stored before own moves were kept: every move of the seat counts as its own
        jitter = timedelta(seconds=rng.choice([0, 0, -30]))  # another worker's clock: time order may differ
        ids.append(repo.save_record(record, "table", [n for _, n in seats], outcome.to_json(),
                                    seat_keys=[k for k, _ in seats], rated=True, own_moves=own,
                                    created_at=when + jitter))
    return ids


def check(repo: Repository) -> None:
    ids = store_three_days(repo)
    live = repo.ratings_snapshot()
    stored = [repo.get_record(i) for i in ids]
    codes = {code for s in stored if s is not None and s.fair_play
             for code in (p["code"] for p in s.fair_play["problems"])}
    assert codes == {TOO_FEW_MOVES, NONSTANDARD, PAIR}  # every rule had work to do

    counted_by_pair: dict[tuple[str, ...], list[datetime]] = {}
    for s in stored:
        assert s is not None and s.seat_keys is not None and s.fair_play is not None
        problems = {p["code"] for p in s.fair_play["problems"]}
        if s.record.options.get("max_plies") == 40:
            assert NONSTANDARD in problems
        if s.fair_play["counts"]:
            counted_by_pair.setdefault(tuple(sorted(s.seat_keys)), []).append(s.created_at)
    for times in counted_by_pair.values():  # never more than the limit in any window
        for t in times:
            assert sum(1 for u in times if t - PAIR_WINDOW < u <= t) <= PAIR_LIMIT
    assert len(counted_by_pair[("ann", "bob")]) > PAIR_LIMIT  # the days after the first counted too

    # a bot's rating moved by exactly the games that passed
    bot_games = len(counted_by_pair[("ann", "bot:hard")])
    assert [r[6] for r in live["ratings"] if r[1] == "bot:hard"] == [bot_games]
    assert {c[0] for c in live["changes"] if c[1] == "bot:hard"} == {
        s.id for s in stored if s is not None and s.fair_play and s.fair_play["counts"]
        and "bot:hard" in (s.seat_keys or [])}

    folded = repo.rebuild_ratings()
    assert folded == sum(len(times) for times in counted_by_pair.values())
    assert repo.ratings_snapshot() == live


def test_the_rules_judge_live_as_a_rebuild_does_on_sqlite(tmp_path: Path) -> None:
    repo = Repository(str(tmp_path / "f.db"))
    check(repo)
    repo.close()


def test_the_rules_judge_live_as_a_rebuild_does_on_postgres(postgres: Postgres) -> None:
    repo = Repository(postgres.fresh_database("fair_play_fold"))
    check(repo)
    repo.close()
