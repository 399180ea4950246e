"""The one kind of request whose body may be larger than a form's: a photo sent to a play.

Every other request is refused past ``MAX_CONTENT_LENGTH`` (1 MiB); a photo from a phone's
camera weighs a few megabytes. So a ``POST`` to a play's ``/photos`` address may carry up
to :data:`MAX_BODY`: the photo's own cap (``photo_images.MAX_BYTES``, checked again on the
file itself) and room for the form around it. The gate reads such a body whole before the
app runs (``web/gate.py``), the request refuses a larger one unread (``web/form_size.py``),
and ``./run``'s server accepts it (``companion/serve.py``).

>>> is_upload("POST", "/t/abc/plays/12/photos"), is_upload("GET", "/t/abc/plays/12/photos")
(True, False)
>>> is_upload("POST", "/t/abc/plays/12/edit"), is_upload("POST", "/g/abc/photos")
(False, False)
"""

from __future__ import annotations

from companion.services.photo_images import MAX_BYTES

#: The address of a play's photos under a table's link: ``/t/<token>/plays/<id>/photos``.
UPLOAD_RULE = "/t/<token>/plays/<int:play_id>/photos"
TABLE_PREFIX = "/t/"
SUFFIX = "/photos"
#: Room for the multipart form around the photo (its token, key, seat and boundaries).
FORM_ROOM = 64 * 1024
MAX_BODY = MAX_BYTES + FORM_ROOM


def is_upload(method: str, path: str) -> bool:
    """Whether a request sends a photo to a play (and may be as large as :data:`MAX_BODY`)."""
    return method == "POST" and path.startswith(TABLE_PREFIX) and path.endswith(SUFFIX)
