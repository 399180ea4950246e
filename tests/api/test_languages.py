"""The JSON API speaks the language the request's ``Accept-Language`` asks for (issue 36):
every text for people follows it, every identifier stays as it is, and a script that
asks for none gets English. The phone's pick on the pages (its session) never counts."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.config import LANGUAGES
from companion.games import GAMES
from support.client import csrf
from support.pseudo import texts_at

#: Where an answer holds words for people (``docs/api.md``, "Languages").
WORDS = (
    *("message", "label", "warnings", "text", "words", "messages", "place", "effects"),
    *("reminder", "name", "missing"),
)
#: Strings under :data:`WORDS` that are identifiers: a tiebreaker's ``label`` (``decided_by``
#: names it).
IDENTIFIERS = re.compile(r"(^|\.)tiebreak\[\d+\]\.label$")
OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]
JSON = "application/json"
#: What the API's error bodies may say in English.
ENGLISH_MESSAGES = (
    "The body must be a JSON object.",
    "The body is not valid JSON.",
    "The body is not valid UTF-8 (byte 8).",
    'There is no game "chess".',
    'Odd World has no "mate" endpoint.',
    "Nothing is at this address. Check the link, or start again from the home page.",
    "No group has this link.",
    "This address does not answer this kind of request.",
    "Send the body as application/json.",
    "This is more than the app takes in one request.",
)


def examples() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every endpoint's documented example request."""
    for slug, game in GAMES.items():
        for name, described in game.api_descriptions().items():
            yield slug, name, dict(described.example)


def answer(client: FlaskClient, url: str, body: object, language: str | None) -> Any:
    headers = {"Accept-Language": language} if language else {}
    found = client.post(url, json=body, headers=headers)
    assert found.status_code in (200, 422), found.get_data(as_text=True)
    return found.get_json()


def words_taken_out(document: Any) -> Any:
    """The answer with every text for people blanked (identifiers left as they are)."""
    bare = copy.deepcopy(document)
    for path, _text in texts_at(document, WORDS):
        if IDENTIFIERS.search(path):
            continue
        node: Any = bare
        parts = re.findall(r"[^.\[\]]+", path)
        for part in parts[:-1]:
            node = node[int(part)] if part.isdigit() else node[part]
        last = parts[-1]
        node[int(last) if last.isdigit() else last] = ""
    return bare


def people_texts(document: Any) -> list[str]:
    return [t for p, t in texts_at(document, WORDS) if not IDENTIFIERS.search(p)]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_endpoint_answers_in_the_language_asked_with_the_same_identifiers(
    client: FlaskClient, language: str
) -> None:
    translated = 0
    for slug, name, body in examples():
        url = f"/api/v1/games/{slug}/{name}"
        english = answer(client, url, body, None)
        assert answer(client, url, body, "en") == english, url
        spoken = answer(client, url, body, language)
        assert words_taken_out(spoken) == words_taken_out(english), url
        translated += people_texts(spoken) != people_texts(english)
    # The examples of the games marked so far have words to translate.
    assert translated >= 2


def test_a_refusal_is_in_the_language_asked(client: FlaskClient) -> None:
    body = {"players": [{"name": "Ann", "display": {"hoopoe": 9}}, {"name": "Ben"}]}
    url = "/api/v1/games/odd-world/score"
    english = answer(client, url, body, None)
    german = answer(client, url, body, "de-CH, de;q=0.9")
    assert english["error"] == german["error"] == "invalid_state"
    assert [p["path"] for p in english["problems"]] == [p["path"] for p in german["problems"]]
    assert german["problems"][0]["message"] == "Es gibt nur 8 Karten Wiedehopf, nicht 9."
    assert english["problems"][0]["message"] == "Only 8 Hoopoe cards exist, not 9."


def test_kept_answers_are_kept_per_language(client: FlaskClient) -> None:
    body = {
        "players": [
            {"name": "Ann", "display": {"hoopoe": 3}},
            {"name": "Ben", "display": {"shoebill": 3}},
        ]
    }
    url = "/api/v1/games/odd-world/score"
    for language, label in [
        ("fr", "Huppe : 3 cartes (impair)".replace(" :", "\u00a0:")),
        (None, "Hoopoe: 3 cards (odd)"),
        ("es", "Abubilla: 3 cartas (impar)"),
        ("fr", "Huppe : 3 cartes (impair)".replace(" :", "\u00a0:")),
    ]:
        found = answer(client, url, body, language)
        assert found["standings"][0]["breakdown"][0]["label"] == label, language


def test_the_phone_s_pick_on_the_pages_does_not_count(client: FlaskClient) -> None:
    picked = client.post("/language", data={"lang": "fr", "next": "/", "csrf_token": csrf(client)})
    assert picked.status_code == 303
    body = {"players": [{"name": "Ann", "display": {"hoopoe": 9}}, {"name": "Ben"}]}
    found = answer(client, "/api/v1/games/odd-world/score", body, None)
    assert found["problems"][0]["message"] == "Only 8 Hoopoe cards exist, not 9."


#: Requests the API refuses before any engine runs: how to send each, its status and code.
REFUSED = [
    ("POST", "/api/v1/games/odd-world/score", "[1]", JSON, 400, "bad_request"),
    ("POST", "/api/v1/games/odd-world/score", "{", JSON, 400, "bad_request"),
    ("POST", "/api/v1/games/odd-world/score", b'{"a": "\xff"}', JSON, 400, "bad_request"),
    ("POST", "/api/v1/games/chess/score", "{}", JSON, 404, "not_found"),
    ("POST", "/api/v1/games/odd-world/mate", "{}", JSON, 404, "not_found"),
    ("GET", "/api/v1/nowhere", None, None, 404, "not_found"),
    ("GET", "/api/v1/groups/nothing-here/ratings", None, None, 404, "not_found"),
    ("GET", "/api/v1/games/odd-world/score", None, None, 405, "method_not_allowed"),
    ("POST", "/api/v1/games/odd-world/score", "{}", "text/plain", 415, "unsupported_media_type"),
    (
        "POST",
        "/api/v1/games/odd-world/score",
        b"x" * (2 * 1024 * 1024),
        JSON,
        413,
        "payload_too_large",
    ),
]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize(("method", "url", "data", "kind", "status", "code"), REFUSED)
def test_error_bodies_say_their_message_in_the_language_asked(
    client: FlaskClient,
    language: str,
    method: str,
    url: str,
    data: str | bytes | None,
    kind: str | None,
    status: int,
    code: str,
) -> None:
    def send(headers: dict[str, str]) -> Any:
        found = client.open(url, method=method, data=data, content_type=kind, headers=headers)
        assert found.status_code == status, found.get_data(as_text=True)
        return found.get_json()

    english = send({})
    spoken = send({"Accept-Language": language})
    assert english["error"] == spoken["error"] == code
    assert spoken["message"] != english["message"]
    # The message is the catalog's translation of the English one, or made from one.
    assert english["message"] in set(ENGLISH_MESSAGES), english["message"]


def test_no_accept_language_is_english(client: FlaskClient) -> None:
    found = client.post("/api/v1/games/chess/score", json={})
    assert found.get_json() == {"error": "not_found", "message": 'There is no game "chess".'}
    german = client.post("/api/v1/games/chess/score", json={}, headers={"Accept-Language": "de"})
    assert german.get_json() == {"error": "not_found", "message": "Es gibt kein Spiel „chess“."}
    assert "Accept-Language" in german.headers["Vary"]
