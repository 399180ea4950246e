"""URL converters: every number in a URL is an id the database can hold, or the URL is 404.

Werkzeug's ``int`` converter takes any run of digits; a play number past 64 bits
(``/t/<link>/plays/9223372036854775808``) then reached the database, which cannot
compare it with an id column (a 500 on SQLite and PostgreSQL alike; PostgreSQL's id
columns are 32-bit ``integer``, so it failed from 2**31 already). The app's ``int``
converter takes an id from 0 to 2**31 - 1, the range both databases hold in every id
column, and matches nothing else: the URL is not found, as any id that names no row is.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import IntegerConverter, Map

#: The largest id every id column holds: PostgreSQL's ``integer`` is 32-bit (SQLite's
#: INTEGER holds 64 bits, but its ids never get past what PostgreSQL could store).
MAX_ID = 2**31 - 1


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` bounded to what the database holds (at most ten digits, at most
    :data:`MAX_ID`); tighter bounds given in a rule still apply."""

    # Ten digits at most: a longer number is never converted (nor a huge one parsed).
    regex = r"\d{1,10}"

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        bounded = MAX_ID if max is None or max > MAX_ID else max
        super().__init__(map, fixed_digits, min, bounded, signed)


def register(converters: dict[str, Any]) -> None:
    """Make ``int`` in every route the bounded converter (call before any route is added:
    a rule binds its converters when it is added)."""
    converters["int"] = BoundedIntConverter
