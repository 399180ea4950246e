"""Error pages: JSON under /api, friendly HTML elsewhere; CSRF refusals explained."""

from __future__ import annotations

from flask import Flask, Response, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from companion.database import is_contention
from companion.services import units
from companion.web.api import error_response

API_PREFIX = "/api/"
API_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}
TOO_MANY = 429
TOO_MANY_MESSAGE = "Too many requests from your network. Wait a few minutes and try again."
BUSY_MESSAGE = "Many phones are saving at once, so this was not saved. Try again in a moment."
#: Seconds a client is asked to wait before it tries again after a busy refusal.
BUSY_RETRY_SECONDS = 1
CSRF_MESSAGE = (
    "This page was open too long or came from elsewhere, so the change was not saved. "
    "Reload the page and try again."
)


def register(app: Flask) -> None:
    """Install the error handlers."""

    @app.errorhandler(CSRFError)
    def csrf_refused(_error: CSRFError) -> tuple[str, int]:
        return render_template("error.html", status=400, message=CSRF_MESSAGE), 400

    @app.errorhandler(OperationalError)
    def database_busy(error: OperationalError) -> Response:
        # Any other database failure stays a server error (logged, the friendly page).
        if not is_contention(error):
            raise error
        units.discard()
        busy = ServiceUnavailable(BUSY_MESSAGE, retry_after=BUSY_RETRY_SECONDS)
        return http_error(busy)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        # Flask-Limiter's own description is its limit ("30 per 1 hour"): say it plainly.
        message = TOO_MANY_MESSAGE if status == TOO_MANY else error.description or error.name
        if request.path.startswith(API_PREFIX):
            code = API_CODES.get(status, "error")
            response = error_response(status, code, message)
        else:
            response = make_response(
                render_template("error.html", status=status, message=message), status
            )
        response.headers.extend(_kept_headers(error))
        return response


def _kept_headers(error: HTTPException) -> list[tuple[str, str]]:
    """The headers an error carries besides its own body's type: a 405's ``Allow`` (the
    methods the URL does answer, which RFC 9110 requires), a 429's ``Retry-After``."""
    return [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
