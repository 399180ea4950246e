"""Idempotent form submissions: a retried or double-tapped submit is applied once.

Every state-changing form carries a random key. The web layer announces the key of the
request (:func:`expect`); the first commit of that request records it in the same
transaction as the change itself, so the change and its record land together or not at
all. A later submit with the same key finds the record (:func:`find`) and is answered with
the first result instead of running again. Two copies racing each other collide on the
key's unique index: the second commit fails and nothing of it is stored.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, event, select, update
from sqlalchemy.orm import Session

from companion.extensions import db
from companion.models import Submission, utcnow

#: What ``session.info`` holds while a request's key waits for its first commit.
PENDING_KEY = "submission_key"
#: How long a key is remembered: far longer than any retry or double tap.
KEEP_FOR = timedelta(days=1)
TOKEN_PLACEHOLDER = "{token}"


def hash_key(key: str) -> str:
    """Only a hash of the key is stored (a key is as private as the form it came in)."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class Done:
    """A submission already applied: where its first answer led, if anywhere."""

    location: str | None
    table_id: int | None
    access: str | None


def find(key: str) -> Done | None:
    """The earlier submission with this key, if there was one."""
    row = db.session.scalar(select(Submission).where(Submission.key_hash == hash_key(key)))
    if row is None:
        return None
    return Done(location=row.location, table_id=row.table_id, access=row.access)


def expect(key: str) -> None:
    """Record this key with the request's first commit (see the module's description)."""
    db.session.info[PENDING_KEY] = hash_key(key)


def forget_pending() -> None:
    """Drop a key that no commit took (the request changed nothing)."""
    db.session.info.pop(PENDING_KEY, None)


def note_location(key: str, *, location: str, table_id: int | None, access: str | None) -> None:
    """Remember where the first answer led; commits. ``location`` has its token replaced by
    :data:`TOKEN_PLACEHOLDER` already."""
    db.session.execute(
        update(Submission)
        .where(Submission.key_hash == hash_key(key))
        .values(location=location, table_id=table_id, access=access)
    )
    db.session.commit()


@event.listens_for(Session, "before_commit")
def _record_pending(session: Session) -> None:
    """Add the pending key to the transaction being committed (once per request)."""
    hashed = session.info.pop(PENDING_KEY, None)
    if hashed is None:
        return
    session.execute(delete(Submission).where(Submission.created_at < utcnow() - KEEP_FOR))
    session.add(Submission(key_hash=hashed))
    session.flush()
