"""Counting the SQL statements a block of a test runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from flask import Flask
from sqlalchemy import event

from companion.extensions import db
from companion.services import tables


@contextmanager
def counted_queries(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run inside the block: through SQLAlchemy, and straight on the
    driver's cursor (the polls' version checks)."""
    statements: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    real_rows = tables.driver_rows

    def counted_rows(sql: str, parameters: Any) -> Any:
        statements.append(sql)
        return real_rows(sql, parameters)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        with patch.object(tables, "driver_rows", counted_rows):
            yield statements
    finally:
        event.remove(engine, "before_cursor_execute", note)
