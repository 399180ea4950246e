"""Oddland species definitions saved for a table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 13:45:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the species definitions table."""
    op.create_table(
        "species_definitions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("species", sa.String(length=40), nullable=False),
        sa.Column("side", sa.String(length=1), nullable=False),
        sa.Column("rule", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "species", "side"),
    )


def downgrade() -> None:
    """Drop the species definitions table."""
    op.drop_table("species_definitions")
