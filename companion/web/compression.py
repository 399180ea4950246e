"""Response compression (Flask-Compress, brotli or gzip), skipped where it cannot help.

Flask-Compress looks at every response: it parses ``Accept-Encoding``, picks an
algorithm and adds ``Vary``, even for a body it will then leave alone; and it marks a
``204 No Content`` as compressed (``Content-Encoding: br``, the empty body of a brotli
stream dropped on the way out), which a client that decodes what it is told cannot
read. Most requests a table makes are polls answered 204, so answers without a body and
bodies under ``COMPRESS_MIN_SIZE`` are left alone here; their bytes are the same
whatever the phone accepts, so they need no ``Vary: Accept-Encoding`` either.
"""

from __future__ import annotations

from http import HTTPStatus

from flask import Flask, Response

from companion.extensions import compress

#: Answers that never carry a body.
BODILESS = (HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED)


def register(app: Flask) -> None:
    """Compress finished responses that are worth it.

    Call first among the after-request hooks, so this one runs last (Flask runs them in
    reverse), on the response as it will be sent.
    """
    # Flask-Compress would otherwise register its own hook, which looks at every response.
    app.config["COMPRESS_REGISTER"] = False
    compress.init_app(app)
    minimum = int(app.config["COMPRESS_MIN_SIZE"])

    @app.after_request
    def compress_if_worth_it(response: Response) -> Response:
        if worth_compressing(response, minimum):
            return compress.after_request(response)
        return response


def worth_compressing(response: Response, minimum: int) -> bool:
    """Whether a response may shrink: it has a body, and that body is not known to be small.

    >>> worth_compressing(Response(status=204), 500)
    False
    >>> worth_compressing(Response("ok"), 500)
    False
    >>> worth_compressing(Response("x" * 600), 500)
    True
    """
    if response.status_code in BODILESS:
        return False
    length = response.content_length
    return length is None or length >= minimum
