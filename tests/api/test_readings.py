"""The app's readings, said aloud: every reading an engine can apply has a clarification
entry, and some answer of the API carries it (id, the app's words, the entry).

Each game's examples below are requests whose answer applies the reading named: a score,
a referee verdict, or a refusal (a 422 lists the readings its problems rest on).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.games.readings import Reading
from companion.rules import load

#: reading id -> (endpoint, request body): an answer that applies it.
Example = tuple[str, dict[str, Any]]

ODD_WORLD: dict[str, Example] = {
    "odd-world/tiebreak/places": (
        "score",
        {
            "players": [
                {"name": "Ann", "display": {"hoopoe": 5}},
                {"name": "Ben", "display": {"shoebill": 1, "hornbill": 1, "hoopoe": 2}},
                {
                    "name": "Cy",
                    "display": {
                        "cassowary": 1,
                        "scarlet-ibis": 1,
                        "king-vulture": 2,
                        "crowned-crane": 2,
                    },
                },
            ]
        },
    ),
    "odd-world/players": (
        "score",
        {"players": [{"name": "Ann", "display": {"hoopoe": 3}}]},
    ),
}

OWL_ABOUT: dict[str, Example] = {
    "owl-about/fewest-vp": (
        "score",
        {
            "players": ["Miu", "Carol", "Romi"],
            "mode": "basic",
            "rounds": [{"trophies": {"Miu": 5, "Carol": 3, "Romi": 1}}],
        },
    ),
}


def _oddland_token(player: str, species: str, *cells: list[int]) -> dict[str, Any]:
    return {"player": player, "species": species, "cells": list(cells)}


def _oddland(rows: list[str], *tokens: dict[str, Any], **extra: Any) -> Example:
    """A score request for Ann and Ben (or ``players``), every token's species on side A."""
    sides = {token["species"]: "A" for token in tokens}
    body = {"players": ["Ann", "Ben"], "map": rows, "tokens": list(tokens), "sides": sides}
    return ("score", {**body, **extra})


ODDLAND: dict[str, Example] = {
    # The set-up cards shifted by one space: still next to each other.
    "oddland/setup/pair": _oddland(["FF..", "FFWW", "..WW"]),
    # A third Flora: the set holds two, by the app's count.
    "oddland/tokens": _oddland(
        ["FFFFFFF", "WWWWWWW"], *(_oddland_token("Ann", "flora", [0, n]) for n in (0, 2, 4))
    ),
    "oddland/tiebreak/places": _oddland(
        ["FFFW", "FFFW", "SSSM", "SSSM"],
        _oddland_token("Ann", "flora", [0, 0]),
        _oddland_token("Ben", "flora", [0, 3]),
        _oddland_token("Cy", "flora", [2, 0]),
        players=["Ann", "Ben", "Cy"],
        points={"Ann": {"flora": 3}},
    ),
    "oddland/tiebreak/shared": _oddland(["FFFF", "WWWW"]),
    # Ann's two Flora share the joined forest of 6: counted once per token she wins (6, 6
    # against 6, 5); counted once, Ben would (6, 5 against 6).
    "oddland/tiebreak/two-tokens": _oddland(
        ["FFFWWW", "FFFWWW", "SSSSSM", "MMMMMM"],
        _oddland_token("Ann", "flora", [0, 0]),
        _oddland_token("Ann", "flora", [1, 2]),
        _oddland_token("Ben", "flora", [0, 3]),
        _oddland_token("Ben", "flora", [2, 0]),
    ),
    "oddland/species/whalephant": _oddland(
        ["FFWW", "FFWW", "SSMM", "SSMM"],
        _oddland_token("Ann", "whalephant", [0, 1], [0, 2]),
        _oddland_token("Ben", "begator", [2, 0]),
    ),
    "oddland/species/begator": _oddland(
        ["FFWW", "FFWW", "SSMM"], _oddland_token("Ann", "begator", [0, 0])
    ),
    # Ann's row runs on past the gap at row 1, col 3: 4 forest spaces, not 2.
    "oddland/lines": _oddland(
        ["FF.FF", "FFFFF", "FFFFF"],
        _oddland_token("Ann", "owloose", [0, 0]),
        definitions={"owloose": {"A": {"points": 1, "region": "row"}}},
    ),
    "oddland/solo": _oddland(
        ["FFWW", "FFWW", "SSMM"], _oddland_token("Ann", "begator", [0, 0]), players=["Ann"]
    ),
    "oddland/species/flora-solo": _oddland(
        ["FFWW", "FFWW", "SSMM"], _oddland_token("Ann", "flora", [0, 0]), players=["Ann"]
    ),
}

DIAMOND = {"kind": "diamond", "value": 4}
ODDVILLE: dict[str, Example] = {
    "oddville/tiebreak/places": (
        "score",
        {
            "players": ["Ann", "Ben", "Cy"],
            "ended_by": "Ann",
            "city": [{"at": [0, 0], "card": "main-square"}],
            "resource_workers": {"Ann": 2, "Ben": 1, "Cy": 1},
        },
    ),
    "oddville/main-square/no-bonus": (
        "build",
        {
            "players": ["Ann", "Ben"],
            "city": [{"at": [0, 0], "card": "main-square"}],
            "card": {"at": [1, 0], "owner": "Ann", "edges": "SHHH", "points": DIAMOND},
        },
    ),
    "oddville/main-square/streets": (
        "score",
        {
            "players": ["Ann", "Ben"],
            "ended_by": "Ann",
            "city": [
                {"at": [0, 0], "card": "main-square"},
                {"at": [1, 0], "owner": "Ann", "edges": "HHHH", "points": DIAMOND},
            ],
        },
    ),
}

LUCKYS: dict[str, Example] = {
    "luckys-misadventures/tiebreak/places": (
        "score",
        {
            "players": ["Lewis", "Carol", "Romi"],
            "final_turn_order": ["Lewis", "Carol", "Romi"],
            "decks": {
                "Lewis": {"lucky": 1, "hirelings": {"winged-monkey": 3}},
                "Carol": {"hirelings": {"winged-monkey": 1}},
                "Romi": {"hirelings": {"white-rabbit": 1}},
            },
        },
    ),
}

EXAMPLES: dict[str, dict[str, Example]] = {
    "odd-world": ODD_WORLD,
    "owl-about": OWL_ABOUT,
    "oddland": ODDLAND,
    "oddville": ODDVILLE,
    "luckys-misadventures": LUCKYS,
}

READINGS: list[tuple[str, Reading]] = [
    (slug, reading) for slug, game in GAMES.items() for reading in game.readings
]


def test_every_game_has_its_examples() -> None:
    assert set(EXAMPLES) == set(GAMES)


def test_reading_ids_are_unique_and_named_after_their_game() -> None:
    ids = [reading.id for _slug, reading in READINGS]
    assert len(ids) == len(set(ids))
    for slug, reading in READINGS:
        assert reading.id.startswith(f"{slug}/"), reading.id
        assert reading.rule.startswith(f"{slug}/"), reading.rule


@pytest.mark.parametrize(("slug", "reading"), READINGS, ids=[r.id for _s, r in READINGS])
def test_every_reading_has_a_clarification_entry(slug: str, reading: Reading) -> None:
    assert reading in GAMES[slug].readings
    entry = load().entry(reading.rule)
    assert entry is not None, f"{reading.id}: no rules entry {reading.rule}"
    assert entry.clarification, f"{reading.rule} is not marked as a clarification"
    assert "app" in reading.text.casefold(), f"{reading.id} does not say it is the app's"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_reading_has_an_example_and_every_example_a_reading(slug: str) -> None:
    declared = {reading.id for reading in GAMES[slug].readings}
    assert set(EXAMPLES[slug]) == declared


def _answer_readings(client: FlaskClient, slug: str, endpoint: str, body: dict[str, Any]) -> Any:
    response = client.post(f"/api/v1/games/{slug}/{endpoint}", json=body)
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    return response.get_json().get("readings", [])


@pytest.mark.parametrize(("slug", "reading"), READINGS, ids=[r.id for _s, r in READINGS])
def test_some_answer_carries_each_reading(
    client: FlaskClient, slug: str, reading: Reading
) -> None:
    endpoint, body = EXAMPLES[slug][reading.id]
    carried = _answer_readings(client, slug, endpoint, body)
    assert reading.to_json() in carried, carried
