"""Export and import: a play, a table, a group, or everything, as JSON (complete) and CSV
(one row per player per play).

The JSON holds what the database holds, without its ids or any secret: rows refer to
each other by their position in the export (a table's seat, a group's member number), so
exporting an import gives the same document again. Importing creates new groups and
tables with fresh random uids, hence fresh links; nothing from the old links carries
over. Every state, edit, cached result and engine version is kept as it was, and so is
every photo kept with a play (its JPEG in base64, as stored: ``photos`` of each play).
"""

from __future__ import annotations

import base64
import csv
import io
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from companion.extensions import db
from companion.games import GAMES
from companion.games.problems import parse_path
from companion.models import (
    Edit,
    Group,
    GroupPlayer,
    Photo,
    Play,
    PlayResult,
    Series,
    SpeciesDefinition,
    Table,
)
from companion.services import groups, photo_images, photo_store, photos, tables, transfer_checks
from companion.services.tables import Access

FORMAT = "odd-companion"
VERSION = 1
KINDS = ("play", "table", "group", "everything")
CSV_COLUMNS = (
    "group",
    "table",
    "play",
    "game",
    "status",
    "finished_at",
    "seat",
    "player",
    "score",
    "rank",
    "winner",
)

Progress = Callable[[int], None]


class ImportRefused(Exception):  # noqa: N818 - raised as "the import is refused"
    """The document is not an export this app can recreate; nothing stored. ``lines``
    says why, one line per problem (where it is, then what is wrong)."""

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parse_when(value: Any) -> datetime | None:
    if value is None:
        return None
    return _required_when(value)


def _required_when(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ImportRefused(f"{value!r} is not a date and time.")
    return datetime.fromisoformat(value)


# --- export ----------------------------------------------------------------------------------


def _emptied(value: Any) -> Any:
    """A value of the same kind with nothing in it."""
    if isinstance(value, dict):
        return {}
    if isinstance(value, list):
        return []
    return None


def shared_value(value: Any, private: frozenset[str]) -> Any:
    """A JSON value with the contents of every private key emptied (a hand of cards):
    what the whole table may see.

    >>> shared_value({"rounds": [{"hands": {"Ann": ["2"]}, "lead": "Ann"}]}, frozenset({"hands"}))
    {'rounds': [{'hands': {}, 'lead': 'Ann'}]}
    """
    if not private:
        return value
    if isinstance(value, dict):
        return {
            key: _emptied(item) if key in private else shared_value(item, private)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [shared_value(item, private) for item in value]
    return value


def _shared_change(path: str | None, value: Any, private: frozenset[str]) -> Any:
    """An edit's value as the table may see it: emptied when the path is inside a
    private key, else with the private keys in it emptied."""
    parts = parse_path(path) if path else None
    if parts is not None and any(part in private for part in parts):
        return _emptied(value)
    return shared_value(value, private)


def edit_json(edit: Any, private: frozenset[str]) -> dict[str, Any]:
    """An edit (a stored ``Edit``, or a row with its columns) as the export lists it."""
    value, previous = edit.value, edit.previous
    if private and edit.path is not None:
        value = _shared_change(edit.path, value, private)
        previous = _shared_change(edit.path, previous, private)
    elif private and isinstance(value, list):
        value = [
            {
                **change,
                "value": _shared_change(change.get("path"), change.get("value"), private),
                "previous": _shared_change(change.get("path"), change.get("previous"), private),
            }
            for change in value
        ]
    return {
        "number": edit.number,
        "kind": edit.kind,
        "path": edit.path,
        "value": value,
        "previous": previous,
        "undoes": edit.undoes,
        "device": edit.device,
        "author": edit.author,
        "created_at": _when(edit.created_at),
    }


def private_keys_of(play: Play, *, complete: bool) -> frozenset[str]:
    """What an export of this play leaves out: its game's private keys, unless complete."""
    game = GAMES.get(play.game)
    return frozenset() if complete or game is None else game.private_keys


def play_head_json(
    play: Any,
    *,
    seats: Mapping[int, int],
    series: Mapping[int, int],
    private: frozenset[str],
) -> dict[str, Any]:
    """A play (a stored ``Play`` or a row of its columns) as the export lists it, but for
    its edits and results (which come last)."""
    return {
        "game": play.game,
        "options": play.options,
        "player_ids": (
            None
            if play.player_ids is None
            else {name: seats.get(pid) for name, pid in play.player_ids.items()}
        ),
        "state": shared_value(play.state, private),
        "version": play.version,
        "status": play.status,
        "result": shared_value(play.result, private),
        "engine_version": play.engine_version,
        "created_at": _when(play.created_at),
        "finished_at": _when(play.finished_at),
        "series": series.get(play.series_id) if play.series_id is not None else None,
        "series_index": play.series_index,
    }


def results_json(rows: Iterable[PlayResult], members: Mapping[int, int]) -> list[dict[str, Any]]:
    """A play's rows in its group's statistics, members named by their roster number."""
    return [
        {
            "member": members.get(row.group_player_id),
            "player": row.player,
            "seat": row.seat,
            "score": row.score,
            "rank": row.rank,
            "winner": row.winner,
            "shared": row.shared,
            "finished_at": _when(row.finished_at),
            "month": row.month,
        }
        for row in rows
    ]


def photo_json(photo: Any, data: bytes) -> dict[str, Any]:
    """A photo (a stored ``Photo``, or a row of its columns) and its JPEG as the export
    lists it."""
    return {
        "created_at": _when(photo.created_at),
        "device": photo.device,
        "author": photo.author,
        "width": photo.width,
        "height": photo.height,
        "jpeg": base64.b64encode(data).decode("ascii"),
    }


def photos_json(listed: Iterable[Photo]) -> list[dict[str, Any]]:
    """The photos with their JPEGs, as the export lists them (one whose file is gone
    from the storage has nothing to show, and is left out)."""
    store = photo_store.store()
    found = []
    for photo in listed:
        try:
            found.append(photo_json(photo, store.read(photo.uid)))
        except FileNotFoundError:
            continue
    return found


def _play_json(
    play: Play,
    *,
    seats: Mapping[int, int],
    series: Mapping[int, int],
    members: Mapping[int, int],
    complete: bool,
) -> dict[str, Any]:
    private = private_keys_of(play, complete=complete)
    # Only a group's export lists results (they name its members): no query otherwise.
    results: Iterable[PlayResult] = (
        db.session.scalars(
            select(PlayResult).where(PlayResult.play_id == play.id).order_by(PlayResult.seat)
        )
        if members
        else []
    )
    return {
        **play_head_json(play, seats=seats, series=series, private=private),
        "edits": [edit_json(edit, private) for edit in play.edits],
        "results": results_json(results, members) if members else [],
        "photos": photos_json(play.photos),
    }


def _table_json(
    table: Table, *, members: Mapping[int, int], complete: bool, only: Play | None = None
) -> dict[str, Any]:
    seats = {player.id: player.seat for player in table.players}
    chosen = [only] if only is not None else _plays_with_edits(table)
    wanted = [s for s in table.series if any(p.series_id == s.id for p in chosen)]
    series = {s.id: n for n, s in enumerate(wanted)}
    return {
        **table_head_json(table, members=members, series=wanted),
        "plays": [
            _play_json(play, seats=seats, series=series, members=members, complete=complete)
            for play in chosen
        ],
    }


def table_head_json(
    table: Table,
    *,
    members: Mapping[int, int],
    series: Sequence[Series],
    species: Sequence[SpeciesDefinition] | None = None,
) -> dict[str, Any]:
    """A table as the export lists it, but for its plays (which come last); ``series``:
    those of its series the export's plays belong to; ``species``: its definitions, when
    the caller read them already."""
    if species is None:
        species = db.session.scalars(
            select(SpeciesDefinition)
            .where(SpeciesDefinition.table_id == table.id)
            .order_by(SpeciesDefinition.id)
        ).all()
    return {
        "created_at": _when(table.created_at),
        "last_used_at": _when(table.last_used_at),
        "version": table.version,
        "players": [
            {"seat": p.seat, "name": p.name, "member": members.get(p.group_player_id or 0)}
            for p in table.players
        ],
        "series": [
            {"game": s.game, "length": s.length, "created_at": _when(s.created_at)} for s in series
        ],
        "species": [
            {
                "species": d.species,
                "side": d.side,
                "rule": d.rule,
                "created_at": _when(d.created_at),
            }
            for d in species
        ],
    }


def _plays_with_edits(table: Table) -> list[Play]:
    """The table's plays with their edit logs, loaded in two queries (not one a play)."""
    return list(
        db.session.scalars(
            select(Play)
            .where(Play.table_id == table.id)
            .order_by(Play.id)
            .options(selectinload(Play.edits), selectinload(Play.photos))
        )
    )


def _group_json(group: Group, *, complete: bool, progress: Progress | None) -> dict[str, Any]:
    members = members_of(group)
    exported = []
    for table in group.tables:
        exported.append(_table_json(table, members=members, complete=complete))
        if progress is not None:
            progress(1)
    return {**group_head_json(group), "tables": exported}


def members_of(group: Group) -> dict[int, int]:
    """Each member's roster number (as the export names them) by their id."""
    return {player.id: n for n, player in enumerate(group.players)}


def group_head_json(group: Group) -> dict[str, Any]:
    """A group as the export lists it, but for its tables (which come last)."""
    return {
        "name": group.name,
        "created_at": _when(group.created_at),
        "players": [
            {"name": p.name, "active": p.active, "created_at": _when(p.created_at)}
            for p in group.players
        ],
    }


def document_json(kind: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The export's envelope (format, version, kind) around its body."""
    return {"format": FORMAT, "version": VERSION, "kind": kind, **body}


def export_play(play: Play, *, complete: bool = False) -> dict[str, Any]:
    """One play with its table's players (and its series' entry, if in one).

    Exports shared through a link leave out what only one player's phone may see (the
    game's ``private_keys``, such as a hand of cards); ``complete`` keeps everything (the
    command-line backup).
    """
    table = _table_json(play.table, members={}, complete=complete, only=play)
    return document_json("play", {"table": table})


def export_table(table: Table, *, complete: bool = False) -> dict[str, Any]:
    """A table with every play, edit log and cached result (not its group)."""
    return document_json("table", {"table": _table_json(table, members={}, complete=complete)})


def export_group(
    group: Group, progress: Progress | None = None, *, complete: bool = False
) -> dict[str, Any]:
    """A group: roster, every table started from it, every play and result."""
    return document_json(
        "group", {"group": _group_json(group, complete=complete, progress=progress)}
    )


def table_fingerprint(table: Table) -> tuple[int, ...]:
    """What changes whenever the table's export would: its version (roster, games started,
    finished or reopened) and its plays' versions (every edit, a species definition's
    too). Versions only grow, so an export kept under this stays right; one query."""
    counted = select(db.func.count(Play.id), db.func.coalesce(db.func.sum(Play.version), 0))
    plays_count, versions = db.session.execute(counted.where(Play.table_id == table.id)).one()
    return (table.id, table.version, int(plays_count), int(versions))


def group_fingerprint(group: Group) -> tuple[Any, ...]:
    """What changes whenever the group's export would: its name and roster, and the
    versions of all its tables and their plays (two queries however many tables)."""
    in_group = Table.group_id == group.id
    tables_count, table_versions = db.session.execute(
        select(db.func.count(Table.id), db.func.coalesce(db.func.sum(Table.version), 0)).where(
            in_group
        )
    ).one()
    plays_count, play_versions = db.session.execute(
        select(db.func.count(Play.id), db.func.coalesce(db.func.sum(Play.version), 0))
        .join(Table, Play.table_id == Table.id)
        .where(in_group)
    ).one()
    roster = tuple((p.id, p.name, p.active) for p in group.players)
    counts = (int(tables_count), int(table_versions), int(plays_count), int(play_versions))
    return (group.id, group.name, roster, *counts)


def everything_count() -> int:
    """How many tables a full export walks (for a progress bar)."""
    return int(db.session.scalar(select(db.func.count()).select_from(Table)) or 0)


def export_everything(progress: Progress | None = None) -> dict[str, Any]:
    """Every group and every table that belongs to none, complete: a backup."""
    all_groups = db.session.scalars(select(Group).order_by(Group.id))
    loose = db.session.scalars(select(Table).where(Table.group_id.is_(None)).order_by(Table.id))
    tables_json = []
    for table in loose:
        tables_json.append(_table_json(table, members={}, complete=True))
        if progress is not None:
            progress(1)
    return document_json(
        "everything",
        {
            "groups": [_group_json(g, complete=True, progress=progress) for g in all_groups],
            "tables": tables_json,
        },
    )


# --- CSV -------------------------------------------------------------------------------------


def csv_rows(document: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """One row per player per play of an export (its stored result: the scores the
    engine gave when the play was last changed)."""
    kind = document["kind"]
    if kind == "group":
        found = [(document["group"]["name"], document["group"]["tables"])]
    elif kind == "everything":
        found = [(g["name"], g["tables"]) for g in document["groups"]]
        found.append(("", document["tables"]))
    else:
        found = [("", [document["table"]])]
    for group_name, table_list in found:
        for table_number, table in enumerate(table_list, 1):
            for play_number, play in enumerate(table["plays"], 1):
                yield from play_rows(group_name, table_number, play_number, play)


def play_rows(
    group: str, table: int, number: int, play: Mapping[str, Any]
) -> Iterable[dict[str, Any]]:
    result = play["result"]
    if not result:
        return
    seats = list(play["player_ids"] or {})
    for standing in result["standings"]:
        name = standing["player"]
        yield {
            "group": group,
            "table": table,
            "play": number,
            "game": play["game"],
            "status": play["status"],
            "finished_at": play["finished_at"] or "",
            "seat": seats.index(name) + 1 if name in seats else "",
            "player": name,
            "score": standing["score"],
            "rank": standing["rank"],
            "winner": "yes" if standing["winner"] else "no",
        }


def to_csv(document: Mapping[str, Any]) -> str:
    """An export as CSV text (a header, then one row per player per play)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in csv_rows(document):
        writer.writerow(safe_row(row))
    return out.getvalue()


def safe_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A CSV row whose cells no spreadsheet runs as formulas."""
    return {k: _safe_cell(v) for k, v in row.items()}


def _safe_cell(value: Any) -> Any:
    """A typed name starting with = + - @ is not run as a formula by spreadsheets."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


# --- import ----------------------------------------------------------------------------------


def import_document(document: Any, progress: Progress | None = None) -> list[tuple[str, str]]:
    """Recreate an export, all or nothing. Returns what was created as ``(kind, edit
    token)`` pairs (fresh links: kind ``"group"`` or ``"table"``).

    The whole document is checked first, without touching the database
    (:func:`check_document`). Then each group's roster and each table is written in a
    transaction of its own, so live tables' taps never wait long for the database's write
    lock during a large restore; should a write fail all the same, everything this import
    wrote is removed again before :class:`ImportRefused` is raised.
    """
    check_document(document)
    created: list[Group | Table] = []
    written: list[str] = []
    try:
        _import(document, progress, created, written)
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        IndexError,
        OverflowError,
        RecursionError,
        SQLAlchemyError,
        photo_images.PhotoRefused,
    ) as error:
        _remove(created, written)
        raise ImportRefused(f"This is not a complete export ({type(error).__name__}).") from None
    return [
        ("group", groups.token_for(item, Access.EDIT))
        if isinstance(item, Group)
        else ("table", tables.token_for(item, Access.EDIT))
        for item in created
    ]


def _remove(created: Sequence[Group | Table], written: Sequence[str] = ()) -> None:
    """Take back what a failed import wrote (its tables, then its groups), and the
    photos' files it wrote (``written``: their uids, committed or not)."""
    db.session.rollback()
    table_ids = [item.id for item in created if isinstance(item, Table)]
    group_ids = [item.id for item in created if isinstance(item, Group)]
    if group_ids:
        table_ids += db.session.scalars(select(Table.id).where(Table.group_id.in_(group_ids)))
    gone = {*written, *photos.uids_of_tables(table_ids)}
    db.session.execute(delete(Table).where(Table.id.in_(table_ids)))
    db.session.execute(delete(Group).where(Group.id.in_(group_ids)))
    db.session.commit()
    photo_store.store().remove(sorted(gone))


def check_document(document: Any) -> None:
    """Raise :class:`ImportRefused` with every reason the document cannot be recreated
    (the rules of the pages and the API, the caps, the engines' checks of each state);
    reads nothing from the database and writes nothing."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused("This is not an Odd Companion export.")
    version = document.get("version")
    if version != VERSION:
        shown = repr(version) if len(repr(version)) <= 20 else "another"
        raise ImportRefused(f"This export has version {shown}; this app reads version 1.")
    kind = document.get("kind")
    if kind not in KINDS:
        shown = repr(kind)[:40]
        raise ImportRefused(f"Unknown kind of export: {shown}.")
    too_deep = transfer_checks.depth_problem(document)
    if too_deep is not None:
        raise ImportRefused(too_deep)
    problems = transfer_checks.refusals(kind, document)
    if problems:
        raise ImportRefused(*problems)


def _import(
    document: Any, progress: Progress | None, created: list[Group | Table], written: list[str]
) -> None:
    """Write a checked document; ``created`` collects each group and table once stored,
    ``written`` the uid of each photo whose files were written."""
    kind = document["kind"]
    found_groups = [document["group"]] if kind == "group" else document.get("groups", [])
    loose = [document["table"]] if kind in ("play", "table") else document.get("tables", [])
    for data in found_groups:
        _import_group(data, progress, created, written)
    for data in loose:
        table = _import_table(data, group=None, members=[], progress=progress, written=written)
        created.append(table)


def _import_group(
    data: Mapping[str, Any],
    progress: Progress | None,
    created: list[Group | Table],
    written: list[str],
) -> None:
    group = Group(
        uid=secrets.token_hex(16),
        name=str(data["name"]).strip(),
        edit_generation=0,
        created_at=_parse_when(data["created_at"]),
    )
    group.edit_token_hash = groups._hash(groups.token_for(group, Access.EDIT))
    group.view_token_hash = groups._hash(groups.token_for(group, Access.VIEW))
    db.session.add(group)
    members = [
        GroupPlayer(
            name=str(p["name"]).strip(),
            active=bool(p["active"]),
            created_at=_parse_when(p["created_at"]),
        )
        for p in data["players"]
    ]
    group.players = members
    db.session.commit()
    created.append(group)
    for table in data["tables"]:
        _import_table(table, group=group, members=members, progress=progress, written=written)


def _import_table(
    data: Mapping[str, Any],
    *,
    group: Group | None,
    members: Sequence[GroupPlayer],
    progress: Progress | None,
    written: list[str],
) -> Table:
    names = [str(p["name"]).strip() for p in sorted(data["players"], key=lambda p: p["seat"])]
    table = tables.new_table(names)
    table.created_at = _required_when(data["created_at"])
    table.last_used_at = _required_when(data["last_used_at"])
    table.version = int(data["version"])
    table.group = group
    for seat, player in zip(
        table.players, sorted(data["players"], key=lambda p: p["seat"]), strict=True
    ):
        if player["member"] is not None and group is not None:
            seat.group_player_id = members[player["member"]].id
    table.series = [
        Series(
            game=_known(s["game"]),
            length=int(s["length"]),
            created_at=_parse_when(s["created_at"]),
        )
        for s in data["series"]
    ]
    db.session.flush()  # the definitions name the table by its id
    for d in data["species"]:
        db.session.add(
            SpeciesDefinition(
                table_id=table.id,
                species=d["species"],
                side=d["side"],
                rule=d["rule"],
                created_at=_parse_when(d["created_at"]),
            )
        )
    db.session.flush()
    for play in data["plays"]:
        _import_play(play, table=table, group=group, members=members, written=written)
    db.session.commit()  # one table a transaction: live tables' taps wait little
    if progress is not None:
        progress(1)
    return table


def _import_photo(data: Mapping[str, Any], *, play: Play, written: list[str]) -> None:
    """Keep a photo of the export with its imported play: its JPEG as it was when it is
    what the app writes (``photo_images.restored``), its thumbnail made again."""
    kept = photo_images.restored(photo_images.from_base64(data["jpeg"]))
    uid = secrets.token_hex(16)
    photo_store.store().write(uid, kept.photo, kept.thumbnail)
    written.append(uid)
    row = photos.new_row(play, uid, kept, device=str(data["device"]), author=data.get("author"))
    created_at = _parse_when(data["created_at"])
    if created_at is not None:
        row.created_at = created_at
    db.session.add(row)


def _known(slug: Any) -> str:
    if slug not in GAMES:
        raise ImportRefused(f"This app does not know the game {slug!r}.")
    return str(slug)


def _import_play(
    data: Mapping[str, Any],
    *,
    table: Table,
    group: Group | None,
    members: Sequence[GroupPlayer],
    written: list[str],
) -> None:
    seats = {p.seat: p.id for p in table.players}
    player_ids = data["player_ids"]
    series = table.series[data["series"]] if data["series"] is not None else None
    play = Play(
        table=table,
        game=_known(data["game"]),
        options=data["options"],
        state=data["state"],
        version=int(data["version"]),
        status=str(data["status"]),
        result=data["result"],
        engine_version=data["engine_version"],
        created_at=_parse_when(data["created_at"]),
        finished_at=_parse_when(data["finished_at"]),
        series=series,
        series_index=data["series_index"],
        player_ids=(
            None
            if player_ids is None
            else {str(name): seats.get(seat) for name, seat in player_ids.items()}
        ),
    )
    play.edits = [
        Edit(
            number=int(e["number"]),
            kind=str(e["kind"]),
            path=e["path"],
            value=e["value"],
            previous=e["previous"],
            undoes=e["undoes"],
            device=str(e["device"]),
            author=e["author"],
            created_at=_parse_when(e["created_at"]),
        )
        for e in data["edits"]
    ]
    db.session.add(play)
    db.session.flush()
    for photo in data.get("photos", []):
        _import_photo(photo, play=play, written=written)
    if group is None:
        return
    for row in data["results"]:
        db.session.add(
            PlayResult(
                play_id=play.id,
                group_id=group.id,
                group_player_id=members[row["member"]].id,
                game=play.game,
                player=str(row["player"]),
                seat=int(row["seat"]),
                score=int(row["score"]),
                rank=int(row["rank"]),
                winner=bool(row["winner"]),
                shared=bool(row["shared"]),
                finished_at=_parse_when(row["finished_at"]),
                month=str(row["month"]),
            )
        )
