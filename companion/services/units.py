"""One request's change as one unit of work, opened and closed here in the services.

A service that changes stored data is decorated with :func:`unit_of_work`: it commits
when the service returns and rolls back whatever it wrote when it raises (a refusal
such as ``RosterRefused`` included), so the web layer never commits nor rolls back, and
a refused change leaves nothing behind in the session for the page drawn next.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from companion.extensions import db

Params = ParamSpec("Params")
Returned = TypeVar("Returned")


def unit_of_work(service: Callable[Params, Returned]) -> Callable[Params, Returned]:
    """Commit what ``service`` wrote when it returns; roll it all back when it raises."""

    @functools.wraps(service)
    def one_unit(*args: Params.args, **kwargs: Params.kwargs) -> Returned:
        try:
            returned = service(*args, **kwargs)
        except BaseException:
            db.session.rollback()
            raise
        db.session.commit()
        return returned

    return one_unit


def discard() -> None:
    """Drop whatever a failed request left in the session, before its error is answered (a
    busy database, a submission that lost a race): the answer reads only what is stored."""
    db.session.rollback()
