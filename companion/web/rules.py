"""The rules reference pages: every game's rules, one entry panel, search as you type.

The rules content of every language is loaded and checked once, when the app starts (a
broken file, or a language whose entries differ from English's, stops it); each
language's search index is built in memory the first time someone searches in it. Every
page, panel and link text is in the reader's language; rule ids and anchors are the same
in all of them. Templates link to an entry with
``rule_url(rule_id)`` or the ``rule_link`` macro: the link opens the entry in a panel
over the play with htmx, and without JavaScript opens the game's rules page at the
entry, with a link back to the page it came from (read from the Referer header, so that
no table address ever sits in a rules address) and to the place named by ``?at=``.
"""

from __future__ import annotations

import functools
import re
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from companion.config import DEFAULT_LANGUAGE, LANGUAGES
from companion.extensions import htmx
from companion.games import GAMES
from companion.games.text import _
from companion.rules import Library, load_languages
from companion.rules.markdown import to_html
from companion.rules.search import MAX_QUERY_LENGTH, RulesIndex
from companion.web import game_pages, security
from companion.web.languages import language
from companion.web.responses import page_or_fragment

bp = Blueprint("rules", __name__)

LIBRARY_KEY = "companion.rules"
#: Where a "back to the play" link may lead: a path of this site (never another host).
SAFE_BACK = re.compile(r"/(?![/\\])[^\s\\]{0,300}")
#: The place on that page to return to: an element id.
SAFE_ANCHOR = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
SERVICE_WORKER = "sw.js"


def init_app(app: Flask) -> None:
    """Load and check the rules content of every language, register the pages and globals."""
    app.extensions[LIBRARY_KEY] = _loaded()
    app.register_blueprint(bp)
    app.add_template_global(rule_url)
    app.add_template_global(rule_panel_url)
    app.add_template_global(rule_exists)
    app.add_template_global(rule_title)
    app.add_template_global(has_rules)
    app.add_template_global(rule_link_html)
    app.add_template_filter(to_html, "rules_markdown")


@functools.cache
def _loaded() -> dict[str, Library]:
    """The rules content of every language, read and checked once per process.

    The files ship with the code and never change while it runs, and no library is
    changed after it is built, so every app of the process shares them (the test suite
    builds an app per test; parsing the TOML each time cost about a third of that).
    """
    return load_languages(LANGUAGES)


@functools.cache
def _index(code: str) -> RulesIndex:
    """A language's search index, built on its first search (once per process)."""
    return RulesIndex(_loaded()[code])


def library() -> Library:
    """The rules content in the reader's language."""
    found: dict[str, Library] = current_app.extensions[LIBRARY_KEY]
    return found.get(language()) or found[DEFAULT_LANGUAGE]


def index() -> RulesIndex:
    """The search index of the reader's language."""
    code = language()
    return _index(code if code in LANGUAGES else DEFAULT_LANGUAGE)


def _english() -> Library:
    """The English rules: ids and anchors are every language's."""
    found: dict[str, Library] = current_app.extensions[LIBRARY_KEY]
    return found[DEFAULT_LANGUAGE]


def game_name(slug: str) -> str:
    """A game's name as players know it, in the reader's language (its slug when the
    engine is not registered)."""
    game = GAMES.get(slug)
    return _(game.name) if game is not None else slug.replace("-", " ").title()


def rule_exists(rule_id: str | None) -> bool:
    """Whether the rules have the entry ``rule_id`` names (in every language alike)."""
    return bool(rule_id) and _english().entry(rule_id or "") is not None


def rule_title(rule_id: str) -> str:
    """The question an entry answers, in the reader's language ("" for an id the rules
    do not have)."""
    found = library().entry(rule_id)
    return found.title if found is not None else ""


def has_rules(slug: str) -> bool:
    """Whether a game's rules are in the reference (in every language alike)."""
    return slug in _english().games


def rule_url(rule_id: str, *, at: str | None = None) -> str:
    """The address of an entry on its game's rules page: ``/rules/<slug>#<entry id>``
    (``at``: the element of the page the link sits in, for the way back to it)."""
    slug, _, entry_id = rule_id.partition("/")
    return url_for("rules.game", slug=slug, at=at, _anchor=entry_id or None)


def rule_panel_url(rule_id: str) -> str:
    """The address of one entry alone (the panel htmx loads over the play)."""
    slug, _, entry_id = rule_id.partition("/")
    return url_for("rules.entry", slug=slug, id=entry_id)


def rule_link_html(
    rule_id: str | None, text: str | None = None, at: str | None = None, classes: str = "rule-link"
) -> Markup:
    """A link to the rules entry ``rule_id`` (the ``rule_link`` macro of ``macros.html``):
    htmx opens it in the panel over the page; without JavaScript it is the game's rules
    page at the entry (``at``: see :func:`rule_url`). Without ``text`` it says the entry's
    question; an id the rules do not have gives the text alone."""
    if text is None:
        text = rule_title(rule_id or "")
    # Markup and a plain string that read alike escape differently: both are in the key.
    return _rule_link(request.script_root, rule_id, isinstance(text, Markup), text, at, classes)


#: Rule links made per process: a play's standings hold a few dozen (one per breakdown
#: line), and building their two addresses each time was a third of a 4-player Odd World
#: panel's rendering (1.1 of 3.1 ms).
RULE_LINKS = 4096


@functools.lru_cache(maxsize=RULE_LINKS)
def _rule_link(
    _root: str, rule_id: str | None, _safe: bool, text: str, at: str | None, classes: str
) -> Markup:
    # ``_root`` and ``_safe`` are only parts of the cache key: the app's mount point, and
    # whether ``text`` is Markup (escaped differently from a string that reads alike).
    words = escape(text)
    if not rule_id or not rule_exists(rule_id):
        return words
    return Markup(
        '<a class="{}" href="{}" hx-get="{}" hx-target="#rule-panel" hx-swap="innerHTML"'
        ' hx-push-url="false">{}</a>'
    ).format(classes, rule_url(rule_id, at=at), rule_panel_url(rule_id), words)


def _back_link() -> str | None:
    """The way back to the page a rules page was opened from: the referring page of this
    site (never the rules themselves), at the place named by ``at``.

    The page comes from the Referer header, never from the address: a rules address is
    shared and kept (the service worker stores rules pages), and a table page's address
    is a key to the table.
    """
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host or referrer.path.startswith("/rules"):
        return None
    path = referrer.path + (f"?{referrer.query}" if referrer.query else "")
    if not SAFE_BACK.fullmatch(path):
        return None
    at = request.args.get("at", "")
    return f"{path}#{at}" if SAFE_ANCHOR.fullmatch(at) else path


def _back_or_public() -> str | None:
    """The way back (see ``_back_link``); a page without one names no table's link, so
    search engines may index it."""
    back = _back_link()
    if back is None:
        security.mark_public()
    return back


def _games() -> list[dict[str, Any]]:
    return [
        {"slug": slug, "name": game_name(slug), "rules": rules}
        for slug, rules in library().games.items()
    ]


@bp.get("/rules")
def home() -> str:
    """Every game's rules, and a search across all of them."""
    return render_template(
        "rules/index.html", games=_games(), query="", game=None, back=_back_or_public()
    )


@bp.get("/rules/search")
def search() -> Response:
    """Search as you type: the results list for htmx, the whole page without JavaScript.
    A game named in the question scopes the answers to it; the other games' best follow,
    apart."""
    query = request.args.get("q", "")[:MAX_QUERY_LENGTH]
    game = request.args.get("game") or None
    if game is not None and game not in library().games:
        game = None
    answer = index().answer(query, game=game)
    return page_or_fragment(
        "rules/search.html",
        "rules/_results.html",
        query=query,
        game=game,
        answer=answer,
        hits=answer.hits,
        understood=answer.query,
        games=_games(),
        game_name=game_name,
        back=_back_or_public(),
    )


@bp.get("/rules/<slug>")
def game(slug: str) -> str:
    """One game's rules, grouped by topic, each entry at its own anchor."""
    rules = library().games.get(slug)
    if rules is None:
        abort(HTTPStatus.NOT_FOUND)
    return render_template(
        "rules/game.html",
        rules=rules,
        slug=slug,
        name=game_name(slug),
        query="",
        game=slug,
        back=_back_or_public(),
    )


@bp.get("/rules/<slug>/entry")
def entry(slug: str) -> Response:
    """One entry (``?id=``): the panel over the play for htmx, else its place on the
    game's rules page."""
    entry_id = request.args.get("id", "")
    found = library().entry(f"{slug}/{entry_id}")
    if found is None:
        abort(HTTPStatus.NOT_FOUND)
    if not htmx:
        at = request.args.get("at") if SAFE_ANCHOR.fullmatch(request.args.get("at", "")) else None
        return redirect(url_for("rules.game", slug=slug, at=at, _anchor=entry_id))
    return page_or_fragment(
        "rules/_panel.html", "rules/_panel.html", entry=found, name=game_name(slug)
    )


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so that its scope is the whole site, with the
    addresses of every registered game's tools (``templates/sw.js``). Revalidated on
    every load (an ETag makes that cheap), so a new game's tools reach phones at once."""
    script = render_template(SERVICE_WORKER, tools=tool_addresses())
    response = make_response(script)
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


def tool_addresses() -> list[str]:
    """The address of every registered game's table-free tool, in the order of the games."""
    registry = game_pages.registered()
    return [url_for(tool.endpoint) for pages in registry.values() for tool in pages.tools]
