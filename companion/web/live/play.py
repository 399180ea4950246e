"""A play's page, its panel, and the answer to a change of it: how every phone gets the
play as it stands (see the package's docstring for the whole path)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import current_app, render_template, request, session
from werkzeug.wrappers import Response

from companion.games import GAMES
from companion.models import Play
from companion.services import plays, tables
from companion.services.tables import TableAccess
from companion.web.context import (
    FLASHES_KEY,
    PLAY_FRAGMENT,
    PLAY_PAGE,
    OpenPlay,
    game_css,
    game_pages,
    play_context,
    redirect_to_play,
    seat_among,
    token_of,
)
from companion.web.live import panels, personal
from companion.web.live.pieces import Part, Piece, Rendering, blanked
from companion.web.live.responses import (
    fragment_response,
    page_or_fragment,
    page_response,
    wants_fragment,
)


@dataclass(frozen=True)
class Edited:
    """One edit a request made: the play's version it was made on, and the paths it
    set. The panel of the new version can then be the last one's, patched."""

    since: int
    paths: tuple[str, ...]


@dataclass(frozen=True)
class EntryBefore:
    """The game's entry as the panel of the play's last version showed it, and the paths
    of the one edit since (see :func:`_entry_before`)."""

    entry: Part
    paths: tuple[str, ...]


def render_play(
    table_access: TableAccess,
    play: Play,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    edited: Edited | None = None,
    **shown: Any,
) -> Response:
    """The play's page, or its panel for htmx. The panel comes from the panel cache when
    this view of this version was rendered before (for this phone or another), and is
    rendered and kept otherwise (not with errors or anything else shown this once); so is
    the page's frame. This phone's CSRF token and form keys are put in.

    After an ``edited`` play, the game's entry in the new panel is the one kept with the
    last version's panel, patched where the game says the edit changed it (see
    :func:`_entry_before`); everything else in the panel is drawn anew."""
    glance = tables.PlayGlance.of(table_access, play)
    token = token_of(table_access)
    keep = not errors and not extra and not shown and status == HTTPStatus.OK
    key = _panel_key(glance, token) if keep else None

    def draw(rendering: Rendering, before: EntryBefore | None = None) -> str:
        context = play_context(
            table_access, play, errors=errors, extra=extra, live=rendering,
            entry_from=before.entry if before else None,
            edited=before.paths if before else (), **shown,
        )  # fmt: skip
        return render_template(PLAY_FRAGMENT, **context)

    def render(rendering: Rendering) -> str:
        before = _entry_before(glance, token, edited) if keep else None
        html = draw(rendering, before)
        if rendering.reused and current_app.config.get("LIVE_CHECK_PATCHES"):
            _check_patch(rendering, html, draw)
        return html

    made = panels.panel(key, render)
    if wants_fragment():
        return fragment_response(made.html, status, rendering=made.rendering, fill=made.for_phone)
    frame = panels.frame(
        _frame_key(glance, token),
        lambda panel: render_template(
            PLAY_PAGE,
            panel=panel,
            table_access=table_access,
            token=token,
            game=GAMES[play.game],
            game_css=game_css(play.game),
        ),
    )
    return page_response(frame.around(made.for_phone(made.html)), status)


def kept_play(token: str, play_id: int) -> Response | None:
    """The play's page or panel straight from what is kept, found from the play's glance
    (one query) before anything is loaded: most loads and polls after a change find what
    another phone's request rendered. ``None`` when it is not kept (or the link does not
    open the play): then load the play and :func:`render_play`, which says why."""
    glance = tables.glance_play(token, play_id)
    if glance is None:
        return None
    made = panels.kept_panel(_panel_key(glance, token))
    if made is None:
        return None
    if wants_fragment():
        return fragment_response(made.html, rendering=made.rendering, fill=made.for_phone)
    frame_key = _frame_key(glance, token)
    frame = panels.kept_frame(frame_key) if frame_key is not None else None
    if frame is None:
        return None
    return page_response(frame.around(made.for_phone(made.html)))


#: How many versions back a kept panel may be, to be patched from: a worker that did not
#: draw the last version (the phones' polls went to another) may hold an older one.
VERSIONS_BACK = 4


def _entry_before(
    glance: tables.PlayGlance, token: str, edited: Edited | None
) -> EntryBefore | None:
    """The game's entry as the newest kept panel of one of the play's last versions
    showed it in this same view (link, seat, table, series, whatever else the game's
    panel shows), with this phone's CSRF token, and the paths the edits since set: the
    request's own (``edited``) when it made the only one, else the play's log's (a poll,
    a reload, another worker's taps, an undo). None when no such panel is kept here, or
    an edit since set no path (a finish). The patch is only as sure as the game's
    ``entry_changes``; with ``LIVE_CHECK_PATCHES`` (the tests) each patched panel is
    checked against a whole rendering."""
    pages = game_pages(glance.game)
    if pages is None or pages.entry_changes is None:  # the game cannot place an edit
        return None
    series = _series_versions(glance)
    for back in range(1, min(VERSIONS_BACK, glance.version) + 1):
        since = glance.version - back
        before = panels.kept_panel(_panel_key(glance, token, as_of=since, series=series))
        if before is not None and before.rendering.part is not None:
            break
    else:
        return None
    if edited is not None and edited.since == since and back == 1:
        paths = edited.paths
    else:
        paths = plays.paths_set_since(glance.id, since, glance.version)
    if not paths:
        return None
    entry = before.rendering.part.retokened(before.csrf_token, personal.csrf_token())
    return EntryBefore(entry, paths)


def _check_patch(rendering: Rendering, html: str, draw: Callable[[Rendering], str]) -> None:
    """Raise when a panel whose entry was patched differs from the panel drawn whole
    (its markup, its pieces and their digests)."""
    whole = Rendering()
    expected = draw(whole)
    if _sameable(html) != _sameable(expected) or _digests(rendering) != _digests(whole):
        raise AssertionError(
            f"a patched panel differs from the whole one:\n{html}\n---\n{expected}"
        )


def _sameable(html: str) -> str:
    """``html`` without its one-time form keys, which differ at every rendering."""
    return blanked(html, personal.KEY_INPUT_START)


def _digests(rendering: Rendering) -> list[tuple[str, str, int]]:
    """Every piece of a rendered panel: its id, digest and depth."""
    found: list[tuple[str, str, int]] = []

    def walk(piece: Piece, depth: int) -> None:
        found.append((piece.ident, piece.digest, depth))
        for inner in piece.inner:
            walk(inner, depth + 1)

    if rendering.panel is not None:
        walk(rendering.panel, 0)
    return found


def _series_versions(glance: tables.PlayGlance) -> list[tuple[int, int]] | None:
    """The id and version of each game of the play's series (None: not in a series)."""
    return None if glance.series_id is None else tables.series_versions(glance.series_id)


def _panel_key(
    glance: tables.PlayGlance,
    token: str,
    *,
    as_of: int | None = None,
    series: list[tuple[int, int]] | None = None,
) -> Hashable:
    """The panel cache's key of this view of the play ``glance`` describes; ``as_of``:
    of the same view of the play's version ``as_of`` (its edits since its only change),
    ``series``: its series' versions, when read already."""
    pages = game_pages(glance.game)
    # The series' totals count each of its games as it stands (one may be reopened).
    if series is None:
        series = _series_versions(glance)
    if as_of is not None:
        glance = dataclasses.replace(glance, version=as_of)
        if series is not None:
            series = [(i, as_of if i == glance.id else v) for i, v in series]
    depends_on = {
        "game": pages.panel_depends_on(glance) if pages is not None else None,
        "series": series,
    }
    seat = seat_among(glance.player_ids, glance.table_id)
    return panels.key_for(glance, token=token, seat=seat, depends_on=depends_on)


def _frame_key(glance: tables.PlayGlance, token: str) -> Hashable | None:
    """What the page around the panel shows: the game, the table's label (its players or
    its join code) and links; ``None`` while a flashed message waits (shown this once)."""
    if FLASHES_KEY in session:
        return None
    table = (glance.table_id, glance.table_version, glance.join_generation, glance.access)
    return (glance.game, table, token, request.script_root)


def play_response(
    opened: OpenPlay,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    fragment: str = PLAY_FRAGMENT,
    always_render: bool = False,
    extra: Mapping[str, Any] | None = None,
    edited: Edited | None = None,
    **shown: Any,
) -> Response:
    """The answer to any change of a play: htmx gets the fresh ``fragment``; a plain form
    post is redirected back to the play page, or shown again with its errors.

    The play is made what is stored first (``plays.as_stored``): a refused change leaves
    nothing behind, a change this request wrote is not read back.
    A fragment smaller than the play also refreshes the play's buttons (Undo, history
    count) out of band.
    """
    table_access, play = opened.table_access, opened.play
    plays.as_stored(play)
    if status == 200 and not always_render and not wants_fragment():
        return redirect_to_play(table_access, play)
    if fragment == PLAY_FRAGMENT or not wants_fragment():
        return render_play(
            table_access, play, status=status, errors=errors, extra=extra, edited=edited, **shown
        )
    context = play_context(
        table_access, play, errors=errors, extra=extra, oob_actions=True, **shown
    )
    return page_or_fragment(PLAY_PAGE, fragment, status=status, **context)
