"""Every sentence Oddland, OddVille and Lucky's Misadventures build for people goes through
gettext (issue 36): the checks of ``test_words_translated.py`` for these three games.

Under the pseudo-language of ``support/pseudo.py`` each message comes out wrapped in
⟦ ⟧, so English words left outside the brackets were built without gettext. The checks
score many states (the conformance strategies), refuse invalid ones, answer each
endpoint's examples and more requests, word the edit history and the Finish button, and
look at every human-facing string: problems' ``message``, breakdown lines' ``label``,
``warnings``, readings' ``text`` and the words of the answers (``words``, OddVille's
``place`` and ``tiebreak_words``, Lucky's ``decided_words``, ``effects``, ``reminder``,
``missing`` and a Machine's ``name``). Identifiers stay English and are left out on
purpose: ``decided_by``, the tiebreakers' ``label`` in the JSON, ids, keys, paths
(:func:`test_identifiers_stay_english` checks they are never translated).

Each game's :class:`Examples` has the shape of those in ``test_words_translated.py``, so
the two modules fold into one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, Game
from companion.games.luckys import facts as lf
from companion.games.luckys import referee as lr
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
from companion.games.oddville.construction import bonuses, building, construction_warnings
from companion.games.oddville.state import parse as oddville_city
from companion.games.problems import InvalidStateError, Problem, problem_messages
from companion.games.text import in_english, speaking
from support.pseudo import PSEUDO, english_words, texts_at
from tests.games.test_conformance import STRATEGIES, as_text, leaves

#: Where a JSON answer holds words for people.
HUMAN_KEYS = (
    "message",
    "label",
    "warnings",
    "text",
    "words",
    "messages",
    "place",
    "tiebreak_words",
    "decided_words",
    "effects",
    "reminder",
    "missing",
    "name",
)

#: Strings under :data:`HUMAN_KEYS` that are identifiers, not words: a tiebreaker's
#: ``label`` in an answer stays English (``decided_by`` names it; clients key on it).
IDENTIFIERS = re.compile(r"(^|\.)tiebreak\[\d+\]\.label$")

#: The refusal of a path that is not edited on its own (not a value's problem).
REFUSED_PATH = "This cannot be changed here."

#: A JSON path into a state, as the engines take it.
Path = list[str | int]


@dataclass(frozen=True)
class Change:
    """One change of a state, as the edit history words it."""

    state: Mapping[str, Any]
    path: Path
    previous: Any
    value: Any


@dataclass(frozen=True)
class Examples:
    """What a game's checks run on besides its conformance strategy of valid states.

    ``refused``: states the engine refuses (``validate``) or finds impossible
    (``table_problems``); ``scored``: valid states worth scoring on purpose (an ending, a
    warning, a reading); ``requests``: endpoint name and body, answered or refused;
    ``edits``: a path and a form's text that ``parse_edit`` refuses; ``changes``: lines of
    the edit history; ``endings``: finished results (JSON) whose end the Finish button
    words, beyond those of the scored states; ``words``: more words the engine says to the
    pages (a side described, a round's Fate cards...), said inside the pseudo-language.
    """

    refused: Sequence[object] = ()
    scored: Sequence[Mapping[str, Any]] = ()
    requests: Sequence[tuple[str, object]] = ()
    edits: Sequence[tuple[Path, str]] = ()
    changes: Sequence[Change] = ()
    endings: Sequence[Mapping[str, Any]] = ()
    words: Callable[[], list[str]] = list


# --- Oddland ----------------------------------------------------------------------------

OL_PLAYERS = ["Ann", "Ben", "Cy"]
OL_MAP = ["FFWW", "FSSW", "MMSS"]
OL_SIDES = {"begator": "A", "flora": "A"}


def ol_token(player: str, species: str, *cells: tuple[int, int]) -> dict[str, Any]:
    """An Oddland token as the API takes it."""
    return {"player": player, "species": species, "cells": [list(cell) for cell in cells]}


def ol_table(tokens: Sequence[dict[str, Any]] = (), **changes: Any) -> dict[str, Any]:
    """An Oddland table of three on the API's map (changes replace fields)."""
    return {
        "players": list(OL_PLAYERS),
        "map": list(OL_MAP),
        "tokens": list(tokens),
        "sides": dict(OL_SIDES),
        **changes,
    }


def ol_turn(at: tuple[int, int], terrains: str, token: dict[str, Any] | None = None) -> Any:
    """A play-along turn: a card (two rows of terrains, "FS WM") and maybe a token."""
    turn: dict[str, Any] = {"card": {"at": list(at), "terrains": terrains.split()}}
    if token is not None:
        turn["token"] = token
    return turn


#: A play-along game of three turns after the set-up pair: Ann, Ben, Cy in turn.
OL_CARDS = [
    ol_turn((0, 0), "FF FS"),
    ol_turn((0, 2), "WW SW"),
    ol_turn((2, 0), "MM WS", ol_token("Ann", "begator", (3, 0))),
    ol_turn((2, 2), "SS FF", ol_token("Ben", "flora", (3, 3))),
    ol_turn((0, 4), "MW WM", ol_token("Cy", "whalephant", (0, 4), (0, 5))),
]


def ol_placement(**changes: Any) -> dict[str, Any]:
    """A placement request on the API's map (changes replace fields)."""
    return {
        "map": list(OL_MAP),
        "players": list(OL_PLAYERS),
        "tokens": [ol_token("Ann", "begator", (0, 1))],
        "card": {"at": [2, 2], "terrains": ["MM", "WS"]},
        "token": ol_token("Ben", "owloose", (3, 3)),
        **changes,
    }


def ol_rules() -> list[str]:
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


def ol_replayed_twice() -> list[str]:
    """A remembered replay's problems, said in English first, then in the reader's
    language: what is kept is free of words."""
    turns = [TurnModel.model_validate(t) for t in [*OL_CARDS, ol_turn((9, 9), "FF FF")]]
    placement.REPLAYS.clear()
    with in_english():
        placement.replay(turns, players=OL_PLAYERS)
    _rows, _tokens, problems = placement.replay(turns, players=OL_PLAYERS)
    return [problem.message for problem in problems]


ODDLAND = Examples(
    refused=[
        ol_table(players=[]),
        ol_table(players=[f"P{i}" for i in range(6)]),
        ol_table(players=["Ann", "ann", ""], solo=True),
        ol_table(map=["FFx", "WW?"]),
        ol_table(map=["F"] * 149),
        ol_table(map=["F" * 149]),
        ol_table(map=["FF" * 50] * 3),
        ol_table(map=["FF", *["." * 2] * 70, "FF"]),
        ol_table(
            [
                ol_token("Ann", "Bad!", (0, 0)),
                ol_token("Ben", "whalephant", (0, 0), (1, 1)),
                ol_token("Cy", "flora", (0, 0)),
                ol_token("Zed", "owloose", (9, 9)),
                ol_token("Ann", "begator", (0, 1), (0, 2)),
                ol_token("Ben", "pangeroo", (2, 2)),
                ol_token("Cy", "grizzsleep"),
                {"player": "Ann", "species": "pigehorse", "cells": [[1]]},
            ]
        ),
        ol_table(
            [ol_token("Ann", "begator", (0, 0)), ol_token("Ann", "begator", (0, 1))],
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        ol_table(
            [ol_token("Ann", "flora", (0, 0)), ol_token("Ann", "flora", (0, 1))],
            players=["Ann", "Ben", "Cy", "Di"],
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        ol_table(
            [ol_token("Ann", f"kind-{n}", (0, n)) for n in range(8)],
            map=["FFFFFFFFFF"] * 6,
        ),
        ol_table(
            sides={"begator": "C", "Bad": "A", **{f"s{n}": "A" for n in range(6)}},
            points={"Zed": {"begator": 1}, "Ann": {"flora": -1, "owloose": 5000, "X": 1}},
            definitions={"Bad": {"A": {"points": 1}}, "flora": {"C": {"points": 1}}},
        ),
        ol_table(definitions={"owloose": {"A": {"points": 1, "species": "flora"}}}),
        ol_table(definitions={"owloose": {"A": {"points": 1, "per": "token", "species": "Bad!"}}}),
        ol_table(definitions={"owloose": {"A": {"points": 100, "per": "plenty"}}}),
        ol_table(map=["FW", "S."]),
        ol_table(map=["F.F.F.F.F.F.F"]),
        ol_table([ol_token("Ann", "flora", (2, 3))], map=["FFWW", "FSSW", "MM.."]),
        ol_table(map=["FF.FF", "FF.FF"]),
        ol_table(map=["FFF", "FFF", "FFF"]),
        ol_table([ol_token("Ann", "begator", (0, 0))], map=["FFFF", "FFFF"]),
        ol_table(
            [ol_token("Ann", "flora", (0, 0)), ol_token("Ben", "flora", (0, 1))],
            map=["FFFF", "FFFF"],
        ),
        ol_table(map=[], cards=OL_CARDS, tokens=[ol_token("Ann", "flora", (0, 0))]),
        ol_table(map=[], cards=[ol_turn((0, 0), "FF FF"), ol_turn((0, 1), "FF FF")]),
        ol_table(map=[], cards=[ol_turn((0, 0), "FF FF"), ol_turn((5, 5), "FF FF")]),
        ol_table(
            map=[],
            cards=[
                ol_turn((0, 0), "FF FF", ol_token("Ann", "flora", (0, 0))),
                ol_turn((0, 2), "WW WW"),
                ol_turn((2, 0), "WW WW", ol_token("Ann", "flora", (2, 0))),
            ],
        ),
        ol_table(
            map=[],
            cards=[*OL_CARDS[:2], *OL_CARDS[3:4], *OL_CARDS[2:3]],
        ),
        ol_table(map=[], cards=[*OL_CARDS, ol_turn((9, 9), "FF FF")]),
        ol_table(map=[], cards=[*OL_CARDS, ol_turn((0, 1), "FF FF")]),
        ol_table(map=[], cards=[*OL_CARDS, ol_turn((2, 0), "FF FF")]),
        ol_table(map=[], cards=[*OL_CARDS, ol_turn((-1, 0), "FF FF")]),
        ol_table(
            map=[],
            cards=[*OL_CARDS, ol_turn((1, 1), "FF FF", ol_token("Ann", "owloose", (2, 2)))],
        ),
        ol_table(
            map=[],
            cards=[*OL_CARDS, ol_turn((4, 0), "FF FF", ol_token("Ann", "owloose", (0, 0)))],
        ),
        ol_table(
            map=[],
            cards=[*OL_CARDS, ol_turn((4, 0), "WW WW", ol_token("Ann", "owloose", (4, 0)))],
        ),
        ol_table(
            map=[],
            cards=[*OL_CARDS, ol_turn((200, 0), "FF FF"), ol_turn((0, 6), "FX", None)],
        ),
        ol_table(map=[], cards=[{"card": {"at": [1], "terrains": ["FF", "FF", "FF"]}}]),
        ol_table(map=[], cards=[ol_turn((0, 0), "FF FF")] * 38),
        ol_table([ol_token("Ann", "flora", (0, 0))] * 36),
        ol_table([ol_token("Ann", "flora", (0, 0), (0, 1), (0, 2))]),
        {"players": ["Ann"], "map": "FF"},
    ],
    scored=[
        ol_table(),
        ol_table(
            [
                ol_token("Ann", "begator", (0, 1)),
                ol_token("Ben", "flora", (2, 0)),
                ol_token("Cy", "owloose", (1, 3)),
            ],
            sides={"begator": "A", "flora": "A", "owloose": "B"},
            points={"Ben": {"pangeroo": 4}},
            map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
        ),
        ol_table(
            [ol_token("Ann", "begator", (0, 0)), ol_token("Ann", "flora", (3, 3))],
            players=["Ann"],
            map=["FFWW", "FSSW", "MMSS", "MMSS"],
            sides={"begator": "A", "flora": "A"},
        ),
        ol_table(
            [
                ol_token("Ann", "owloose", (0, 0)),
                ol_token("Ben", "pangeroo", (0, 3)),
                ol_token("Cy", "whalephant", (2, 0), (2, 1)),
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
        ol_table(map=[], cards=OL_CARDS, sides={"begator": "A", "flora": "A"}),
        {
            "players": ["Ann", "Ben"],
            "map": ["FFWW", "FFWW", "FFWW", "FFWW"],
            "tokens": [
                *[ol_token("Ann", "flora", (0, n)) for n in range(2)],
                *[ol_token("Ben", "flora", (3, n)) for n in range(2)],
            ],
            "sides": {"flora": "A"},
        },
    ],
    requests=[
        ("map", {"map": ["FFx"]}),
        (
            "map",
            {"map": OL_MAP, "players": ["Ann", "Ann"], "tokens": [ol_token("Zed", "x", (0, 0))]},
        ),
        (
            "map",
            {"map": ["FF.FF", "FFFFF"], "tokens": [ol_token("Ann", "whalephant", (0, 0), (0, 1))]},
        ),
        ("placement", ol_placement()),
        ("placement", ol_placement(card={"at": [9, 9], "terrains": ["MM", "WS"]})),
        ("placement", ol_placement(card={"at": [0, 0], "terrains": ["MM", "WS"]})),
        ("placement", ol_placement(card={"at": [0, 1], "terrains": ["MM", "WS"]})),
        ("placement", ol_placement(token=ol_token("Ben", "owloose", (0, 0)))),
        ("placement", ol_placement(token=ol_token("Ben", "whalephant", (3, 3), (3, 2)))),
        ("placement", ol_placement(token=ol_token("Zed", "owloose", (3, 3)))),
        ("map", {"map": OL_MAP, "tokens": [ol_token(" ", "flora", (0, 0))]}),
        (
            "placement",
            {"map": ["F" * 74] * 2, "card": {"at": [0, 74], "terrains": ["FF", "FF"]}},
        ),
        (
            "placement",
            ol_placement(
                map=["FFFFF", "FFFFF"],
                tokens=[ol_token("Ann", "flora", (0, 0))],
                card={"at": [2, 0], "terrains": ["FF", "WF"]},
                token=ol_token("Ben", "whalephant", (3, 0), (3, 1)),
            ),
        ),
        (
            "placement",
            ol_placement(
                players=["Ann", "Ben", "Cy", "Di"],
                map=["FFWW", "FSSW", "MMSS", "MMSS", "FFFF", "WWWW"],
                tokens=[ol_token("Ann", f"kind-{n}", (n, 0)) for n in range(6)],
                card={"at": [6, 0], "terrains": ["FF", "FF"]},
                token=ol_token("Ann", "owloose", (6, 0)),
            ),
        ),
        ("placement", ol_placement(token=ol_token("Ann", "begator", (3, 3)))),
        ("placement", ol_placement(players=["Ann"], token=ol_token("Ann", "flora", (3, 3)))),
        ("placement", ol_placement(card={"at": [999, 0], "terrains": ["MX", "W"]})),
        ("placement", ol_placement(card={"at": [1], "terrains": ["MM"]})),
        (
            "placement",
            {"map": [], "card": {"at": [0, 0], "terrains": ["FS", "WM"]}},
        ),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [0, 1], "terrains": ["FS", "WM"]}}),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [1, 2], "terrains": ["FS", "WM"]}}),
        ("placement", {"map": ["FS", "WM"], "card": {"at": [3, 3], "terrains": ["FS", "WM"]}}),
        (
            "placement",
            ol_placement(
                tokens=[ol_token("Ann", "flora", (0, 0)), ol_token("Ben", "flora", (1, 2))],
                token=ol_token("Cy", "owloose", (2, 2)),
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
        Change(ol_table(), ["map", 2], "MMSS", "MMS."),
        Change(ol_table(), ["map", 2], "MMSS", "...."),
        Change(ol_table(), ["map"], [], OL_MAP),
        Change(ol_table(), ["map"], ["F"], ["FF"]),
        Change(ol_table(), ["tokens"], [], [ol_token("Ann", "flora", (0, 0))]),
        Change(ol_table(), ["cards"], [], OL_CARDS),
        Change(ol_table(), ["points", "Ben", "owloose"], None, 4),
        Change(ol_table(), ["points", "Ben", "sea-dragon"], 4, None),
        Change(ol_table(), ["sides", "flora"], "A", "B"),
        Change(ol_table(), ["points"], {}, {"Ben": {"owloose": 4}, "Ann": {}}),
        Change(ol_table(), ["definitions"], {}, {"owloose": {"A": {"points": 1}}}),
        Change(ol_table(), ["definitions"], {"owloose": {"A": {"points": 1}}}, {}),
        Change(ol_table(), ["solo"], False, True),
        Change(ol_table(), ["sides"], {}, {"flora": "A", "begator": None}),
    ],
    endings=[{"standings": [{"player": "Ann"}, {"player": "Ben"}]}],
    words=lambda: [*ol_rules(), *ol_replayed_twice()],
)


# --- OddVille ---------------------------------------------------------------------------

SQUARE = {"at": [0, 0], "card": "main-square"}


def ov_card(at: tuple[int, int], owner: str | None, kind: str, **fields: Any) -> dict[str, Any]:
    """An OddVille building (``value``/``guild`` of its points in ``points``)."""
    points = {"kind": kind}
    for key in ("value", "counts"):
        if key in fields:
            points["value" if key == "value" else "guild"] = fields.pop(key)
    card: dict[str, Any] = {"at": list(at), "points": points, **fields}
    if owner is not None:
        card["owner"] = owner
    return card


def ov_city(*cards: dict[str, Any], owners: Sequence[str] = (), **changes: Any) -> dict[str, Any]:
    """An OddVille table of Ann and Ben: the Main Square and ``cards``."""
    return {
        "players": ["Ann", "Ben"],
        "city": [{**SQUARE, "owners": list(owners)}, *cards],
        **changes,
    }


#: Every victory-point type, with a guild card and shields around.
OV_CITY = ov_city(
    ov_card((1, 0), "Ann", "diamond", value=5, shield=2),
    ov_card((0, 1), "Ann", "diamonds", shield=1),
    ov_card((1, 1), "Ben", "adjacent"),
    ov_card((0, -1), "Ben", "column"),
    ov_card((1, -1), "Ann", "row", guild="mask"),
    ov_card((2, 0), "Ben", "adjacent-x3"),
    ov_card((2, 1), "Ann", "shields"),
    ov_card((2, -1), "Ben", "shields"),
    ov_card((3, 0), "Ben", "guild", value=2, counts="mask", guild="mask"),
    owners=["Ben"],
    characters={"Ann": ["mistress"], "Ben": ["traveller"]},
    resource_workers={"Ann": 1, "Ben": 2},
)

#: Ben ended the game with his 6th worker (the Traveller put one on the Main Square).
OV_ENDED = ov_city(
    *[ov_card((1, n), "Ann", "adjacent", guild="lily") for n in range(5)],
    *[ov_card((2, n), "Ben", "row", guild="bells") for n in range(5)],
    owners=["Ben"],
    ended_by="Ben",
    characters={"Ann": ["cheater", "seignior", "landowner"], "Ben": ["traveller"]},
)


def ov_build(card: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A construction check on a small city with edges."""
    return {
        "players": ["Ann", "Ben"],
        "city": [
            {**SQUARE, "owners": []},
            ov_card((1, 0), "Ben", "row", edges="SHSH", bonus="coin"),
            ov_card((1, 1), "Ben", "row", bonus="double"),
        ],
        "card": card,
        **changes,
    }


def ov_words() -> list[str]:
    """The construction referee's gains and warnings for a Lamplighter's holder."""
    city = oddville_city(
        ov_city(
            ov_card((1, 0), "Ben", "row", edges="SHSH", bonus="coin"),
            ov_card((0, 1), "Ben", "row", bonus="transform"),
            characters={"Ann": ["lamplighter"]},
        )
    )
    new = building((1, 1), owner="Ann", edges="HSHS", bonus="any-resource", guild="rooster")
    return [g.words for g in bonuses(city, new)] + construction_warnings(city, new)


ODDVILLE = Examples(
    refused=[
        {"players": ["Ann"], "city": [], "colours": {"Ann": "green"}},
        ov_city(
            ov_card((-1, 0), "Cy", "diamond", value=7),
            {"at": [1], "points": {"kind": "row"}},
            {"at": [0, 0], "card": "main-square", "owner": "Ann", "guild": "mask", "shield": 1},
            {"at": [5, 5], "card": "castle"},
            ov_card((1, 0), "Ann", "diamond", value=7),
            ov_card((1, 0), "Ann", "row"),
            ended_by="Zed",
        ),
        {
            "players": ["Ann", "Ben"],
            "city": [
                {
                    "at": [1, 0],
                    "card": "main-square",
                    "owners": ["Ann", "ann", "Zed"],
                    "points": {"kind": "row"},
                    "bonus": "coin",
                    "edges": "HHHH",
                },
                {
                    "at": [2, 0],
                    "owners": ["Ann"],
                    "owner": "Zed",
                    "guild": "moon",
                    "shield": 12,
                    "edges": "XX",
                    "bonus": "gold",
                },
                {"at": [2, 1], "points": {"kind": "plenty"}},
                {"at": [2, 2], "owner": "Ann"},
                ov_card((2, 3), "Ann", "row", value=3, counts="mask"),
                ov_card((2, 4), "Ann", "guild", value=2),
                ov_card((2, 5), "Ann", "guild", value=2, counts="moon"),
                ov_card((2, 6), "Ann", "guild", value=2, counts="mask"),
                ov_card((2, 7), "Ann", "guild", value=2, counts="mask", guild="lily"),
                ov_card((2, 8), "Ann", "diamond"),
            ],
        },
        ov_city(
            colours={"Ann": "red", "Ben": "red", "Zed": "blue"},
            characters={"Ann": ["cheater", "joker"], "Ben": ["cheater"], "Zed": ["builder"]},
            resource_workers={"Ann": 12, "Zed": 1},
        ),
        ov_city(characters={"Ann": ["cheater", "cheater"]}),
        ov_city(*[ov_card((1, n), "Ann", "row") for n in range(9)], resource_workers={"Ann": 3}),
        ov_city(
            characters={
                "Ann": ["cheater", "seignior", "landowner"],
                "Ben": ["mistress", "builder"],
            }
        ),
        ov_city(characters={"Ann": ["cheater"] * 13}),
        ov_city(
            ov_card((1, 0), "Ann", "row", edges="SHSH"),
            ov_card((2, 0), "Ann", "row", edges="HHHH"),
            ov_card((1, 1), "Ben", "row", edges="SSSH"),
            ov_card((0, 1), "Ben", "row", edges="HHHH"),
        ),
        ov_city(ov_card((1, 0), "Ann", "row"), ended_by="Ann"),
        ov_city(*[ov_card((1, n), "Ann", "row") for n in range(7)]),
        ov_city(*[ov_card((1, n), "Ann", "row") for n in range(6)], owners=["Ann", "Ben"]),
        ov_city(owners=["Ann"], characters={"Ann": ["cheater"]}),
        ov_city(
            ov_card((1, 0), "Ann", "row", guild="mask"),
            characters={"Ann": ["cheater", "mistress"]},
        ),
        ov_city(ended_by="Ann"),
        ov_city(
            *[ov_card((1, n), "Ann", "row") for n in range(5)], ended_by="Ann", owners=["Ann"]
        ),
        ov_city(
            *[ov_card((1, n), "Ann", "row") for n in range(6)],
            *[ov_card((2, n), "Ben", "row") for n in range(6)],
        ),
        ov_city(
            *[ov_card((1, n), "Ann", "row") for n in range(6)],
            *[ov_card((2, n), "Ben", "row") for n in range(6)],
            ended_by="Ann",
        ),
        {"players": ["Ann", "Ben"], "city": [SQUARE] * 101},
        {"players": ["Ann", "Ben"], "city": [{"at": [1, 0, 0], "owners": ["a"] * 5}]},
    ],
    scored=[
        OV_CITY,
        OV_ENDED,
        ov_city(ov_card((1, 0), "Ann", "row"), ov_card((1, 1), "Ben", "row")),
        ov_city(
            *[ov_card((1, n), "Ann", "diamond", value=4) for n in range(6)],
            *[ov_card((2, n), "Ben", "diamond", value=4) for n in range(5)],
            resource_workers={"Ben": 4},
            ended_by="Ann",
        ),
        {
            "players": ["Ann", "Ben", "Cy"],
            "ended_by": "Ann",
            "city": [
                {**SQUARE, "owners": []},
                *[ov_card((1, n), "Ann", "diamond", value=4) for n in range(6)],
                *[ov_card((2, n), "Ben", "diamond", value=5) for n in range(5)],
                *[ov_card((3, n), "Cy", "diamond", value=5) for n in range(5)],
            ],
        },
    ],
    requests=[
        ("build", ov_build(ov_card((0, 1), "Ann", "diamond", value=4, edges="SHHH"))),
        ("build", ov_build(ov_card((2, 0), "Ann", "row", edges="HSSS", bonus="resource"))),
        ("build", ov_build(ov_card((1, 0), "Ann", "row", edges="HHHH"), rotated=True)),
        ("build", ov_build(ov_card((5, 5), None, "row"))),
        ("build", ov_build(ov_card((2, 0), "Ann", "row", edges="SSSS", bonus="coin"))),
        ("build", ov_build(ov_card((2, 1), "Ann", "row", edges="SSSS"))),
        (
            "build",
            {
                **ov_city(
                    *[ov_card((1, n), "Ann", "row") for n in range(6)],
                    *[ov_card((2, n), "Ben", "row") for n in range(5)],
                    owners=["Ben"],
                    ended_by="Ann",
                    characters={"Ben": ["builder"]},
                ),
                "card": ov_card((3, 0), "Ben", "row", edges="HHHH"),
            },
        ),
        ("build", ov_build(ov_card((-1, 0), "Ann", "row", edges="SSSS"))),
        ("build", ov_build(ov_card((0, -1), "Ann", "row", edges="SSHS", guild="bells"))),
        ("build", ov_build({"at": [2, 0], "card": "main-square"})),
        ("build", ov_build(ov_card((2, 1), "Cy", "row"), players=["Ann"])),
        ("build", {**OV_ENDED, "card": ov_card((3, 0), "Ann", "row")}),
        ("build", {**OV_ENDED, "card": ov_card((3, 0), "Ben", "row")}),
        (
            "build",
            {
                **ov_city(*[ov_card((1, n), "Ann", "row") for n in range(6)]),
                "card": ov_card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {
                **ov_city(*[ov_card((1, n), "Ann", "row") for n in range(6)]),
                "card": ov_card((2, 0), "Ben", "row"),
            },
        ),
        (
            "build",
            {
                **ov_city(*[ov_card((1, n), "Ann", "row") for n in range(5)], owners=["Ann"]),
                "card": ov_card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {
                **ov_city(*[ov_card((1, n), "Ann", "row") for n in range(5)]),
                "card": ov_card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {**ov_city(resource_workers={"Ann": 9}), "card": ov_card((1, 0), "Ann", "row")},
        ),
    ],
    edits=[
        (["resource_workers", "Ann"], "x"),
        (["resource_workers", "Ann"], "12"),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(OV_CITY, ["resource_workers", "Ann"], 0, 2),
        Change(OV_CITY, ["characters", "Ann", 0], None, "cheater"),
        Change(OV_CITY, ["characters", "Ann"], [], ["cheater", "joker"]),
        Change(OV_CITY, ["characters", "Ann"], ["cheater"], []),
        Change(OV_CITY, ["city", 2, "owner"], "Ann", "Ben"),
        Change(OV_CITY, ["ended_by"], None, "Ann"),
        Change(OV_CITY, ["ended_by"], "Ann", None),
        *[
            Change(OV_CITY, [field], None, value)
            for field, value in [
                ("city", [SQUARE]),
                ("characters", {}),
                ("resource_workers", {}),
                ("colours", {}),
                ("players", ["Ann"]),
            ]
        ],
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, ov_card((1, 0), "Ann", "diamond", value=5)]),
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, ov_card((1, 0), None, "row", guild="mask")]),
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, ov_card((1, 0), "Ann", "row")]),
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0], "owner": "Ann"}]),
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0]}]),
        Change(OV_CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0], "card": "main-square"}]),
        Change(OV_CITY, ["city"], [SQUARE, ov_card((1, 0), None, "diamond", value=4)], [SQUARE]),
        Change(
            OV_CITY,
            ["city"],
            [SQUARE, ov_card((1, 0), "Ann", "row")],
            [SQUARE, ov_card((0, 1), "Ann", "row")],
        ),
        Change(
            OV_CITY,
            ["city"],
            [SQUARE, ov_card((1, 0), "Ann", "row")],
            [SQUARE, ov_card((1, 0), "Ben", "row")],
        ),
        Change(OV_CITY, ["city"], [SQUARE], [{**SQUARE, "owners": ["Ann", "Ben"]}]),
        Change(OV_CITY, ["city"], [{**SQUARE, "owners": ["Ann"]}], [{**SQUARE, "owners": []}]),
        Change(OV_CITY, ["characters"], {"Ann": ["traveller"]}, {"Ben": ["traveller"]}),
        Change(OV_CITY, ["characters"], {"Ann": ["cheater"]}, {"Ann": []}),
        Change(OV_CITY, ["characters"], {"Ann": ["joker"]}, {"Ann": []}),
    ],
    words=ov_words,
)


# --- Lucky's Misadventures ------------------------------------------------------------------


def lm_maven(name: str, faction: str = "oddling", vp: int = 3) -> dict[str, Any]:
    """A Maven as the API takes it."""
    return {"name": name, "faction": faction, "vp": vp}


def lm_table(**changes: Any) -> dict[str, Any]:
    """A table of Lewis and Carol with a little of everything in their decks."""
    return {
        "players": ["Lewis", "Carol"],
        "decks": {
            "Lewis": {
                "lucky": 1,
                "hirelings": {"winged-monkey": 1, "white-rabbit": 2},
                "mavens": [lm_maven("The Collector", "wicked", 3), lm_maven("Pumpkin Ted")],
                "junk": [
                    {"kind": "clockwork-gizmo", "count": 2},
                    {"kind": "reactor-pump", "vp": 2},
                ],
                "machines": {"tiny-tin": 1},
            },
            "Carol": {"lucky": 1, "mavens": [lm_maven("Queen of Spades", "wicked", 4)]},
        },
        **changes,
    }


#: Fourteen rounds of Fate cards, each card once per half (rounds 1-7, then 8-14).
LM_ROUNDS = [
    ["cups-1", "cups-2", "cups-3"],
    ["cups-4", "cups-5", "cups-6"],
    ["swords-1", "swords-2", "swords-3"],
    ["swords-4", "swords-5", "swords-6"],
    ["wands-1", "wands-2", "wands-3"],
    ["wands-4", "wands-5", "wands-6"],
    ["magician", "tower", "fool"],
    ["judgment", "fortune", "death"],
    ["cups-1", "magician", "swords-1"],
    ["cups-4", "tower", "wands-5"],
    ["fool", "wands-6", "swords-6"],
    ["wands-1", "cups-5", "cups-6"],
    ["cups-2", "cups-3", "swords-4"],
    ["swords-5", "wands-2", "wands-3"],
]


def lm_words() -> list[str]:
    """What the round companion and the pure referee checks say to the pages."""
    said = []
    for number, cards in enumerate(LM_ROUNDS, 1):
        fate = lr.fate_round(cards, round_number=number)
        said += [effect.words for effect in fate.effects]
    said += [lr.death_words(None), lr.death_words(1)]
    said += [lr.fortune_words(["fortune", "death", "tower"])]
    said += [
        lr.fortune_words(["fortune", f"cups-{a}", f"wands-{b}"]) for a in (1, 3, 6) for b in (1, 5)
    ]
    said += [lr.fortune_words(["fortune"])]
    said += [lf.fate_name(code) for code in lf.FATE]
    said += [lr.challenge({"A": 0, "B": 0}, ["A", "B"]).words]
    said += [lr.build_machine("flux-capacitor", "flux-capacitor", {"time-machine": 1}).words]
    said += [
        lr.build_machine("luminous-aether", "luminous-aether", {"dark-energy-machine": 3}).words
    ]
    said += [lr.build_machine("flux-capacitor", "reactor-pump", {}).words]
    return said


LUCKYS = Examples(
    refused=[
        lm_table(players=["Lewis"]),
        lm_table(players=["A", "B", "C", "D", "E"]),
        lm_table(
            decks={
                "Zed": {},
                "Lewis": {
                    "lucky": 2,
                    "hirelings": {"dragon": 1, "winged-monkey": -1, "clockmakers": 120},
                    "mavens": [
                        lm_maven(""),
                        lm_maven("X" * 41),
                        lm_maven("Ann\u202e"),
                        lm_maven("Greed", "oddling"),
                        lm_maven("Sprocket", "pirate", 9),
                    ],
                    "junk": [
                        {"kind": "spring"},
                        {"kind": "reactor-pump"},
                        {"kind": "clockwork-gizmo", "vp": 3},
                        {"kind": "flux-capacitor", "vp": 12},
                        {"kind": "flux-capacitor", "vp": 1, "count": -1},
                    ],
                    "machines": ["rocket", "tiny-tin"],
                },
                "lewis": {},
            },
        ),
        lm_table(
            decks={
                "Lewis": {
                    "hirelings": {"winged-monkey": 5},
                    "junk": [{"kind": "flux-capacitor", "vp": 1, "count": 3}],
                    "machines": {"time-machine": 2, "dark-energy-machine": 4},
                    "mavens": [lm_maven("Greed", "wicked"), lm_maven("Pumpkin Ted")],
                },
                "Carol": {
                    "hirelings": {"winged-monkey": 5},
                    "junk": [{"kind": "luminous-aether", "vp": 1, "count": 1}],
                    "mavens": [lm_maven("Greed", "wicked"), lm_maven("the pumpkin ted")],
                },
            }
        ),
        lm_table(
            decks={
                "Lewis": {"mavens": [lm_maven("Vanity", "wicked")] * 2},
                "Carol": {"mavens": [lm_maven(f"W{n}", "wicked") for n in range(20)]},
            }
        ),
        lm_table(escaped={"player": "Zed", "by": "broom"}),
        lm_table(
            escaped={"player": "Lewis", "by": "time-machine"},
            decks={
                "Carol": {
                    "machines": ["time-machine"],
                    "junk": [{"kind": "reactor-pump", "vp": 1, "count": 12}],
                }
            },
        ),
        lm_table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Carol": {
                    "mavens": [lm_maven("Pumpkin Ted")],
                    "hirelings": {"clockmakers": 8},
                    "machines": {"fate-clock": 4},
                }
            },
        ),
        lm_table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Lewis": {"mavens": [lm_maven("Pumpkin Ted")], "hirelings": {"clockmakers": 1}},
                "Carol": {"junk": [{"kind": "clockwork-gizmo", "count": 16}]},
            },
        ),
        lm_table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Lewis": {"mavens": [lm_maven("Pumpkin Ted")], "hirelings": {"clockmakers": 1}},
                "Carol": {
                    "junk": [{"kind": "luminous-aether", "vp": 1, "count": 6}],
                    "machines": {"mech-dragon": 1},
                },
            },
        ),
        lm_table(
            escaped={"player": "Lewis", "by": "three-sisters"},
            decks={"Carol": {"mavens": [lm_maven("Despair", "wicked")]}},
        ),
        lm_table(final_turn_order=["Lewis", "Zed"]),
        lm_table(final_turn_order=["Lewis", "Lewis"]),
        lm_table(players=["A", "B", "C"], decks={}, final_turn_order=["A", "C", "B"]),
        lm_table(toad="Zed", rounds=[["cups-1"], ["joker", "cups-1", "cups-1"]]),
        lm_table(rounds=[["cups-1", "cups-2", "cups-3"], ["cups-1", "cups-4", "cups-5"]]),
        lm_table(rounds=[["cups-1"] * 4] * 15),
        lm_table(
            decks={
                "Lewis": {
                    "mavens": [lm_maven("M")] * 60,
                    "junk": [{"kind": "reactor-pump", "vp": 1}] * 49,
                    "machines": ["tiny-tin"] * 38,
                }
            }
        ),
    ],
    scored=[
        lm_table(),
        lm_table(final_turn_order=["Carol", "Lewis"]),
        lm_table(escaped={"player": "Carol", "by": "three-sisters"}),
        lm_table(
            players=["Lewis", "Carol", "Ann"],
            escaped={"player": "Lewis", "by": "time-machine"},
            decks={},
        ),
        lm_table(rounds=LM_ROUNDS[:3]),
        lm_table(rounds=LM_ROUNDS[:3], toad="Lewis"),
        lm_table(rounds=LM_ROUNDS, toad="Lewis"),
        lm_table(rounds=LM_ROUNDS, toad="Lewis", final_turn_order=["Carol", "Lewis"]),
        {
            "players": ["Lewis", "Carol", "Ann"],
            "decks": {name: {"lucky": 1} for name in ("Lewis", "Carol", "Ann")},
            "final_turn_order": ["Carol", "Ann", "Lewis"],
        },
        {
            "players": ["Lewis", "Carol"],
            "decks": {
                "Lewis": {"lucky": 1, "mavens": [lm_maven("Pumpkin Ted", "oddling", 2)]},
                "Carol": {"lucky": 1, "mavens": [lm_maven("Queen of Spades", "wicked", 2)]},
            },
        },
    ],
    requests=[
        ("challenge", {"kind": "wicked", "powers": {"Lewis": 2, "Carol": 2, "Ann": 1}}),
        ("challenge", {"kind": "wicked", "powers": {"Lewis": 3, "Carol": 2, "Ann": 1}}),
        ("challenge", {"powers": {"Lewis": 0, "Carol": 0}}),
        (
            "challenge",
            {"kind": "fire", "powers": {"Lewis": 200, "lewis": 1}, "turn_order": ["Zed", "Lewis"]},
        ),
        (
            "feed-the-toad",
            {
                "players": ["Lewis", "Carol"],
                "holder": "Zed",
                "fate": ["cups-1", "cups-1", "joker", "x"],
            },
        ),
        ("feed-the-toad", {"players": ["Lewis"], "holder": "Lewis", "fate": ["cups-1"]}),
        (
            "feed-the-toad",
            {"players": ["Lewis", "Carol"], "holder": "Lewis", "fate": ["death", "death", "x"]},
        ),
        (
            "feed-the-toad",
            {
                "players": ["Lewis", "Carol"],
                "holder": "Lewis",
                "fate": ["fortune", "cups-1", "swords-2"],
            },
        ),
        (
            "feed-the-toad",
            {
                "players": ["Lewis", "Carol"],
                "holder": "Carol",
                "fate": ["magician", "judgment", "wands-3"],
            },
        ),
        (
            "buy-points",
            {
                "lucky": True,
                "scarecrows": ["wands", "cups", "swords"],
                "white_rabbits": 3,
                "oddlings": [2, 1],
                "fate": ["wands-1", "cups-2"],
            },
        ),
        (
            "buy-points",
            {
                "scarecrows": ["wands", "wands", "gold"],
                "white_rabbits": 9,
                "oddlings": [12],
                "fate": ["x", "x"],
            },
        ),
        ("buy-points", {"scarecrows": ["wands"] * 4, "oddlings": [1] * 21}),
        (
            "build-machine",
            {"junk": ["reactor-pump", "reactor-pump"], "built": {"plasma-cannon": 2}},
        ),
        (
            "build-machine",
            {"junk": ["reactor-pump", "spring", "x"], "built": {"rocket": 1, "tiny-tin": 9}},
        ),
        (
            "build-machine",
            {
                "junk": ["flux-capacitor", "flux-capacitor"],
                "built": {"time-machine": 1, "mech-dragon": 4, "dark-energy-machine": 4},
            },
        ),
        ("escape", {"in_play": ["greed", "despair"], "pumpkin_ted_triggered": False}),
        ("escape", {"in_play": ["broom"], "player": "Lewis"}),
        (
            "escape",
            {
                "in_play": ["fate-clock", "clockmakers", "pumpkin-ted"],
                "player": "Lewis",
                "table": lm_table(
                    decks={
                        "Carol": {
                            "hirelings": {"clockmakers": 8},
                            "mavens": [lm_maven("Pumpkin Ted")],
                        }
                    }
                ),
            },
        ),
        ("escape", {"in_play": ["greed"], "player": "Zed", "table": lm_table()}),
        ("build-machine", {"junk": ["reactor-pump", "x"], "built": {"rocket": 1, "tiny-tin": 9}}),
        (
            "escape",
            {
                "in_play": ["reactor-pump"],
                "player": "Lewis",
                "table": lm_table(
                    decks={
                        "Carol": {
                            "junk": [{"kind": "reactor-pump", "vp": 1, "count": 2}],
                            "machines": {"plasma-cannon": 4, "mech-dragon": 2},
                        }
                    }
                ),
            },
        ),
        ("escape", {"in_play": ["greed"], "player": "Lewis", "table": {"players": ["Lewis"]}}),
        ("escape", {"in_play": ["greed"] * 9}),
    ],
    edits=[
        (["decks", "Lewis", "lucky"], "2"),
        (["decks", "Lewis", "hirelings", "clockmakers"], "x"),
        (["decks", "Lewis", "machines", "tiny-tin"], "9"),
        (["decks", "Lewis", "junk", 0, "count"], "99"),
        (["decks", "Lewis", "junk", 0, "vp"], "12"),
        (["decks", "Lewis", "mavens", 0, "vp"], "1"),
        (["rounds", 0, 0], "joker"),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(lm_table(), ["decks"], lm_table()["decks"], {"Lewis": {}, "Carol": {"lucky": 0}}),
        Change(lm_table(), ["decks"], {"Lewis": {}}, {"Lewis": {}}),
        Change(
            lm_table(),
            ["decks"],
            {"Lewis": {"mavens": [lm_maven("Greed", "goblin")]}},
            {"Lewis": {"mavens": [lm_maven("Greed", "wicked")], "machines": ["tiny-tin"]}},
        ),
        Change(lm_table(), ["rounds"], [["cups-4"]], [["cups-4", "wands-5"]]),
        Change(lm_table(), ["rounds"], [["cups-4", "wands-5"]], [["cups-4"]]),
        Change(lm_table(), ["rounds"], [["cups-4"]], [["cups-4"], []]),
        Change(lm_table(), ["rounds"], [["cups-4"]], [["cups-4"], ["joker", "death"]]),
        Change(lm_table(), ["rounds"], [["cups-4"], ["death"]], [["cups-4"]]),
        Change(lm_table(), ["rounds"], [["cups-4", "cups-4"]], [["cups-4"]]),
        Change(lm_table(), ["escaped"], None, {"player": "Carol", "by": "pumpkin-ted"}),
        Change(lm_table(), ["escaped"], {"player": "Carol", "by": "pumpkin-ted"}, None),
        Change(lm_table(), ["final_turn_order"], None, ["Carol", "Lewis"]),
        Change(lm_table(), ["final_turn_order"], ["Carol", "Lewis"], None),
        Change(lm_table(), ["toad"], "Lewis", "Carol"),
        Change(lm_table(), ["decks", "Lewis"], {}, {"lucky": 1}),
        Change(lm_table(), ["rounds", 2, 1], None, "death"),
        Change(lm_table(), ["rounds", 2, 1], "death", None),
        Change(lm_table(), ["decks", "Lewis", "junk", 5, "vp"], 1, 2),
        Change(lm_table(), ["decks", "Lewis", "mavens", 7, "vp"], 1, 2),
        Change(lm_table(), ["escaped", "player"], "Carol", "Lewis"),
    ],
    endings=[
        {"standings": [], "escape": {"player": "Carol", "by": "three-sisters"}},
        {"standings": [], "escape": {"player": "Carol"}},
        {"standings": []},
    ],
    words=lm_words,
)


#: Each game's examples (the other games' are in ``test_words_translated.py``).
EXAMPLES: dict[str, Examples] = {
    "oddland": ODDLAND,
    "oddville": ODDVILLE,
    "luckys-misadventures": LUCKYS,
}
CHECKED = sorted(EXAMPLES)


# --- the checks ---------------------------------------------------------------------------


def names_in(request: object) -> list[str]:
    """The player names a request holds (its ``players`` list, a table's, the keys of its
    decks or powers), to leave out of the check: they are the players' words."""
    if not isinstance(request, Mapping):
        return []
    found: list[str] = []
    players = request.get("players")
    for player in players if isinstance(players, list) else ():
        if isinstance(player, str) and player.strip():
            found.append(player.strip())
    for key in ("decks", "powers"):
        named = request.get(key)
        found += (
            [name.strip() for name in named if name.strip()] if isinstance(named, Mapping) else []
        )
    found += names_in(request.get("table"))
    return found


def english_left(document: object, *, names: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every human-facing string of a JSON document (path and text) that still holds
    English words outside the pseudo-language's brackets."""
    values = list(names)
    return [
        (path, text)
        for path, text in texts_at(document, HUMAN_KEYS)
        if not IDENTIFIERS.search(path) and english_words(text, values=values)
    ]


def assert_translated(document: object, *, names: Iterable[str] = ()) -> None:
    """No human-facing string of ``document`` holds English left untranslated."""
    assert english_left(document, names=names) == []


def problems_json(problems: Sequence[Problem]) -> dict[str, Any]:
    """Problems as the API lists them, with the pages' sentence for those left out."""
    return {
        "problems": [problem.to_json() for problem in problems],
        "messages": problem_messages(problems),
        "readings": [problem.reading.to_json() for problem in problems if problem.reading],
    }


def answer(handler: Callable[[object], object], body: object) -> object:
    """An endpoint's answer, or its problems when it refuses the request."""
    try:
        return handler(body)
    except InvalidStateError as refused:
        return problems_json(refused.problems)


def assert_scored_in_pseudo(game: Game, state: Mapping[str, Any]) -> None:
    """Score a valid state and word every part of it that people read: the result, the
    Finish button, each tiebreak value, and each field and value of the history."""
    names = names_in(state)
    result = game.checked_score(state).to_json()
    assert_translated(result, names=names)
    ending = game.over_words(result) if result["finished"] else game.going_on_words(result)
    values = [
        tiebreak.say(value["value"])
        for standing in result["standings"]
        for tiebreak, value in zip(game.tiebreaks, standing["tiebreak"], strict=True)
    ]
    assert_translated({"words": [ending, *values]}, names=names)
    for path, value in leaves(state):
        try:
            game.parse_edit(path, as_text(value))
        except InvalidStateError as refused:
            if refused.problems[0].message.strip("⟦⟧") == REFUSED_PATH:
                continue  # not edited on its own: never in the history
        said = {"words": [game.describe_path(state, path), game.display_value(path, value)]}
        # A text stored as it was typed (a map row, a key) is shown as it is: not words.
        assert_translated(said, names=[*names, as_text(value)])


@pytest.mark.parametrize("slug", CHECKED)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_scored_states_speak_the_reader_s_language(slug: str, data: st.DataObject) -> None:
    game = GAMES[slug]
    state = data.draw(STRATEGIES[slug], label="state")
    with speaking(PSEUDO):
        assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", CHECKED)
def test_chosen_states_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            assert game.validate(state) == [], state
            assert game.table_problems(state) == [], state
            assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", CHECKED)
def test_refusals_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].refused:
            problems = game.validate(state) or game.table_problems(state)
            assert problems, state
            assert_translated(problems_json(problems), names=names_in(state))
            assert_translated(answer(game.api_endpoints()["score"], state))


@pytest.mark.parametrize("slug", CHECKED)
def test_endpoints_speak_the_reader_s_language(slug: str) -> None:
    """Each endpoint's example of the API description, and the game's own requests."""
    game = GAMES[slug]
    endpoints = game.api_endpoints()
    examples = [(name, described.example) for name, described in game.api_descriptions().items()]
    with speaking(PSEUDO):
        for name, body in [*examples, *EXAMPLES[slug].requests]:
            assert_translated(answer(endpoints[name], body), names=names_in(body))


@pytest.mark.parametrize("slug", CHECKED)
def test_form_edits_and_history_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for path, raw in EXAMPLES[slug].edits:
            with pytest.raises(InvalidStateError) as refused:
                game.parse_edit(path, raw)
            assert_translated(problems_json(refused.value.problems))
        for ending in EXAMPLES[slug].endings:
            assert_translated({"words": game.over_words(ending)}, names=["Carol"])
        for change in EXAMPLES[slug].changes:
            names = names_in(change.state) + typed_in(change)
            assert_translated({"words": history_line(game, change)}, names=names)


def history_line(game: Game, change: Change) -> list[str]:
    """What the edit history says of a change (the game's own words, else the field and
    the values before and after), and the field's name, which conflict messages say too.
    A value shown as it was typed (a map row, an unknown key) is left out: not words."""
    said = game.describe_change(change.state, change.path, change.previous, change.value)
    if said is not None:
        return [said, game.describe_path(change.state, change.path)]
    return [
        game.describe_path(change.state, change.path),
        *(
            shown
            for value in (change.previous, change.value)
            if (shown := game.display_value(change.path, value)) != as_text(value)
        ),
    ]


def typed_in(change: Change) -> list[str]:
    """The texts a change holds as they were entered (a map row, a key): shown as they
    are, they are not the app's words."""
    return [text for value in (change.previous, change.value) for text in entered(value)]


def entered(value: object) -> list[str]:
    """Every text of a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [*value, *(text for item in value.values() for text in entered(item))]
    if isinstance(value, list):
        return [text for item in value for text in entered(item)]
    return []


@pytest.mark.parametrize("slug", CHECKED)
def test_more_words_speak_the_reader_s_language(slug: str) -> None:
    """What the engine says to the pages beyond answers and history."""
    with speaking(PSEUDO):
        said = EXAMPLES[slug].words()
    assert said
    assert_translated({"words": said}, names=["Ann", "Ben", "Cy", "A", "B"])


@pytest.mark.parametrize("slug", CHECKED)
def test_identifiers_stay_english(slug: str) -> None:
    """What clients key on is never translated: ``decided_by``, tiebreak labels, ids."""
    game = GAMES[slug]
    labels = [tiebreak.label for tiebreak in game.tiebreaks]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            result = game.checked_score(state).to_json()
            assert "⟦" not in result["decided_by"]
            for standing in result["standings"]:
                assert [t["label"] for t in standing["tiebreak"]] == labels
            for reading in result.get("readings", ()):
                assert "⟦" not in reading["id"] + reading["rule"]


def test_a_remembered_replay_speaks_each_reader_s_language() -> None:
    """Oddland's replay cache keeps no words: a game replayed in English first says its
    stopping turn's problem in the next reader's language."""
    with speaking(PSEUDO):
        said = ol_replayed_twice()
    assert said
    assert all(message.startswith("⟦") for message in said)


def test_the_check_finds_english_left_outside_the_brackets() -> None:
    """The check itself: bare English is found, identifiers and names are not."""
    document = {
        "cards": [{"place": "row 1, col 2", "words": "⟦Diamond = 5⟧"}],
        "standings": [{"tiebreak": [{"label": "Has Lucky"}], "breakdown": [{"label": "Ann"}]}],
    }
    assert english_left(document, names=["Ann"]) == [("cards[0].place", "row 1, col 2")]
