"""Live tables: a table version for cheap polls, and the players of each play by id.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 22:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table version and each play's player ids (unknown for older plays)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("plays") as batch:
        batch.add_column(sa.Column("player_ids", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop both columns."""
    with op.batch_alter_table("plays") as batch:
        batch.drop_column("player_ids")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")
