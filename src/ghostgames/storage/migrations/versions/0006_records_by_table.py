"""Records by table: a finished table's address (/table/{id}) shows its last game once the table has
closed, found by the table's id.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_records_table_id", "records", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_records_table_id", table_name="records")
