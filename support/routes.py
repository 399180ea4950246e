"""Every route of the app with its path filled in, for the walks that try each one (the
CSRF and read-only walk, the cache headers, the trust walks, the form fuzzers): routes
added later are covered without touching them, and a route whose path parameters cannot
be filled fails a walk rather than being skipped."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Flask
from werkzeug.routing import Rule

from companion.games import GAMES
from companion.web.games import PAGES
from support.every_game import Fixture

TOKEN_PREFIX = "/t/"
GROUP_PREFIX = "/g/"
API_PREFIX = "/api/"
#: The static file a route of static files is walked with.
STATIC_FILE = "companion.css"
#: A photo's file name no photo has (its routes answer 404, behind the same checks).
PHOTO_FILE = f"{'0' * 32}.jpg"


def play_pages(slug: str) -> list[str]:
    """The pages a game's own blueprint shows for a play (Oddland's facts, Lucky's
    referee), as addresses after the play's (``/oddland/facts``): every GET route of the
    game's blueprint, read from a bare app it is registered on alone."""
    blueprint = PAGES[slug].blueprint
    if blueprint is None:
        return []
    bare = Flask(__name__)
    bare.register_blueprint(blueprint, url_prefix=f"/{slug}")
    return sorted(
        rule.rule
        for rule in bare.url_map.iter_rules()
        if rule.endpoint.startswith(f"{blueprint.name}.") and "GET" in (rule.methods or ())
    )


def _game_of(rule: Rule) -> str | None:
    """The game a route belongs to when its path names one (``.../owl-about/card``)."""
    segments = rule.rule.split("/")
    return next((slug for slug in GAMES if slug in segments), None)


def _values(rule: Rule, token: str, found: Fixture) -> Iterator[dict[str, object]]:
    """Path parameters for a rule: each sensible combination, or KeyError for an unknown
    parameter (the walk then fails naming the route)."""
    unknown = set(rule.arguments) - {"token", "play_id", "slug", "filename", "photo"}
    if unknown:
        raise KeyError(f"{rule.rule}: no value for {sorted(unknown)}")
    game = _game_of(rule)
    play_ids = [found.plays[game]] if game else list(found.plays.values())
    slugs = list(GAMES)
    for play_id in play_ids if "play_id" in rule.arguments else [None]:
        for slug in slugs if "slug" in rule.arguments else [None]:
            values: dict[str, object] = {"token": token, "play_id": play_id, "slug": slug}
            values["filename"] = STATIC_FILE
            values["photo"] = PHOTO_FILE
            yield {name: value for name, value in values.items() if name in rule.arguments}


def route_urls(app: Flask, rule: Rule, token: str, found: Fixture) -> list[str]:
    """The addresses of a route through the link ``token`` of the table ``found`` (a
    group's route through the group's link of the same access): each sensible filling of
    its path; KeyError for a parameter no filling is known for."""
    if rule.rule.startswith(GROUP_PREFIX):
        # A group's routes take the group's link of the same access as the table's.
        token = found.group_edit if token == found.edit else found.group_view
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        return [adapter.build(rule.endpoint, values) for values in _values(rule, token, found)]


def routes(app: Flask) -> list[Rule]:
    """Every route of the app, by its path."""
    return sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)
