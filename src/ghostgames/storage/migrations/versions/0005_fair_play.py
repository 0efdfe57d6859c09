"""Fair play in ratings: each record keeps its seats' own moves (moves made by the seat's own player, not
by a bot that took it over or played a turn whose clock ran out), which the stored actions cannot tell,
and a rated record's fair-play verdict (whether it counted for ratings, and why not).

Records stored earlier have neither: a rebuild (`ghostgames ratings rebuild`) judges them, taking every
move of a seat as its own. Run it once after upgrading so older records are judged by the same rules.

Revision ID: 0005
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("records") as batch:
        batch.add_column(sa.Column("own_moves", sa.JSON, nullable=True))
        batch.add_column(sa.Column("fair_play", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("records") as batch:
        batch.drop_column("fair_play")
        batch.drop_column("own_moves")
