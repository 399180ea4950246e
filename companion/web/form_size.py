"""A form's fields are counted before they are parsed: more than ``MAX_FORM_PARTS`` is 413.

Werkzeug applies Flask's ``MAX_FORM_PARTS`` to ``multipart/form-data`` only; a 1 MB
``application/x-www-form-urlencoded`` body of 95,000 empty fields was parsed in full (and
then handed to WTForms), holding a process for seconds. Counting the separators of the raw
body first costs about a millisecond per megabyte, so every form of the app, whatever its
encoding, is refused before any parsing when it has more fields than any page sends.
"""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.formparser import FormDataParser

from companion.games.text import N_, _
from companion.web import uploads

if TYPE_CHECKING:  # Werkzeug names its parse result's type for type checkers only
    from werkzeug.formparser import t_parse_result

URLENCODED = "application/x-www-form-urlencoded"
TOO_MANY_FIELDS = N_("This form has more fields than any page of this app sends.")


class CountedFormParser(FormDataParser):
    """Werkzeug's form parser, refusing an url-encoded body with too many fields unparsed."""

    def parse(
        self,
        stream: IO[bytes],
        mimetype: str,
        content_length: int | None,
        options: dict[str, str] | None = None,
    ) -> t_parse_result:
        """Count the fields of an url-encoded body, then parse it as Werkzeug would."""
        if mimetype == URLENCODED and self.max_form_parts is not None:
            body = stream.read()  # the stream is already limited to MAX_CONTENT_LENGTH
            if body.count(b"&") >= self.max_form_parts:
                raise RequestEntityTooLarge(_(TOO_MANY_FIELDS))
            stream = io.BytesIO(body)
        return super().parse(stream, mimetype, content_length, options)


class CountedRequest(Request):
    """Flask's request with the counting form parser (``app.request_class``), whose body
    may be larger when it sends a photo (``web/uploads.py``)."""

    form_data_parser_class = CountedFormParser

    @property
    def max_content_length(self) -> int | None:
        """``MAX_CONTENT_LENGTH``, or the photo's cap for a photo sent to a play."""
        if self._max_content_length is None and uploads.is_upload(self.method, self.path):
            return uploads.MAX_BODY
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value
