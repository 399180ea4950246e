"""Photos of the table kept with a play: adding one, removing one, finding them.

A photo is taken with a phone at the table and sent with the play's edit link. What is
kept is a fresh JPEG of its pixels (``photo_images.prepare``: upright, at most 1600 px,
no metadata), in the photo storage (``photo_store``), and a row naming it. Adding or
removing one changes the table's version, which every phone of the table polls: the
play's page and the table's page show it at their next poll.

The caps (``caps.MAX_PHOTOS_PER_*``) are counted before the photo is even decoded. The
files are written before the row is committed and taken back if the commit fails, so a
row always has its files; a row deleted through the ORM (with its play or its table)
takes its files with it once the deletion is committed (:func:`_note_deleted`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from companion.extensions import db
from companion.games.text import N_, _
from companion.models import Photo, Play, Table
from companion.services import caps, photo_store, tables
from companion.services.photo_images import PhotoRefused, Prepared, prepare
from companion.services.plays import Author, read_again
from companion.services.units import unit_of_work

__all__ = ["PhotoRefused", "add_photo", "in_group", "of_play", "of_plays", "remove_photo"]

#: Where a session notes the files of the photos it deleted, until its commit.
GONE_KEY = "companion.photos_gone"
NOT_FOUND = N_("This photo is no longer there. Reload the page.")


@dataclass(frozen=True)
class Kept:
    """What a new photo's row is made of (besides its play)."""

    uid: str
    prepared: Prepared


def add_photo(
    play: Play,
    data: bytes,
    *,
    author: Author,
    decoding: Callable[[], AbstractContextManager[None]] = nullcontext,
) -> Photo:
    """Keep a photo with the play; commits. Raises :class:`PhotoRefused` (nothing kept)
    past a cap or for a file that is not a photo the app keeps. The photo is decoded
    inside ``decoding()`` (the web layer's: other requests go meanwhile), with no
    transaction open; the caps are counted before and again as the row is written."""
    _refuse_past_caps(play)
    db.session.rollback()  # no snapshot held while the photo is decoded
    with decoding():
        prepared = prepare(data)
    kept = Kept(secrets.token_hex(16), prepared)
    store = photo_store.store()
    store.write(kept.uid, kept.prepared.photo, kept.prepared.thumbnail)
    try:
        return _record(play, kept, author=author)
    except BaseException:
        store.remove([kept.uid])
        raise


def _refuse_past_caps(play: Play) -> None:
    refusal = cap_refusal(play)
    if refusal is not None:
        raise PhotoRefused(refusal)


def cap_refusal(play: Play) -> str | None:
    """Why one more photo cannot be kept with the play (its own cap, its table's, its
    group's), or ``None``: counted, not loaded."""
    counted = select(func.count()).select_from(Photo)
    if (db.session.scalar(counted.where(Photo.play_id == play.id)) or 0) >= (
        caps.MAX_PHOTOS_PER_PLAY
    ):
        return caps.too_many_photos_per_play()
    if (db.session.scalar(counted.where(Photo.table_id == play.table_id)) or 0) >= (
        caps.MAX_PHOTOS_PER_TABLE
    ):
        return caps.too_many_photos_per_table()
    group_id = play.table.group_id
    if group_id is not None and group_count(group_id) >= caps.MAX_PHOTOS_PER_GROUP:
        return caps.too_many_photos_per_group()
    return None


def group_count(group_id: int) -> int:
    """How many photos the group's tables keep."""
    counted = (
        select(func.count())
        .select_from(Photo)
        .join(Table, Table.id == Photo.table_id)
        .where(Table.group_id == group_id)
    )
    return int(db.session.scalar(counted) or 0)


@unit_of_work
def _record(play: Play, kept: Kept, *, author: Author) -> Photo:
    """The photo's row, and the table's version raised (its phones show it); commits.
    Counted again: another photo may have been kept while this one was decoded, and the
    play read again: another phone may have deleted it meanwhile (``PlayGone``)."""
    read_again(play)
    _refuse_past_caps(play)
    photo = new_row(play, kept.uid, kept.prepared, device=author.device, author=author.name)
    db.session.add(photo)
    tables.bump(play.table)
    return photo


def new_row(play: Play, uid: str, prepared: Prepared, *, device: str, author: str | None) -> Photo:
    """A photo's row for files kept under ``uid`` (not added to the session)."""
    return Photo(
        uid=uid,
        play_id=play.id,
        table_id=play.table_id,
        width=prepared.width,
        height=prepared.height,
        size=len(prepared.photo),
        device=device,
        author=author,
    )


@unit_of_work
def remove_photo(play: Play, uid: str) -> None:
    """Remove one of the play's photos, its files once the removal is committed;
    commits. :class:`PhotoRefused` when the play has no such photo (any more)."""
    photo = db.session.scalar(select(Photo).where(Photo.play_id == play.id, Photo.uid == uid))
    if photo is None:
        raise PhotoRefused(_(NOT_FOUND))
    db.session.delete(photo)
    tables.bump(play.table)


def of_play(play_id: int) -> list[Photo]:
    """The play's photos, oldest first."""
    return list(
        db.session.scalars(select(Photo).where(Photo.play_id == play_id).order_by(Photo.id))
    )


def of_plays(play_ids: Sequence[int]) -> dict[int, list[Photo]]:
    """The photos of each of these plays (only those that have some), in one query."""
    found: dict[int, list[Photo]] = {}
    if not play_ids:
        return found
    query = select(Photo).where(Photo.play_id.in_(play_ids)).order_by(Photo.play_id, Photo.id)
    for photo in db.session.scalars(query):
        found.setdefault(photo.play_id, []).append(photo)
    return found


def of_table(table_id: int) -> dict[int, list[Photo]]:
    """The photos of each play of the table, in one query."""
    found: dict[int, list[Photo]] = {}
    query = select(Photo).where(Photo.table_id == table_id).order_by(Photo.play_id, Photo.id)
    for photo in db.session.scalars(query):
        found.setdefault(photo.play_id, []).append(photo)
    return found


def in_table(table_id: int, uid: str) -> Photo | None:
    """The photo ``uid`` when it belongs to a play of this table."""
    return db.session.scalar(select(Photo).where(Photo.uid == uid, Photo.table_id == table_id))


def in_group(group_id: int, uid: str) -> Photo | None:
    """The photo ``uid`` when it belongs to a play of one of the group's tables."""
    return db.session.scalar(
        select(Photo)
        .join(Table, Table.id == Photo.table_id)
        .where(Photo.uid == uid, Table.group_id == group_id)
    )


def uids_of_tables(table_ids: Iterable[int]) -> list[str]:
    """The uids of every photo of these tables (before they are deleted in bulk)."""
    chosen = list(table_ids)
    if not chosen:
        return []
    return list(db.session.scalars(select(Photo.uid).where(Photo.table_id.in_(chosen))))


#: Uids looked up in the database at once while tidying the storage.
TIDY_BATCH = 500


def unnamed_files() -> list[str]:
    """The uids of the photo files in the storage that no photo row names."""
    kept = list(photo_store.store().uids())
    unnamed: list[str] = []
    for start in range(0, len(kept), TIDY_BATCH):
        chosen = kept[start : start + TIDY_BATCH]
        named = set(db.session.scalars(select(Photo.uid).where(Photo.uid.in_(chosen))))
        unnamed.extend(uid for uid in chosen if uid not in named)
    return unnamed


def remove_files(uids: Iterable[str]) -> None:
    """Take these photos' files away from the storage."""
    photo_store.store().remove(uids)


# --- files follow their rows ------------------------------------------------------------------


@event.listens_for(Session, "after_flush")
def _note_deleted(session: Session, _context: object) -> None:
    """Note the files of the photos this flush deleted (their play's or table's deletion
    cascades to them through the ORM): removed once the transaction commits."""
    gone = [obj.uid for obj in session.deleted if isinstance(obj, Photo)]
    if gone:
        session.info.setdefault(GONE_KEY, []).extend(gone)


@event.listens_for(Session, "after_commit")
def _remove_deleted(session: Session) -> None:
    """The files of the photos whose deletion was just committed go too."""
    gone = session.info.pop(GONE_KEY, None)
    if gone:
        photo_store.store().remove(gone)


@event.listens_for(Session, "after_rollback")
def _keep_undeleted(session: Session) -> None:
    """A deletion rolled back keeps its photos' files."""
    session.info.pop(GONE_KEY, None)
