"""The JSON API's lean path: the app's request hooks that only pages need skip it.

An API request (``/api/``, the ``api`` blueprint) carries no session, form, CSRF token,
idempotency key or table link, and its answer is JSON that no static-file rule applies
to. Yet every app-wide hook ran for it, and together they cost about as much as a whole
bare Flask request (measured with ``benchmarks/wrk_compare.py``). A hook that serves pages
only is registered through :func:`before_pages` or :func:`after_pages`, which answer an
API request at once. What the API does need still runs for it: its rate limit, the
request id, the security headers (a cheaper pass, see ``web/security.py``) and
compression of a large answer.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, request
from werkzeug.wrappers import Response

#: The blueprint of the JSON API (``web/api.py``).
API_BLUEPRINT = "api"

Answer = TypeVar("Answer", bound=Response)


def is_api_request() -> bool:
    """Whether the current request was routed to the JSON API."""
    return request.blueprint == API_BLUEPRINT


def before_pages(hook: Callable[[], Response | None]) -> Callable[[], Response | None]:
    """A before-request hook that does nothing for an API request."""

    @functools.wraps(hook)
    def unless_api() -> Response | None:
        return None if is_api_request() else hook()

    return unless_api


def after_pages(hook: Callable[[Answer], Answer]) -> Callable[[Answer], Answer]:
    """An after-request hook that hands an API request's response on untouched."""

    @functools.wraps(hook)
    def unless_api(response: Answer) -> Answer:
        return response if is_api_request() else hook(response)

    return unless_api


class LeanFlask(Flask):
    """Flask, which asks of every hook and view on every request whether it is a
    coroutine function (``ensure_sync``, through :mod:`inspect`): here each is asked once.
    With a dozen hooks that was a few percent of a poll's or an API call's time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The functions found synchronous (weakly held: a function dropped is forgotten).
        self._synchronous: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """``func`` as Flask makes it synchronous: itself, when it was found to be so."""
        try:
            if func in self._synchronous:
                return func
        except TypeError:  # not weakly referable (a built-in): ask every time
            return super().ensure_sync(func)
        made = super().ensure_sync(func)
        if made is func:
            self._synchronous.add(func)
        return made
