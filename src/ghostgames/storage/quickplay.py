"""The quick-play queue, kept in the database so every server process sees the same one (SQLite for one
process, PostgreSQL for several). People of close rating are paired; the window widens as they wait.

A pair is claimed with one conditional UPDATE (both rows still free, or nothing), so two processes can
never seat the same person twice; the claim becomes the table's id once the table exists.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ghostgames.storage.models import QuickQueueRow, RatingRow
from ghostgames.storage.ratings import Skill

# Pair people within this many shown rating points at once, and widen by WIDEN_BY for every WIDEN_EVERY
# seconds the longer waiter has waited: close games first, but nobody waits for ever.
WINDOW = 150.0
WIDEN_BY = 100.0
WIDEN_EVERY = 5.0
BOT_OFFER_AFTER = 15.0  # seconds of waiting before a bot of one's strength is offered
GONE_AFTER = 20.0  # an entry whose page stopped asking this long ago is left out of pairing
CLAIM = "claim:"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def shown_rating(session: Session, game: str, key: str) -> float:
    row = session.get(RatingRow, (game, key))
    skill = Skill.new() if row is None else Skill(row.mu, row.sigma)
    return float(skill.shown()["rating"])


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    name: str
    game: str
    rating: float
    waited: float
    table_id: str | None


def _entry(row: QuickQueueRow, now: datetime) -> Entry:
    table = None if row.table_id is None or row.table_id.startswith(CLAIM) else row.table_id
    return Entry(row.player, row.name, row.game, row.rating, (now - _aware(row.since)).total_seconds(), table)


def join(session: Session, game: str, key: str, name: str, now: datetime) -> Entry:
    """Wait for `game` (a new wait replaces any earlier one of this person)."""
    session.execute(delete(QuickQueueRow).where(QuickQueueRow.player == key))
    row = QuickQueueRow(player=key, name=name, game=game, rating=shown_rating(session, game, key), since=now,
                        seen=now, table_id=None)
    session.add(row)
    session.flush()
    return _entry(row, now)


def look(session: Session, key: str, now: datetime) -> Entry | None:
    row = session.get(QuickQueueRow, key)
    if row is None:
        return None
    row.seen = now
    return _entry(row, now)


def leave(session: Session, key: str) -> None:
    session.execute(delete(QuickQueueRow).where(QuickQueueRow.player == key))


def window(waited: float) -> float:
    return WINDOW + WIDEN_BY * int(waited // WIDEN_EVERY)


def claim_opponent(session: Session, key: str, now: datetime) -> tuple[str, Entry, Entry] | None:
    """The closest free opponent within the window, claimed together with `key`: (claim, me, them)."""
    me = session.get(QuickQueueRow, key)
    if me is None or me.table_id is not None:
        return None
    fresh = now - timedelta(seconds=GONE_AFTER)
    others = session.scalars(select(QuickQueueRow).where(
        QuickQueueRow.game == me.game, QuickQueueRow.player != key, QuickQueueRow.table_id.is_(None),
        QuickQueueRow.seen >= fresh)).all()
    mine = _entry(me, now)
    best: tuple[float, QuickQueueRow] | None = None
    for other in others:
        waited = max(mine.waited, (now - _aware(other.since)).total_seconds())
        gap = abs(other.rating - me.rating)
        if gap <= window(waited) and (best is None or gap < best[0]):
            best = (gap, other)
    if best is None:
        return None
    claim = CLAIM + secrets.token_hex(6)
    taken = session.execute(update(QuickQueueRow).where(
        QuickQueueRow.player.in_((key, best[1].player)), QuickQueueRow.table_id.is_(None)).values(table_id=claim))
    if taken.rowcount != 2:  # type: ignore[attr-defined]
        settle(session, claim, None)  # someone else was quicker: free what this claim took
        return None
    return claim, mine, _entry(best[1], now)


def settle(session: Session, claim: str, table_id: str | None) -> None:
    """The claimed pair now sits at `table_id` (None: seating failed, back to waiting)."""
    session.execute(update(QuickQueueRow).where(QuickQueueRow.table_id == claim).values(table_id=table_id))


def bot_near(session: Session, game: str, rating: float, levels: tuple[str, ...]) -> str:
    """The bot level whose rating in `game` is closest to `rating` (unrated levels count as newcomers)."""
    def distance(level: str) -> float:
        return abs(shown_rating(session, game, f"bot:{level}") - rating)

    return min(levels, key=distance)
