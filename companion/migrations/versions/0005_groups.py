"""Groups: rosters across evenings, tables started from a group, per-player results.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 23:59:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create groups, their players and the results table; link tables and seats."""
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("uid", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("edit_token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("view_token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("edit_generation", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "group_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "group_id",
            sa.Integer(),
            sa.ForeignKey("groups.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_group_players_group_id", "group_players", ["group_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_tables_group_id", "groups", ["group_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_tables_group_id", ["group_id"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("group_player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_players_group_player_id",
            "group_players",
            ["group_player_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_table(
        "play_results",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "play_id", sa.Integer(), sa.ForeignKey("plays.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "group_id",
            sa.Integer(),
            sa.ForeignKey("groups.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "group_player_id",
            sa.Integer(),
            sa.ForeignKey("group_players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("shared", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("month", sa.String(7), nullable=False),
        sa.UniqueConstraint("play_id", "seat"),
    )
    op.create_index("ix_play_results_play_id", "play_results", ["play_id"])
    # Covering indexes: each statistics query reads its index alone (see models.py).
    op.create_index(
        "ix_play_results_board",
        "play_results",
        [
            "group_id",
            "game",
            "group_player_id",
            "winner",
            "shared",
            "score",
            "month",
            "finished_at",
        ],
    )
    op.create_index(
        "ix_play_results_player_time",
        "play_results",
        ["group_id", "group_player_id", "finished_at", "play_id", "rank"],
    )
    op.create_index(
        "ix_play_results_plays",
        "play_results",
        ["group_id", "seat", "finished_at", "play_id", "game"],
    )


def downgrade() -> None:
    """Drop the results, the links and the groups."""
    op.drop_table("play_results")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("fk_players_group_player_id", type_="foreignkey")
        batch.drop_column("group_player_id")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_group_id")
        batch.drop_constraint("fk_tables_group_id", type_="foreignkey")
        batch.drop_column("group_id")
    op.drop_index("ix_group_players_group_id", table_name="group_players")
    op.drop_table("group_players")
    op.drop_table("groups")
