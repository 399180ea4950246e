"""A signed-cookie session that is read only when a request asks for it.

Flask checks and decodes the session cookie at the start of every request. Most requests
a table makes never look at it: a poll that finds nothing new (answered 204) and every
JSON API call. Here the cookie is checked and decoded on the first use of the session
instead, and a session never used is not written back, which is what Flask would have
done anyway (it was neither changed nor read). Everything else is Flask's own
``SecureCookieSessionInterface``: the same cookie, signature and lifetime.

A poll that finds nothing new is the most frequent request a table makes; reading its
cookie was about a quarter of its time (0.12-0.14 ms of 0.42-0.55 ms, measured in
process against Flask's own sessions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin


class LazySession(SecureCookieSession):
    """A session whose contents are loaded by ``load`` on first use."""

    def __init__(self, load: Callable[[], dict[str, Any]]) -> None:
        super().__init__()
        self._load: Callable[[], dict[str, Any]] | None = load

    @property
    def loaded(self) -> bool:
        """Whether the cookie has been read (any use of the session reads it)."""
        return self._load is None

    def _ensure_loaded(self) -> None:
        load, self._load = self._load, None
        if load is not None:
            # dict's own update: filling in what the cookie said is not a change.
            dict.update(self, load())

    # Every way of reading or changing a dict goes through _ensure_loaded first.
    def __getitem__(self, key: str) -> Any:
        self._ensure_loaded()
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._ensure_loaded()
        return super().get(key, default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._ensure_loaded()
        return super().setdefault(key, default)

    def __setitem__(self, key: str, value: Any) -> None:
        self._ensure_loaded()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._ensure_loaded()
        super().__delitem__(key)

    def __contains__(self, key: object) -> bool:
        self._ensure_loaded()
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self._ensure_loaded()
        return super().__iter__()

    def __len__(self) -> int:
        self._ensure_loaded()
        return super().__len__()

    def __eq__(self, other: object) -> bool:
        self._ensure_loaded()
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # a dict, unhashable like any other

    def __repr__(self) -> str:
        self._ensure_loaded()
        return super().__repr__()

    def keys(self) -> Any:
        self._ensure_loaded()
        return super().keys()

    def values(self) -> Any:
        self._ensure_loaded()
        return super().values()

    def items(self) -> Any:
        self._ensure_loaded()
        return super().items()

    def copy(self) -> dict[str, Any]:
        self._ensure_loaded()
        return dict(super().items())

    def pop(self, key: str, *default: Any) -> Any:
        self._ensure_loaded()
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._ensure_loaded()
        return super().popitem()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._ensure_loaded()
        super().update(*args, **kwargs)

    def clear(self) -> None:
        self._ensure_loaded()
        super().clear()


class LazySessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the cookie read on first use."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """A session that reads the cookie when it is first used (``None``: no secret key)."""
        if not app.secret_key:
            return None
        # The raw header, not ``request.cookies``: parsing every cookie cost a poll more
        # than its version check. Without the session's cookie the lazy read finds none.
        if not request.environ.get("HTTP_COOKIE"):
            return self.session_class()
        return LazySession(lambda: self._read(app, request))

    def _read(self, app: Flask, request: Request) -> dict[str, Any]:
        """What the session's cookie says, as Flask reads it (nothing when it is missing,
        forged or too old)."""
        found = super().open_session(app, request)
        return dict(found) if found is not None else {}

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Write the session back, unless it was never used (then nothing changed)."""
        if isinstance(session, LazySession) and not session.loaded:
            if session.accessed:  # looked at through flask.session, as Flask would say
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def register(app: Flask) -> None:
    """Use lazily read sessions."""
    app.session_interface = LazySessionInterface()
