"""An index of plays by table: a table's plays are found without reading every play.

A table's page, a new game (which counts the table's plays against the cap) and an export
(a group's reads each of up to 1,000 tables) look plays up by table; without the index
each lookup read the whole plays table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 23:00:00.000000

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Index the plays by their table."""
    op.create_index("ix_plays_table_id", "plays", ["table_id"])


def downgrade() -> None:
    """Drop the index."""
    op.drop_index("ix_plays_table_id", table_name="plays")
