"""HTML pages and their htmx fragments: tables, joining, plays, edits, history."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from http import HTTPStatus
from typing import Any

import segno
from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_htmx import make_response as htmx_response
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from companion.games import GAMES
from companion.games.names import MAX_NAME_LENGTH
from companion.games.text import _, ngettext
from companion.models import Play, Table
from companion.services import explain, play_history, plays, table_results, tables
from companion.services import groups as group_service
from companion.services.tables import Access, TableAccess
from companion.web import groups, limits, security, table_pages
from companion.web.context import (
    NAMES_KEY,
    VISITOR_KEY,
    has_answered_whose_phone,
    note_table,
    open_for_edit,
    open_table,
    owner_of,
    remember_owner,
    table_label,
    token_of,
    visitor_of,
)
from companion.web.forms import (
    EditForm,
    IdentityForm,
    JoinForm,
    RosterForm,
    SeatForm,
    StartPlayForm,
)
from companion.web.games import PAGES, play_label, tools
from companion.web.limits import limiter
from companion.web.play.actions import (
    UNPROCESSABLE,
    PlayNotAtTable,
    load_play,
    refuse,
    run,
)
from companion.web.play.panel import (
    OpenPlay,
    kept_play,
    play_context,
    redirect_to_play,
    render_play,
)
from companion.web.responses import html_response, page_or_fragment, wants_fragment

bp = Blueprint("pages", __name__)
bp.add_app_template_global(table_label)


@bp.app_template_global()
def names_and(names: Sequence[str]) -> str:
    """Names joined as the table page says who won ("Ann and Ben and Cy"), in the
    reader's language.

    >>> names_and(["Ann"]), names_and(["Ann", "Ben", "Cy"])
    ('Ann', 'Ann and Ben and Cy')
    """
    said = names[0] if names else ""
    for name in names[1:]:
        said = _("%(items)s and %(last)s", items=said, last=name)
    return said


TOO_MANY = HTTPStatus.TOO_MANY_REQUESTS
#: Field of the finish form that says "finish even though the rules say it goes on".
CONFIRM_FIELD = "confirm"


# --- helpers -------------------------------------------------------------------------


def _links(table_access: TableAccess) -> dict[str, str]:
    table = table_access.table
    links = {
        "view": url_for("pages.table", token=tables.token_for(table, Access.VIEW), _external=True)
    }
    if table_access.can_edit:
        links["edit"] = url_for(
            "pages.table", token=tables.token_for(table, Access.EDIT), _external=True
        )
    return links


SERIES_LENGTH = 3


def _go(target: str) -> Response:
    """Navigate after a successful post: 303 for browsers and boosted forms; for a fragment
    request, HX-Redirect, so the new page is loaded whole rather than into the fragment."""
    if wants_fragment():
        response: Response = htmx_response("", 204, redirect=target)
        return response
    return redirect(target, code=303)


# --- home, new table, join ----------------------------------------------------------


NEW_ROSTER = {"players": ["", ""]}


def _remember(seen: tables.Glance) -> None:
    """Note the table in this phone's list of tables (server-side: the cookie holds only an
    opaque visitor id, never a link)."""
    tables.remember_visit(visitor_of(), seen)


def _recent() -> list[dict[str, str]]:
    """This phone's latest tables: a link and a label each (a join code only for editors)."""
    visitor = session.get(VISITOR_KEY)
    if not visitor:
        return []
    return [
        {"token": token_of(table_access), "label": _recent_label(table_access)}
        for table_access in tables.recent_visits(visitor)
    ]


def _recent_label(table_access: TableAccess) -> str:
    names = ", ".join(table_access.table.player_names)
    if table_access.can_edit:
        return f"{tables.join_code_of(table_access.table)} · {names}"
    return _("%(players)s (read-only)", players=names)


def _home(roster: RosterForm, *, status: int = 200, focus: int | None = None) -> Response:
    """The home page (or its roster form alone, for htmx); ``focus``: the row whose field
    takes the focus (a player just added: the phone's keyboard is ready for the name)."""
    recent = _recent()
    if not recent:
        security.mark_public()
    return page_or_fragment(
        "home.html",
        "_roster.html",
        status=status,
        roster=roster,
        join=JoinForm(formdata=None),
        recent=recent,
        tools=tools(),
        max_players=tables.MAX_PLAYERS_AT_TABLE,
        max_name=MAX_NAME_LENGTH,
        focus=focus,
    )


@bp.get("/")
def home() -> Response:
    """Start a table, join one, or go back to one this phone opened."""
    return _home(RosterForm(formdata=None, data=NEW_ROSTER))


ROSTER_ACTIONS = ("add", "remove", "up", "down")


def _editing_roster() -> bool:
    """Roster edits (add, remove, move a row) create nothing, so they are not rate-limited."""
    return request.form.get("action", "create").partition("-")[0] in ROSTER_ACTIONS


@bp.post("/tables")
@limiter.limit(limits.tables_limit, exempt_when=_editing_roster)
def create_table() -> Response:
    """Edit the roster (add, remove, move) or create the table from it."""
    form = RosterForm()
    action, _dash, index_text = request.form.get("action", "create").partition("-")
    if action in ROSTER_ACTIONS:
        return _edit_roster(action, index_text)
    if not form.validate():
        return _home(form, status=UNPROCESSABLE)
    table = tables.create_table(form.names)
    note_table(TableAccess(table, Access.EDIT))
    return _go(url_for("pages.table", token=tables.token_for(table, Access.EDIT)))


def _edit_roster(action: str, index_text: str) -> Response:
    """Rebuild the roster with one change; nothing is stored until the table is created."""
    names = [name for key, name in request.form.items(multi=True) if key.startswith("players-")]
    index = int(index_text) if index_text.isdigit() else len(names)
    focus = None
    if action == "add" and len(names) < tables.MAX_PLAYERS_AT_TABLE:
        names.append("")
        focus = len(names) - 1
    elif action == "remove" and index < len(names) and len(names) > 1:
        names.pop(index)
    elif action == "up" and 0 < index < len(names):
        names[index - 1], names[index] = names[index], names[index - 1]
    elif action == "down" and index < len(names) - 1:
        names[index + 1], names[index] = names[index], names[index + 1]
    data = MultiDict({f"players-{i}": name for i, name in enumerate(names)})
    return _home(RosterForm(formdata=data), focus=focus)


@bp.get("/join")
def join_page() -> Response:
    """The form for a table's short code."""
    security.mark_public()
    return page_or_fragment("join.html", "_join.html", join=JoinForm(formdata=None))


@bp.post("/join")
def join() -> Response:
    """Open the table whose short code was typed (typed codes are rate-limited)."""
    form = JoinForm()
    if not form.validate():
        return page_or_fragment("join.html", "_join.html", status=UNPROCESSABLE, join=form)
    code = tables.normalise_code(form.code.data or "")
    refusal = limits.spend_join_attempt(code)
    if refusal is not None:
        form.code.errors = [_too_many_codes(refusal.minutes)]
        return page_or_fragment("join.html", "_join.html", status=TOO_MANY, join=form)
    table = tables.table_for_code(code)
    if table is None:
        form.code.errors = [_("No open table has this code. Check it with the table.")]
        return page_or_fragment("join.html", "_join.html", status=UNPROCESSABLE, join=form)
    return redirect(url_for("pages.table", token=tables.token_for(table, Access.EDIT)), code=303)


def _too_many_codes(minutes: int) -> str:
    return ngettext(
        "Too many join codes were typed from your network. Try again in %(num)s minute, "
        "or scan the QR code on a phone already at the table (or ask for its link).",
        "Too many join codes were typed from your network. Try again in %(num)s minutes, "
        "or scan the QR code on a phone already at the table (or ask for its link).",
        minutes,
    )


# --- a table --------------------------------------------------------------------------


def _start_form(*, formdata: Any = None) -> StartPlayForm:
    form = StartPlayForm(formdata=formdata)
    form.game.choices = [(slug, _(game.name)) for slug, game in GAMES.items() if slug in PAGES]
    return form


def _identity_form(table_access: TableAccess, *, formdata: Any = None) -> IdentityForm:
    form = IdentityForm(formdata=formdata)
    names = table_access.table.player_names
    form.name.choices = [("", _("Nobody in particular")), *[(n, n) for n in names]]
    if formdata is None:
        form.name.data = owner_of(table_access) or ""
    return form


def _table_context(
    table_access: TableAccess,
    *,
    start: StartPlayForm | None = None,
    identity: IdentityForm | None = None,
    seats: SeatForm | None = None,
) -> dict[str, Any]:
    table = tables.with_everything_shown(table_access.table)
    links = _links(table_access)
    counted = table_results.table_results(table, table_pages.kept_results())
    start = start or _start_form()
    identity = identity or _identity_form(table_access)
    return {
        "table_access": table_access,
        "table": table,
        "token": token_of(table_access),
        "links": links,
        "join_code": tables.join_code_of(table) if table_access.can_edit else None,
        "qr": _qr_svg(links.get("edit") or links["view"]),
        "start": start,
        # The games whose start form offers the series box (the others hide it).
        "series_games": [slug for slug, _name in start.game.choices if GAMES[slug].has_series],
        "identity": identity,
        "games": GAMES,
        "results": counted.plays,
        # The games' links: a play's address is this and its id (one url_for, not 200).
        "play_path": url_for("pages.play", token=token_of(table_access), play_id=0)[:-1],
        "series_results": {s.id: _series_words(counted.series[s.id]) for s in table.series},
        "tools": tools(),
        "seats": seats or SeatForm(formdata=None),
        "now_playing": _now_playing(table),
        "also_unfinished": _unfinished(table)[1:],
        "ask_whose_phone": table_access.can_edit and not has_answered_whose_phone(table_access),
        # The evening's summary, exports, BG Stats links and the group (web/groups.py).
        **groups.table_extras(table_access, counted),
    }


def _table_key(token: str, seen: tables.Glance) -> tuple[Any, ...]:
    """Everything the table page's markup is drawn from (see ``web/table_pages.py``)."""
    answer = (
        session.get(NAMES_KEY, {}).get(str(seen.table_id)) if seen.access is Access.EDIT else None
    )
    return (
        seen.uid,
        seen.version,
        # Every edit of a play touches its table: a series' standings follow the games
        # still being played, whose edits leave the version alone.
        seen.last_used_at,
        seen.edit_generation,
        seen.join_generation,
        token,
        request.url_root,
        # The games on offer, and their engines' versions (a new one may score differently).
        tuple((slug, game.engine_version, slug in PAGES) for slug, game in GAMES.items()),
        # Whose phone this is, or that it was never said (-1): the page asks then.
        -1 if answer is None else answer,
    )


def _table_page(
    token: str,
    *,
    seen: tables.Glance | None = None,
    table_access: TableAccess | None = None,
    status: int = 200,
    start: StartPlayForm | None = None,
    identity: IdentityForm | None = None,
    seats: SeatForm | None = None,
) -> Response:
    """The table page, or its fragment for htmx: drawn once per state of the table and
    reused (``web/table_pages.py``); a form shown with its errors is drawn afresh. The
    table is loaded only when it is drawn."""
    forms = {"start": start, "identity": identity, "seats": seats}
    key = None
    if all(form is None for form in forms.values()):
        key = _table_key(token, seen or tables.Glance.of(table_access or open_table(token)))

    def draw() -> table_pages.Drawn:
        opened = table_access or open_table(token)
        context = _table_context(opened, **forms)
        html = render_template("_table.html", **context)
        return table_pages.Drawn(html, table_label(opened))

    # The whole page (a first load, a boosted link) needs nothing more: its title is kept.
    html, title = table_pages.markup(key, draw)
    return page_or_fragment(
        "table.html", "_table_drawn.html", status=status, title=title, table_html=html
    )


def _glance_or_404(token: str) -> tables.Glance:
    """What the link opens (see :class:`tables.Glance`), else 404."""
    seen = tables.glance(token)
    if seen is None:
        abort(404)
    return seen


def _now_playing(table: Table) -> Play | None:
    """The newest game still being played (the table page points to it)."""
    unfinished = _unfinished(table)
    return unfinished[0] if unfinished else None


def _unfinished(table: Table) -> list[Play]:
    """Every game of the table not finished yet, newest first: none of them drops out of
    sight when another one starts."""
    return [play for play in reversed(table.plays) if not play.finished]


def _confirm_start(
    table_access: TableAccess, token: str, form: StartPlayForm, unfinished: list[Play]
) -> Response:
    """Ask before starting a game while others are unfinished (a page of its own, so that
    it works without JavaScript); the answer posts the same form, confirmed."""
    return page_or_fragment(
        "start_confirm.html",
        "_start_confirm.html",
        table_access=table_access,
        table=table_access.table,
        token=token,
        start=form,
        game=GAMES[form.game.data],
        games=GAMES,
        unfinished=unfinished,
    )


def _series_words(result: dict[str, Any] | None) -> tuple[dict[str, Any], str] | None:
    """A series' standings so far and, in words, who leads or won it."""
    if result is None:
        return None
    return result, explain.decision(result, over=result["over"])


@lru_cache(maxsize=1024)
def _qr_svg(url: str) -> str:
    """The QR code of a link as inline SVG (server-side, no script).

    Cached: a link's code never changes (a rotated link is a new address), and drawing it
    was most of the table page's time.
    """
    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2))


@bp.get("/t/<token>")
def table(token: str) -> Response:
    """A table: join code, QR code, links, games played and running totals."""
    seen = _glance_or_404(token)
    _remember(seen)
    return _table_page(token, seen=seen)


@bp.get("/t/<token>/poll")
def table_poll(token: str) -> Response:
    """Cheap live check of the table page: 204 while nothing it shows changed."""
    seen = request.args.get("version", type=int)
    if seen is not None and seen == tables.table_version(token):
        return Response(status=HTTPStatus.NO_CONTENT)
    return _table_page(token, seen=_glance_or_404(token))


@bp.post("/t/<token>/players")
def seats(token: str) -> Response:
    """Change the roster of the table: add, rename, move or remove a player."""
    table_access = open_for_edit(token)
    form = SeatForm(formdata=request.form)
    if form.validate():
        try:
            _change_roster(table_access.table, form)
        except tables.RosterRefused as refused:
            form.name.errors = [refused.message]
        else:
            if wants_fragment():
                return _table_page(token, table_access=table_access)
            return redirect(url_for("pages.table", token=token, _anchor="players"), code=303)
    return _table_page(token, table_access=table_access, status=UNPROCESSABLE, seats=form)


def _change_roster(table: Table, form: SeatForm) -> None:
    action, player, name = form.action.data, form.player.data, form.name.data or ""
    if action == "add":
        group_service.seat_late_friend(table, name)
    elif player is None:
        raise tables.RosterRefused(_("Say which player to change."))
    elif action == "rename":
        tables.rename_player(table, player, name)
    elif action == "remove":
        tables.remove_player(table, player)
    else:
        tables.move_player(table, player, offset=-1 if action == "up" else 1)


@bp.post("/t/<token>/rotate-link")
def rotate_link(token: str) -> Response:
    """Replace the edit link (the old one stops working; the read-only link stays)."""
    table_access = open_for_edit(token)
    fresh = tables.rotate_edit_link(table_access.table)
    tables.remember_visit(
        visitor_of(), tables.Glance.of(TableAccess(table_access.table, Access.EDIT))
    )
    flash(_("New edit link made: the old one no longer works. Share this one with the table."))
    return redirect(url_for("pages.table", token=fresh), code=303)


@bp.post("/t/<token>/rotate-code")
def rotate_code(token: str) -> Response:
    """Replace the join code (the old one stops working at once)."""
    table_access = open_for_edit(token)
    tables.rotate_join_code(table_access.table)
    flash(_("New join code made: the old one no longer works."))
    return redirect(url_for("pages.table", token=token), code=303)


@bp.post("/t/<token>/me")
def identify(token: str) -> Response:
    """Remember who holds this phone, for the edit history."""
    table_access = open_for_edit(token)
    form = _identity_form(table_access, formdata=request.form)
    if not form.validate():
        return _table_page(token, table_access=table_access, status=UNPROCESSABLE, identity=form)
    remember_owner(table_access, form.name.data or None)
    return redirect(url_for("pages.table", token=token), code=303)


@bp.post("/t/<token>/plays")
def start_play(token: str) -> Response:
    """Start a game (or a series of games) at the table."""
    table_access = open_for_edit(token)
    form = _start_form(formdata=request.form)
    if form.validate():
        slug = form.game.data
        unfinished = _unfinished(table_access.table)
        if form.series.data and not GAMES[slug].has_series:
            form.series.errors = [_("%(game)s has no series variant.", game=_(GAMES[slug].name))]
        elif unfinished and not request.form.get(CONFIRM_FIELD):
            return _confirm_start(table_access, token, form, unfinished)
        elif PAGES[slug].options_form is not None:
            return redirect(url_for("pages.options", token=token, slug=slug), code=303)
        else:
            try:
                if form.series.data:
                    play = plays.start_series(table_access.table, slug, length=SERIES_LENGTH)
                else:
                    play = plays.start_play(table_access.table, slug)
            except plays.EditRefused as refused:
                form.game.errors = [p.message for p in refused.problems]
            else:
                return redirect_to_play(token, play.id)
    return _table_page(token, table_access=table_access, status=UNPROCESSABLE, start=form)


@bp.route("/t/<token>/plays/new/<slug>", methods=["GET", "POST"])
def options(token: str, slug: str) -> Response:
    """A game's options (mode, variants, target...) before it starts."""
    table_access = open_for_edit(token)
    pages = PAGES.get(slug)
    if pages is None or pages.options_form is None:
        abort(404)
    formdata = None if request.method == "GET" else request.form
    form = pages.options_form(formdata=formdata, table=table_access.table)
    context: dict[str, Any] = {
        "table_access": table_access,
        "table": table_access.table,
        "token": token,
        "form": form,
        "game": GAMES[slug],
        "slug": slug,
        **form.context(),
    }
    if request.method == "GET":
        return page_or_fragment("options.html", "_options.html", **context)
    if not form.validate():
        return page_or_fragment("options.html", "_options.html", status=UNPROCESSABLE, **context)
    try:
        play = plays.start_play(table_access.table, slug, options=form.options())
    except plays.EditRefused as refused:
        context["problems"] = [p.message for p in refused.problems]
        return page_or_fragment("options.html", "_options.html", status=UNPROCESSABLE, **context)
    return _go(url_for("pages.play", token=token, play_id=play.id))


# --- a play ---------------------------------------------------------------------------


@bp.get("/t/<token>/plays/<int:play_id>")
def play(token: str, play_id: int) -> Response:
    """A play: entry for the table, live standings, undo and finish."""
    answer = kept_play(token, play_id)
    if answer is not None:
        return answer
    opened = load_play(token, play_id)
    return render_play(opened)


@bp.get("/t/<token>/plays/<int:play_id>/poll")
def poll(token: str, play_id: int) -> Response:
    """Cheap live check: 204 while the phone's version is current, else the fresh fragment.

    The check reads two numbers in one query and loads nothing else: most polls end here.
    """
    # ``table`` (the table's version) lets a finished game learn of the next one; a page
    # from before it was sent still polls by the play's version alone.
    seen_play = request.args.get("version", type=int)
    seen_table = request.args.get("table", type=int)
    current = tables.play_versions(token, play_id) if seen_play is not None else None
    if current is not None and seen_play == current[0] and seen_table in (None, current[1]):
        return Response(status=HTTPStatus.NO_CONTENT)
    answer = kept_play(token, play_id)
    if answer is not None:
        return answer
    try:
        opened = load_play(token, play_id)
    except PlayNotAtTable:
        if not wants_fragment():
            raise
        # A page's live update: the page showed this play, so another phone deleted it
        # since. Its panel says so in place (nothing moves under a finger) and stops.
        return html_response(render_template("_play_gone.html", token=token))
    return render_play(opened)


@bp.post("/t/<token>/plays/<int:play_id>/edit")
def edit(token: str, play_id: int) -> Response:
    """Set one field of the play (a stepper tap, a picked card): as ``path``, ``value``
    and ``base``, or as one ``tap`` field (see :class:`EditForm`)."""
    opened = load_play(token, play_id, edit=True)
    form = EditForm()
    if not form.validate():
        return refuse(opened, form.path.data or "", form.problems)
    path = form.path.data or ""
    return run(
        opened,
        lambda: plays.set_value(
            opened.play,
            path=path,
            raw=form.value.data or "",
            base=form.shown,
            author=opened.author,
        ),
        key=path,
        at_problem_paths=True,
        conflict_as="conflict",
    )


@bp.post("/t/<token>/plays/<int:play_id>/undo")
def undo(token: str, play_id: int) -> Response:
    """Undo the edit the page offered (the newest one that is not undone yet)."""
    opened = load_play(token, play_id, edit=True)
    target = request.form.get("undoes", type=int)
    return run(
        opened, lambda: plays.undo(opened.play, target=target, author=opened.author), key="action"
    )


@bp.post("/t/<token>/plays/<int:play_id>/finish")
def finish(token: str, play_id: int) -> Response:
    """Declare the game over: its standings count in the table's totals. A game that its
    rules say goes on is finished only once confirmed: the first tap asks (in the page for
    htmx, on a page of its own without JavaScript)."""
    opened = load_play(token, play_id, edit=True)
    confirmed = bool(request.form.get(CONFIRM_FIELD))
    if not confirmed and not opened.play.finished:
        context = play_context(opened, confirm_finish=True)
        if not context["ending"].over:
            return page_or_fragment("finish.html", "_play.html", **context)
    return run(
        opened,
        lambda: plays.set_status(opened.play, finished=True, author=opened.author),
        key="action",
    )


@bp.post("/t/<token>/plays/<int:play_id>/reopen")
def reopen(token: str, play_id: int) -> Response:
    """Reopen a finished game to correct it."""
    opened = load_play(token, play_id, edit=True)
    return run(
        opened,
        lambda: plays.set_status(opened.play, finished=False, author=opened.author),
        key="action",
    )


@bp.route("/t/<token>/plays/<int:play_id>/delete", methods=["GET", "POST"])
def delete_play(token: str, play_id: int) -> Response:
    """Delete a game started by mistake: the page asks first (what goes with it), its
    button deletes the game and opens the table page, which says so."""
    opened = load_play(token, play_id, edit=True)
    if request.method == "GET":
        return _delete_page(opened)
    name = play_label(opened.play)
    try:
        plays.delete_play(opened.play)
    except plays.EditRefused:  # an older game of a series: the page says why
        return _delete_page(opened, status=UNPROCESSABLE)
    flash(_("%(game)s deleted.", game=name))
    return _go(url_for("pages.table", token=opened.token))


def _delete_page(opened: OpenPlay, *, status: int = 200) -> Response:
    """The page that asks before a game is deleted (or says why it cannot be)."""
    play = opened.play
    context = {
        "table_access": opened.table_access,
        "token": opened.token,
        "play": play,
        "game": GAMES[play.game],
        "name": play_label(play),
        "deletable": plays.deletable(play),
        "back": url_for("pages.play", token=opened.token, play_id=play.id, seat=opened.seat),
        "action": None,
    }
    return html_response(render_template("delete.html", **context), status)


@bp.post("/t/<token>/plays/<int:play_id>/next")
def next_game(token: str, play_id: int) -> Response:
    """Start the next game of a series."""
    return _start_following(token, play_id, plays.next_in_series)


@bp.post("/t/<token>/plays/<int:play_id>/again")
def play_again(token: str, play_id: int) -> Response:
    """Start the same game with the same players and options after a finished one."""
    return _start_following(token, play_id, plays.play_again)


def _start_following(token: str, play_id: int, start: Callable[[Play], Play]) -> Response:
    """Start a game after this one (the series' next, or the same again) and open it."""
    opened = load_play(token, play_id, edit=True)
    try:
        following = start(opened.play)
    except plays.EditRefused as refused:
        return refuse(opened, "action", " ".join(p.message for p in refused.problems))
    return _go(url_for("pages.play", token=opened.token, play_id=following.id))


@bp.get("/t/<token>/plays/<int:play_id>/history")
def history(token: str, play_id: int) -> Response:
    """The play's edits, a page at a time (``?before=N``: older ones): who, when, what."""
    opened = load_play(token, play_id)
    before = request.args.get("before", type=int)
    page = play_history.history(opened.play, before=before)
    return page_or_fragment(
        "history.html",
        "_history.html",
        table_access=opened.table_access,
        table=opened.table_access.table,
        token=opened.token,
        play=opened.play,
        game=plays.game_of(opened.play),
        lines=page.lines,
        history_page=page,
    )
