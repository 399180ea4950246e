"""No log line holds a key to a table or a group: links are cut out of every record.

A table's edit link (``/t/<token>/...``) and a group's link (``/g/<token>/...``) are keys;
docs/deploy.md promises that logs never hold one. The app's own error line cuts them out,
but other lines name the path too: Flask's ``Exception on /t/<token>/... [GET]`` beside it
on every 500, the development server's request lines, gunicorn's ``Error handling
request`` and its access log when an operator turns it on, and any exception whose message
or traceback quotes a URL. A filter on each of those loggers rewrites the record before
any handler (a file, stderr, a test's capture) sees it: the message, its traceback and
its stack, so every line is safe whatever formats it.
"""

from __future__ import annotations

import logging
import re

#: A token in a table's or a group's path (the API's group paths too), up to the next
#: separator.
TOKEN_IN_PATH = re.compile(r"/([tg]|groups)/[^/\s?#\"'<>\[\]]+")
REDACTED = r"/\1/…"
#: Loggers whose lines may name a request's path (the app's own logger is added by name).
LOGGERS = ("companion.errors", "werkzeug", "gunicorn.error", "gunicorn.access")


def redact(text: str) -> str:
    """``text`` with every table or group token cut out of the paths it holds.

    >>> redact("Exception on /t/AbC123secret/plays/4/edit [POST]")
    'Exception on /t/…/plays/4/edit [POST]'
    >>> redact("GET https://example.org/g/Zz9_-x/stats?x=1")
    'GET https://example.org/g/…/stats?x=1'
    >>> redact("GET /api/v1/groups/Zz9_-x/ratings")
    'GET /api/v1/groups/…/ratings'
    >>> redact("/static/app.css")
    '/static/app.css'
    """
    return TOKEN_IN_PATH.sub(REDACTED, text)


class RedactLinks(logging.Filter):
    """Rewrites a record's message, traceback and stack without the tokens in them."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place (formatted once, here); never drops a record."""
        record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


#: One filter for every logger: ``addFilter`` adds it once however many apps are made.
REDACT_LINKS = RedactLinks()


def install(app_logger: logging.Logger) -> None:
    """Put the filter on the app's logger and on every logger that may name a path."""
    for logger in (app_logger, *(logging.getLogger(name) for name in LOGGERS)):
        logger.addFilter(REDACT_LINKS)
