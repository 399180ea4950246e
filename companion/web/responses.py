"""One helper decides between the full page and the htmx fragment of the same markup."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, render_template

from companion.extensions import htmx


def wants_fragment() -> bool:
    """An htmx request that is neither boosted nor a history restore gets the fragment."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def page_or_fragment(page: str, fragment: str, *, status: int = 200, **context: Any) -> Response:
    """Render the page, or only its fragment for htmx."""
    template = fragment if wants_fragment() else page
    return html_response(render_template(template, **context), status)


def html_response(html: str, status: int = 200) -> Response:
    """A page or a fragment: the same URL answers both, so it varies on HX-Request."""
    response = make_response(html, status)
    response.vary.add("HX-Request")
    return response
