"""OddVille's examples for the words checks (see :mod:`support.words`): refused and
impossible cities, scored cities (every victory-point type, an ending by the 6th
worker), construction requests, refused form edits, history lines, and what the
construction referee says to a Lamplighter's holder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.oddville.construction import bonuses, building, construction_warnings
from companion.games.oddville.state import parse as oddville_city
from support.words import Change, Examples

SQUARE = {"at": [0, 0], "card": "main-square"}


def card(at: tuple[int, int], owner: str | None, kind: str, **fields: Any) -> dict[str, Any]:
    """An OddVille building (``value``/``guild`` of its points in ``points``)."""
    points = {"kind": kind}
    for key in ("value", "counts"):
        if key in fields:
            points["value" if key == "value" else "guild"] = fields.pop(key)
    built: dict[str, Any] = {"at": list(at), "points": points, **fields}
    if owner is not None:
        built["owner"] = owner
    return built


def city(*cards: dict[str, Any], owners: Sequence[str] = (), **changes: Any) -> dict[str, Any]:
    """An OddVille table of Ann and Ben: the Main Square and ``cards``."""
    return {
        "players": ["Ann", "Ben"],
        "city": [{**SQUARE, "owners": list(owners)}, *cards],
        **changes,
    }


#: Every victory-point type, with a guild card and shields around.
CITY = city(
    card((1, 0), "Ann", "diamond", value=5, shield=2),
    card((0, 1), "Ann", "diamonds", shield=1),
    card((1, 1), "Ben", "adjacent"),
    card((0, -1), "Ben", "column"),
    card((1, -1), "Ann", "row", guild="mask"),
    card((2, 0), "Ben", "adjacent-x3"),
    card((2, 1), "Ann", "shields"),
    card((2, -1), "Ben", "shields"),
    card((3, 0), "Ben", "guild", value=2, counts="mask", guild="mask"),
    owners=["Ben"],
    characters={"Ann": ["mistress"], "Ben": ["traveller"]},
    resource_workers={"Ann": 1, "Ben": 2},
)

#: Ben ended the game with his 6th worker (the Traveller put one on the Main Square).
ENDED = city(
    *[card((1, n), "Ann", "adjacent", guild="lily") for n in range(5)],
    *[card((2, n), "Ben", "row", guild="bells") for n in range(5)],
    owners=["Ben"],
    ended_by="Ben",
    characters={"Ann": ["cheater", "seignior", "landowner"], "Ben": ["traveller"]},
)


def build_request(new: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A construction check on a small city with edges."""
    return {
        "players": ["Ann", "Ben"],
        "city": [
            {**SQUARE, "owners": []},
            card((1, 0), "Ben", "row", edges="SHSH", bonus="coin"),
            card((1, 1), "Ben", "row", bonus="double"),
        ],
        "card": new,
        **changes,
    }


def lamplighter_words() -> list[str]:
    """The construction referee's gains and warnings for a Lamplighter's holder."""
    parsed = oddville_city(
        city(
            card((1, 0), "Ben", "row", edges="SHSH", bonus="coin"),
            card((0, 1), "Ben", "row", bonus="transform"),
            characters={"Ann": ["lamplighter"]},
        )
    )
    new = building((1, 1), owner="Ann", edges="HSHS", bonus="any-resource", guild="rooster")
    return [g.words for g in bonuses(parsed, new)] + construction_warnings(parsed, new)


EXAMPLES = Examples(
    refused=[
        {"players": ["Ann"], "city": [], "colours": {"Ann": "green"}},
        city(
            card((-1, 0), "Cy", "diamond", value=7),
            {"at": [1], "points": {"kind": "row"}},
            {"at": [0, 0], "card": "main-square", "owner": "Ann", "guild": "mask", "shield": 1},
            {"at": [5, 5], "card": "castle"},
            card((1, 0), "Ann", "diamond", value=7),
            card((1, 0), "Ann", "row"),
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
                card((2, 3), "Ann", "row", value=3, counts="mask"),
                card((2, 4), "Ann", "guild", value=2),
                card((2, 5), "Ann", "guild", value=2, counts="moon"),
                card((2, 6), "Ann", "guild", value=2, counts="mask"),
                card((2, 7), "Ann", "guild", value=2, counts="mask", guild="lily"),
                card((2, 8), "Ann", "diamond"),
            ],
        },
        city(
            colours={"Ann": "red", "Ben": "red", "Zed": "blue"},
            characters={"Ann": ["cheater", "joker"], "Ben": ["cheater"], "Zed": ["builder"]},
            resource_workers={"Ann": 12, "Zed": 1},
        ),
        city(characters={"Ann": ["cheater", "cheater"]}),
        city(*[card((1, n), "Ann", "row") for n in range(9)], resource_workers={"Ann": 3}),
        city(
            characters={
                "Ann": ["cheater", "seignior", "landowner"],
                "Ben": ["mistress", "builder"],
            }
        ),
        city(characters={"Ann": ["cheater"] * 13}),
        city(
            card((1, 0), "Ann", "row", edges="SHSH"),
            card((2, 0), "Ann", "row", edges="HHHH"),
            card((1, 1), "Ben", "row", edges="SSSH"),
            card((0, 1), "Ben", "row", edges="HHHH"),
        ),
        city(card((1, 0), "Ann", "row"), ended_by="Ann"),
        city(*[card((1, n), "Ann", "row") for n in range(7)]),
        city(*[card((1, n), "Ann", "row") for n in range(6)], owners=["Ann", "Ben"]),
        city(owners=["Ann"], characters={"Ann": ["cheater"]}),
        city(
            card((1, 0), "Ann", "row", guild="mask"),
            characters={"Ann": ["cheater", "mistress"]},
        ),
        city(ended_by="Ann"),
        city(*[card((1, n), "Ann", "row") for n in range(5)], ended_by="Ann", owners=["Ann"]),
        city(
            *[card((1, n), "Ann", "row") for n in range(6)],
            *[card((2, n), "Ben", "row") for n in range(6)],
        ),
        city(
            *[card((1, n), "Ann", "row") for n in range(6)],
            *[card((2, n), "Ben", "row") for n in range(6)],
            ended_by="Ann",
        ),
        {"players": ["Ann", "Ben"], "city": [SQUARE] * 101},
        {"players": ["Ann", "Ben"], "city": [{"at": [1, 0, 0], "owners": ["a"] * 5}]},
    ],
    scored=[
        CITY,
        ENDED,
        city(card((1, 0), "Ann", "row"), card((1, 1), "Ben", "row")),
        city(
            *[card((1, n), "Ann", "diamond", value=4) for n in range(6)],
            *[card((2, n), "Ben", "diamond", value=4) for n in range(5)],
            resource_workers={"Ben": 4},
            ended_by="Ann",
        ),
        {
            "players": ["Ann", "Ben", "Cy"],
            "ended_by": "Ann",
            "city": [
                {**SQUARE, "owners": []},
                *[card((1, n), "Ann", "diamond", value=4) for n in range(6)],
                *[card((2, n), "Ben", "diamond", value=5) for n in range(5)],
                *[card((3, n), "Cy", "diamond", value=5) for n in range(5)],
            ],
        },
    ],
    requests=[
        ("build", build_request(card((0, 1), "Ann", "diamond", value=4, edges="SHHH"))),
        ("build", build_request(card((2, 0), "Ann", "row", edges="HSSS", bonus="resource"))),
        ("build", build_request(card((1, 0), "Ann", "row", edges="HHHH"), rotated=True)),
        ("build", build_request(card((5, 5), None, "row"))),
        ("build", build_request(card((2, 0), "Ann", "row", edges="SSSS", bonus="coin"))),
        ("build", build_request(card((2, 1), "Ann", "row", edges="SSSS"))),
        (
            "build",
            {
                **city(
                    *[card((1, n), "Ann", "row") for n in range(6)],
                    *[card((2, n), "Ben", "row") for n in range(5)],
                    owners=["Ben"],
                    ended_by="Ann",
                    characters={"Ben": ["builder"]},
                ),
                "card": card((3, 0), "Ben", "row", edges="HHHH"),
            },
        ),
        ("build", build_request(card((-1, 0), "Ann", "row", edges="SSSS"))),
        ("build", build_request(card((0, -1), "Ann", "row", edges="SSHS", guild="bells"))),
        ("build", build_request({"at": [2, 0], "card": "main-square"})),
        ("build", build_request(card((2, 1), "Cy", "row"), players=["Ann"])),
        ("build", {**ENDED, "card": card((3, 0), "Ann", "row")}),
        ("build", {**ENDED, "card": card((3, 0), "Ben", "row")}),
        (
            "build",
            {
                **city(*[card((1, n), "Ann", "row") for n in range(6)]),
                "card": card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {
                **city(*[card((1, n), "Ann", "row") for n in range(6)]),
                "card": card((2, 0), "Ben", "row"),
            },
        ),
        (
            "build",
            {
                **city(*[card((1, n), "Ann", "row") for n in range(5)], owners=["Ann"]),
                "card": card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {
                **city(*[card((1, n), "Ann", "row") for n in range(5)]),
                "card": card((2, 0), "Ann", "row", edges="HHHH"),
            },
        ),
        (
            "build",
            {**city(resource_workers={"Ann": 9}), "card": card((1, 0), "Ann", "row")},
        ),
    ],
    edits=[
        (["resource_workers", "Ann"], "x"),
        (["resource_workers", "Ann"], "12"),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(CITY, ["resource_workers", "Ann"], 0, 2),
        Change(CITY, ["characters", "Ann", 0], None, "cheater"),
        Change(CITY, ["characters", "Ann"], [], ["cheater", "joker"]),
        Change(CITY, ["characters", "Ann"], ["cheater"], []),
        Change(CITY, ["city", 2, "owner"], "Ann", "Ben"),
        Change(CITY, ["ended_by"], None, "Ann"),
        Change(CITY, ["ended_by"], "Ann", None),
        *[
            Change(CITY, [field], None, value)
            for field, value in [
                ("city", [SQUARE]),
                ("characters", {}),
                ("resource_workers", {}),
                ("colours", {}),
                ("players", ["Ann"]),
            ]
        ],
        Change(CITY, ["city"], [SQUARE], [SQUARE, card((1, 0), "Ann", "diamond", value=5)]),
        Change(CITY, ["city"], [SQUARE], [SQUARE, card((1, 0), None, "row", guild="mask")]),
        Change(CITY, ["city"], [SQUARE], [SQUARE, card((1, 0), "Ann", "row")]),
        Change(CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0], "owner": "Ann"}]),
        Change(CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0]}]),
        Change(CITY, ["city"], [SQUARE], [SQUARE, {"at": [1, 0], "card": "main-square"}]),
        Change(CITY, ["city"], [SQUARE, card((1, 0), None, "diamond", value=4)], [SQUARE]),
        Change(
            CITY,
            ["city"],
            [SQUARE, card((1, 0), "Ann", "row")],
            [SQUARE, card((0, 1), "Ann", "row")],
        ),
        Change(
            CITY,
            ["city"],
            [SQUARE, card((1, 0), "Ann", "row")],
            [SQUARE, card((1, 0), "Ben", "row")],
        ),
        Change(CITY, ["city"], [SQUARE], [{**SQUARE, "owners": ["Ann", "Ben"]}]),
        Change(CITY, ["city"], [{**SQUARE, "owners": ["Ann"]}], [{**SQUARE, "owners": []}]),
        Change(CITY, ["characters"], {"Ann": ["traveller"]}, {"Ben": ["traveller"]}),
        Change(CITY, ["characters"], {"Ann": ["cheater"]}, {"Ann": []}),
        Change(CITY, ["characters"], {"Ann": ["joker"]}, {"Ann": []}),
    ],
    words=lamplighter_words,
)
