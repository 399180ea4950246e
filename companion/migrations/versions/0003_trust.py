"""Trust: hashed, derived join codes with rotation; submissions; server-side visits.

Join codes were stored as typed; now only a keyed hash of a code derived from the table's
uid and the secret key is kept (existing tables get their new code here, so their old
code stops working). The join-attempt table goes: rate limits live in Flask-Limiter.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 21:50:00.000000

"""

import base64
import hashlib
import hmac

import sqlalchemy as sa
from alembic import op
from flask import current_app

# revision identifiers, used by Alembic.
revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# Frozen copies of the derivation in companion/services/tables.py at generation 0: a
# migration must keep doing what it did when it was written.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def _mac(message: str) -> bytes:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def _code_hash(uid: str, generation: int) -> str:
    number = int.from_bytes(_mac(f"join.{generation}:{uid}")[:8], "big")
    code = ""
    for _ in range(CODE_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        code += ALPHABET[digit]
    return base64.b16encode(_mac(f"join-code:{code}")).decode().lower()


def upgrade() -> None:
    """Hash join codes, add generations, submissions and visits; drop join attempts."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("join_code_hash", sa.String(length=64), nullable=True))
        batch.add_column(
            sa.Column("edit_generation", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("join_generation", sa.Integer(), nullable=False, server_default="0")
        )
    connection = op.get_bind()
    tables = sa.table(
        "tables",
        sa.column("id", sa.Integer),
        sa.column("uid", sa.String),
        sa.column("join_code_hash", sa.String),
        sa.column("join_generation", sa.Integer),
    )
    used: set[str] = set()
    for row_id, uid in connection.execute(sa.select(tables.c.id, tables.c.uid)).all():
        generation = 0
        while (hashed := _code_hash(uid, generation)) in used:
            generation += 1
        used.add(hashed)
        connection.execute(
            tables.update()
            .where(tables.c.id == row_id)
            .values(join_code_hash=hashed, join_generation=generation)
        )
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("join_code_hash", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint("uq_tables_join_code_hash", ["join_code_hash"])
        batch.drop_column("join_code")
    op.drop_index("ix_join_attempts_client_at", table_name="join_attempts")
    op.drop_table("join_attempts")
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("location", sa.String(length=2000), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("access", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
    )
    op.create_index("ix_submissions_created_at", "submissions", ["created_at"])
    op.create_table(
        "visits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("visitor_hash", sa.String(length=64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("access", sa.String(length=8), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("visitor_hash", "table_id", "access"),
    )
    op.create_index("ix_visits_visitor_hash", "visits", ["visitor_hash"])


def downgrade() -> None:
    """Not supported: the typed join codes cannot be recovered from their hashes."""
    raise RuntimeError("Migration 0003 cannot be undone: join codes are stored hashed.")
