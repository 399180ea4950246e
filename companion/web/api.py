"""The JSON API (``/api/v1``): stateless scorers and referee checks, per docs/api.md, and
a group's skill ratings.

Every scorer computes from the request body alone, so it needs no login and no CSRF
token. A group's ratings are read through the group's link (its edit or read-only
token in the path), like its pages. Errors always come back as JSON: 400 (not a JSON
object), 404 (unknown game, endpoint or group link), 405, 413, 415 (not JSON) and 422
with the problems found (at most
:data:`~companion.games.problems.MAX_PROBLEMS`, then ``more_problems`` counts the rest).
``openapi.json`` describes every endpoint (see :mod:`companion.web.openapi`).

The engines are pure: the same body always gets the same answer. So each worker keeps
the answers to the bodies it saw last (a client scoring a table again that has not
changed gets the kept answer without it being scored again), bounded in number and size;
a large body is scored every time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask_babel import gettext

from companion.games import GAMES, text
from companion.games.problems import InvalidStateError, Problem, listed_problems
from companion.games.readings import readings_json
from companion.services import groups
from companion.web import openapi, ratings, security
from companion.web.cache import Cache
from companion.web.limits import api_limit, limiter

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# Every endpoint counts against the client network's API limit (a JSON 429 beyond it).
limiter.limit(api_limit)(bp)

JSON_MIMETYPE = "application/json"
#: Answers kept per worker; bodies longer than this are scored every time (bytes).
MAX_KEPT_ANSWERS = 1024
MAX_KEPT_BODY = 16 * 1024
MAX_KEPT_BYTES = 8 * 1024 * 1024
KEPT_STORE = "companion.api_answers"


class KeptAnswer(NamedTuple):
    """An engine's answer to one body: its status (200 or 422) and its JSON."""

    status: int
    body: bytes


def _answer_size(answer: KeptAnswer) -> int:
    return len(answer.body) + MAX_KEPT_BODY  # the body it answers is at most that long


def _kept_answers() -> Cache[KeptAnswer]:
    found: Cache[KeptAnswer] | None = current_app.extensions.get(KEPT_STORE)
    if found is None:
        found = Cache(MAX_KEPT_ANSWERS, MAX_KEPT_BYTES, _answer_size)
        found = current_app.extensions.setdefault(KEPT_STORE, found)
    return found


class ApiError(Exception):
    """An error answered as ``{"error": code, "message": ...}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str) -> Response:
    """The JSON body of every API error but 422."""
    response = jsonify({"error": code, "message": message})
    response.status_code = status
    return response


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> Response:
    """Answer an :class:`ApiError` as JSON."""
    return error_response(error.status, error.code, error.message)


@bp.get("/games")
def games() -> Response:
    """The games this server knows and their endpoints."""
    return jsonify(
        {
            "games": [
                {
                    "slug": slug,
                    "name": game.name,
                    "players": {"min": game.min_players, "max": game.max_players},
                    "endpoints": [
                        url_for("api.call", slug=slug, check=name) for name in game.api_endpoints()
                    ],
                }
                for slug, game in GAMES.items()
            ]
        }
    )


@bp.get("/openapi.json")
def openapi_document() -> Response:
    """The OpenAPI 3.1 description of this API (public, cacheable, built once)."""
    security.mark_public()
    body, etag = openapi.document_bytes()
    response = Response(body, mimetype=JSON_MIMETYPE)
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = openapi.MAX_AGE_SECONDS
    response.make_conditional(request)  # a 304 when the client's copy is current
    return response


@bp.get("/groups/<token>/ratings")
def group_ratings(token: str) -> Response:
    """A group's skill ratings (overall and per game), through its edit or read-only link."""
    found = groups.find(token)
    if found is None:
        raise ApiError(404, "not_found", gettext("No group has this link."))
    rated = ratings.of_group(found.group)
    response = jsonify(ratings.as_json(found.group, rated))
    # The path holds the group's link: the answer is neither stored nor indexed.
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.post("/games/<slug>/<check>")
def call(slug: str, check: str) -> Response:
    """Run one game's scorer or referee check on the JSON body."""
    game = GAMES.get(slug)
    if game is None:
        raise ApiError(404, "not_found", gettext('There is no game "%(slug)s".', slug=slug))
    handler = game.api_endpoints().get(check)
    if handler is None:
        message = gettext(
            '%(game)s has no "%(endpoint)s" endpoint.', game=gettext(game.name), endpoint=check
        )
        raise ApiError(404, "not_found", message)
    raw = request.get_data()
    answers = _kept_answers()
    # An answer's words are in the language asked (Accept-Language): kept per language.
    key = (slug, check, text.language(), raw) if len(raw) <= MAX_KEPT_BODY else None
    kept = answers.get(key) if key is not None else None
    if kept is not None and request.mimetype == JSON_MIMETYPE:
        return Response(kept.body, kept.status, mimetype=JSON_MIMETYPE)
    body = _json_object()
    try:
        response = jsonify(handler(body))
    except InvalidStateError as invalid:
        response = invalid_state_response(invalid.problems)
    if key is not None:
        answers.put(key, KeptAnswer(response.status_code, response.get_data()))
    return response


def invalid_state_response(problems: Sequence[Problem]) -> Response:
    """The 422 body: the first :data:`MAX_PROBLEMS` problems, how many more there are,
    and the app's readings the listed refusals rest on.

    ``more_problems`` and ``readings`` are only present when there are some, so other
    answers keep the shape they always had.
    """
    shown, more = listed_problems(problems)
    body: dict[str, Any] = {"error": "invalid_state", "problems": [p.to_json() for p in shown]}
    if more:
        body["more_problems"] = more
    readings = readings_json(p.reading for p in shown)
    if readings:
        body["readings"] = readings
    response = jsonify(body)
    response.status_code = 422
    return response


#: Digits past which a JSON whole number is read as :data:`ABSURD_NUMBER` (with its sign):
#: no count, score or position of any game comes near, and Python refuses to convert
#: numbers over 4,300 digits, which would make an impossible count look like bad JSON.
MAX_NUMBER_DIGITS = 100
ABSURD_NUMBER: int = 10**MAX_NUMBER_DIGITS


def whole_number(text: str) -> int:
    """A JSON integer; a longer one than any table could hold becomes ±``ABSURD_NUMBER``.

    Such a number is well-formed JSON, so the engines refuse it as an impossible state
    (422) instead of the parser refusing the body as bad JSON (400).

    >>> whole_number("-12"), whole_number("9" * 5000) == ABSURD_NUMBER
    (-12, True)
    >>> whole_number("-" + "9" * 5000) == -ABSURD_NUMBER
    True
    """
    if len(text.lstrip("-")) <= MAX_NUMBER_DIGITS:
        return int(text)
    return -ABSURD_NUMBER if text.startswith("-") else ABSURD_NUMBER


def parse_json(raw: bytes) -> Any:
    """The JSON value of a request body, or a 400 :class:`ApiError`.

    The body must be UTF-8: a byte that is not is refused, never replaced by U+FFFD
    (which would turn ``"A\\xff"`` into a player named "A\ufffd").
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        message = gettext("The body is not valid UTF-8 (byte %(byte)s).", byte=error.start + 1)
        raise ApiError(400, "bad_request", message) from None
    try:
        return json.loads(text, parse_int=whole_number)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", gettext("The body is not valid JSON.")) from None


def _json_object() -> dict[str, Any]:
    if request.mimetype != JSON_MIMETYPE:
        message = gettext("Send the body as application/json.")
        raise ApiError(415, "unsupported_media_type", message)
    body = parse_json(request.get_data())
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", gettext("The body must be a JSON object."))
    return body
