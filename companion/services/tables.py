"""Tables: creating them, finding them by capability token or join code, their totals.

Capability tokens are derived from the table's random ``uid`` and the app's secret key
(HMAC-SHA256, 128 bits shown as 22 URL-safe characters). Only their SHA-256 hashes are
stored, so a copy of the database alone opens no table; deriving them again is what lets
a typed join code lead to the table's link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum

from flask import current_app
from sqlalchemy import delete, func, select

from companion.extensions import db
from companion.models import JoinAttempt, Player, Table, utcnow

TOKEN_BYTES = 16
#: No 0/O, 1/I/L: codes are read aloud and typed on phones.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
MAX_PLAYERS_AT_TABLE = 6


class Access(StrEnum):
    """What a capability link allows."""

    EDIT = "edit"
    VIEW = "view"


@dataclass(frozen=True)
class TableAccess:
    """A table reached through a link, and whether that link may change anything."""

    table: Table
    access: Access

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes things; the read-only link never does."""
        return self.access is Access.EDIT


class TooManyAttempts(Exception):  # noqa: N818 - reads as a sentence where it is raised
    """A client typed too many wrong join codes recently."""


def _token(table: Table, access: Access) -> str:
    key = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(key, f"{access.value}:{table.uid}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_for(table: Table, access: Access) -> str:
    """The capability token of a table for edit or read-only access."""
    return _token(table, access)


def create_table(names: Sequence[str]) -> Table:
    """Create a table with these players in seating order; commits."""
    table = Table(uid=secrets.token_hex(16), join_code=_unused_join_code())
    table.edit_token_hash = _hash(_token(table, Access.EDIT))
    table.view_token_hash = _hash(_token(table, Access.VIEW))
    table.players = [Player(seat=seat, name=name) for seat, name in enumerate(names)]
    db.session.add(table)
    db.session.commit()
    return table


def _unused_join_code() -> str:
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if db.session.scalar(select(Table.id).where(Table.join_code == code)) is None:
            return code


def find(token: str) -> TableAccess | None:
    """The table a capability token opens, with the access it grants; ``None`` if none."""
    hashed = _hash(token)
    for access, column in (
        (Access.EDIT, Table.edit_token_hash),
        (Access.VIEW, Table.view_token_hash),
    ):
        table = db.session.scalar(select(Table).where(column == hashed))
        if table is not None:
            return TableAccess(table, access)
    return None


def normalise_code(code: str) -> str:
    """Join codes ignore case, spaces and dashes, as people type them."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def join(code: str, *, client: str) -> Table | None:
    """The active table with this join code; records misses to rate-limit guessing.

    Raises :class:`TooManyAttempts` when this client missed too often recently.
    """
    now = utcnow()
    window = timedelta(minutes=current_app.config["JOIN_WINDOW_MINUTES"])
    client_hash = _hash(client)
    db.session.execute(delete(JoinAttempt).where(JoinAttempt.created_at < now - window))
    misses = db.session.scalar(
        select(func.count()).select_from(JoinAttempt).where(JoinAttempt.client == client_hash)
    )
    if (misses or 0) >= current_app.config["JOIN_ATTEMPTS"]:
        db.session.commit()
        raise TooManyAttempts
    active_since = now - timedelta(hours=current_app.config["JOIN_CODE_HOURS"])
    table = db.session.scalar(
        select(Table).where(
            Table.join_code == normalise_code(code), Table.last_used_at >= active_since
        )
    )
    if table is None:
        db.session.add(JoinAttempt(client=client_hash))
    db.session.commit()
    return table


def touch(table: Table) -> None:
    """Mark the table as used now (keeps its join code active); the caller commits."""
    table.last_used_at = utcnow()


@dataclass
class PlayerTotals:
    """One player's evening at a table: games played and won, points per game."""

    name: str
    played: int = 0
    won: int = 0
    points: dict[str, int] = field(default_factory=dict)


def running_totals(table: Table) -> list[PlayerTotals]:
    """Totals over the table's finished plays, players in seating order.

    Players are matched by name (case-insensitive), so a game played with a subset of the
    table still counts for those who played it.
    """
    totals = {name.casefold(): PlayerTotals(name) for name in table.player_names}
    for play in table.plays:
        if not play.finished or not play.result:
            continue
        for standing in play.result["standings"]:
            entry = totals.get(standing["player"].casefold())
            if entry is None:
                continue
            entry.played += 1
            entry.won += 1 if standing["winner"] else 0
            entry.points[play.game] = entry.points.get(play.game, 0) + standing["score"]
    return list(totals.values())
