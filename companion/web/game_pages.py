"""The hooks a game's own web package fills in for the shared pages (see ``web/games.py``),
and how the pages find a game's hooks and stylesheet.

Kept apart from the registry so that game packages can import these classes while the
registry imports the game packages: the registry hands itself to the app at start-up
(``PAGES_KEY``), where :func:`game_pages` finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm

from companion.models import Play, Table
from companion.services import plays
from companion.services.tables import PlayGlance, TableAccess


class OptionsForm(FlaskForm):
    """Base of a game's start options form; it knows the table the game starts at."""

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def options(self) -> dict[str, Any]:
        """The engine's ``new_state`` options from the validated form."""
        return {}

    def context(self) -> dict[str, Any]:
        """What the game's options template shows besides the form (a player chart...)."""
        return {}


@dataclass(frozen=True)
class PlayPage:
    """What a game's view hook gets to build its part of a play's page."""

    table_access: TableAccess
    play: Play
    #: Whose entry this phone shows: a seat number, or ``"all"``.
    seat: int | str
    #: The play as the page shows it (result, undo target, series...).
    view: plays.PlayView
    errors: Mapping[str, str]
    #: What the action answered with left for the game (entered values, a verdict...).
    extra: Mapping[str, Any]

    @property
    def editable(self) -> bool:
        """Whether this phone may change the play now."""
        return self.table_access.can_edit and not self.play.finished


@dataclass(frozen=True)
class GameTool:
    """A referee tool of a game that needs no table (the home and table pages list it,
    the service worker keeps it once visited).

    Its page is at ``/<slug>/<path>`` (:func:`tool_rule`), registered by ``web/games.py``
    outside the game's blueprint (whose routes are all under the play's address) but
    with an endpoint named as if inside it, so links and ``request.blueprint`` read as
    before.
    """

    #: The endpoint of its page, for ``url_for``: ``<the game's blueprint>.<name>``.
    endpoint: str
    #: Its link on the home page ("Owl About: who takes this trick?").
    title: str
    #: Its link among a table's tools ("Owl About trick checker").
    short: str
    #: Its address after the game's slug (``check`` for ``/owl-about/check``).
    path: str
    #: The view that answers it (it takes no table and no play).
    view: Callable[[], ResponseReturnValue]


def play_rule(slug: str) -> str:
    """The address every route of a game's blueprint is under: the play's, then the slug
    (``/t/<token>/plays/<int:play_id>/owl-about`` + ``/card``)."""
    return f"/t/<token>/plays/<int:play_id>/{slug}"


def tool_rule(slug: str, tool: GameTool) -> str:
    """The address of a game's table-free tool (``/owl-about/check``)."""
    return f"/{slug}/{tool.path}"


def no_context(_page: PlayPage) -> dict[str, Any]:
    """A game whose templates need nothing besides the shared play context."""
    return {}


def nothing_else(_play: PlayGlance) -> None:
    """A game whose panel shows nothing besides its play and its table."""
    return


@dataclass(frozen=True)
class GamePages:
    """What the pages add for one game."""

    options_form: type[OptionsForm] | None = None
    blueprint: Blueprint | None = None
    #: The game's view data for its templates (``games/<slug>/_entry.html``...).
    context: Callable[[PlayPage], Mapping[str, Any]] = no_context
    tools: tuple[GameTool, ...] = field(default=())
    #: What else the play's panel shows, beyond the play and its table (a palette kept
    #: in the phone's session, other plays' entries): part of the panel cache's key
    #: (``web/play/panel.py``). Any JSON-able value, found from the play's glance alone:
    #: a kept panel is looked up before anything is loaded.
    panel_depends_on: Callable[[PlayGlance], object] = nothing_else


#: Where the app keeps the games' hooks (``web/games.py`` puts them there).
PAGES_KEY = "companion.game_pages"


def registered() -> Mapping[str, GamePages]:
    """Every game's page hooks, as registered with the app (``web/games.py``)."""
    found: Mapping[str, GamePages] = current_app.extensions.get(PAGES_KEY, {})
    return found


def game_pages(slug: str) -> GamePages | None:
    """A game's page hooks, as registered with the app (``web/games.py``)."""
    return registered().get(slug)


GAME_CSS = "games/{slug}.css"


def game_css(slug: str) -> str | None:
    """A game's own stylesheet (``static/games/<slug>.css``), when it has one."""
    name = GAME_CSS.format(slug=slug)
    static = Path(current_app.static_folder or "")
    return url_for("static", filename=name) if (static / name).exists() else None
