"""What profiles and leaderboards read: a player's ratings and their history, a player's games (paged,
newest first), a game's leaderboard (paged). Reads only; the fold in storage/ratings.py writes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from ghostgames.storage.models import RatingChangeRow, RatingRow, RecordPlayerRow, RecordRow, UserRow
from ghostgames.storage.ratings import Skill, is_bot, key_label
from ghostgames.tables.fair_play import Verdict

HISTORY_POINTS = 60  # the chart on a profile shows the last this many rated games per game
MAX_PAGE = 100


def _iso(moment: datetime) -> str:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def rating_json(row: RatingRow) -> dict[str, Any]:
    skill = Skill(row.mu, row.sigma)
    return {"game": row.game, "player": row.player, "name": row.name, **skill.shown(),
            "mu": round(row.mu, 4), "sigma": round(row.sigma, 4), "games": row.games, "wins": row.wins}


def fair_play_json(rated: bool, verdict: dict[str, Any] | None) -> dict[str, Any]:
    """How a game stands for ratings, beside its `rated` (true only when it moved ratings): `aborted` when a
    seat made too few of its own moves, and `unrated_because`, the fair-play rules it failed (code, args and
    words); empty when it counted or was never rated (an unrated table, or a guest seated)."""
    judged = Verdict.from_json(verdict) if rated else None
    problems = [] if judged is None else [p.to_json() for p in judged.problems]
    return {"aborted": bool(judged and judged.aborted), "unrated_because": problems}


def player_since(session: Session, key: str) -> tuple[str, datetime | None] | None:
    """(shown name, account created) for an account or a bot level that has played; None otherwise.
    Guests have no profile: their name is free for someone else once their session ends."""
    if is_bot(key):
        seen = session.scalar(select(RecordPlayerRow.record_id).where(RecordPlayerRow.player == key).limit(1))
        return None if seen is None else (key_label(key), None)
    user = session.scalar(select(UserRow).where(UserRow.name_key == key))
    if user is None or user.guest:
        return None
    return user.name, user.created_at


def _games_filter(session: Session, key: str, since: datetime | None) -> Any:
    """A player's games: rows of record_players, from when the account was made (an account may take
    over an expired guest's name, never that guest's games). Written on record_players alone, so its
    (player, record_id) index answers it however many records there are."""
    condition = RecordPlayerRow.player == key
    if since is not None:
        first = session.scalar(select(func.min(RecordRow.id)).where(RecordRow.created_at >= since))
        condition = and_(condition, RecordPlayerRow.record_id >= (first if first is not None else 2**62))
    return condition


def profile(session: Session, key: str) -> dict[str, Any] | None:
    found = player_since(session, key)
    if found is None:
        return None
    name, since = found
    ratings = []
    for row in session.scalars(select(RatingRow).where(RatingRow.player == key).order_by(RatingRow.game)):
        history = session.execute(
            select(RatingChangeRow.record_id, RatingChangeRow.mu, RatingChangeRow.sigma)
            .where(RatingChangeRow.player == key, RatingChangeRow.game == row.game)
            .order_by(RatingChangeRow.record_id.desc()).limit(HISTORY_POINTS)
        ).all()
        points = [{"record": int(r), **Skill(mu, sigma).shown()} for r, mu, sigma in reversed(history)]
        ratings.append({**rating_json(row), "history": points})
    played = session.execute(
        select(RecordPlayerRow.game, func.count()).where(_games_filter(session, key, since))
        .group_by(RecordPlayerRow.game)
    ).all()
    return {"name": name, "player": key, "bot": is_bot(key), "since": None if since is None else _iso(since),
            "games": {str(game): int(count) for game, count in played}, "ratings": ratings}


def games(session: Session, key: str, game: str | None, before: int | None, limit: int) -> dict[str, Any] | None:
    """A page of the player's games, newest first; `next` is the `before` for the following page."""
    found = player_since(session, key)
    if found is None:
        return None
    limit = max(1, min(limit, MAX_PAGE))
    mine = (select(RecordPlayerRow.record_id, RecordPlayerRow.seat).where(_games_filter(session, key, found[1]))
            .order_by(RecordPlayerRow.record_id.desc()).limit(limit + 1))
    if game is not None:
        mine = mine.where(RecordPlayerRow.game == game)
    if before is not None:
        mine = mine.where(RecordPlayerRow.record_id < before)
    seats = {int(record_id): int(seat) for record_id, seat in session.execute(mine)}
    # the columns a list shows: never `actions` (long, and secret) nor the seed
    listed = select(RecordRow.id, RecordRow.game, RecordRow.players, RecordRow.names, RecordRow.outcome,
                    RecordRow.rated, RecordRow.fair_play, RecordRow.created_at, RecordRow.table_id, RecordRow.seat_keys
                    ).where(RecordRow.id.in_(list(seats)))
    records = {r.id: r for r in session.execute(listed)}
    rows = [(records[record_id], seat) for record_id, seat in sorted(seats.items(), reverse=True)]
    page = rows[:limit]
    changes = {
        c.record_id: c for c in session.scalars(select(RatingChangeRow).where(
            RatingChangeRow.player == key, RatingChangeRow.record_id.in_([r.id for r, _ in page])))
    }
    items = []
    for record, seat in page:
        results = (record.outcome or {}).get("results") or []
        change = changes.get(record.id)
        items.append({
            "id": record.id, "game": record.game, "players": record.players, "seat": seat,
            "names": list(record.names), "keys": [str(k) for k in record.seat_keys or []],
            "result": results[seat] if seat < len(results) else None,
            "reason": (record.outcome or {}).get("reason"),
            "rated": bool(record.rated) and (record.fair_play is None or bool(record.fair_play.get("counts"))),
            **fair_play_json(bool(record.rated), record.fair_play),
            "created": _iso(record.created_at), "table": record.table_id,
            "rating": None if change is None else {
                "before": Skill(change.mu_before, change.sigma_before).shown(),
                "after": Skill(change.mu, change.sigma).shown()},
        })
    return {"name": found[0], "items": items, "next": page[-1][0].id if len(rows) > limit else None}


def leaderboard(session: Session, game: str, offset: int, limit: int) -> dict[str, Any]:
    """A game's ratings, best displayed ordinal first; `place` counts from 1."""
    limit, offset = max(1, min(limit, MAX_PAGE)), max(0, offset)
    rows = session.scalars(
        select(RatingRow).where(RatingRow.game == game)
        .order_by(RatingRow.ordinal.desc(), RatingRow.player).offset(offset).limit(limit + 1)
    ).all()
    items = [{"place": offset + i + 1, **rating_json(row)} for i, row in enumerate(rows[:limit])]
    return {"game": game, "items": items, "next": offset + limit if len(rows) > limit else None}


def own_records(session: Session, key: str, limit: int) -> dict[str, Any]:
    """The player's finished games as full records (what `GameRecord.replay()` replays), for the player
    alone, and only games where every other seat was a bot: a record holds every hidden thing (Geister
    setups, the deck), and another person's secrets are not the reader's to download."""
    found = player_since(session, key)
    if found is None:
        return {"records": [], "withheld": 0}
    query = (select(RecordRow).join(RecordPlayerRow, RecordRow.id == RecordPlayerRow.record_id)
             .where(_games_filter(session, key, found[1])).order_by(RecordPlayerRow.record_id.desc())
             .limit(max(1, min(limit, 1000))))
    records, withheld = [], 0
    for row in session.scalars(query):
        keys = list(row.seat_keys or [])
        if not keys or any(k != key and not is_bot(k) for k in keys):
            withheld += 1
            continue
        records.append({"id": row.id, "names": list(row.names), "outcome": row.outcome,
                        "record": {"game": row.game, "players": row.players, "options": dict(row.options),
                                   "seed": int(row.seed), "actions": [[int(s), str(t)] for s, t in row.actions]}})
    return {"records": records, "withheld": withheld}


def record_ratings(session: Session, record_id: int) -> dict[int, dict[str, Any]]:
    """The rating changes one rated record made, by seat: {"before": shown, "after": shown}."""
    rows = session.scalars(select(RatingChangeRow).where(RatingChangeRow.record_id == record_id))
    return {int(c.seat): {"before": Skill(c.mu_before, c.sigma_before).shown(), "after": Skill(c.mu, c.sigma).shown()}
            for c in rows}
