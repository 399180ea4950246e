"""What differs from phone to phone in a rendering that many phones share.

A play panel, its page's frame or a table page is rendered once and sent to every phone
that shows it the same way (see ``panels.py`` and ``table_pages.py``). Two things in it
belong to one phone: the CSRF token (one per session, in every form and in the header
htmx sends), and each form's one-time submission key (fresh at every rendering, see
``web/idempotency.py``). A shared rendering is made as any other, with the token of the
phone that asked for it; :func:`for_phone` then puts the asking phone's token in its
place and a fresh key in every key input, on the way out of every answer made from it.
"""

from __future__ import annotations

import secrets
from functools import lru_cache

from flask import current_app, g, session
from flask_wtf.csrf import generate_csrf
from itsdangerous import URLSafeTimedSerializer
from markupsafe import Markup

#: The form field of a form's one-time key (``web/idempotency.py``).
KEY_FIELD = "submission"
KEY_BYTES = 16
#: How every key input starts (``key_input``): a fresh key goes after it, up to the quote.
KEY_INPUT_START = f'<input type="hidden" name="{KEY_FIELD}" value="'


def new_key() -> str:
    """A fresh random key for one rendering of a form."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_input() -> Markup:
    """A fresh one-time key as a hidden input."""
    return Markup(f'{KEY_INPUT_START}{new_key()}">')


def csrf_field() -> str:
    """The form field Flask-WTF reads the CSRF token from."""
    return str(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))


def csrf_token() -> str:
    """This phone's signed CSRF token, as Flask-WTF's ``generate_csrf`` gives it (and
    then gives it for the rest of the request), but signed once per session's token and
    process rather than once per request: a live update's answer is otherwise ready, and
    the signature was a tenth of it. Tokens never expire here (``WTF_CSRF_TIME_LIMIT``
    is None), so an earlier signature of the same token is as good as a fresh one; with
    a time limit set, each request signs anew."""
    field = csrf_field()
    config = current_app.config
    if field not in g and config.get("WTF_CSRF_TIME_LIMIT") is None:
        raw = session.get(field)
        if isinstance(raw, str) and raw:
            secret = config.get("WTF_CSRF_SECRET_KEY", current_app.secret_key)
            if isinstance(secret, str | bytes):
                setattr(g, field, _signed(secret, raw))
    return str(generate_csrf())


@lru_cache(maxsize=4096)
def _signed(secret: str | bytes, raw: str) -> str:
    """``raw`` signed as Flask-WTF signs a CSRF token (its salt, its serializer)."""
    return str(URLSafeTimedSerializer(secret, salt="wtf-csrf-token").dumps(raw))


def csrf_input() -> Markup:
    """This phone's CSRF token as a hidden input (a play page holds a hundred small
    forms: the input is made once per token, not once per form)."""
    return _csrf_input(csrf_field(), csrf_token())


@lru_cache(maxsize=256)
def _csrf_input(field: str, token: str) -> Markup:
    return Markup('<input type="hidden" name="{}" value="{}">').format(field, token)


def for_phone(html: str, rendered_with: str | None) -> str:
    """``html``, rendered for the phone whose CSRF token is ``rendered_with``, as this
    request's phone gets it: its own token, and a fresh key in every key input."""
    if rendered_with is not None:
        html = html.replace(rendered_with, csrf_token())
    if KEY_INPUT_START not in html:
        return html
    parts = html.split(KEY_INPUT_START)
    out = [parts[0]]
    for part in parts[1:]:
        out += (KEY_INPUT_START, new_key(), part[part.index('"') :])
    return "".join(out)
