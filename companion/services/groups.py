"""Groups: a roster kept across evenings, its capability links, tables started from it,
and the per-player results its statistics read.

A group's links are derived like a table's (HMAC-SHA256 of its random ``uid`` and a
generation with the secret key, 128 bits) under their own prefix, so a group token never
opens a table nor the other way round. Only their hashes are stored; rotating the edit
link bumps its generation and the old link stops working.

Results: when a play of a group's table is finished, one :class:`PlayResult` row per
player is written in the same transaction (its current result, from the engine); when it
is reopened the rows go. Rows point at the group member by id, so renames and merges keep
every result where it belongs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from sqlalchemy import delete, func, select, update

from companion.extensions import db
from companion.games.names import (
    MAX_NAME_LENGTH,
    SHOWS_NOTHING_MESSAGE,
    hidden_character,
    hidden_character_message,
    lookalike_message,
    looks_alike,
    shows_nothing,
)
from companion.games.text import N_, _
from companion.models import (
    GROUP_NAME_LENGTH,
    Group,
    GroupPlayer,
    Play,
    Player,
    PlayResult,
    Table,
    utcnow,
)
from companion.services import caps, tables
from companion.services.results import current_result
from companion.services.tables import MAX_PLAYERS_AT_TABLE, Access
from companion.services.units import unit_of_work

TOKEN_BYTES = 16
MONTH = "%Y-%m"


class GroupRefused(Exception):  # noqa: N818 - raised as "the group change is refused"
    """A change that would break the group's rules; nothing stored."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class GroupAccess:
    """A group reached through a link, and whether that link may change anything."""

    group: Group
    access: Access

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes things; the read-only link never does."""
        return self.access is Access.EDIT


# --- links ---------------------------------------------------------------------------------


def _token(group: Group, access: Access) -> str:
    generation = group.edit_generation if access is Access.EDIT else 0
    key = current_app.config["SECRET_KEY"].encode()
    message = f"group-{access.value}.{generation}:{group.uid}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_for(group: Group, access: Access) -> str:
    """The capability token of a group for edit or read-only access."""
    return _token(group, access)


def find(token: str) -> GroupAccess | None:
    """The group a capability token opens, with the access it grants; ``None`` if none."""
    hashed = _hash(token)
    for access, column in (
        (Access.EDIT, Group.edit_token_hash),
        (Access.VIEW, Group.view_token_hash),
    ):
        group = db.session.scalar(select(Group).where(column == hashed))
        if group is not None:
            return GroupAccess(group, access)
    return None


def rotate_edit_link(group: Group) -> str:
    """Give the group a new edit link; the old one stops working at once. Commits and
    returns the new token (the read-only link stays)."""
    group.edit_generation += 1
    group.edit_token_hash = _hash(_token(group, Access.EDIT))
    db.session.commit()
    return _token(group, Access.EDIT)


# --- the group and its roster ----------------------------------------------------------------


#: What a name may be (a member's, the group's): its refusals, each a whole sentence.
NAME_SUBJECTS = {
    N_("A name"): (N_("A name cannot be empty."), N_("A name has at most %(most)s characters.")),
    N_("The group's name"): (
        N_("The group's name cannot be empty."),
        N_("The group's name has at most %(most)s characters."),
    ),
}


def checked_name(text: str, *, most: int = MAX_NAME_LENGTH, what: str = "A name") -> str:
    """A trimmed name, or :class:`GroupRefused` saying what is wrong with it (``what``:
    one of :data:`NAME_SUBJECTS`)."""
    empty, too_long = NAME_SUBJECTS[what]
    cleaned = text.strip()
    if not cleaned:
        raise GroupRefused(_(empty))
    if len(cleaned) > most:
        raise GroupRefused(_(too_long, most=most))
    hidden = hidden_character(cleaned)
    if hidden is not None:
        raise GroupRefused(hidden_character_message(hidden, subject=_(what)))
    if shows_nothing(cleaned):
        raise GroupRefused(_(SHOWS_NOTHING_MESSAGE))
    return cleaned


def refuse_lookalike(group: Group, name: str, *, besides: GroupPlayer | None = None) -> None:
    """Refuse a new member's name (or a new name for ``besides``) that looks just like
    another member's without being it: two Anns nobody can tell apart on the pages."""
    cleaned = name.strip()
    names = [p.name for p in group.players if p is not besides]
    if any(known.casefold() == cleaned.casefold() for known in names):
        return  # that member, by name: not a lookalike
    twin = looks_alike(cleaned, names)
    if twin is not None:
        raise GroupRefused(lookalike_message(cleaned, twin))


@unit_of_work
def create_group(name: str, players: Sequence[str]) -> Group:
    """Create a group with a name and its first players; commits."""
    group = Group(
        uid=secrets.token_hex(16),
        name=checked_name(name, most=GROUP_NAME_LENGTH, what="The group's name"),
        edit_generation=0,
    )
    group.edit_token_hash = _hash(_token(group, Access.EDIT))
    group.view_token_hash = _hash(_token(group, Access.VIEW))
    db.session.add(group)
    for player in players:
        if player.strip():
            refuse_lookalike(group, player)
            _join(group, player)
    return group


def _by_name(group: Group, name: str) -> GroupPlayer | None:
    folded = name.casefold()
    return next((p for p in group.players if p.name.casefold() == folded), None)


def _join(group: Group, name: str) -> GroupPlayer:
    """The member called ``name`` (back on the roster if removed), or a new one."""
    cleaned = checked_name(name)
    member = _by_name(group, cleaned)
    if member is None:
        if len(group.players) >= caps.MAX_GROUP_MEMBERS:
            raise GroupRefused(caps.too_many_members())
        member = GroupPlayer(name=cleaned, active=True)
        group.players.append(member)
        db.session.flush()
    member.active = True
    return member


@unit_of_work
def add_player(group: Group, name: str) -> GroupPlayer:
    """Put a player on the roster (a removed one with that name comes back); commits."""
    refuse_lookalike(group, name)
    return _join(group, name)


def member(group: Group, player_id: int) -> GroupPlayer:
    """A member of this group by id (never another group's)."""
    found = next((p for p in group.players if p.id == player_id), None)
    if found is None:
        raise GroupRefused(_("That player is not in this group. Refresh the page."))
    return found


@unit_of_work
def rename_player(group: Group, player_id: int, name: str) -> None:
    """Rename a member; their results follow (past plays keep the name played with)."""
    renamed = member(group, player_id)
    cleaned = checked_name(name)
    refuse_lookalike(group, cleaned, besides=renamed)
    other = _by_name(group, cleaned)
    if other is not None and other is not renamed:
        raise GroupRefused(
            f"{other.name} is already in the group. To make them one player, merge them."
        )
    renamed.name = cleaned


@unit_of_work
def remove_player(group: Group, player_id: int) -> None:
    """Take a member off the roster; their past results stay in the statistics."""
    member(group, player_id).active = False


@unit_of_work
def merge_players(group: Group, *, duplicate_id: int, into_id: int) -> None:
    """Make a typo duplicate one player with another: every result and seat of the
    duplicate moves to ``into``, then the duplicate is deleted. Commits.

    Refused when both played in the same game: they are then two people.
    """
    duplicate = member(group, duplicate_id)
    kept = member(group, into_id)
    if duplicate is kept:
        raise GroupRefused(_("Pick two different players to merge."))
    mine = select(PlayResult.play_id).where(PlayResult.group_player_id == duplicate.id)
    together = db.session.scalar(
        select(db.func.count())
        .select_from(PlayResult)
        .where(PlayResult.group_player_id == kept.id, PlayResult.play_id.in_(mine))
    )
    if together:
        raise GroupRefused(
            f"{duplicate.name} and {kept.name} played in the same game: they are two people."
        )
    db.session.execute(
        update(PlayResult)
        .where(PlayResult.group_player_id == duplicate.id)
        .values(group_player_id=kept.id)
    )
    # The tables they sat at show BG Stats links naming the member: their pages change.
    seated = select(Player.table_id).where(Player.group_player_id == duplicate.id)
    db.session.execute(
        update(Table)
        .where(Table.id.in_(seated))
        .values(version=Table.version + 1, last_used_at=utcnow())
    )
    db.session.execute(
        update(Player)
        .where(Player.group_player_id == duplicate.id)
        .values(group_player_id=kept.id)
    )
    kept.active = kept.active or duplicate.active
    group.players.remove(duplicate)


# --- tables of the group ---------------------------------------------------------------------


@unit_of_work
def start_table(group: Group, *, seated: Sequence[int], new_names: Sequence[str] = ()) -> Table:
    """A table from the group: the picked members in this seating order, then any new
    names (who join the group). Commits."""
    members = [member(group, player_id) for player_id in seated]
    if len({m.id for m in members}) != len(members):
        raise GroupRefused(_("A player can sit at the table only once."))
    for name in new_names:
        if name.strip():
            refuse_lookalike(group, name)
            members.append(_join(group, name))
    if not members:
        raise GroupRefused(_("Pick tonight's players (tap their names in seating order)."))
    if _table_count(group) >= caps.MAX_GROUP_TABLES:
        raise GroupRefused(caps.too_many_tables())
    if len(members) > MAX_PLAYERS_AT_TABLE:
        raise GroupRefused(_("A table seats at most %(most)s players.", most=MAX_PLAYERS_AT_TABLE))
    if len({m.id for m in members}) != len(members):
        raise GroupRefused(_("A new name is already in the group: tap it instead."))
    table = tables.new_table([m.name for m in members])
    table.group = group
    for seat, chosen in zip(table.players, members, strict=True):
        seat.group_player_id = chosen.id
    return table


def _table_count(group: Group) -> int:
    """How many tables were started from the group (counted, not loaded)."""
    counted = select(func.count()).select_from(Table).where(Table.group_id == group.id)
    return int(db.session.scalar(counted) or 0)


@unit_of_work
def seat_late_friend(table: Table, name: str) -> Player:
    """Seat a new player last at the table and, at a group's table, make them a member (or
    the member of that name); one unit of work. A group whose roster is full leaves the
    friend at the table all the same, just not on its roster."""
    seat = tables.seat_player(table, name)
    if table.group is None:
        return seat
    try:
        member = _join(table.group, seat.name)  # refuses before it writes anything
    except GroupRefused:
        return seat
    seat.group_player_id = member.id
    return seat


# --- results ---------------------------------------------------------------------------------


def record_results(play: Play, *, finished_at: datetime | None) -> None:
    """Keep the play's rows in the results table as its status is about to be (the
    caller commits): a play of a group's table finished at ``finished_at`` has one row per
    player; a reopened one (``None``) has none."""
    db.session.execute(delete(PlayResult).where(PlayResult.play_id == play.id))
    table = play.table
    if table.group_id is None or finished_at is None:
        return
    result = current_result(play)
    if result is None:
        return
    group = db.session.get(Group, table.group_id)
    if group is None:  # pragma: no cover - the foreign key keeps it
        return
    finished = finished_at
    winners = sum(1 for standing in result["standings"] if standing["winner"])
    seats = {name: seat for seat, name in enumerate(_names_of(play, result))}
    for standing in result["standings"]:
        name = standing["player"]
        db.session.add(
            PlayResult(
                play_id=play.id,
                group_id=group.id,
                group_player_id=_member_of(play, group, name).id,
                game=play.game,
                player=name,
                seat=seats[name],
                score=int(standing["score"]),
                rank=int(standing["rank"]),
                winner=bool(standing["winner"]),
                shared=winners > 1,
                finished_at=finished,
                month=finished.strftime(MONTH),
            )
        )


def _names_of(play: Play, result: dict[str, object]) -> list[str]:
    """The play's players in seating order: as the play started (its ``player_ids`` keep
    that order), then anyone the result names besides."""
    standings = result["standings"]
    assert isinstance(standings, list)
    playing = [s["player"] for s in standings]
    names = [name for name in play.player_ids or {} if name in playing]
    # Seats are 0, 1, 2... over the players of the result: each play has one row at seat
    # 0, which the statistics count plays by.
    return names + [name for name in playing if name not in names]


def _member_of(play: Play, group: Group, name: str) -> GroupPlayer:
    """The group member who played as ``name``: through the seat they sat in, else by
    name; a name the group does not know joins it."""
    seat_id = (play.player_ids or {}).get(name)
    seat = db.session.get(Player, seat_id) if seat_id is not None else None
    if seat is not None and seat.group_player_id is not None:
        found = db.session.get(GroupPlayer, seat.group_player_id)
        if found is not None and found.group_id == group.id:
            return found
    known = _by_name(group, name)
    if known is not None:
        return known
    joined = GroupPlayer(name=name[:MAX_NAME_LENGTH], active=True)
    group.players.append(joined)
    db.session.flush()
    if seat is not None:
        seat.group_player_id = joined.id
    return joined
