"""One helper decides between the full page and the htmx fragment of the same markup; a
fragment holding a play's panel goes as only its changed pieces when the phone said which
it holds (see ``pieces.py``).

A fragment (a tap's answer, a live update) of up to ``SMALL_FRAGMENT`` bytes is
compressed here, for speed rather than size: every phone of a table gets one after every
change, while a page is loaded once. In the app, where brotli's tables are never warm in
the CPU's cache, quality 3 took 0.18 ms for a 4-player Odd World update of 8 KB where the
pages' quality 5 (``COMPRESS_BR_LEVEL``) took 0.6 ms, for 1.7 KB instead of 1.5 KB
(``benchmarks/live_path.py``, ``benchmarks/bytes.py``). A larger answer (an Owl About
trick, an Oddland map) keeps the app's settings, and the margin to its byte budget
(``tests/web/test_bytes.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import brotli
from flask import Response, current_app, make_response, render_template, request

from companion.extensions import htmx
from companion.web.live.pieces import CONTEXT_NAME, HEADER, Rendering

#: Brotli's settings for a fragment up to ``SMALL_FRAGMENT`` bytes (see the module's
#: docstring); a larger one is left to Flask-Compress.
SMALL_FRAGMENT = 12_000
SMALL_FRAGMENT_BROTLI = {"quality": 3, "lgwin": 16}


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
    return compressed(response)


def compressed(response: Response) -> Response:
    """``response``, when a small fragment (see the module's docstring), compressed with
    brotli where Flask-Compress would choose brotli (the encodings ``COMPRESS_ALGORITHM``
    allows, in its order, that the phone accepts; not under ``COMPRESS_MIN_SIZE``); it
    then leaves the response alone. Gzip and larger answers stay Flask-Compress's."""
    config = current_app.config
    response.vary.add("Accept-Encoding")
    data = response.get_data()
    too_small = len(data) < config["COMPRESS_MIN_SIZE"]
    if too_small or len(data) > SMALL_FRAGMENT or "Content-Encoding" in response.headers:
        return response
    allowed = config["COMPRESS_ALGORITHM"]
    if isinstance(allowed, str):
        allowed = [name.strip() for name in allowed.split(",")]
    if request.accept_encodings.best_match(allowed) != "br":
        return response  # gzip (over plain http, browsers offer no brotli): Flask-Compress's
    response.set_data(brotli.compress(data, **SMALL_FRAGMENT_BROTLI))
    response.headers["Content-Encoding"] = "br"
    return response
