"""Photos kept with plays, and an index that replays a group's plays for its ratings.

A photo's row names its two stored files (by a random uid) and says what they are; it
goes with its play (and its table). The skill ratings read a group's results in the order
the plays were finished, with each player's place: the new index holds every column they
read, in that order.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 10:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the photos table and the ratings' index."""
    op.create_table(
        "photos",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("uid", sa.String(32), nullable=False, unique=True),
        sa.Column(
            "play_id",
            sa.Integer(),
            sa.ForeignKey("plays.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(16), nullable=False),
        sa.Column("author", sa.String(40), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_photos_play_id", "photos", ["play_id"])
    op.create_index("ix_photos_table_id", "photos", ["table_id"])
    op.create_index(
        "ix_play_results_ratings",
        "play_results",
        ["group_id", "finished_at", "play_id", "seat", "group_player_id", "rank", "game"],
    )


def downgrade() -> None:
    """Drop the index and the photos table."""
    op.drop_index("ix_play_results_ratings", table_name="play_results")
    op.drop_index("ix_photos_table_id", table_name="photos")
    op.drop_index("ix_photos_play_id", table_name="photos")
    op.drop_table("photos")
