"""One helper decides between the full page and the htmx fragment of the same markup; a
fragment holding a play's panel goes as only its changed pieces when the phone said which
it holds (see ``pieces.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, make_response, render_template, request

from companion.extensions import htmx
from companion.web.live.pieces import CONTEXT_NAME, HEADER, Rendering


def wants_fragment() -> bool:
    """An htmx request that is neither boosted nor a history restore gets the fragment."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def page_or_fragment(page: str, fragment: str, *, status: int = 200, **context: Any) -> Response:
    """Render the page, or only its fragment for htmx; both vary on HX-Request. A play's
    panel in the fragment is rendered with its pieces (in the render context ``live``,
    made here unless given), and only those that changed go."""
    found = context.pop(CONTEXT_NAME, None)
    rendering = found if isinstance(found, Rendering) else Rendering()
    if not wants_fragment():
        return page_response(render_template(page, **{CONTEXT_NAME: rendering, **context}), status)
    html = render_template(fragment, **{CONTEXT_NAME: rendering, **context})
    return fragment_response(html, status, rendering=rendering)


def page_response(html: str, status: int = 200) -> Response:
    """A whole page (it differs from the fragment of the same URL: varies on HX-Request)."""
    response = make_response(html, status)
    response.vary.add("HX-Request")
    return response


def fragment_response(
    html: str,
    status: int = 200,
    *,
    rendering: Rendering | None = None,
    fill: Callable[[str], str] | None = None,
) -> Response:
    """A fragment, or only the pieces of the panel ``rendering`` made that the phone does
    not hold; ``fill`` puts this phone's own values into what is sent (a shared rendering:
    see ``personal.py``)."""
    raw = request.headers.get(HEADER, "")
    changed = None if rendering is None or not raw else rendering.answer_for(raw)
    body = html if changed is None else changed
    response = make_response(body if fill is None else fill(body), status)
    if changed is not None:
        response.headers["HX-Reswap"] = "none"
    response.vary.update(("HX-Request", HEADER))
    return response
