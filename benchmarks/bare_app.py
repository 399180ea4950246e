"""The yardstick: a bare Flask app whose one route answers "ok".

``benchmarks/wrk_compare.py`` runs it under the same gunicorn settings as the app, in the
same run, so each figure of the app is reported as a ratio that holds on any machine.
"""

from __future__ import annotations

from flask import Flask


def create_app() -> Flask:
    """A Flask app with a single route."""
    app = Flask(__name__)

    @app.get("/ok")
    def ok() -> str:
        return "ok"

    return app
