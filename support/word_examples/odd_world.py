"""Odd World's examples for the words checks (see :mod:`support.words`): tables refused
for every kind of problem, scored tables with a winner by all nine birds, a tie and a
Cassowary, series, refused form edits and history lines."""

from __future__ import annotations

from typing import Any

from support.words import Change, Examples


def player(name: str, face_down: str | None = None, /, **display: int) -> dict[str, Any]:
    """An Odd World player (bird keys with underscores for hyphens)."""
    birds = {bird.replace("_", "-"): count for bird, count in display.items()}
    return {"name": name, "display": birds, "face_down": face_down}


ALL_NINE = {
    "bird_of_paradise": 1,
    "hoopoe": 1,
    "scarlet_ibis": 1,
    "shoebill": 1,
    "hornbill": 1,
    "crowned_crane": 1,
    "secretarybird": 1,
    "king_vulture": 1,
}

TABLE = {"players": [player("Ann", hoopoe=3), player("Ben", shoebill=2, hornbill=1)]}

EXAMPLES = Examples(
    refused=[
        {"players": [player("Ann", hoopoe=3)]},
        {"players": [player(f"P{i}", hoopoe=1) for i in range(6)]},
        {"players": [player("", hoopoe=3), player("Ann", hoopoe=3)]},
        {"players": [player("A" * 41, hoopoe=3), player("Ann\u202e", hoopoe=3)]},
        {"players": [player("\u3164", hoopoe=3), player("Ann", hoopoe=3)]},
        {"players": [player("Ann", hoopoe=3), player("ann", hoopoe=3)]},
        {"players": [player("Ann", hoopoe=3), player("\u0410nn", hoopoe=3)]},
        {"players": [player("Ann", dodo=1, hoopoe=-1, shoebill=9), player("Ben", "emu")]},
        {"players": [player("Ann", hoopoe=5), player("Ben", "hoopoe", hoopoe=3)]},
        {"players": [player("Ann", hoopoe=1), player("Ben", hoopoe=3)]},
        {
            "players": [
                player("Ann", "hoopoe", cassowary=1, **ALL_NINE),
                player("Ben", "hoopoe", cassowary=1, **ALL_NINE),
                player("Cy", hoopoe=3),
            ]
        },
        {
            "players": [
                player("Ann", **dict.fromkeys(ALL_NINE, 2), cassowary=2),
                player("Ben", **dict.fromkeys(ALL_NINE, 2), cassowary=2),
            ]
        },
        {"players": "Ann"},
        {"players": [{"name": 1, "display": [], "face_down": True, "age": 3}]},
        {"players": [{"name": "Ann", "display": {"hoopoe": "3"}}]},
        {},
        [],
        {"players": [{"name": "x" * 101, "face_down": "y" * 101}, player("Ben")]},
        {"players": [{"name": "Ann", "display": {f"b{i}": 1 for i in range(21)}}]},
        {"players": [{"name": "Ann", "display": {"k" * 101: 1}}, player("Ben")]},
        {
            "players": [
                {"name": f"P{i}", "display": {f"b{j}": 1 for j in range(20)}} for i in range(5)
            ]
        },
    ],
    scored=[
        TABLE,
        {"players": [player("Ann", "cassowary", **ALL_NINE), player("Ben", hoopoe=3)]},
        {
            "players": [
                player("Ann", "cassowary", **ALL_NINE),
                player("Ben", "cassowary", **{**ALL_NINE, "hoopoe": 2}),
                player("Cy", hoopoe=3),
            ]
        },
        {"players": [player("Ann", cassowary=1, **ALL_NINE), player("Ben", hoopoe=3)]},
        {
            "players": [
                player("Ann", bird_of_paradise=8, hoopoe=8, scarlet_ibis=8, shoebill=8),
                player("Ben", hornbill=8, crowned_crane=8, secretarybird=8, king_vulture=8),
                player("Cy", cassowary=8),
            ]
        },
        {"players": [player("Ann", "hoopoe", shoebill=2), player("Ben", hornbill=3)]},
    ],
    requests=[
        ("series", {"games": []}),
        ("series", {"games": [TABLE] * 4}),
        ("series", {"games": [TABLE, {"players": [player("Cy"), player("Di")]}]}),
        ("series", {"games": [TABLE, {"players": [player("Ann", hoopoe=9)]}]}),
        ("series", {"games": [TABLE, {"players": [player("Ann"), player("Ben")]}]}),
        ("series", {"games": [TABLE, TABLE, TABLE]}),
        (
            "series",
            {"games": [{"players": [player("Ann", hoopoe=3), player("Ben", shoebill=3)]}]},
        ),
    ],
    edits=[
        (["players", 0, "display", "hoopoe"], "x"),
        (["players", 0, "display", "hoopoe"], "9"),
        (["players", 0, "face_down"], "emu"),
        (["players", 0, "name"], "Eve"),
    ],
    changes=[
        Change(TABLE, ["players", 1, "display", "hoopoe"], 0, 3),
        Change(TABLE, ["players", 1, "face_down"], None, "hoopoe"),
        Change(TABLE, ["players", 1, "face_down"], "hoopoe", None),
        Change({}, ["players", 4, "display", "cassowary"], 1, 2),
        Change({}, ["players", 4, "face_down"], None, "cassowary"),
    ],
    # Nobody named: a result that says the game is over without saying who ended it.
    endings=[{"standings": [], "cards_on_table": 30}],
)
