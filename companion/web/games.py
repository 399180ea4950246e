"""Per-game parts of the pages, registered in one place: which games the pages offer, the
options a game asks before it starts, its view data, its tools and any routes of its own.

A game is offered at the table when it is listed in :data:`PAGES` (its engine must be in
``companion.games.GAMES``) with ``templates/games/<slug>/_entry.html``. A game with an
``options_form`` gets an options page (``templates/games/<slug>/_options.html``) between
*Start* and its first edit. A game's stylesheet ``static/games/<slug>.css`` is linked on
its pages when it exists.
"""

from __future__ import annotations

from flask import Flask

from companion.games import GAMES
from companion.games.text import _
from companion.models import Play
from companion.web import luckys, odd_world, oddland, oddville, owl_about
from companion.web.game_pages import PAGES_KEY, GamePages, GameTool, game_css, play_rule, tool_rule

#: Games playable through the pages (the JSON API serves every registered engine).
PAGES: dict[str, GamePages] = {
    "odd-world": odd_world.GAME_PAGES,
    "owl-about": owl_about.GAME_PAGES,
    "oddland": oddland.GAME_PAGES,
    "luckys-misadventures": luckys.GAME_PAGES,
    "oddville": oddville.GAME_PAGES,
}


def translated(value: str) -> str:
    """A value fixed in English where it is defined and marked there with ``N_`` (a
    game's name, a tool's title) in the reader's language, as plain text: the templates
    escape it as any value (their own ``_`` takes a message for markup)."""
    return _(value)


def play_label(play: Play) -> str:
    """A play as lists and notices name it, in the reader's language: the game, and its
    place in a series ("Odd World · game 2 of 3")."""
    name = translated(GAMES[play.game].name)
    if play.series is None or play.series_index is None:
        return name
    number, length = play.series_index + 1, play.series.length
    return _("%(game)s · game %(number)s of %(length)s", game=name, number=number, length=length)


def tools() -> list[GameTool]:
    """Every game's referee tools, in the order of the games."""
    return [tool for pages in PAGES.values() for tool in pages.tools]


def register(app: Flask) -> None:
    """Register the games' hooks with the app, their own blueprints and their tools.

    Every game's routes follow one convention: a blueprint's routes are under the play's
    address and the game's slug (:func:`~companion.web.game_pages.play_rule`), its
    table-free tools at ``/<slug>/<path>`` with an endpoint named after the blueprint.
    """
    app.extensions[PAGES_KEY] = PAGES
    app.add_template_global(game_css)
    app.add_template_global(translated)
    app.add_template_global(play_label)
    for slug, pages in PAGES.items():
        if pages.blueprint is not None:
            app.register_blueprint(pages.blueprint, url_prefix=play_rule(slug))
        for tool in pages.tools:
            app.add_url_rule(tool_rule(slug, tool), tool.endpoint, tool.view)
