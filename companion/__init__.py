"""Odd Companion: score and referee small card games at a physical table.

``create_app`` is the application factory (``flask --app companion run``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion import config

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(
    test_config: dict[str, Any] | None = None, *, app_class: type[Flask] = Flask
) -> Flask:
    """Build the app: configuration, extensions, database, blueprints, security headers.
    ``app_class``: Flask, or a subclass customising it (the tests' shares what every app
    of a test process has in common, ``support/app.py``)."""
    instance = (test_config or {}).get("INSTANCE_PATH") or PROJECT_ROOT / "instance"
    app = app_class(
        __name__,
        instance_path=str(instance),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    config.load(app, test_config)
    from companion.web import converters

    # Before any blueprint: a route's converters are bound when it is added.
    converters.register(app.url_map.converters)
    # Keep the API's documented field order instead of sorting keys.
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from companion import database
    from companion.extensions import csrf, db, htmx, migrate
    from companion.web import (
        api,
        compression,
        errors,
        form_size,
        games,
        gate,
        groups,
        idempotency,
        languages,
        operations,
        pages,
        photos,
        rules,
        security,
        sessions,
        static_files,
        table_pages,
        uploads,
    )
    from companion.web import help as help_pages
    from companion.web.limits import limiter
    from companion.web.play import panel

    app.request_class = form_size.CountedRequest
    # First, so its after-request hook runs last: it compresses the finished response.
    compression.register(app)
    # Before the other hooks: whatever they answer is worded in the phone's language.
    languages.register(app)
    db.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)
    limiter.init_app(app)
    migrate.init_app(app, db, directory=str(Path(__file__).parent / "migrations"))
    database.configure(app)

    sessions.register(app)
    app.wsgi_app = gate.wrap(  # type: ignore[method-assign]
        app.wsgi_app,
        at_once=int(app.config[gate.SETTING]),
        max_body=int(app.config["MAX_CONTENT_LENGTH"]),
        max_upload=uploads.MAX_BODY,
    )
    security.wrap(app)  # before ProxyFix, so the HTTPS setting has the last word
    proxies = int(app.config["TRUSTED_PROXIES"])
    if proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(photos.bp)
    games.register(app)
    rules.init_app(app)
    help_pages.init_app(app)
    csrf.exempt(api.bp)
    errors.register(app)
    idempotency.register(app)
    panel.register(app)
    table_pages.register(app)
    app.add_template_global(idempotency.guard)
    app.add_template_global(idempotency.csrf_input)
    security.register(app)
    operations.register(app)
    static_files.register(app)

    from companion import cli
    from companion.games.names import load_lookalikes

    cli.register(app)
    load_lookalikes()  # once per process: no request waits for it
    return app
