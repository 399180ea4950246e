"""A group's pages: its roster and links, starting a table from it, leaderboards, charts,
head-to-head, history, and exports (of a group, a table or a play)."""

from __future__ import annotations

import re
from functools import partial
from http import HTTPStatus
from typing import Any

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask.blueprints import BlueprintSetupState
from werkzeug.wrappers import Response

from companion.games import GAMES
from companion.games.text import N_, _, spoken_list
from companion.models import Group, Play
from companion.services import (
    evening,
    groups,
    photos,
    stats,
    table_results,
    tables,
    transfer,
    transfer_stream,
)
from companion.services.groups import GroupAccess, GroupRefused
from companion.services.ratings import OVERALL, PROVISIONAL_GAMES
from companion.services.tables import Access, TableAccess
from companion.web import exports, limits, table_pages
from companion.web import ratings as group_ratings
from companion.web.charts import distribution_chart, wins_chart
from companion.web.context import note_table, open_table
from companion.web.group_forms import (
    HistoryFilterForm,
    MemberForm,
    NewGroupForm,
    StartTableForm,
    VersusForm,
)
from companion.web.limits import limiter
from companion.web.play.actions import load_play
from companion.web.responses import page_or_fragment

bp = Blueprint("groups", __name__)
#: Names listed as people say them, in the reader's language ("Ann, Ben and Cy").
bp.add_app_template_filter(spoken_list, "spoken")

UNPROCESSABLE = HTTPStatus.UNPROCESSABLE_ENTITY
READ_ONLY_MESSAGE = N_("This is the group's read-only link: it cannot change anything.")
#: Every export route shares one limit per network (``RATE_LIMIT_EXPORTS``).
EXPORT_LIMIT = limiter.shared_limit(limits.exports_limit, scope="exports")
#: Finished plays whose exports and BG Stats links the table page lists (the latest).
KEEP_LINKS = 20
ID_TEXT = re.compile(r"[0-9]{1,10}")


# --- loaders -------------------------------------------------------------------------------


def open_group(token: str) -> GroupAccess:
    """The group a capability link opens (edit or read-only), else 404."""
    group_access = groups.find(token)
    if group_access is None:
        abort(404)
    return group_access


def open_group_for_edit(token: str) -> GroupAccess:
    """The group of an edit link; a read-only link gets 403, whatever it asks for."""
    group_access = open_group(token)
    if not group_access.can_edit:
        abort(HTTPStatus.FORBIDDEN, _(READ_ONLY_MESSAGE))
    return group_access


def group_token(group_access: GroupAccess) -> str:
    """The token of the link this request came through."""
    return groups.token_for(group_access.group, group_access.access)


# --- creating a group ----------------------------------------------------------------------


@bp.get("/groups/new")
def new_group() -> Response:
    """The form that creates a group."""
    return page_or_fragment("groups/new.html", "groups/_new.html", form=NewGroupForm())


@bp.post("/groups")
@limiter.limit(limits.tables_limit)
def create_group() -> Response:
    """Create a group and open its page through the edit link."""
    form = NewGroupForm()
    if not form.validate():
        return page_or_fragment(
            "groups/new.html", "groups/_new.html", status=UNPROCESSABLE, form=form
        )
    try:
        group = groups.create_group(form.name.data or "", form.names)
    except GroupRefused as refused:
        form.players.errors = [refused.message]
        return page_or_fragment(
            "groups/new.html", "groups/_new.html", status=UNPROCESSABLE, form=form
        )
    return redirect(url_for("groups.group", token=groups.token_for(group, Access.EDIT)), 303)


# --- the group's page ----------------------------------------------------------------------


def _picked(group_access: GroupAccess) -> list[int]:
    """The members tapped so far for tonight's table, in order (``?pick=3,1``); unknown
    or repeated ids are ignored (the list is only a link, nothing is stored)."""
    known = {p.id for p in group_access.group.roster}
    picked: list[int] = []
    for part in request.args.get("pick", "").split(","):
        # Ids are a few ASCII digits: anything else is no id (and is not converted).
        if ID_TEXT.fullmatch(part) and int(part) in known and int(part) not in picked:
            picked.append(int(part))
    return picked


def _group_context(
    group_access: GroupAccess,
    *,
    members: MemberForm | None = None,
    start: StartTableForm | None = None,
) -> dict[str, Any]:
    group = group_access.group
    token = group_token(group_access)
    picked = _picked(group_access)
    roster = {p.id: p for p in group.roster}
    links = {
        "view": url_for("groups.group", token=groups.token_for(group, Access.VIEW), _external=True)
    }
    if group_access.can_edit:
        edit = groups.token_for(group, Access.EDIT)
        links["edit"] = url_for("groups.group", token=edit, _external=True)
    return {
        "group_access": group_access,
        "group": group,
        "token": token,
        "links": links,
        "picked": [roster[i] for i in picked],
        "pick_links": {p.id: _pick_link(token, picked, p.id) for p in group.roster},
        "members": members or MemberForm(formdata=None),
        "start": start or StartTableForm(formdata=None, seats=",".join(map(str, picked))),
        "board": stats.leaderboard(group),
        "games_played": stats.games_played(group),
        "plays_count": stats.plays_count(group),
        "recent": stats.history(group, stats.Filters(), limit=5),
        "games": GAMES,
    }


def _pick_link(token: str, picked: list[int], player_id: int) -> str:
    """Tapping a name adds them to the seating order, or takes them out again."""
    chosen = [i for i in picked if i != player_id]
    if player_id not in picked:
        chosen.append(player_id)
    pick = ",".join(map(str, chosen)) or None
    return url_for("groups.group", token=token, pick=pick, _anchor="tonight")


@bp.get("/g/<token>")
def group(token: str) -> Response:
    """A group: tonight's table, its roster, its links and its leaderboard."""
    group_access = open_group(token)
    return page_or_fragment(
        "groups/group.html", "groups/_group.html", **_group_context(group_access)
    )


@bp.post("/g/<token>/players")
def members(token: str) -> Response:
    """Change the roster: add, rename, remove, or merge a typo duplicate."""
    group_access = open_group_for_edit(token)
    form = MemberForm()
    if form.validate():
        try:
            _change_members(group_access, form)
        except GroupRefused as refused:
            form.name.errors = [refused.message]
        else:
            return redirect(url_for("groups.group", token=token, _anchor="roster"), 303)
    context = _group_context(group_access, members=form)
    return page_or_fragment(
        "groups/group.html", "groups/_group.html", status=UNPROCESSABLE, **context
    )


def _change_members(group_access: GroupAccess, form: MemberForm) -> None:
    group, action, player = group_access.group, form.action.data, form.player.data
    if action == "add":
        groups.add_player(group, form.name.data or "")
    elif player is None:
        raise GroupRefused(_("Say which player to change."))
    elif action == "rename":
        groups.rename_player(group, player, form.name.data or "")
    elif action == "remove":
        groups.remove_player(group, player)
    elif form.into.data is None:
        raise GroupRefused(_("Say which player to merge them into."))
    else:
        groups.merge_players(group, duplicate_id=player, into_id=form.into.data)


@bp.post("/g/<token>/tables")
@limiter.limit(limits.tables_limit)
def start_table(token: str) -> Response:
    """Start tonight's table with the picked players (and new names, who join)."""
    group_access = open_group_for_edit(token)
    form = StartTableForm()
    if form.validate():
        try:
            table = groups.start_table(
                group_access.group, seated=form.seated, new_names=[n for n in form.new.data if n]
            )
        except GroupRefused as refused:
            form.seats.errors = [refused.message]
        else:
            note_table(TableAccess(table, Access.EDIT))
            target = url_for("pages.table", token=tables.token_for(table, Access.EDIT))
            return redirect(target, 303)
    context = _group_context(group_access, start=form)
    return page_or_fragment(
        "groups/group.html", "groups/_group.html", status=UNPROCESSABLE, **context
    )


@bp.post("/g/<token>/rotate-link")
def rotate_link(token: str) -> Response:
    """Replace the group's edit link (the old one stops working; read-only stays)."""
    group_access = open_group_for_edit(token)
    fresh = groups.rotate_edit_link(group_access.group)
    flash(_("New edit link made for the group: the old one no longer works."))
    return redirect(url_for("groups.group", token=fresh), 303)


# --- statistics ----------------------------------------------------------------------------


@bp.get("/g/<token>/stats")
def leaderboard(token: str) -> Response:
    """Leaderboard of one game (or all), with wins over time and the score spread."""
    group_access = open_group(token)
    slug = request.args.get("game") or None
    if slug is not None and slug not in GAMES:
        abort(404)
    group = group_access.group
    wins_data = stats.wins_over_time(group, slug)
    bars = stats.score_distribution(group, slug) if slug else []
    context: dict[str, Any] = {
        "group_access": group_access,
        "group": group,
        "token": group_token(group_access),
        "slug": slug,
        "game": GAMES[slug] if slug else None,
        "lowest": stats.lowest_wins(slug) if slug else False,
        "board": stats.leaderboard(group, slug),
        "games_played": stats.games_played(group),
        "wins_data": wins_data,
        "wins": wins_chart(wins_data),
        "bars": bars,
        "spread": distribution_chart(bars),
        "games": GAMES,
        # Skill ratings of the same scope (templates/groups/_ratings.html).
        "ratings": group_ratings.board(group, group_ratings.of_group(group), slug or OVERALL),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return page_or_fragment("groups/stats.html", "groups/_stats.html", **context)


@bp.get("/g/<token>/versus")
def versus(token: str) -> Response:
    """Head-to-head: how two players did in the games they played together."""
    group_access = open_group(token)
    form = VersusForm(formdata=request.args)
    valid = form.validate()
    status = 200 if valid else UNPROCESSABLE
    rows: list[stats.Versus] = []
    chances: dict[str, int | None] = {}
    names = {p.id: p.name for p in group_access.group.players}
    first, second = form.a.data, form.b.data
    if valid and first is not None and second is not None:
        if first not in names or second not in names:
            form.a.errors = [_("Pick two players of this group.")]
            status = UNPROCESSABLE
        elif first == second:
            form.b.errors = [_("Pick two different players.")]
            status = UNPROCESSABLE
        else:
            rows = stats.head_to_head(group_access.group, first, second)
            chances = _chances(group_access.group, first, second, rows)
    return page_or_fragment(
        "groups/versus.html",
        "groups/_versus.html",
        status=status,
        group_access=group_access,
        group=group_access.group,
        token=group_token(group_access),
        form=form,
        rows=rows,
        first=names.get(first or 0),
        second=names.get(second or 0),
        chances=chances,
        games=GAMES,
    )


def _chances(
    group: Group, first: int, second: int, rows: list[stats.Versus]
) -> dict[str, int | None]:
    """The ratings' chance, in percent, that the first player finishes ahead of the
    second: over every game (``""``) and in each game of the head-to-head's rows."""
    replay = group_ratings.of_group(group)
    scopes = [OVERALL, *(row.game for row in rows if row.game)]
    return {scope: group_ratings.chance_percent(replay, scope, first, second) for scope in scopes}


@bp.get("/g/<token>/history")
def history(token: str) -> Response:
    """Every finished play of the group, newest first, with filters."""
    group_access = open_group(token)
    form = HistoryFilterForm(formdata=request.args)
    valid = form.validate()
    if valid and form.game.data and form.game.data not in GAMES:
        form.game.errors = [_("Pick one of the games.")]
        valid = False
    if (
        valid
        and form.player.data
        and form.player.data not in {p.id for p in group_access.group.players}
    ):
        form.player.errors = [_("Pick a player of this group.")]
        valid = False
    past = []
    if valid:
        filters = stats.Filters(
            game=form.game.data or None,
            player=form.player.data,
            since=form.since.data,
            until=form.until.data,
        )
        past = stats.history(group_access.group, filters)
    return page_or_fragment(
        "groups/history.html",
        "groups/_history.html",
        status=200 if valid else UNPROCESSABLE,
        group_access=group_access,
        group=group_access.group,
        token=group_token(group_access),
        form=form,
        past=past,
        # The photos kept with the plays listed, by play (one query).
        past_photos=photos.of_plays([p.play_id for p in past]),
        limit=stats.HISTORY_LIMIT,
        games=GAMES,
    )


# --- exports ---------------------------------------------------------------------------------


@bp.record_once
def _keep_exports(state: BlueprintSetupState) -> None:
    """Give each app its own caches of exports (tests run many apps in one process)."""
    exports.register(state.app)


def _group_export(token: str, kind: str) -> Response:
    group = open_group(token).group
    key = ("group", transfer.group_fingerprint(group))
    if kind == "csv":
        return exports.download(key, partial(transfer_stream.group_csv, group.id), "group", kind)
    build = partial(transfer_stream.group_json, group.id, pieces=exports.pieces())
    return exports.download(key, build, "group", kind)


def _table_export(token: str, kind: str) -> Response:
    table = open_table(token).table
    key = ("table", transfer.table_fingerprint(table))
    if kind == "csv":
        return exports.download(key, partial(transfer_stream.table_csv, table.id), "table", kind)
    build = partial(transfer_stream.table_json, table.id, pieces=exports.pieces())
    return exports.download(key, build, "table", kind)


def _play_export(token: str, play_id: int, kind: str) -> Response:
    play = load_play(token, play_id).play
    key = ("play", play.id, transfer.table_fingerprint(play.table))
    name = f"play-{play_id}"
    if kind == "csv":
        build = partial(transfer_stream.table_csv, play.table_id, only=play.id)
    else:
        build = partial(transfer_stream.play_json, play.id, pieces=exports.pieces())
    return exports.download(key, build, name, kind)


@bp.get("/g/<token>/export.json")
@EXPORT_LIMIT
def export_group_json(token: str) -> Response:
    """The whole group as JSON: roster, tables, plays, edit logs, results."""
    return _group_export(token, "json")


@bp.get("/g/<token>/export.csv")
@EXPORT_LIMIT
def export_group_csv(token: str) -> Response:
    """The whole group as CSV: one row per player per play."""
    return _group_export(token, "csv")


@bp.get("/t/<token>/export.json")
@EXPORT_LIMIT
def export_table_json(token: str) -> Response:
    """A table and all its plays as JSON."""
    return _table_export(token, "json")


@bp.get("/t/<token>/export.csv")
@EXPORT_LIMIT
def export_table_csv(token: str) -> Response:
    """A table's plays as CSV: one row per player per play."""
    return _table_export(token, "csv")


@bp.get("/t/<token>/plays/<int:play_id>/export.json")
@EXPORT_LIMIT
def export_play_json(token: str, play_id: int) -> Response:
    """One play as JSON (with its table's players)."""
    return _play_export(token, play_id, "json")


@bp.get("/t/<token>/plays/<int:play_id>/export.csv")
@EXPORT_LIMIT
def export_play_csv(token: str, play_id: int) -> Response:
    """One play as CSV: one row per player."""
    return _play_export(token, play_id, "csv")


def table_extras(table_access: TableAccess, counted: table_results.TableResults) -> dict[str, Any]:
    """What a table's page shows of the evening and the group: the summary, the latest
    finished plays' exports and BG Stats links (``KEEP_LINKS`` of them: a capped table's
    500 made its page a second of work; the older ones are in the table's export), and
    (for editors) the group's read-only link. ``counted``: the table's results
    (``services/table_results.py``); the links are kept with them."""
    table = table_access.table
    finished: list[Play] = [p for p in table.plays if p.finished]
    group_link = None
    if table.group is not None and table_access.can_edit:
        group_link = url_for("groups.group", token=groups.token_for(table.group, Access.VIEW))
    shown = finished[-KEEP_LINKS:]
    links = table_results.push_links(table, shown, counted, table_pages.kept_results())
    return {
        "evening": evening.summary(table, outcomes=counted.outcomes),
        "finished_plays": [(p, links[p.id]) for p in shown],
        "older_finished": len(finished) - len(shown),
        "group_link": group_link,
        # Photos of the table's games, by play (templates/_evening_photos.html).
        "evening_photos": photos.of_table(table.id),
    }
