"""What a worker keeps of its renderings (table pages, play panels): a bounded map that
forgets the least recently used first, safe to share between a worker's threads, and the
slots that keep each phone's own values out of a kept rendering.

A kept rendering is sent to many phones, so it must hold neither a phone's CSRF token
(one per session) nor a form's one-time submission key (fresh at every rendering, see
``web/idempotency.py``). Rendered inside :func:`slots`, forms get a slot in their place,
and :func:`fill` puts each phone's values in before the markup is sent. A slot holds a
random nonce of this process and a NUL character, which no text typed at a table can
contain.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from flask import Flask, current_app, g
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from companion.web.pieces import CSRF_INPUT_KEY

Value = TypeVar("Value")


def _one(_value: object) -> int:
    return 1


class Kept(Generic[Value]):
    """At most ``max_entries`` values, whose sizes (``size_of``) add up to at most
    ``max_size``; a value bigger than that is not kept at all."""

    def __init__(
        self,
        max_entries: int,
        max_size: int | None = None,
        size_of: Callable[[Value], int] = _one,
    ) -> None:
        self.max_entries = max_entries
        self.max_size = max_entries if max_size is None else max_size
        self.size_of = size_of
        self.size = 0
        self._values: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> Value | None:
        """The value kept under ``key`` (now the most recently used), if any."""
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Value) -> None:
        """Keep ``value``; the least recently used go while over the bounds."""
        size = self.size_of(value)
        if size > self.max_size:
            return
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.size -= self.size_of(old)
            self._values[key] = value
            self.size += size
            while len(self._values) > self.max_entries or self.size > self.max_size:
                _, dropped = self._values.popitem(last=False)
                self.size -= self.size_of(dropped)


_NONCE = secrets.token_hex(8)
#: Where a form's one-time submission key goes.
KEY_SLOT = f"\x00k{_NONCE}"
#: Where the CSRF token goes (the value of the one hidden CSRF input).
CSRF_SLOT = f"\x00c{_NONCE}"
#: Where a kept page frame takes the panel it is sent with (see ``web/panel_cache.py``).
PANEL_SLOT = f"\x00p{_NONCE}"
#: Set in ``g`` while a rendering is made to be kept: forms get slots, not values.
SLOTS_KEY = "kept_slots"


@contextmanager
def slots() -> Iterator[None]:
    """Render forms with slots for the CSRF token and the submission keys (see
    ``idempotency.guard``); this request's own CSRF input is back afterwards."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    slot = Markup('<input type="hidden" name="{}" value="{}">').format(field, CSRF_SLOT)
    real = g.pop(CSRF_INPUT_KEY, None)
    setattr(g, CSRF_INPUT_KEY, slot)
    setattr(g, SLOTS_KEY, True)
    try:
        yield
    finally:
        g.pop(SLOTS_KEY, None)
        g.pop(CSRF_INPUT_KEY, None)
        if real is not None:
            setattr(g, CSRF_INPUT_KEY, real)


def rendering_with_slots() -> bool:
    """Whether forms are being rendered to be kept (see ``idempotency.guard``)."""
    return bool(g.get(SLOTS_KEY))


def csrf_token() -> str:
    """The CSRF token, for templates (``csrf_token()``, the header htmx sends it in): a
    slot while rendering to be kept."""
    return CSRF_SLOT if rendering_with_slots() else generate_csrf()


def register(app: Flask) -> None:
    """Templates' ``csrf_token()`` leaves a slot in kept renderings (Flask-WTF's own
    would put the rendering phone's token in every phone's page). Flask-WTF offers its
    own both as a global and through a context processor: this replaces both."""
    app.add_template_global(csrf_token, "csrf_token")
    app.context_processor(lambda: {"csrf_token": csrf_token})


def fill(html: str, *, csrf_token: str, new_key: Callable[[], str]) -> str:
    """``html`` with this phone's CSRF token and a fresh submission key in each slot."""
    html = html.replace(CSRF_SLOT, csrf_token)
    if KEY_SLOT not in html:
        return html
    parts = html.split(KEY_SLOT)
    keys = [new_key() for _ in range(len(parts) - 1)]
    return "".join(part + key for part, key in zip(parts, [*keys, ""], strict=True))
