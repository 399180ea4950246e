"""The JSON API (``/api/v1``): stateless scorers and referee checks, per ../shared/API.md.

Every handler computes from the request body alone, so it needs no login and no CSRF
token. Errors always come back as JSON: 400 (not a JSON object), 404 (unknown game or
endpoint), 405, 413, 415 (not JSON) and 422 with the problems found (at most
:data:`~companion.games.base.MAX_PROBLEMS`, then ``more_problems`` counts the rest).
``openapi.json`` describes every endpoint (see :mod:`companion.web.openapi`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from companion.extensions import limiter
from companion.games import GAMES
from companion.games.base import InvalidStateError, Problem, listed_problems
from companion.web import openapi, security
from companion.web.limits import api_limit

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# Every endpoint counts against the client network's API limit (a JSON 429 beyond it).
limiter.limit(api_limit)(bp)

JSON_MIMETYPE = "application/json"


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


@bp.post("/games/<slug>/<check>")
def call(slug: str, check: str) -> Response:
    """Run one game's scorer or referee check on the JSON body."""
    game = GAMES.get(slug)
    if game is None:
        raise ApiError(404, "not_found", f'There is no game "{slug}".')
    handler = game.api_endpoints().get(check)
    if handler is None:
        raise ApiError(404, "not_found", f'{game.name} has no "{check}" endpoint.')
    body = _json_object()
    try:
        return jsonify(handler(body))
    except InvalidStateError as invalid:
        return invalid_state_response(invalid.problems)


def invalid_state_response(problems: Sequence[Problem]) -> Response:
    """The 422 body: the first :data:`MAX_PROBLEMS` problems, and how many more there are.

    ``more_problems`` is only present when some were left out, so shorter answers keep
    the shape they always had.
    """
    shown, more = listed_problems(problems)
    body: dict[str, Any] = {"error": "invalid_state", "problems": [p.to_json() for p in shown]}
    if more:
        body["more_problems"] = more
    response = jsonify(body)
    response.status_code = 422
    return response


def _json_object() -> dict[str, Any]:
    if request.mimetype != JSON_MIMETYPE:
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    try:
        body = json.loads(request.get_data(as_text=True))
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_request", "The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.")
    return body
