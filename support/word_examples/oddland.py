"""Oddland's examples for the words checks (see :mod:`support.words`): refused tables,
maps and play-along games, scored tables (own sides, play-along), map and placement
requests, refused form edits, history lines, and the sides the settings pages describe.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from companion.games.oddland import TurnModel, placement
from companion.games.oddland.species import (
    Region,
    SideRule,
    Terrain,
    TwoSpace,
    Unit,
    count_phrase,
    describe,
)
from companion.games.text import in_english
from support.words import Change, Examples

PLAYERS = ["Ann", "Ben", "Cy"]
MAP = ["FFWW", "FSSW", "MMSS"]
SIDES = {"begator": "A", "flora": "A"}


def token(player: str, species: str, *cells: tuple[int, int]) -> dict[str, Any]:
    """An Oddland token as the API takes it."""
    return {"player": player, "species": species, "cells": [list(cell) for cell in cells]}


def table(tokens: Sequence[dict[str, Any]] = (), **changes: Any) -> dict[str, Any]:
    """An Oddland table of three on the API's map (changes replace fields)."""
    return {
        "players": list(PLAYERS),
        "map": list(MAP),
        "tokens": list(tokens),
        "sides": dict(SIDES),
        **changes,
    }


def turn(at: tuple[int, int], terrains: str, laid: dict[str, Any] | None = None) -> dict[str, Any]:
    """A play-along turn: a card (two rows of terrains, "FS WM") and maybe a token."""
    played: dict[str, Any] = {"card": {"at": list(at), "terrains": terrains.split()}}
    if laid is not None:
        played["token"] = laid
    return played


#: A play-along game of three turns after the set-up pair: Ann, Ben, Cy in turn.
CARDS = [
    turn((0, 0), "FF FS"),
    turn((0, 2), "WW SW"),
    turn((2, 0), "MM WS", token("Ann", "begator", (3, 0))),
    turn((2, 2), "SS FF", token("Ben", "flora", (3, 3))),
    turn((0, 4), "MW WM", token("Cy", "whalephant", (0, 4), (0, 5))),
]


def placement_request(**changes: Any) -> dict[str, Any]:
    """A placement request on the API's map (changes replace fields)."""
    return {
        "map": list(MAP),
        "players": list(PLAYERS),
        "tokens": [token("Ann", "begator", (0, 1))],
        "card": {"at": [2, 2], "terrains": ["MM", "WS"]},
        "token": token("Ben", "owloose", (3, 3)),
        **changes,
    }


def side_words() -> list[str]:
    """Every kind of side the scoring vocabulary can describe, for the settings pages."""
    said = []
    choices = itertools.product(Unit, [None, *Terrain], Region, [True, False], [0, 1, -2], [0, -3])
    for unit, terrain, region, own, points, solo in choices:
        for species in [None, "flora"] if unit is Unit.TOKEN else [None]:
            rule = SideRule(
                points=points,
                per=unit,
                region=region,
                terrain=terrain,
                species=species,
                count_own_space=own,
                solo_modifier=solo,
                two_space=TwoSpace.LARGEST if own else TwoSpace.SMALLEST,
            )
            said += [describe(rule), describe(rule, species="whalephant")]
            said += [count_phrase(rule, count) for count in (0, 1, 2)]
    return said


def replayed_twice() -> list[str]:
    """A remembered replay's problems, said in English first, then in the reader's
    language: what is kept is free of words."""
    turns = [TurnModel.model_validate(t) for t in [*CARDS, turn((9, 9), "FF FF")]]
    placement.REPLAYS.clear()
    with in_english():
        placement.replay(turns, players=PLAYERS)
    _rows, _tokens, problems = placement.replay(turns, players=PLAYERS)
    return [problem.message for problem in problems]


EXAMPLES = Examples(
    refused=[
        table(players=[]),
        table(players=[f"P{i}" for i in range(6)]),
        table(players=["Ann", "ann", ""], solo=True),
        table(map=["FFx", "WW?"]),
        table(map=["F"] * 149),
        table(map=["F" * 149]),
        table(map=["FF" * 50] * 3),
        table(map=["FF", *["." * 2] * 70, "FF"]),
        table(
            [
                token("Ann", "Bad!", (0, 0)),
                token("Ben", "whalephant", (0, 0), (1, 1)),
                token("Cy", "flora", (0, 0)),
                token("Zed", "owloose", (9, 9)),
                token("Ann", "begator", (0, 1), (0, 2)),
                token("Ben", "pangeroo", (2, 2)),
                token("Cy", "grizzsleep"),
                {"player": "Ann", "species": "pigehorse", "cells": [[1]]},
            ]
        ),
        table(
            [token("Ann", "begator", (0, 0)), token("Ann", "begator", (0, 1))],
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        table(
            [token("Ann", "flora", (0, 0)), token("Ann", "flora", (0, 1))],
            players=["Ann", "Ben", "Cy", "Di"],
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        table(
            [token("Ann", f"kind-{n}", (0, n)) for n in range(8)],
            map=["FFFFFFFFFF"] * 6,
        ),
        table(
            sides={"begator": "C", "Bad": "A", **{f"s{n}": "A" for n in range(6)}},
            points={"Zed": {"begator": 1}, "Ann": {"flora": -1, "owloose": 5000, "X": 1}},
            definitions={"Bad": {"A": {"points": 1}}, "flora": {"C": {"points": 1}}},
        ),
        table(definitions={"owloose": {"A": {"points": 1, "species": "flora"}}}),
        table(definitions={"owloose": {"A": {"points": 1, "per": "token", "species": "Bad!"}}}),
        table(definitions={"owloose": {"A": {"points": 100, "per": "plenty"}}}),
        table(map=["FW", "S."]),
        table(map=["F.F.F.F.F.F.F"]),
        table([token("Ann", "flora", (2, 3))], map=["FFWW", "FSSW", "MM.."]),
        table(map=["FF.FF", "FF.FF"]),
        table(map=["FFF", "FFF", "FFF"]),
        table([token("Ann", "begator", (0, 0))], map=["FFFF", "FFFF"]),
        table(
            [token("Ann", "flora", (0, 0)), token("Ben", "flora", (0, 1))],
            map=["FFFF", "FFFF"],
        ),
        table(map=[], cards=CARDS, tokens=[token("Ann", "flora", (0, 0))]),
        table(map=[], cards=[turn((0, 0), "FF FF"), turn((0, 1), "FF FF")]),
        table(map=[], cards=[turn((0, 0), "FF FF"), turn((5, 5), "FF FF")]),
        table(
            map=[],
            cards=[
                turn((0, 0), "FF FF", token("Ann", "flora", (0, 0))),
                turn((0, 2), "WW WW"),
                turn((2, 0), "WW WW", token("Ann", "flora", (2, 0))),
            ],
        ),
        table(
            map=[],
            cards=[*CARDS[:2], *CARDS[3:4], *CARDS[2:3]],
        ),
        table(map=[], cards=[*CARDS, turn((9, 9), "FF FF")]),
        table(map=[], cards=[*CARDS, turn((0, 1), "FF FF")]),
        table(map=[], cards=[*CARDS, turn((2, 0), "FF FF")]),
        table(map=[], cards=[*CARDS, turn((-1, 0), "FF FF")]),
        table(
            map=[],
            cards=[*CARDS, turn((1, 1), "FF FF", token("Ann", "owloose", (2, 2)))],
        ),
        table(
            map=[],
            cards=[*CARDS, turn((4, 0), "FF FF", token("Ann", "owloose", (0, 0)))],
        ),
        table(
            map=[],
            cards=[*CARDS, turn((4, 0), "WW WW", token("Ann", "owloose", (4, 0)))],
        ),
        table(
            map=[],
            cards=[*CARDS, turn((200, 0), "FF FF"), turn((0, 6), "FX", None)],
        ),
        table(map=[], cards=[{"card": {"at": [1], "terrains": ["FF", "FF", "FF"]}}]),
        table(map=[], cards=[turn((0, 0), "FF FF")] * 38),
        table([token("Ann", "flora", (0, 0))] * 36),
        table([token("Ann", "flora", (0, 0), (0, 1), (0, 2))]),
        {"players": ["Ann"], "map": "FF"},
    ],
    scored=[
        table(),
        table(
            [
                token("Ann", "begator", (0, 1)),
                token("Ben", "flora", (2, 0)),
                token("Cy", "owloose", (1, 3)),
            ],
            sides={"begator": "A", "flora": "A", "owloose": "B"},
            points={"Ben": {"pangeroo": 4}},
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        table(
            [token("Ann", "begator", (0, 0)), token("Ann", "flora", (3, 3))],
            players=["Ann"],
            map=["FFWW", "FSSW", "MMSS", "MMSS"],
            sides={"begator": "A", "flora": "A"},
        ),
        table(
            [
                token("Ann", "owloose", (0, 0)),
                token("Ben", "pangeroo", (0, 3)),
                token("Cy", "whalephant", (2, 0), (2, 1)),
            ],
            map=["FF.FF", "FFFFF", "WWSSS", "WWSSS"],
            sides={"owloose": "A", "pangeroo": "A", "whalephant": "A"},
            definitions={
                "owloose": {"A": {"points": 2, "per": "space", "region": "row", "terrain": "F"}},
                "pangeroo": {
                    "A": {
                        "points": -1,
                        "per": "token",
                        "region": "map",
                        "species": "whalephant",
                        "count_own_space": False,
                        "solo_modifier": 2,
                    }
                },
            },
        ),
        table(map=[], cards=CARDS, sides={"begator": "A", "flora": "A"}),
        {
            "players": ["Ann", "Ben"],
            "map": ["FFWW", "FFWW", "FFWW", "FFWW"],
            "tokens": [
                *[token("Ann", "flora", (0, n)) for n in range(2)],
                *[token("Ben", "flora", (3, n)) for n in range(2)],
            ],
            "sides": {"flora": "A"},
        },
    ],
    requests=[
        ("map", {"map": ["FFx"]}),
        (
            "map",
            {"map": MAP, "players": ["Ann", "Ann"], "tokens": [token("Zed", "x", (0, 0))]},
        ),
        (
            "map",
            {"map": ["FF.FF", "FFFFF"], "tokens": [token("Ann", "whalephant", (0, 0), (0, 1))]},
        ),
        ("placement", placement_request()),
        ("placement", placement_request(card={"at": [9, 9], "terrains": ["MM", "WS"]})),
        ("placement", placement_request(card={"at": [0, 0], "terrains": ["MM", "WS"]})),
        ("placement", placement_request(card={"at": [0, 1], "terrains": ["MM", "WS"]})),
        ("placement", placement_request(token=token("Ben", "owloose", (0, 0)))),
        ("placement", placement_request(token=token("Ben", "whalephant", (3, 3), (3, 2)))),
        ("placement", placement_request(token=token("Zed", "owloose", (3, 3)))),
        ("map", {"map": MAP, "tokens": [token(" ", "flora", (0, 0))]}),
        (
            "placement",
            {"map": ["F" * 74] * 2, "card": {"at": [0, 74], "terrains": ["FF", "FF"]}},
        ),
        (
            "placement",
            placement_request(
                map=["FFFFF", "FFFFF"],
                tokens=[token("Ann", "flora", (0, 0))],
                card={"at": [2, 0], "terrains": ["FF", "WF"]},
                token=token("Ben", "whalephant", (3, 0), (3, 1)),
            ),
        ),
        (
            "placement",
            placement_request(
                players=["Ann", "Ben", "Cy", "Di"],
                map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
                tokens=[token("Ann", f"kind-{n}", (n, 0)) for n in range(6)],
                card={"at": [6, 0], "terrains": ["FF", "FF"]},
                token=token("Ann", "owloose", (6, 0)),
            ),
        ),
        ("placement", placement_request(token=token("Ann", "begator", (3, 3)))),
        ("placement", placement_request(players=["Ann"], token=token("Ann", "flora", (3, 3)))),
        ("placement", placement_request(card={"at": [999, 0], "terrains": ["MX", "W"]})),
        ("placement", placement_request(card={"at": [1], "terrains": ["MM"]})),
        (
            "placement",
            {"map": [], "card": {"at": [0, 0], "terrains": ["FS", "WM"]}},
        ),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [0, 1], "terrains": ["FS", "WM"]}}),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [1, 2], "terrains": ["FS", "WM"]}}),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [3, 3], "terrains": ["FS", "WM"]}}),
        (
            "placement",
            placement_request(
                tokens=[token("Ann", "flora", (0, 0)), token("Ben", "flora", (1, 2))],
                token=token("Cy", "owloose", (2, 2)),
            ),
        ),
        (
            "placement",
            {
                "map": ["F" * 60, "F" * 60],
                "card": {"at": [1, 59], "terrains": ["FF", "FF"]},
            },
        ),
    ],
    edits=[
        (["points", "Ben", "owloose"], "x"),
        (["points", "Ben", "owloose"], "5000"),
        (["sides", "flora"], "C"),
        (["solo"], "maybe"),
        (["map", 0], "FFx"),
        (["tokens", 0, "cells"], "a,b"),
        (["tokens", 0, "cells"], "[[1, 2, 3]]"),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(table(), ["map", 2], "MMSS", "MMS."),
        Change(table(), ["map", 2], "MMSS", "...."),
        Change(table(), ["map"], [], MAP),
        Change(table(), ["map"], ["F"], ["FF"]),
        Change(table(), ["tokens"], [], [token("Ann", "flora", (0, 0))]),
        Change(table(), ["cards"], [], CARDS),
        Change(table(), ["points", "Ben", "owloose"], None, 4),
        Change(table(), ["points", "Ben", "sea-dragon"], 4, None),
        Change(table(), ["sides", "flora"], "A", "B"),
        Change(table(), ["points"], {}, {"Ben": {"owloose": 4}, "Ann": {}}),
        Change(table(), ["definitions"], {}, {"owloose": {"A": {"points": 1}}}),
        Change(table(), ["definitions"], {"owloose": {"A": {"points": 1}}}, {}),
        Change(table(), ["solo"], False, True),
        Change(table(), ["sides"], {}, {"flora": "A", "begator": None}),
    ],
    endings=[{"standings": [{"player": "Ann"}, {"player": "Ben"}]}],
    words=lambda: [*side_words(), *replayed_twice()],
)
