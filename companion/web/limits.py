"""Rate limits (Flask-Limiter): wrong join codes, new tables and the JSON API.

Limits count per *network*, not per exact address: one IPv4 address, or one IPv6 /64
(a phone can pick a new address inside its /64 at will). Join codes are also limited per
code typed. The counters live in the limiter's storage (``RATELIMIT_STORAGE_URI``: by
default the app's database, which all worker processes share, see
``services/rate_counts.py``; memory for one process only; or Redis or Memcached), whose
``hit`` is atomic, so a burst of attempts at once is held to the limit exactly.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from flask import current_app, request
from flask_limiter import Limiter
from limits import RateLimitItem, RateLimitItemPerMinute

from companion.services import rate_counts

#: The storage scheme of the app's database (registered with ``limits`` on import).
DATABASE_STORAGE = f"{rate_counts.SCHEME}://"

IPV6_NETWORK_BITS = 64
UNKNOWN_CLIENT = "unknown"
SECONDS_PER_MINUTE = 60


def storage_problem(workers: int, storage: str) -> str | None:
    """Why ``workers`` processes cannot share limits counted in ``storage`` (or None).

    >>> storage_problem(2, "database://") is None, storage_problem(1, "memory://") is None
    (True, True)
    >>> storage_problem(2, "memory://")[:52]
    'The rate limits count in memory (RATELIMIT_STORAGE_U'
    """
    if workers <= 1 or not storage.startswith("memory"):
        return None
    return (
        "The rate limits count in memory (RATELIMIT_STORAGE_URI=memory://), which each of "
        f"the {workers} worker processes would do on its own, multiplying every limit by "
        f"{workers}. Use COMPANION_RATELIMIT_STORAGE_URI={DATABASE_STORAGE} (the default), "
        "Redis or Memcached, or run one worker (-w 1)."
    )


def network_of(address: str | None) -> str:
    """The network an address counts for: itself for IPv4, its /64 for IPv6.

    >>> network_of("192.0.2.7")
    '192.0.2.7'
    >>> network_of("2001:db8:1:2:aaaa::1")
    '2001:db8:1:2::/64'
    >>> network_of("::ffff:192.0.2.7")
    '192.0.2.7'
    >>> network_of("not an address")
    'unknown'
    """
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return UNKNOWN_CLIENT
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/{IPV6_NETWORK_BITS}", strict=False))
    return str(parsed)


def network_of_client() -> str:
    """The network of this request's client (behind trusted proxies, the real one)."""
    return network_of(request.remote_addr)


#: The rate limiter (initialised by the application factory): every limit counts per
#: network unless it says otherwise.
limiter = Limiter(key_func=network_of_client)


def tables_limit() -> str:
    """How many tables one network may create (``RATE_LIMIT_TABLES``)."""
    return str(current_app.config["RATE_LIMIT_TABLES"])


def api_limit() -> str:
    """How many API requests one network may send (``RATE_LIMIT_API``)."""
    return str(current_app.config["RATE_LIMIT_API"])


def exports_limit() -> str:
    """How many exports one network may download (``RATE_LIMIT_EXPORTS``)."""
    return str(current_app.config["RATE_LIMIT_EXPORTS"])


def photos_limit() -> str:
    """How many photos one network may send to plays (``RATE_LIMIT_PHOTOS``)."""
    return str(current_app.config["RATE_LIMIT_PHOTOS"])


@dataclass(frozen=True)
class Refusal:
    """A join attempt over the limit, and how long until the next one is allowed."""

    minutes: int


def _join_item() -> RateLimitItem:
    config = current_app.config
    return RateLimitItemPerMinute(int(config["JOIN_ATTEMPTS"]), int(config["JOIN_WINDOW_MINUTES"]))


def spend_join_attempt(code: str) -> Refusal | None:
    """Count one typed join code against the client's network and against that code.

    Every typed code counts, right or wrong: deciding first and counting only misses
    would let a burst of guesses sent at once all be decided before any is counted.
    Returns a :class:`Refusal` when the limit is reached (nothing is looked up then).
    """
    item = _join_item()
    keys = (("join-network", network_of_client()), ("join-code", code))
    for scope, key in keys:
        if not limiter.limiter.hit(item, scope, key):
            return Refusal(minutes=_minutes_until_reset(item, scope, key))
    return None


def _minutes_until_reset(item: RateLimitItem, *identifiers: str) -> int:
    reset_at, _remaining = limiter.limiter.get_window_stats(item, *identifiers)
    return max(1, math.ceil((reset_at - time.time()) / SECONDS_PER_MINUTE))


#: Endpoints no limit applies to, which a table calls most: the live polls of a play and
#: of the table page (every phone, every few seconds), a play's page and its taps.
#: Flask-Limiter would otherwise work out, on each of them, that no limit applies.
UNLIMITED_ENDPOINTS = frozenset({"pages.poll", "pages.table_poll", "pages.play", "pages.edit"})


@limiter.request_filter
def _never_limited() -> bool:
    return request.endpoint in UNLIMITED_ENDPOINTS
