"""Storage: tables and their players, plays with their entered state and edit log.

A play stores its current entered *state* (the engine's JSON input) together with an
append-only log of edits that produced it, so the state is always the log folded. The
version counts edits; phones compare it to know whether anything changed.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.extensions import db

TOKEN_HASH_LENGTH = 64
LOCATION_LENGTH = 2000
NAME_LENGTH = 40
GAME_SLUG_LENGTH = 40
GROUP_NAME_LENGTH = 60


def utcnow() -> datetime:
    """The current UTC time, without a zone: SQLite cannot keep one, so none is stored."""
    return datetime.now(UTC).replace(tzinfo=None)


class PlayStatus(enum.StrEnum):
    """Whether a play still takes edits."""

    ACTIVE = "active"
    FINISHED = "finished"


class EditKind(enum.StrEnum):
    """What one entry of a play's edit log did."""

    SET = "set"
    UNDO = "undo"
    FINISH = "finish"
    REOPEN = "reopen"


class Table(db.Model):  # type: ignore[name-defined,misc]
    """People sitting together for an evening; reached by capability links."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Random, never shown: the capability tokens are derived from it with the secret key.
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    edit_token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    view_token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    # The join code is derived like the tokens and only its keyed hash is kept, so a copy
    # of the database opens no table. Rotating the edit link or the join code bumps its
    # generation: the derived value changes and the old one stops working.
    join_code_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    edit_generation: Mapped[int] = mapped_column(default=0)
    join_generation: Mapped[int] = mapped_column(default=0)
    # Counts changes the table page shows (roster, games started, finished, reopened), so
    # phones on the table page and on a finished game can poll it cheaply.
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The gaming group the table was started from, if any (its results join the group's).
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), index=True
    )

    players: Mapped[list[Player]] = relationship(
        back_populates="table", order_by="Player.seat", cascade="all, delete-orphan"
    )
    group: Mapped[Group | None] = relationship(back_populates="tables")
    plays: Mapped[list[Play]] = relationship(
        back_populates="table", order_by="Play.id", cascade="all, delete-orphan"
    )
    series: Mapped[list[Series]] = relationship(
        back_populates="table", order_by="Series.id", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        """Names in seating order (clockwise)."""
        return [p.name for p in self.players]


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person at a table, in seating order."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    # The group member sitting here, for a table started from a group.
    group_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("group_players.id", ondelete="SET NULL")
    )

    table: Mapped[Table] = relationship(back_populates="players")


class Series(db.Model):  # type: ignore[name-defined,misc]
    """Linked plays whose summed score decides (Odd World's three games in a row)."""

    __tablename__ = "series"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(GAME_SLUG_LENGTH))
    length: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[Table] = relationship(back_populates="series")
    plays: Mapped[list[Play]] = relationship(back_populates="series", order_by="Play.series_index")


class Play(db.Model):  # type: ignore[name-defined,misc]
    """One game played at a table: its entered state, edit log and cached result."""

    __tablename__ = "plays"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    series_id: Mapped[int | None] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"))
    series_index: Mapped[int | None]
    game: Mapped[str] = mapped_column(String(GAME_SLUG_LENGTH))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Each player's name in this play -> the table's player id, from when it started: the
    # totals follow a player who is renamed later, while the play keeps the old name.
    player_ids: Mapped[dict[str, int] | None] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(String(16), default=PlayStatus.ACTIVE.value)
    # The engine's last result (API shape) and the engine version that computed it.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    engine_version: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]

    table: Mapped[Table] = relationship(back_populates="plays")
    series: Mapped[Series | None] = relationship(back_populates="plays")
    edits: Mapped[list[Edit]] = relationship(
        back_populates="play", order_by="Edit.number", cascade="all, delete-orphan"
    )
    photos: Mapped[list[Photo]] = relationship(
        back_populates="play", order_by="Photo.id", cascade="all, delete-orphan"
    )

    @property
    def finished(self) -> bool:
        """Whether the table declared this play over."""
        return self.status == PlayStatus.FINISHED.value


class Edit(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a play's append-only log: what changed, from what, by whom, when."""

    __tablename__ = "edits"
    __table_args__ = (UniqueConstraint("play_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id", ondelete="CASCADE"))
    # The play's version once this edit is applied (1, 2, 3...).
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    path: Mapped[str | None] = mapped_column(String(200))
    value: Mapped[Any] = mapped_column(JSON, nullable=True)
    previous: Mapped[Any] = mapped_column(JSON, nullable=True)
    # For an undo: the number of the edit it reverted.
    undoes: Mapped[int | None]
    device: Mapped[str] = mapped_column(String(16))
    author: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    play: Mapped[Play] = relationship(back_populates="edits")


class Photo(db.Model):  # type: ignore[name-defined,misc]
    """A photo of the table kept with a play: re-encoded as JPEG without any metadata,
    stored as two files (the photo and its thumbnail) named by ``uid`` in the photo
    storage (``services/photo_store.py``); the row says what they are."""

    __tablename__ = "photos"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Random, never reused: names the stored files, and the addresses that serve them.
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    # The play's table, kept on the row: a table's and a group's photos are counted (caps)
    # and found (a group's history) without going through every play.
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    width: Mapped[int]
    height: Mapped[int]
    # The stored photo's size in bytes (its thumbnail is a small fraction of it).
    size: Mapped[int]
    device: Mapped[str] = mapped_column(String(16))
    author: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    play: Mapped[Play] = relationship(back_populates="photos")


class Submission(db.Model):  # type: ignore[name-defined,misc]
    """A form submission that changed something, by its idempotency key: a retried or
    double-tapped submit finds it and is answered with the first result, not applied again.
    """

    __tablename__ = "submissions"

    id: Mapped[int] = mapped_column(primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    # Where the first submit led (its redirect), so that a retry lands on the same page. A
    # table's token in it is stored as a placeholder with the table's id and the access,
    # and derived again when used: no link is ever stored.
    location: Mapped[str | None] = mapped_column(String(LOCATION_LENGTH))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    access: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Visit(db.Model):  # type: ignore[name-defined,misc]
    """A table a phone opened, for its "your tables" list. The phone's cookie holds only an
    opaque random id (its hash is stored here), never a table's token: links are derived
    again from the table when listed, and an edit visit of a rotated link is not listed."""

    __tablename__ = "visits"
    __table_args__ = (UniqueConstraint("visitor_hash", "table_id", "access"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    visitor_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    access: Mapped[str] = mapped_column(String(8))
    # The edit generation the visit was made with: a later rotation hides it.
    generation: Mapped[int] = mapped_column(default=0)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[Table] = relationship()


class SpeciesDefinition(db.Model):  # type: ignore[name-defined,misc]
    """How one Oddland species card side scores, as a table defined it (reused by its games)."""

    __tablename__ = "species_definitions"
    __table_args__ = (UniqueConstraint("table_id", "species", "side"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    species: Mapped[str] = mapped_column(String(NAME_LENGTH))
    side: Mapped[str] = mapped_column(String(1))
    # The side in the engine's rule vocabulary (``games.oddland.species.SideRule`` as JSON).
    rule: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Group(db.Model):  # type: ignore[name-defined,misc]
    """A gaming group that keeps its roster and results across evenings; reached by
    capability links like a table (only their hashes are stored)."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(GROUP_NAME_LENGTH))
    edit_token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    view_token_hash: Mapped[str] = mapped_column(String(TOKEN_HASH_LENGTH), unique=True)
    edit_generation: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list[GroupPlayer]] = relationship(
        back_populates="group", order_by="GroupPlayer.id", cascade="all, delete-orphan"
    )
    tables: Mapped[list[Table]] = relationship(back_populates="group", order_by="Table.id")

    @property
    def roster(self) -> list[GroupPlayer]:
        """The players still on the roster (removed ones keep their past results)."""
        return [p for p in self.players if p.active]


class GroupPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A member of a group; the id stays the same through renames, so results follow."""

    __tablename__ = "group_players"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    # Off the roster: not offered for new tables, but their results stay in the stats.
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    group: Mapped[Group] = relationship(back_populates="players")


class PlayResult(db.Model):  # type: ignore[name-defined,misc]
    """One player's result in one finished play of a group's table: what the statistics
    aggregate in the database. Written when a play is finished, removed when it is
    reopened, so it always matches the plays that count."""

    __tablename__ = "play_results"
    __table_args__ = (
        UniqueConstraint("play_id", "seat"),
        # Indexes for the statistics, each holding every column its queries read, so
        # they are answered from the index alone: leaderboards, wins per month and score
        # spread (per game or overall); a player's plays newest first (history filter,
        # head-to-head); and the plays themselves by their first seat's row, newest first
        # (history, plays per game).
        Index(
            "ix_play_results_board",
            "group_id",
            "game",
            "group_player_id",
            "winner",
            "shared",
            "score",
            "month",
            "finished_at",
        ),
        Index(
            "ix_play_results_player_time",
            "group_id",
            "group_player_id",
            "finished_at",
            "play_id",
            "rank",
        ),
        Index("ix_play_results_plays", "group_id", "seat", "finished_at", "play_id", "game"),
        # The skill ratings replay a group's plays in the order they were finished, each
        # with its players' places: read in that order from this index alone.
        Index(
            "ix_play_results_ratings",
            "group_id",
            "finished_at",
            "play_id",
            "seat",
            "group_player_id",
            "rank",
            "game",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id", ondelete="CASCADE"), index=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    group_player_id: Mapped[int] = mapped_column(
        ForeignKey("group_players.id", ondelete="CASCADE")
    )
    game: Mapped[str] = mapped_column(String(GAME_SLUG_LENGTH))
    # The name the player had in this play (the group's name may change later).
    player: Mapped[str] = mapped_column(String(NAME_LENGTH))
    seat: Mapped[int]
    score: Mapped[int]
    rank: Mapped[int]
    winner: Mapped[bool]
    # Whether the win (or the loss) was shared: more than one winner in the play.
    shared: Mapped[bool]
    finished_at: Mapped[datetime]
    # "2026-11": the month of the play, stored so both databases group by it alike.
    month: Mapped[str] = mapped_column(String(7))


class RateLimitCount(db.Model):  # type: ignore[name-defined,misc]
    """One rate limit's count for one network while its window lasts (every worker process
    counts here; see ``services/rate_counts.py``, which writes it in plain SQL)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int]
    # When the window ends, in seconds since the epoch (as the ``limits`` library counts).
    expires_at: Mapped[float] = mapped_column(Float, index=True)
