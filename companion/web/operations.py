"""Running the app for real: a health check, request ids, error logs and a friendly 500.

- ``GET /offline`` is the page the service worker keeps and shows when a page needs the
  server and the phone cannot reach it.
- ``GET /healthz`` answers 200 when the app can reach its database and 503 when it
  cannot, for load balancers and uptime checks (never rate limited, never cached).
- Every response carries ``X-Request-ID``: the proxy's id when it sent a sane one (so the
  proxy's log and ours can be joined), else a fresh one.
- An unexpected error is logged as one JSON line with the request id, method and path
  (capability tokens cut out: a log is not a place for keys), and the phone gets a calm
  page, or JSON under ``/api/``, naming the same id so it can be reported.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from typing import Any

from flask import Blueprint, Flask, Response, g, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import InternalServerError

from companion import database
from companion.games.text import N_
from companion.web import languages, log_redaction, security
from companion.web.limits import limiter

bp = Blueprint("operations", __name__)

REQUEST_ID_HEADER = "X-Request-ID"
# What we accept from a proxy: short, and nothing that could forge a log line.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
LOGGER_NAME = "companion.errors"
SERVER_ERROR = 500
UNAVAILABLE = 503
SERVER_ERROR_MESSAGE = N_(
    "Something went wrong on our side. Reload the page to see what was saved, then try again."
)


def register(app: Flask) -> None:
    """Install the health check, request ids and the error handler."""
    app.register_blueprint(bp)
    limiter.exempt(bp)
    # No before-request hook: request_id() makes the id on first use (at the latest when
    # the answer is sent), and every hook costs each request its own call.
    app.after_request(_send_request_id)
    app.register_error_handler(InternalServerError, _server_error)
    _install_json_log(logging.getLogger(LOGGER_NAME))
    log_redaction.install(app.logger)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """200 with ``{"status": "ok"}`` when the database answers, else 503."""
    if not database.answers():
        return _uncached(jsonify(status="unavailable", database="unreachable")), UNAVAILABLE
    return _uncached(jsonify(status="ok", database="ok")), 200


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows when a page needs the server and the phone has no
    connection (it keeps this page in every language when it is installed: ``?lang=``
    names one, since the worker fetches it without the phone's session)."""
    security.mark_public()
    with languages.in_language(request.args.get("lang")):
        return render_template("offline.html")


def request_id() -> str:
    """The current request's id (made on first use, so error handlers always have one)."""
    if "request_id" not in g:
        _assign_request_id()
    return str(g.request_id)


def _assign_request_id() -> None:
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    # 128 random bits as 32 hex digits, like a UUID's hex but without building one.
    g.request_id = incoming if SANE_REQUEST_ID.fullmatch(incoming) else secrets.token_hex(16)


def _send_request_id(response: Response) -> Response:
    response.headers[REQUEST_ID_HEADER] = request_id()
    return response


def _uncached(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def safe_path(path: str) -> str:
    """The request path with any capability token cut out.

    >>> safe_path("/t/AbC123secret/plays/4/edit")
    '/t/…/plays/4/edit'
    >>> safe_path("/g/AbC123secret/stats")
    '/g/…/stats'
    >>> safe_path("/api/v1/games/odd-world/score")
    '/api/v1/games/odd-world/score'
    """
    return log_redaction.redact(path)


def _server_error(error: InternalServerError) -> tuple[Any, int]:
    original = error.original_exception or error
    logging.getLogger(LOGGER_NAME).error(
        "unhandled error",
        exc_info=(type(original), original, original.__traceback__),
        extra={
            "request_id": request_id(),
            "method": request.method,
            "path": safe_path(request.path),
        },
    )
    if request.path.startswith("/api/"):
        body = {"error": "internal_error", "message": gettext(SERVER_ERROR_MESSAGE)}
        return jsonify(body | {"request_id": request_id()}), SERVER_ERROR
    page = render_template(
        "error.html",
        status=SERVER_ERROR,
        message=gettext(SERVER_ERROR_MESSAGE),
        reference=request_id(),
    )
    return page, SERVER_ERROR


class JsonLineFormatter(logging.Formatter):
    """One JSON object per line: easy to search, impossible to split across lines."""

    FIELDS = ("request_id", "method", "path")

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line, with the traceback as one string field."""
        entry: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(
            {name: getattr(record, name) for name in self.FIELDS if hasattr(record, name)}
        )
        if record.exc_info:
            # Redacted already by the logger's filter (log_redaction); said again here so
            # this handler is safe on a logger that lacks it.
            traceback = record.exc_text or self.formatException(record.exc_info)
            entry["error"] = log_redaction.redact(traceback)
        return json.dumps(entry)


def _install_json_log(logger: logging.Logger) -> None:
    if any(isinstance(handler.formatter, JsonLineFormatter) for handler in logger.handlers):
        return  # several apps in one process (the tests) share the logger
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLineFormatter())
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
