"""Ratings: who sat in each record and whether it was rated, every rating change with the record that
caused it, the current rating per (game, player), an index of records by player for profiles, and the
quick-play queue.

Revision ID: 0003
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("records") as batch:
        batch.add_column(sa.Column("seat_keys", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_records_created_at", "records", ["created_at"])
    op.create_table(
        "record_players",
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
    )
    op.create_index("ix_record_players_player", "record_players", ["player", "record_id"])
    _index_earlier_records()
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("last_record", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("record_id", sa.Integer, sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player", "game", "record_id"])
    op.create_table(
        "quick_queue",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("game", sa.String(32), nullable=False, index=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=True),
    )


# The table bot levels when this migration was written: an earlier record names a bot seat "hard bot".
BOT_LEVELS = ("easy", "medium", "hard", "random")


def _index_earlier_records() -> None:
    """Games stored before this revision show on their players' profiles too (unrated: ratings start
    here). Their seats are known only by name: "LEVEL bot" is taken as that bot level."""
    bind = op.get_bind()
    records = sa.table("records", sa.column("id", sa.Integer), sa.column("game", sa.String),
                       sa.column("names", sa.JSON))
    players = sa.table("record_players", sa.column("record_id", sa.Integer), sa.column("seat", sa.Integer),
                       sa.column("player", sa.String), sa.column("game", sa.String))
    rows = []
    for record_id, game, names in bind.execute(sa.select(records.c.id, records.c.game, records.c.names)):
        for seat, name in enumerate(names or []):
            words = str(name).split()
            is_bot = len(words) == 2 and words[1] == "bot" and words[0] in BOT_LEVELS
            key = f"bot:{words[0]}" if is_bot else str(name).lower()
            rows.append({"record_id": record_id, "seat": seat, "player": key[:40], "game": game})
    if rows:
        op.bulk_insert(players, rows)


def downgrade() -> None:
    op.drop_table("quick_queue")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("record_players")
    op.drop_index("ix_records_created_at", "records")
    with op.batch_alter_table("records") as batch:
        batch.drop_column("rated")
        batch.drop_column("seat_keys")
