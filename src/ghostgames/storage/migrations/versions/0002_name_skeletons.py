"""Each name's skeleton (the same for names that look alike), so a new name that could pass for a taken
one is refused. Filled in by the server on start for the names already stored.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("skeleton", sa.Text, nullable=True))
        batch.create_index("ix_users_skeleton", ["skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_index("ix_users_skeleton")
        batch.drop_column("skeleton")
