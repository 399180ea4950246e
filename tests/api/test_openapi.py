"""The OpenAPI description of ``/api/v1``, and schemathesis fuzzing every endpoint with it.

Schemathesis reads ``/api/v1/openapi.json`` from the app itself (WSGI, in process: no
network) and sends each operation bodies that fit its request schema and bodies that do
not. Every answer must be documented (status, content type, schema), never a 500, and
every error must say what is wrong in words. Under ``CI`` the examples are derandomized,
so the same requests are sent every run.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from companion import create_app
from companion.games import GAMES
from companion.web import openapi

OPENAPI = "/api/v1/openapi.json"
#: Examples per operation and phase: enough to reach every error path of a handler, few
#: enough that the whole module runs in well under a minute on two cores (about 15 s on
#: a quiet machine). ``FUZZ_EXAMPLES=400`` makes a deeper run by hand.
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "50"))

#: ``positive_data_acceptance`` is off: a body that fits the schema may still break a
#: rule of the game (9 Hoopoe cards), and the documented answer to that is a 422.
#: Answers are asked for uncompressed (``identity``): the in-process client hands
#: schemathesis the body as sent, and it does not undo the compression the app applies
#: to larger answers (tested in tests/web).
IDENTITY = {"Accept-Encoding": "identity"}
CONFIG = f"""
headers = {{ "Accept-Encoding" = "identity" }}

[generation]
max-examples = {MAX_EXAMPLES}
deterministic = {"true" if os.environ.get("CI") else "false"}

[checks]
positive_data_acceptance.enabled = false
"""


def _app() -> Flask:
    """An app for the fuzzer, with its own migrated database (a group's ratings read it;
    the scorers read nothing), and its rate limit off (the fuzzer sends far more than a
    network may)."""
    instance = tempfile.mkdtemp(prefix="companion-openapi-")
    atexit.register(shutil.rmtree, instance, ignore_errors=True)
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": instance,
            "SECRET_KEY": "test-secret",
            "RATELIMIT_ENABLED": False,
        }
    )


# Loaded when the module is collected (schemathesis makes one test per operation from
# it), not from a fixture: its fixture loader does not work with pytest 9.2.
APP = _app()
schema = schemathesis.openapi.from_wsgi(OPENAPI, APP, config=schemathesis.Config.from_str(CONFIG))
ENDPOINTS = [(slug, name) for slug, game in GAMES.items() for name in game.api_endpoints()]


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES)
def test_no_request_breaks_the_api(case: schemathesis.Case) -> None:
    response = case.call_and_validate()
    if response.status_code >= 400:
        assert_clear_error(response.json())


def assert_clear_error(body: dict[str, Any]) -> None:
    """An error names itself and says in words what is wrong."""
    assert isinstance(body.get("error"), str)
    assert body["error"]
    if body["error"] == "invalid_state":
        assert body["problems"]
        for problem in body["problems"]:
            assert problem["message"].strip(), problem
            assert problem["message"].rstrip()[-1] in ".?!", problem
    else:
        assert body["message"].strip(), body


# --- the document itself ---------------------------------------------------------------


@pytest.fixture
def api_client() -> FlaskClient:
    return APP.test_client()


def test_the_document_is_valid_openapi() -> None:
    schema.validate()  # against the OpenAPI 3.1 meta-schema
    broken = {**openapi.document(), "paths": {"/api/v1/games": {"get": {"responses": 200}}}}
    with pytest.raises(Exception, match="200"):
        schemathesis.openapi.from_dict(broken).validate()
    operations = {result.ok().label for result in schema.get_all_operations()}
    assert operations >= {
        "GET /api/v1/games",
        "GET /api/v1/groups/{token}/ratings",
        *(f"POST /api/v1/games/{slug}/{name}" for slug, name in ENDPOINTS),
    }


def test_every_endpoint_of_every_game_is_described(api_client: FlaskClient) -> None:
    document = api_client.get(OPENAPI).get_json()
    for slug, game in GAMES.items():
        described = game.api_descriptions()
        for name in game.api_endpoints():
            assert name in described, f"{slug}: describe the {name} endpoint in api_descriptions"
            operation = document["paths"][f"/api/v1/games/{slug}/{name}"]["post"]
            request = operation["requestBody"]["content"]["application/json"]["schema"]
            assert request["$ref"].startswith("#/components/schemas/")
            assert set(operation["responses"]) >= {"200", "400", "413", "415", "422", "429"}
        assert set(described) <= set(game.api_endpoints()), f"{slug}: a description too many"


@pytest.mark.parametrize(
    ("slug", "name"),
    [(slug, name) for slug, game in GAMES.items() for name in game.api_endpoints()],
)
def test_every_example_gets_an_answer_of_the_described_shape(slug: str, name: str) -> None:
    example = GAMES[slug].api_descriptions()[name].example
    case = schema[f"/api/v1/games/{slug}/{name}"]["POST"].Case(
        body=example, media_type="application/json"
    )
    response = case.call_and_validate(headers=IDENTITY)
    assert response.status_code == 200, response.text
    if "legal" in response.json():
        assert response.json()["legal"] is True  # the example shows a turn that may be made


def test_request_schemas_come_from_the_models(api_client: FlaskClient) -> None:
    document = api_client.get(OPENAPI).get_json()
    components = document["components"]["schemas"]
    trick = components["owl-about.TrickRequestModel"]
    assert trick["additionalProperties"] is False  # STRICT: unknown fields are refused
    assert set(trick["required"]) == {"lead", "players", "cards"}
    assert document == openapi.document()


def test_the_document_is_public_and_cacheable(api_client: FlaskClient) -> None:
    response = api_client.get(OPENAPI)
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "public" in response.headers["Cache-Control"]
    assert "no-store" not in response.headers["Cache-Control"]
    assert "X-Robots-Tag" not in response.headers
    again = api_client.get(OPENAPI, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert response.get_json()["openapi"].startswith("3.1")


def test_an_endpoint_a_game_does_not_describe_is_still_listed() -> None:
    odd_world = GAMES["odd-world"]

    class Undescribed(type(odd_world)):  # type: ignore[misc]
        def api_descriptions(self) -> dict[str, Any]:
            return {}

    game = Undescribed()
    assert openapi.descriptions(game) == {"score": None, "series": None}
    operation = openapi._check_operation(game, "score", None, {"type": "object"})
    assert operation["requestBody"]["content"]["application/json"] == {
        "schema": {"type": "object"}
    }
    assert operation["summary"] == "Odd World: the score endpoint."
