"""The database tables (SQLAlchemy 2). The schema itself is made by the Alembic migrations next to
this file; these classes must say the same."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class UserRow(Base):
    """A name: a registered account (with a password hash) or a guest (without)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)  # lower case: names are unique ignoring case
    # names that look alike share it (server/confusables.py); null until the server fills it in
    skeleton: Mapped[str | None] = mapped_column(Text, nullable=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)  # claimed, re-claimed
    # how often this name's holder logged out: a session token carries the count it was issued under, so
    # logging out ends every token issued before (server/auth.py); stored, so every worker agrees
    logouts: Mapped[int] = mapped_column(Integer, server_default="0")


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EventRow(Base):
    """One accepted change to a table. (table_id, seq) is unique: two writers cannot both append seq N."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RecordRow(Base):
    """A finished game: (game, players, options, seed, actions) plus names and outcome. Holds secrets."""

    __tablename__ = "records"
    __table_args__ = (Index("ix_records_created_at", "created_at"), Index("ix_records_table_id", "table_id", "id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(40))  # text: seeds may exceed a signed 64-bit integer
    actions: Mapped[list[Any]] = mapped_column(JSON)
    names: Mapped[list[Any]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    source: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # the player key of each seat (see storage/ratings.py), and whether the game counted for ratings
    seat_keys: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # each seat's moves made by its own player (not by a bot that took the seat over, nor on a clock's
    # turn), kept from the table's events; null for records stored without them (ghostgames/tables/fair_play.py)
    own_moves: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    # a rated record's fair-play verdict ({"counts", "problems"}), written by the fold and by a rebuild
    fair_play: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class SettingRow(Base):
    """Server-wide values that must survive restarts and be shared by workers (the token secret), and small
    per-account ones keyed `what:<user id>` (an account's tutorial progress, storage/tutorial_progress.py)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class RecordPlayerRow(Base):
    """Who sat in a record, by player key (a lower-case name, or "bot:LEVEL"): a profile's list of games."""

    __tablename__ = "record_players"
    __table_args__ = (Index("ix_record_players_player", "player", "record_id"),)
    record_id: Mapped[int] = mapped_column(Integer, ForeignKey("records.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(32))


class RatingRow(Base):
    """A player's current rating in one game: the last step of the fold over rated records."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    last_record: Mapped[int] = mapped_column(Integer)


class RatingChangeRow(Base):
    """One player's rating before and after one rated record."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player", "game", "record_id"),)
    record_id: Mapped[int] = mapped_column(Integer, ForeignKey("records.id"), primary_key=True)
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class QuickQueueRow(Base):
    """A person waiting for a quick-play opponent: shared by every server process on this database."""

    __tablename__ = "quick_queue"
    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(32), index=True)
    rating: Mapped[float] = mapped_column(Float)  # the shown rating when they joined
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # their page last asked
    table_id: Mapped[str | None] = mapped_column(String(40), nullable=True)  # "claim:…" while being seated
