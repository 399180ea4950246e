"""Migration 0005 builds exactly what the models describe (groups, their players, the
results table and its indexes, the links from tables and seats), on both databases."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from companion.extensions import db

pytestmark = pytest.mark.both_backends("migration 0005 builds the same schema on both databases")

MINE = {"groups", "group_players", "play_results"}
LINKS = {("tables", "group_id"), ("players", "group_player_id")}


def _concerns_groups(diff: Any) -> bool:
    """Whether an autogenerate difference is about the tables or columns of groups."""
    text = repr(diff)
    return any(name in text for name in MINE) or any(
        table in text and column in text for table, column in LINKS
    )


def test_the_migration_matches_the_models(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        diffs = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert [d for d in diffs if _concerns_groups(d)] == []
