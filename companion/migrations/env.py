"""Alembic environment for Flask-Migrate: runs migrations on the app's own engine.

Unlike the generated template it leaves logging alone, so that starting the app (which
migrates on first start) does not reconfigure the application's or the tests' loggers.
"""

from __future__ import annotations

from alembic import context
from flask import current_app

target_db = current_app.extensions["migrate"].db


def run_migrations_offline() -> None:
    """Emit SQL for the configured URL without connecting."""
    url = target_db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=target_db.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Apply migrations through a connection of the app's engine."""
    with target_db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_db.metadata,
            **current_app.extensions["migrate"].configure_args,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
