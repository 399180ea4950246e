"""The app's readings, said aloud: every reading an engine can apply has a clarification
entry, and some answer of the API carries it (id, the app's words, the entry).

Each game's examples below are requests whose answer applies the reading named: a score,
a referee verdict, or a refusal (a 422 lists the readings its problems rest on).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import GAMES, odd_world
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
    "odd-world/face-down": (
        "score",
        {
            "players": [
                {"name": "Ann", "display": {"hoopoe": 2}, "face_down": "hoopoe"},
                {"name": "Ben", "display": {"shoebill": 3}},
            ]
        },
    ),
    "odd-world/end-check": (
        "score",
        {
            "players": [
                {
                    "name": "Ann",
                    "display": dict.fromkeys(list(odd_world.BIRDS)[:8], 1),
                    "face_down": "cassowary",
                },
                {"name": "Ben", "display": {"shoebill": 3}},
            ]
        },
    ),
    "odd-world/series/ties": (
        "series",
        {
            "games": [
                {
                    "players": [
                        {"name": "Ann", "display": {"hoopoe": 3}},
                        {"name": "Ben", "display": {"shoebill": 3}},
                    ]
                }
            ]
        },
    ),
}

OWL_SEATS = ["Miu", "Carol", "Romi", "Tom"]


def _owl_trick(mode: str, cards: list[str]) -> Example:
    return ("trick", {"mode": mode, "lead": "Miu", "players": OWL_SEATS, "cards": cards})


def _miu_collects(nights: list[str], variant: str, *, penalty: int = 0) -> Example:
    """Miu leads and takes a trick with each of these night cards (a round played along)."""
    tricks = [{"lead": "Miu", "cards": [night, "1", "2"]} for night in nights]
    return (
        "score",
        {
            "players": OWL_SEATS[:3],
            "mode": "advanced",
            "variants": [variant],
            "rounds": [{"open": True, "tricks": tricks, "penalties": {"Miu": penalty}}],
        },
    )


OWL_ABOUT: dict[str, Example] = {
    "owl-about/fewest-vp": (
        "score",
        {
            "players": ["Miu", "Carol", "Romi"],
            "mode": "basic",
            "rounds": [{"trophies": {"Miu": 5, "Carol": 3, "Romi": 1}}],
        },
    ),
    "owl-about/mode/quick/ties": _owl_trick("quick", ["2", "2", "N4", "6"]),
    "owl-about/small-owls": _owl_trick("basic", ["6", "2", "8", "10"]),
    "owl-about/small-owls/night-7": _owl_trick("basic", ["5", "1", "N7"]),
    "owl-about/night-collection-void": _miu_collects(
        ["N4", "N5", "N6"], "night-collection-3", penalty=1
    ),
    "owl-about/night-collection-both": _miu_collects(
        ["N4", "N5", "N6", "N7"], "night-collection-3"
    ),
    "owl-about/night-collection-reset": _miu_collects(
        ["N4", "N5", "N6", "N7"], "night-collection-4"
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
SQUARE = {"at": [0, 0], "card": "main-square", "owners": []}
#: Ann ended the game with her 6th building (a row of Diamonds under the Main Square).
ANN_ENDED = [{"at": [1, col], "owner": "Ann", "points": DIAMOND} for col in range(6)]
#: Ben and Cy tie below Ann: the clockwise count from Ann puts Ben first.
TIED_AFTER_ANN = {
    "players": ["Ann", "Ben", "Cy"],
    "ended_by": "Ann",
    "city": [SQUARE, *ANN_ENDED],
    "resource_workers": {"Ben": 1, "Cy": 1},
}
ODDVILLE: dict[str, Example] = {
    "oddville/tiebreak/places": ("score", TIED_AFTER_ANN),
    "oddville/tiebreak/clockwise": ("score", TIED_AFTER_ANN),
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
            "city": [
                {"at": [0, 0], "card": "main-square"},
                {"at": [1, 0], "owner": "Ann", "edges": "HHHH", "points": DIAMOND},
            ],
        },
    ),
    "oddville/main-square-counts": (
        "score",
        {
            "players": ["Ann", "Ben"],
            "ended_by": "Ann",
            # The column card under the Main Square counts it: 1 + 2 in its column.
            "city": [SQUARE, {**ANN_ENDED[0], "points": {"kind": "column"}}, *ANN_ENDED[1:]],
        },
    ),
    "oddville/app/too-many-workers": (
        "score",
        {
            "players": ["Ann", "Ben"],
            "ended_by": "Ann",
            # The Traveller, taken with the Lily card, put Ann's 7th on the Main Square.
            "city": [
                {**SQUARE, "owners": ["Ann"]},
                {**ANN_ENDED[0], "guild": "lily"},
                *ANN_ENDED[1:],
            ],
            "characters": {"Ann": ["traveller"]},
        },
    ),
}


def _maven(name: str, faction: str = "wicked", vp: int = 3) -> dict[str, Any]:
    return {"name": name, "faction": faction, "vp": vp}


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
    "luckys-misadventures/players": ("score", {"players": ["Lewis"]}),
    "luckys-misadventures/feed-the-toad/symbols": (
        "feed-the-toad",
        {"players": ["Lewis", "Carol"], "holder": "Lewis", "fate": ["cups-4", "wands-5", "death"]},
    ),
    "luckys-misadventures/fate/fortune-phases": (
        "feed-the-toad",
        {
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["fortune", "cups-1", "swords-2"],
        },
    ),
    "luckys-misadventures/clarify/challenge-margin": (
        "challenge",
        {"kind": "wicked", "powers": {"Lewis": 3, "Carol": 1, "Romi": 2}},
    ),
    "luckys-misadventures/tiebreak/pumpkin-ted": (
        "score",
        {
            "players": ["Lewis", "Carol"],
            "decks": {
                "Lewis": {"lucky": 1, "machines": ["tiny-tin"]},
                "Carol": {
                    "lucky": 1,
                    "mavens": [_maven("Pumpkin Ted", "oddling", 6)],
                    "hirelings": {"white-rabbit": 1},
                },
            },
        },
    ),
    "luckys-misadventures/tiebreak/queen": (
        "score",
        {
            "players": ["Lewis", "Carol"],
            "decks": {
                "Lewis": {"mavens": [_maven("The Queen of Spades")]},
                "Carol": {"mavens": [_maven("Queen of Spades")]},
            },
        },
    ),
    "luckys-misadventures/escapes/sisters": (
        "score",
        {
            "players": ["Lewis", "Carol"],
            "escaped": {"player": "Lewis", "by": "three-sisters"},
            "decks": {"Carol": {"mavens": [_maven("Vanity")]}},
        },
    ),
    "luckys-misadventures/escapes/others-rank": (
        "score",
        {
            "players": ["Lewis", "Carol", "Romi"],
            "escaped": {"player": "Romi", "by": "pumpkin-ted"},
        },
    ),
    "luckys-misadventures/clarify/one-lucky": (
        "score",
        {"players": ["Lewis", "Carol"], "decks": {"Carol": {"lucky": 2}}},
    ),
    "luckys-misadventures/clarify/junk-vp": (
        "score",
        {
            "players": ["Lewis", "Carol"],
            "decks": {"Carol": {"junk": [{"kind": "reactor-pump", "vp": 12}]}},
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
