"""The help pages: how to use the app at a table (``/help``), each game's how-to
(``/help/<slug>``) and how to host a game night from a laptop (``/help/game-night``),
written for players on a phone.

The content is plain Jinja templates under ``templates/help/`` (one per page, short
sections, each at its own anchor); the rules themselves are never repeated there, the
pages link to the rules reference instead. Each page is written in every language the
app speaks: English at ``templates/help/``, every other language under
``templates/help/<language>/`` with the same sections at the same anchors, and the
reader gets the page in their language. Help pages name no table's link, so they are
public: search engines may index them.
"""

from __future__ import annotations

from http import HTTPStatus

from flask import Blueprint, Flask, abort, current_app, render_template
from jinja2 import TemplateNotFound

from companion.config import DEFAULT_LANGUAGE
from companion.games import GAMES
from companion.games.text import _
from companion.web import security
from companion.web.languages import language

bp = Blueprint("help", __name__)

#: Where each game's help page lives, by its slug.
GAME_TEMPLATE = "help/games/{slug}.html"
#: The app's own help pages.
INDEX_TEMPLATE = "help/index.html"
GAME_NIGHT_TEMPLATE = "help/game-night.html"


def in_language(template: str, code: str) -> str:
    """Where a help page is written in a language: English's own place, every other
    language's folder under ``help/``.

    >>> in_language("help/games/oddland.html", "de"), in_language("help/index.html", "en")
    ('help/de/games/oddland.html', 'help/index.html')
    """
    if code == DEFAULT_LANGUAGE:
        return template
    return template.replace("help/", f"help/{code}/", 1)


def _readers(template: str) -> str:
    """A help page in the reader's language."""
    return in_language(template, language())


def init_app(app: Flask) -> None:
    """Register the help pages."""
    app.register_blueprint(bp)
    app.add_template_global(has_help)


def has_help(slug: str) -> bool:
    """Whether a game has a help page (every registered game has; the tests check)."""
    return slug in GAMES


def _games() -> list[dict[str, str]]:
    """Every registered game's slug and name (in the reader's language), in the registry's
    order."""
    return [{"slug": slug, "name": _(game.name)} for slug, game in GAMES.items()]


@bp.get("/help")
def home() -> str:
    """Using the app: tables, links, joining, live sharing, undo, finishing, groups, offline."""
    security.mark_public()
    return render_template(_readers(INDEX_TEMPLATE), games=_games())


@bp.get("/help/game-night")
def game_night() -> str:
    """Hosting the table from a laptop or a Raspberry Pi: ``./run``, joining, sleep,
    keeping the results, and what a home table gets against the public https setup."""
    security.mark_public()
    return render_template(_readers(GAME_NIGHT_TEMPLATE))


@bp.get("/help/<slug>")
def game(slug: str) -> str:
    """One game's how-to; an unknown game (or one without a page yet) is a 404."""
    found = GAMES.get(slug)
    if found is None:
        abort(HTTPStatus.NOT_FOUND)
    try:
        page = _readers(GAME_TEMPLATE.format(slug=slug))
        template = current_app.jinja_env.get_template(page)
    except TemplateNotFound:
        abort(HTTPStatus.NOT_FOUND)
    security.mark_public()
    return render_template(template, slug=slug, name=found.name, games=_games())
