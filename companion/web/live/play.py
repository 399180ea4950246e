"""A play's page, its panel, and the answer to a change of it: how every phone gets the
play as it stands (see the package's docstring for the whole path)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from http import HTTPStatus
from typing import Any

from flask import render_template, request, session
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
from companion.web.live import panels
from companion.web.live.responses import html_response, wants_fragment


def render_play(
    table_access: TableAccess,
    play: Play,
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
    glance = tables.PlayGlance.of(table_access, play)
    token = token_of(table_access)
    keep = not errors and not extra and not shown and status == HTTPStatus.OK
    made = panels.panel(
        _panel_key(glance, token) if keep else None,
        lambda: render_template(
            PLAY_FRAGMENT,
            **play_context(table_access, play, errors=errors, extra=extra, **shown),
        ),
    )
    if wants_fragment():
        return html_response(made.for_phone(), status)
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
    return html_response(frame.around(made.for_phone()), status)


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
        return html_response(made.for_phone())
    frame_key = _frame_key(glance, token)
    frame = panels.kept_frame(frame_key) if frame_key is not None else None
    if frame is None:
        return None
    return html_response(frame.around(made.for_phone()))


def _series_versions(glance: tables.PlayGlance) -> list[tuple[int, int]] | None:
    """The id and version of each game of the play's series (None: not in a series)."""
    return None if glance.series_id is None else tables.series_versions(glance.series_id)


def _panel_key(glance: tables.PlayGlance, token: str) -> Hashable:
    """The panel cache's key of this view of the play ``glance`` describes."""
    pages = game_pages(glance.game)
    depends_on = {
        "game": pages.panel_depends_on(glance) if pages is not None else None,
        # The series' totals count each of its games as it stands (one may be reopened).
        "series": _series_versions(glance),
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
    always_render: bool = False,
    extra: Mapping[str, Any] | None = None,
    **shown: Any,
) -> Response:
    """The answer to any change of a play: htmx gets the fresh panel; a plain form post
    is redirected back to the play page, or shown again with its errors.

    The play is made what is stored first (``plays.as_stored``): a refused change leaves
    nothing behind, a change this request wrote is not read back.
    """
    table_access, play = opened.table_access, opened.play
    plays.as_stored(play)
    if status == 200 and not always_render and not wants_fragment():
        return redirect_to_play(table_access, play)
    return render_play(table_access, play, status=status, errors=errors, extra=extra, **shown)
