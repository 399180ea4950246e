"""Rendering a play and answering with it: the play's page, its panel for htmx, and the
answer to a change.

A panel is rendered once per version and view and kept for every phone that shows the
same (the "Everyone" view, the read-only link, a reload of the same seat): the first
request renders it, the scoring and the queries behind it included, and the others take
a copy. The whole page keeps its frame (everything around the panel) the same way. What
differs from phone to phone is put in on the way out: each answer made from a kept
rendering gets the asking phone's CSRF token and fresh form keys (``web/personal.py``).

A panel's key names everything it shows, all of it read in one indexed query before
anything is loaded (``tables.glance_play``), so a kept panel is served without loading
the play, its table or its players:

* the play's version (every edit, undo, finish or reopening raises it) and status;
* the table's version (the roster, a newer game, any of its games finished or reopened)
  and its join code's generation;
* the link (its token and whether it may edit) and the seat the phone shows;
* the versions of the series' games, whose totals it shows;
* whatever else the game's panel shows (Oddland's and OddVille's palettes, kept in the
  phone's session; the versions of the table's other Lucky's plays, whose Mavens it
  offers): ``GamePages.panel_depends_on``.

Versions only grow and tokens are never reused, so a kept panel is right on any worker of
any machine; each process keeps its own copy, bounded in entries and in size. A panel
with errors, a clash, a verdict or anything else an action left for it is never kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import Flask, current_app, redirect, render_template, request, session, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.games import GAMES
from companion.models import Play
from companion.services import photos, plays, tables
from companion.services.tables import PlayGlance, TableAccess
from companion.web import personal
from companion.web.cache import Cache
from companion.web.context import FLASHES_KEY, author_of, seat_among
from companion.web.game_pages import PlayPage, game_pages
from companion.web.languages import language
from companion.web.responses import html_response, wants_fragment

PLAY_PAGE = "play.html"
PLAY_FRAGMENT = "_play.html"

#: The panels kept per process, and their total size (characters of markup: a 4-player
#: Odd World panel is about 65,000, a late Oddland map about 200,000).
MAX_PANELS = 256
MAX_CHARACTERS = 16_000_000
#: The page frames kept per process (one per table state, link and game: a few KB each).
MAX_FRAMES = 256
PANELS_KEY = "companion.play.panels"
FRAMES_KEY = "companion.play.frames"
#: Where a page frame takes the panel it is sent with: a string no page can hold (NUL).
PANEL_SLOT = "\x00panel\x00"

#: The form field naming where on the play page a plain form post should land.
ANCHOR_FIELD = "anchor"
#: What an anchor may be: an element id of the play page ("player-2", "play-actions").
SAFE_ANCHOR = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


@dataclass(frozen=True)
class OpenPlay:
    """A play reached through a table's link (``token``) by a phone that shows ``seat``:
    what ``actions.load_play`` gives, and what its page and the answer to a change of it
    are made from."""

    table_access: TableAccess
    play: Play
    token: str
    #: Whose entry this phone shows: a seat number, or ``"all"`` (``context.seat_of``).
    seat: int | str

    @property
    def author(self) -> plays.Author:
        """Who is changing it: this phone (and its owner's name, when given)."""
        return author_of(self.table_access)


@dataclass(frozen=True)
class Panel:
    """A rendered panel and the CSRF token it was rendered with (each phone gets its own
    in its place: ``personal.for_phone``)."""

    html: str
    csrf_token: str

    def cost(self) -> int:
        """What it costs the cache: its markup."""
        return len(self.html)

    def for_phone(self) -> str:
        """The panel as this request's phone gets it."""
        return personal.for_phone(self.html, self.csrf_token)


@dataclass(frozen=True)
class Frame:
    """The whole play page around its panel, cut where the panel goes, and the CSRF token
    it was drawn with."""

    before: str
    after: str
    csrf_token: str

    def around(self, panel: str) -> str:
        """The whole page with ``panel`` (already this phone's) in its place, as this
        request's phone gets it."""
        return (
            personal.for_phone(self.before, self.csrf_token)
            + panel
            + personal.for_phone(self.after, self.csrf_token)
        )

    def cost(self) -> int:
        """What it costs the cache: its markup."""
        return len(self.before) + len(self.after)


def register(app: Flask) -> None:
    """Give the app its own caches (tests run many apps in one process): panels and page
    frames, bounded in entries and in characters."""
    app.extensions[PANELS_KEY] = new_cache()
    app.extensions[FRAMES_KEY] = Cache(MAX_FRAMES, MAX_FRAMES * 16_000, Frame.cost)


def new_cache(max_panels: int = MAX_PANELS, max_size: int = MAX_CHARACTERS) -> Cache[Panel]:
    """An empty panel cache with these bounds."""
    return Cache(max_panels, max_size, Panel.cost)


def play_context(
    opened: OpenPlay,
    *,
    errors: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    **shown: Any,
) -> dict[str, Any]:
    """What every play template gets: the play as its page shows it (one service call),
    this phone's seat, the forms, and the game's own view data (its ``GamePages.context``
    hook, given ``extra``: what an action left for it). ``shown`` adds template values."""
    table_access, play = opened.table_access, opened.play
    view = plays.view(play, can_edit=table_access.can_edit)
    page = PlayPage(
        table_access=table_access,
        play=play,
        seat=opened.seat,
        view=view,
        errors=dict(errors or {}),
        extra=dict(extra or {}),
    )
    context = {
        "table_access": table_access,
        "table": table_access.table,
        "token": opened.token,
        "play": play,
        "seat": page.seat,
        "game": view.game,
        "state": play.state,
        "view": view,
        "result": view.result,
        "explanation": view.explanation,
        "pair_lines": view.pair_lines,
        "undo_target": view.undo_target,
        "series_result": view.series_result,
        # What the templates' forms pass to ``guard`` / ``htmx_form`` as their form: the
        # token and key come from the request, so no WTForms object is built.
        "action": None,
        "edit": None,
        "errors": page.errors,
        "conflict": None,
        "editable": page.editable,
        "newer_play": view.newer_play,
        "ending": view.ending,
        "confirm_finish": False,
        "games": GAMES,
        "rule_refs": view.rule_refs,
        # Photos of the table with the play (templates/_play_photos.html).
        "photos": photos.of_play(play.id),
        **shown,
    }
    pages = game_pages(play.game)
    if pages is not None:
        context.update(pages.context(page))
    return context


def render_play(
    opened: OpenPlay,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    **shown: Any,
) -> Response:
    """The play's page, or its panel for htmx. The panel comes from the panel cache when
    this view of this version was rendered before (for this phone or another), and is
    rendered and kept otherwise (not with errors or anything else shown this once); so is
    the page's frame. This phone's CSRF token and form keys are put in."""
    glance = PlayGlance.of(opened.table_access, opened.play)
    keep = not errors and not extra and not shown and status == HTTPStatus.OK
    frame_key = _frame_key(glance, opened.token)
    panel_key = _panel_key(glance, opened.token, opened.seat) if keep else None

    def draw_panel() -> Panel:
        # What is stored: a refused change leaves nothing behind, and a change this
        # request wrote is not read back.
        plays.as_stored(opened.play)
        context = play_context(opened, errors=errors, extra=extra, **shown)
        return Panel(render_template(PLAY_FRAGMENT, **context), personal.csrf_token())

    def draw_frame() -> Frame:
        page = render_template(
            PLAY_PAGE,
            panel=Markup(PANEL_SLOT),
            table_access=opened.table_access,
            token=opened.token,
            game=GAMES[opened.play.game],
            play_id=opened.play.id,
        )
        before, after = page.split(PANEL_SLOT)
        return Frame(before, after, personal.csrf_token())

    panel = _panels().kept(panel_key, draw_panel)
    if wants_fragment():
        return html_response(panel.for_phone(), status)
    frame = _frames().kept(frame_key, draw_frame)
    return html_response(frame.around(panel.for_phone()), status)


def kept_play(token: str, play_id: int) -> Response | None:
    """The play's page or panel straight from what is kept, found from the play's glance
    (one query) before anything is loaded: most loads and polls after a change find what
    another phone's request rendered. ``None`` when it is not kept (or the link does not
    open the play): then load the play and :func:`render_play`, which says why."""
    glance = tables.glance_play(token, play_id)
    if glance is None:
        return None
    seat = seat_among(glance.player_ids, glance.table_id)
    panel = _panels().get(_panel_key(glance, token, seat))
    if panel is None:
        return None
    if wants_fragment():
        return html_response(panel.for_phone())
    frame_key = _frame_key(glance, token)
    frame = _frames().get(frame_key) if frame_key is not None else None
    if frame is None:
        return None
    return html_response(frame.around(panel.for_phone()))


def _panels() -> Cache[Panel]:
    """This app's kept panels."""
    found: Cache[Panel] = current_app.extensions[PANELS_KEY]
    return found


def _frames() -> Cache[Frame]:
    """This app's kept page frames."""
    found: Cache[Frame] = current_app.extensions[FRAMES_KEY]
    return found


def _panel_key(glance: PlayGlance, token: str, seat: int | str) -> Hashable:
    """What the panel of the play ``glance`` describes shows, through the link ``token``
    at ``seat`` (see the module's docstring)."""
    pages = game_pages(glance.game)
    depends_on = {
        "game": pages.panel_depends_on(glance) if pages is not None else None,
        # The series' totals count each of its games as it stands (one may be reopened).
        "series": None if glance.series_id is None else tables.series_versions(glance.series_id),
    }
    return (glance, token, seat, language(), json.dumps(depends_on, sort_keys=True, default=str))


def _frame_key(glance: PlayGlance, token: str) -> Hashable | None:
    """What the page around the panel shows: the game, the table's label (its players or
    its join code) and links, the play's own (deleting it); ``None`` while a flashed
    message waits (shown this once)."""
    if FLASHES_KEY in session:
        return None
    table = (glance.table_id, glance.table_version, glance.join_generation, glance.access)
    return (glance.game, glance.id, table, token, language(), request.script_root)


def play_response(
    opened: OpenPlay,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    always_render: bool = False,
    extra: Mapping[str, Any] | None = None,
    **shown: Any,
) -> Response:
    """The answer to any change of a play: htmx gets the fresh panel; a plain form post
    is redirected back to the play page, or shown again with its errors."""
    if status == HTTPStatus.OK and not always_render and not wants_fragment():
        return redirect_to_play(opened.token, opened.play.id)
    return render_play(opened, status=status, errors=errors, extra=extra, **shown)


def redirect_to_play(token: str, play_id: int) -> Response:
    """303 to the play page through the link ``token``, keeping the phone's choice of
    whose entry it shows and landing where the form was tapped (its ``anchor``: without
    JavaScript the page is loaded anew, and would otherwise open at the top)."""
    seat = request.values.get("seat") or None
    asked = request.values.get(ANCHOR_FIELD, "")
    anchor = asked if SAFE_ANCHOR.fullmatch(asked) else None
    url = url_for("pages.play", token=token, play_id=play_id, seat=seat, _anchor=anchor)
    return redirect(url, HTTPStatus.SEE_OTHER)
