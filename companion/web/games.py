"""Per-game parts of the pages, registered in one place: which games the pages offer, the
options a game asks before it starts, and any routes of its own.

A game is offered at the table when it is listed in :data:`PAGES` (its engine must be in
``companion.games.GAMES``) and has ``templates/games/<slug>/_entry.html``. A game with an
``options_form`` gets an options page (``templates/games/<slug>/_options.html``) between
*Start* and its first edit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask
from flask_wtf import FlaskForm


class OptionsForm(FlaskForm):
    """Base of a game's start options form."""

    def options(self) -> dict[str, Any]:
        """The engine's ``new_state`` options from the validated form."""
        return {}


@dataclass(frozen=True)
class GamePages:
    """What the pages add for one game."""

    options_form: type[OptionsForm] | None = None
    blueprint: Blueprint | None = None


#: Games playable through the pages (the JSON API serves every registered engine).
PAGES: dict[str, GamePages] = {
    "odd-world": GamePages(),
    "owl-about": __import__("companion.web.owl_about", fromlist=["GAME_PAGES"]).GAME_PAGES,
}


def register(app: Flask) -> None:
    """Register the games' own blueprints."""
    for pages in PAGES.values():
        if pages.blueprint is not None:
            app.register_blueprint(pages.blueprint)
