"""Security headers on every response: CSP without inline code, no framing, no sniffing.

Pages that carry capability tokens (everything under a table's ``/t/<token>/`` or a
group's ``/g/<token>/``, exports included, and any HTML page,
since the home page lists this phone's recent table links) are neither stored by caches
nor indexed: a token in a shared cache or a search result is a key handed to strangers.
A view may mark its page public (``mark_public``: no table's link on it) so it can be
indexed; it is still not stored. Static files keep their normal caching. A photo served
through a link (``mark_immutable_file``) holds no token and never changes: the phone that
opened it may keep it (``private``: no shared cache); it is still never indexed.

With ``HTTPS`` on, every response also carries HSTS and every request is treated as
HTTPS, so links and QR codes say ``https://`` even behind a proxy that does not say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, request
from werkzeug.exceptions import SecurityError

from companion.games.text import N_, _

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

# Where capability tokens live in URLs; a redirect there carries one in its Location.
TOKEN_PREFIX = "/t/"
#: Where capability links live: tables, and groups across evenings.
LINK_PREFIXES = (TOKEN_PREFIX, "/g/")
# Headers that may name a token URL: a plain redirect, and htmx's client-side redirects.
REDIRECT_HEADERS = ("Location", "HX-Redirect", "HX-Location")
#: The headers above as (lower-case name, name, value), and the redirect headers' names in
#: lower case: what the after-request hook compares with each response's own headers.
_ADDED = tuple((name.lower(), name, value) for name, value in HEADERS.items())
_REDIRECTS = tuple(name.lower() for name in REDIRECT_HEADERS)
HTML = "text/html"
TOKEN_PAGE_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex"}
#: How a file served through a link that never changes may be kept: by the phone alone.
IMMUTABLE_FILE_CACHE = "private, max-age=31536000, immutable"

# Two years, subdomains included: the value hstspreload.org asks for.
HSTS = "max-age=63072000; includeSubDomains"
HTTPS_SETTING = "HTTPS"

BAD_REQUEST = 400
#: The answers a kept file may be cached with: the file, and "it has not changed".
KEPT_STATUSES = (200, 304)
UNTRUSTED_HOST = N_("This address is not one this app answers to.")


def register(app: Flask) -> None:
    """Add the security headers to every response; refuse untrusted Host headers plainly."""

    @app.errorhandler(SecurityError)
    def untrusted_host(_error: SecurityError) -> Response:
        # Plain text on purpose: with an untrusted Host there is no URL adapter, so the
        # HTML error page (which builds its stylesheet link) cannot be rendered.
        return Response(_(UNTRUSTED_HOST), BAD_REQUEST, mimetype="text/plain")

    @app.after_request
    def add_headers(response: Response) -> Response:
        # One pass over the headers a view set: werkzeug's ``setdefault`` would look each
        # name up and raise (and catch) a KeyError for each one missing, on every poll;
        # the redirect targets are then read from that pass too, not looked up again.
        present = {name.lower(): value for name, value in response.headers.items()}
        response.headers.extend(
            [(name, value) for lower, name, value in _ADDED if lower not in present]
        )
        if carries_tokens(request.path, response, present):
            # Overwrite, not setdefault: an earlier max-age must not keep a token around.
            for name, value in TOKEN_PAGE_HEADERS.items():
                response.headers.set(name, value)
            if g.get("immutable_file") and response.status_code in KEPT_STATUSES:
                response.headers.set("Cache-Control", IMMUTABLE_FILE_CACHE)
            if is_public(request.path, present):
                del response.headers["X-Robots-Tag"]
        if app.config[HTTPS_SETTING]:
            response.headers["Strict-Transport-Security"] = HSTS
        return response


def carries_tokens(path: str, response: Response, headers: Mapping[str, str]) -> bool:
    """Whether a response may show or lead to a capability token (``headers``: the
    response's headers by lower-case name).

    >>> carries_tokens("/t/abc/plays/1/poll", Response(status=204), {})
    True
    >>> carries_tokens("/static/app.css", Response(mimetype="text/css"), {})
    False
    >>> carries_tokens("/tables", Response(status=303), {"location": "/t/abc"})
    True
    """
    if path.startswith(LINK_PREFIXES) or response.mimetype == HTML:
        return True
    return _leads_to_token(headers)


def _leads_to_token(headers: Mapping[str, str]) -> bool:
    """Whether any redirect target (absolute or relative) is a table's or group's link."""
    targets = (headers.get(name, "") for name in _REDIRECTS)
    return any(prefix in target for target in targets if target for prefix in LINK_PREFIXES)


def mark_public() -> None:
    """Say the page being answered holds no capability link (the home page of a phone
    with no tables yet, the join form, a rules page, a referee tool): search engines may
    index it. Pages under ``/t/`` and redirects to them are never public, whatever a
    view says; the page is still not stored by caches (it holds a CSRF token)."""
    g.public_page = True


def mark_immutable_file() -> None:
    """Say the answer is a file that never changes and shows no link (a photo, named by
    its random id): the phone may keep it, privately (see the module's docstring)."""
    g.immutable_file = True


def is_public(path: str, headers: Mapping[str, str]) -> bool:
    """Whether a view marked this page public and it cannot lead to a table's link
    (``headers``: the response's headers by lower-case name)."""
    if not g.get("public_page") or path.startswith(LINK_PREFIXES):
        return False
    return not _leads_to_token(headers)


def wrap(app: Flask) -> None:
    """Treat every request as HTTPS when the ``HTTPS`` setting says the app is served so.

    Call before any proxy middleware is added, so this runs last and wins over an
    ``X-Forwarded-Proto`` that a proxy may leave out or get wrong.
    """
    if app.config[HTTPS_SETTING]:
        app.wsgi_app = _ForceHttps(app.wsgi_app)  # type: ignore[method-assign]


class _ForceHttps:
    """WSGI middleware: the request's scheme is https (built links use it)."""

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.url_scheme"] = "https"
        return self.wsgi_app(environ, start_response)
