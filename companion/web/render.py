"""One helper decides between the full page and the htmx fragment of the same markup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, make_response, render_template

from companion.extensions import htmx
from companion.web import pieces


def wants_fragment() -> bool:
    """An htmx request that is neither boosted nor a history restore gets the fragment."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def page_or_fragment(page: str, fragment: str, *, status: int = 200, **context: Any) -> Response:
    """Render the page, or only its fragment for htmx; both vary on HX-Request.

    A fragment holding a play's panel goes as only its changed pieces when the phone said
    which it holds (see ``web/pieces.py``)."""
    if not wants_fragment():
        return page_response(render_template(page, **context), status)
    return fragment_response(render_template(fragment, **context), status)


def page_response(html: str, status: int = 200) -> Response:
    """A whole page (it differs from the fragment of the same URL: varies on HX-Request)."""
    response = make_response(html, status)
    response.vary.add("HX-Request")
    return response


def fragment_response(
    html: str, status: int = 200, *, fill: Callable[[str], str] | None = None
) -> Response:
    """A fragment, or only the pieces of its panel that the phone does not hold; ``fill``
    puts this phone's own values into what is sent (see ``web/panel_cache.py``)."""
    changed = pieces.changed_only()
    body = html if changed is None else changed
    response = make_response(body if fill is None else fill(body), status)
    if changed is not None:
        response.headers["HX-Reswap"] = "none"
    response.vary.update(("HX-Request", pieces.HEADER))
    return response
