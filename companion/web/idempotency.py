"""Every state-changing form carries an idempotency key; a repeat is answered, not run.

``guard(form)`` renders a form's CSRF token and a fresh key. A POST with a key seen before
(a double tap, a retried request on a flaky network, the browser's "resend") is answered
with the first result: htmx gets 204 (the first answer already updated the page), a plain
form is redirected where the first submit led. Steppers and card taps carry no key: they
name the value they change and a stale one is refused (409) instead.

A key is honoured only where it was sent: on a routed request that passed its CSRF check,
and it is stored (hashed) together with the request's path (so its route and the table's
link) and the phone's session. The same key on another path, through another link, from
another phone, or without a session is a different key. A repeat whose first answer led
to a table's link is answered only while that link is still the table's: a key of a
replaced link is dead with it (404), so a replaced link can never be got back this way.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from markupsafe import Markup
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from companion.extensions import db
from companion.models import Table
from companion.services import groups, submissions, tables, units
from companion.services.tables import Access
from companion.web.context import noted_table
from companion.web.personal import KEY_FIELD, csrf_input, key_input, new_key
from companion.web.responses import wants_fragment

#: A key is URL-safe base64 of KEY_BYTES; anything else is ignored (not an error).
MAX_KEY_LENGTH = 64
NO_CONTENT = 204
SEE_OTHER = 303
TABLE_PATH = "/t/"
#: A group's link is never stored either (its pages redirect to themselves).
GROUP_PATH = "/g/"


def guard(_form: Any) -> Markup:
    """A form's CSRF token and a fresh idempotency key, as hidden inputs (templates name
    the form they guard, for the reader: the token and the key are the session's). A
    rendering shared by many phones gets each phone's own in their place (see
    ``web/personal.py``)."""
    return csrf_input() + key_input()


def _key() -> str | None:
    """The request's key scoped to its path and session, or ``None`` if it has none that
    counts (not a form post, no route, or no CSRF check passed)."""
    if request.method != "POST" or request.mimetype == "application/json":
        return None
    if request.endpoint is None or not _csrf_checked():
        return None
    key = request.form.get(KEY_FIELD, "")
    if not 0 < len(key) <= MAX_KEY_LENGTH:
        return None
    return "\x00".join((key, request.path, _session_secret()))


def _csrf_checked() -> bool:
    """Whether Flask-WTF checked this request's CSRF token (it runs before this hook)."""
    return bool(g.get("csrf_valid")) or not current_app.config.get("WTF_CSRF_ENABLED", True)


def _session_secret() -> str:
    """What ties a key to one phone: its session's raw CSRF secret (never sent in a form)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    return str(session.get(field, ""))


def _repeat_answer(done: submissions.Done) -> Response:
    """What a repeat gets: nothing to swap for htmx, else the first answer's page."""
    if wants_fragment():
        return Response(status=NO_CONTENT)
    return redirect(_location_of(done) or request.referrer or url_for("pages.home"), SEE_OTHER)


def _location_of(done: submissions.Done) -> str | None:
    if done.location is None or submissions.TOKEN_PLACEHOLDER not in done.location:
        return done.location
    table = db.session.get(Table, done.table_id) if done.table_id else None
    if table is None or done.access is None:
        return None
    access = Access(done.access)
    token = tables.token_for(table, access)
    if not _still_the_link(table, access, token):
        abort(404)
    return done.location.replace(submissions.TOKEN_PLACEHOLDER, token)


def _still_the_link(table: Table, access: Access, token: str) -> bool:
    """Whether the link a repeat would lead to is the one its first answer gave: the
    request came through that very link, or the table's edit link was never replaced
    (a table created by the first submit). Otherwise the key died with the old link."""
    path = request.path
    own = f"{TABLE_PATH}{token}"
    if path == own or path.startswith(f"{own}/"):
        return True
    if path.startswith(GROUP_PATH) and not _group_link_alive(path):
        return False  # sent through a group's link that was replaced since
    return access is Access.VIEW or table.edit_generation == 0


def _group_link_alive(path: str) -> bool:
    """Whether the group link a path goes through still opens its group for editing."""
    token = path[len(GROUP_PATH) :].split("/", 1)[0]
    group_access = groups.find(token)
    return group_access is not None and group_access.access is Access.EDIT


def register(app: Flask) -> None:
    """Install the check before each request and the bookkeeping after it."""

    @app.before_request
    def answer_repeats() -> Response | None:
        key = _key()
        if key is None:
            return None
        done = submissions.find(key)
        if done is not None:
            return _repeat_answer(done)
        g.submission_key = key
        submissions.expect(key)
        return None

    @app.after_request
    def remember_where_it_led(response: Response) -> Response:
        key = g.pop("submission_key", None)
        if key is None:
            return response
        submissions.forget_pending()
        location = response.headers.get("Location") or response.headers.get("HX-Redirect")
        if location and response.status_code < 400:
            _note_location(key, location)
        return response

    @app.errorhandler(IntegrityError)
    def collided(error: IntegrityError) -> Response:
        """Two copies of one submission raced: the loser is answered as a repeat."""
        units.discard()
        key = g.pop("submission_key", None)
        done = submissions.find(key) if key else None
        if done is None:
            raise error
        return _repeat_answer(done)


def _note_location(key: str, location: str) -> None:
    """Store where the first answer led, with the table's token replaced by a placeholder;
    a location holding a token that cannot be replaced is not stored at all."""
    table_access = noted_table()
    if table_access is not None:
        token = tables.token_for(table_access.table, table_access.access)
        if token in location:
            location = location.replace(token, submissions.TOKEN_PLACEHOLDER)
            submissions.note_location(
                key,
                location=location,
                table_id=table_access.table.id,
                access=table_access.access.value,
            )
            return
    if TABLE_PATH not in location and GROUP_PATH not in location:
        submissions.note_location(key, location=location, table_id=None, access=None)


__all__ = ["KEY_FIELD", "csrf_input", "guard", "key_input", "new_key", "register"]
