"""The OpenAPI 3.1 description of ``/api/v1``, served at ``/api/v1/openapi.json``.

Built once per process from the registry (:data:`companion.games.GAMES`), so a game
added there is described without touching this module: each endpoint's request body is
the JSON Schema of the pydantic model its handler validates with, and its answer the
schema the game gives in :meth:`~companion.games.base.Game.api_descriptions`. The
errors every endpoint can answer (API.md, "Errors") are described once and shared. A
group's skill ratings (read through the group's link) are described here too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import pydantic
from pydantic.json_schema import models_json_schema

from companion.games import GAMES, schemas, text
from companion.games.base import ApiDescription, Game
from companion.games.problems import MAX_PROBLEMS

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1"
PREFIX = "/api/v1"
JSON = "application/json"
#: Components are named from the request models; these names are the app's own.
SCHEMA_REF = "#/components/schemas/{model}"
#: How long caches may keep the document; it only changes with a new release (and the
#: ETag lets a cache check cheaply after that).
MAX_AGE_SECONDS = 3600

ERROR: schemas.Schema = schemas.obj({"error": schemas.STRING, "message": schemas.SENTENCE})
INVALID_STATE: schemas.Schema = schemas.obj(
    {
        "error": {"const": "invalid_state"},
        "problems": {**schemas.PROBLEMS, "minItems": 1, "maxItems": MAX_PROBLEMS},
    },
    {"more_problems": {"type": "integer", "minimum": 1}, "readings": schemas.READINGS},
)
#: Every error answer: (status, response component, description, schema component).
ERRORS: tuple[tuple[int, str, str, str], ...] = (
    (400, "BadRequest", "The body is not JSON, or not a JSON object.", "Error"),
    (404, "NotFound", "No such game, endpoint or group link.", "Error"),
    (405, "MethodNotAllowed", "The endpoint does not answer this method.", "Error"),
    (413, "PayloadTooLarge", "The body is larger than the server accepts (1 MiB).", "Error"),
    (415, "UnsupportedMediaType", "The body is not sent as application/json.", "Error"),
    (
        422,
        "InvalidState",
        f"The state is impossible or incomplete: every problem found (at most {MAX_PROBLEMS},"
        " then more_problems counts the rest).",
        "InvalidState",
    ),
    (429, "TooManyRequests", "Too many requests from the client's network.", "Error"),
)
#: The errors a read (``GET``) can answer: its path exists and it takes no body.
READ_ERRORS = (404, 405, 429)

GAMES_LIST: schemas.Schema = schemas.obj(
    {
        "games": schemas.array(
            schemas.obj(
                {
                    "slug": schemas.STRING,
                    "name": schemas.STRING,
                    "players": schemas.obj({"min": schemas.INTEGER, "max": schemas.INTEGER}),
                    "endpoints": schemas.STRINGS,
                }
            )
        )
    }
)

#: One player's skill rating in a scope (docs/api.md, "A group's ratings").
RATING: schemas.Schema = schemas.obj(
    {
        "id": schemas.INTEGER,
        "player": schemas.STRING,
        "rating": {"type": "number"},
        "mu": {"type": "number"},
        "sigma": {"type": "number", "minimum": 0},
        "games": {"type": "integer", "minimum": 1},
        "provisional": schemas.BOOLEAN,
    }
)
RATINGS: schemas.Schema = schemas.obj(
    {
        "group": schemas.STRING,
        "model": schemas.STRING,
        "provisional_games": schemas.INTEGER,
        "plays": {"type": "integer", "minimum": 0},
        "overall": schemas.array(RATING),
        "games": {
            "type": "object",
            "additionalProperties": schemas.obj(
                {"name": schemas.STRING, "ratings": schemas.array(RATING)}
            ),
        },
    }
)
RATINGS_PATH = f"{PREFIX}/groups/{{token}}/ratings"

#: An endpoint a game does not describe: any JSON object in, any JSON object out.
UNDESCRIBED_ANSWER: schemas.Schema = schemas.ANY_OBJECT


def descriptions(game: Game) -> dict[str, ApiDescription | None]:
    """Each endpoint of ``game`` (in its order) and its description, ``None`` if missing."""
    described = game.api_descriptions()
    return {name: described.get(name) for name in game.api_endpoints()}


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document (built on first use, then kept: in English, whatever the
    language of the request that first asks for it)."""
    with text.in_english():
        return _document()


def _document() -> dict[str, Any]:
    operations = [
        (slug, name, described)
        for slug, game in GAMES.items()
        for name, described in descriptions(game).items()
    ]
    refs: dict[tuple[str, type[pydantic.BaseModel]], schemas.Schema] = {}
    components: dict[str, schemas.Schema] = {}
    for slug, game in GAMES.items():
        game_refs, game_components = _request_schemas(slug, game)
        refs.update({(slug, model): ref for model, ref in game_refs.items()})
        components.update(game_components)
    paths: dict[str, Any] = {
        f"{PREFIX}/games": {"get": _games_operation()},
        f"{PREFIX}/openapi.json": {"get": _openapi_operation()},
        RATINGS_PATH: {"get": _ratings_operation()},
    }
    for slug, name, described in operations:
        request = refs[(slug, described.request)] if described else schemas.ANY_OBJECT
        paths[f"{PREFIX}/games/{slug}/{name}"] = {
            "post": _check_operation(GAMES[slug], name, described, request)
        }
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Odd Companion API",
            "version": API_VERSION,
            "description": (
                "Stateless scorers and referee checks of five card games: each computes "
                "from the request body alone (no login, no CSRF token, nothing stored)."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": {**components, "Error": ERROR, "InvalidState": INVALID_STATE},
            "responses": {
                component: _error_response(description, schema_name)
                for _status, component, description, schema_name in ERRORS
            },
        },
    }


@cache
def document_bytes() -> tuple[bytes, str]:
    """The document as sent, and its ETag (both built once)."""
    body = json.dumps(document(), separators=(",", ":")).encode()
    return body, hashlib.sha256(body).hexdigest()[:32]


def _request_schemas(
    slug: str, game: Game
) -> tuple[dict[type[pydantic.BaseModel], schemas.Schema], dict[str, schemas.Schema]]:
    """A ``$ref`` per request model of a game, and the component schemas they point to,
    each named after the game and the model (``owl-about.TrickRequestModel``)."""
    # Sorted by full name, so every worker sends the same bytes (and the same ETag).
    models = sorted(
        {described.request for described in descriptions(game).values() if described},
        key=lambda model: f"{model.__module__}.{model.__qualname__}",
    )
    refs, definitions = models_json_schema(
        [(model, "validation") for model in models],
        ref_template=SCHEMA_REF.replace("{model}", f"{slug}.{{model}}"),
    )
    components = {
        f"{slug}.{name}": schema for name, schema in definitions.get("$defs", {}).items()
    }
    return {model: refs[(model, "validation")] for model in models}, components


def _error_response(description: str, schema_name: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {JSON: {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}},
    }


def _errors(statuses: tuple[int, ...] | None = None) -> dict[str, Any]:
    return {
        str(status): {"$ref": f"#/components/responses/{component}"}
        for status, component, _d, _s in ERRORS
        if statuses is None or status in statuses
    }


def _media(schema: Mapping[str, Any], described: ApiDescription | None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": dict(schema)}
    if described is not None:
        media["example"] = dict(described.example)
    return media


def _ok(description: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": dict(schema)}}}


def _games_operation() -> dict[str, Any]:
    return {
        "operationId": "list-games",
        "summary": "The games this server knows and their endpoints.",
        "responses": {"200": _ok("The games.", GAMES_LIST), **_errors(READ_ERRORS)},
    }


def _openapi_operation() -> dict[str, Any]:
    return {
        "operationId": "openapi",
        "summary": "This description of the API.",
        "responses": {
            "200": _ok("An OpenAPI 3.1 document.", schemas.ANY_OBJECT),
            **_errors(READ_ERRORS),
        },
    }


def _ratings_operation() -> dict[str, Any]:
    return {
        "operationId": "group-ratings",
        "tags": ["Groups"],
        "summary": "A group's skill ratings, over all games and per game, best first.",
        "parameters": [
            {
                "name": "token",
                "in": "path",
                "required": True,
                "description": "The group's edit or read-only token (from its link /g/<token>).",
                "schema": {"type": "string"},
            }
        ],
        "responses": {"200": _ok("The ratings.", RATINGS), **_errors(READ_ERRORS)},
    }


def _check_operation(
    game: Game, name: str, described: ApiDescription | None, request: Mapping[str, Any]
) -> dict[str, Any]:
    summary = described.summary if described else f"{game.name}: the {name} endpoint."
    answer = described.answer if described else UNDESCRIBED_ANSWER
    return {
        "operationId": f"{game.slug}-{name}",
        "tags": [game.name],
        "summary": summary,
        "requestBody": {"required": True, "content": {JSON: _media(request, described)}},
        "responses": {"200": _ok("The answer.", answer), **_errors()},
    }
