"""Error pages: JSON under /api, friendly HTML elsewhere; CSRF refusals explained."""

from __future__ import annotations

from flask import Flask, Response, g, make_response, render_template, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, NotFound, ServiceUnavailable

from companion.database import is_contention
from companion.games.text import N_
from companion.services import plays, units
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
GONE_MESSAGE = N_("This game was deleted.")
OPEN_TABLE = N_("Open the table")
TOO_MANY_MESSAGE = N_("Too many requests from your network. Wait a few minutes and try again.")
BUSY_MESSAGE = N_("Many phones are saving at once, so this was not saved. Try again in a moment.")
#: Seconds a client is asked to wait before it tries again after a busy refusal.
BUSY_RETRY_SECONDS = 1
CSRF_MESSAGE = N_(
    "This page was open too long or came from elsewhere, so the change was not saved. "
    "Reload the page and try again."
)
#: Sentences that say themselves that nothing was saved (the page marks them, so that a
#: refused change is not announced as "Not saved: ... was not saved").
SAYS_NOT_SAVED = (BUSY_MESSAGE, CSRF_MESSAGE)
#: Our words for an error raised without words of its own (werkzeug's are English only).
MESSAGES = {
    400: N_("The request could not be read. Reload the page and try again."),
    404: N_("Nothing is at this address. Check the link, or start again from the home page."),
    405: N_("This address does not answer this kind of request."),
    413: N_("This is more than the app takes in one request."),
    415: N_("The request was sent in a form this address does not read."),
    TOO_MANY: TOO_MANY_MESSAGE,
}


def register(app: Flask) -> None:
    """Install the error handlers."""

    @app.errorhandler(CSRFError)
    def csrf_refused(_error: CSRFError) -> tuple[str, int]:
        return _error_page(400, gettext(CSRF_MESSAGE)), 400

    @app.errorhandler(OperationalError)
    def database_busy(error: OperationalError) -> Response:
        # Any other database failure stays a server error (logged, the friendly page).
        if not is_contention(error):
            raise error
        units.discard()
        busy = ServiceUnavailable(gettext(BUSY_MESSAGE), retry_after=BUSY_RETRY_SECONDS)
        return http_error(busy)

    @app.errorhandler(plays.PlayGone)
    def play_gone(_error: plays.PlayGone) -> Response:
        """Another phone deleted the play while this request changed it: a 404 that
        offers the table's page, as for a play deleted before the request came."""
        units.discard()
        token = (request.view_args or {}).get("token")
        if isinstance(token, str):
            offer_the_table(token)
        return http_error(NotFound(gettext(GONE_MESSAGE)))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = error_message(error)
        if request.path.startswith(API_PREFIX):
            code = API_CODES.get(status, "error")
            response = error_response(status, code, message)
        else:
            response = make_response(_error_page(status, message), status)
        response.headers.extend(_kept_headers(error))
        return response


def offer_the_table(token: str) -> None:
    """Have the error page this request may end in offer the table's page (a play that
    is not, or no longer, at the table the link opens)."""
    g.error_way_back = (url_for("pages.table", token=token), gettext(OPEN_TABLE))


def error_message(error: HTTPException) -> str:
    """What an error says, in the reader's language: the words it was raised with, else
    ours for its status (werkzeug's own words are English only, and Flask-Limiter's are
    its limit, "30 per 1 hour")."""
    status = error.code or 500
    own = error.description is not None and error.description != type(error).description
    if own and status != TOO_MANY:
        return str(error.description)
    message = MESSAGES.get(status)
    return gettext(message) if message else str(error.description or error.name)


def _error_page(status: int, message: str) -> str:
    """The error page saying ``message`` (marked when it says nothing was saved)."""
    not_saved = message in [gettext(said) for said in SAYS_NOT_SAVED]
    # A way back the request found before it failed (a table whose play is gone).
    way_back = g.get("error_way_back")
    return render_template(
        "error.html", status=status, message=message, not_saved=not_saved, way_back=way_back
    )


def _kept_headers(error: HTTPException) -> list[tuple[str, str]]:
    """The headers an error carries besides its own body's type: a 405's ``Allow`` (the
    methods the URL does answer, which RFC 9110 requires), a 429's ``Retry-After``."""
    return [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
