"""Owl About's examples for the words checks (see :mod:`support.words`): refused games
and tricks, scored games in every mode and variant, trick referee requests, refused form
edits and history lines (rounds, hands, tricks)."""

from __future__ import annotations

from typing import Any

from support.words import Change, Examples

TABLE = ["Miu", "Carol", "Romi", "Tom"]
#: The rulebook's trick: the 2 fights as 12 next to the 10.
TRICK = ["6", "2", "8", "10"]


def game(rounds: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """An Owl About state at the table of four (options: mode, variants, target...)."""
    return {"players": list(TABLE), "mode": "basic", "rounds": rounds, **options}


def trick_request(**changes: Any) -> dict[str, Any]:
    """A one-trick referee request (the rulebook's trick, led by Miu)."""
    return {
        "mode": "basic",
        "lead": "Miu",
        "players": list(TABLE),
        "cards": TRICK,
        **changes,
    }


#: Four night cards in one round's tricks: Night Collection 4 resets Miu's total.
NIGHT_ROUND = {
    "tricks": [
        {"lead": "Miu", "cards": ["N7", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N6", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N5", "1", "2", "3"]},
        {"lead": "Miu", "cards": ["N4", "1", "2", "4"]},
    ],
    "penalties": {"Miu": 1},
    "open": True,
}

EXAMPLES = Examples(
    refused=[
        game([], players=["Miu", "Carol"]),
        {"players": ["Miu", "Carol", "Romi", "Miu"], "rounds": []},
        game([], mode="turbo", variants=["same-speed", "x"], target=100),
        game([{"trophies": {"Zed": 1, "Miu": -1, "miu": 2, "Tom": 99}}]),
        game([{"trophies": {"Miu": 1}, "penalties": {"Tom": -1, "Romi": 9}}]),
        game([{"tricks": [{"lead": "Zed", "cards": ["6", "11"], "winner": "Tom"}]}]),
        game([{"tricks": [{"lead": "Miu", "cards": TRICK, "winner": "Tom"}]}]),
        game([{"tricks": [{"lead": "Miu", "cards": TRICK, "winner": "Zed"}]}], mode="advanced"),
        game([{"tricks": [{"lead": "Miu", "cards": ["6"], "winner": "Tom"}], "open": True}]),
        game(
            [
                {
                    "tricks": [
                        {"lead": "Miu", "cards": TRICK},
                        {"lead": "Tom", "cards": ["9", "9", "9", "3"]},
                    ]
                }
            ]
        ),
        game([{"tricks": [{"lead": "Miu", "cards": TRICK}] * 9}]),
        game([{"open": True, "trophies": {"Miu": 1}}, {"tricks": [], "trophies": {}}, {}]),
        game([{"tricks": [], "hands": {"Zed": ["2"], "Miu": ["2", "X"] + ["3"] * 7}}]),
        game([{"tricks": [], "hands": {"Miu": ["N6"], "Tom": ["N6"], "miu": ["1"]}}]),
        game([{"tricks": [{"lead": "Miu", "cards": TRICK}], "hands": {"Miu": ["5"]}}]),
        game(
            [
                {"trophies": {"Miu": 12, "Carol": 0, "Romi": 0, "Tom": 0}},
                {"trophies": {"Miu": 1, "Carol": 0, "Romi": 0, "Tom": 0}},
            ],
            target=5,
        ),
        game(
            [
                {"tricks": [{"lead": "Miu", "cards": TRICK}]},
                {"trophies": {"Miu": 1, "Carol": 0, "Romi": 0, "Tom": 0}},
            ]
        ),
        {"players": list(TABLE), "rounds": [{"open": "yes", "tricks": "6 2 8 10"}]},
        {"players": list(TABLE), "rounds": [{}] * 101},
        {"players": list(TABLE), "variants": ["x"] * 21, "rounds": []},
        {"players": list(TABLE), "rounds": [{"tricks": [{"lead": "Miu", "cards": []}] * 10}]},
    ],
    scored=[
        game([{"tricks": [{"lead": "Miu", "cards": TRICK}], "open": True}]),
        game([{"trophies": {"Miu": 4, "Carol": 3, "Romi": 0, "Tom": 0}}]),
        game(
            [{"trophies": {"Miu": 4, "Carol": 4, "Romi": 0, "Tom": 0}}],
            mode="advanced",
            variants=["same-speed"],
        ),
        {
            "players": ["A", "B", "C", "D", "E", "F"],
            "rounds": [{"trophies": {"A": 6, "B": 6, "C": 0, "D": 0, "E": 0, "F": 0}}],
        },
        game(
            [
                {
                    "tricks": [
                        {"lead": "Miu", "cards": ["6", "2", "3", "10"]},
                        {"lead": "Carol", "cards": ["N6", "8", "9", "7"]},
                    ],
                    "hands": {"Romi": ["8", "3", "8"], "Carol": ["2", "N6", "6"]},
                    "open": True,
                }
            ]
        ),
        game([NIGHT_ROUND], mode="advanced", variants=["night-collection"]),
        game([NIGHT_ROUND], mode="advanced", variants=["night-collection-3", "same-speed"]),
        game([{"tricks": [{"lead": "Miu", "cards": ["2", "2", "N4", "6"]}]}], mode="quick"),
        game([{"tricks": [{"lead": "Miu", "cards": ["N7", "1", "3", "4"]}], "open": True}]),
        game([{"trophies": {"Miu": 12, "Carol": 0, "Romi": 0, "Tom": 0}}], target=5),
        game([{"trophies": {"Miu": 0, "Carol": 0, "Romi": 0, "Tom": 0}}], target=1),
    ],
    requests=[
        ("trick", trick_request(cards=["6", "2", "3", "10"], hands={"Romi": ["8", "3"]})),
        ("trick", trick_request(cards=["N6", "2", "8", "10"], hands={"Miu": ["6", "N6"]})),
        ("trick", trick_request(cards=["6", "2"], hands={"Romi": ["8", "3", "N7", "7"]})),
        ("trick", trick_request(mode="quick", cards=["2", "2", "N4", "6"])),
        ("trick", trick_request(cards=["N7", "1"])),
        ("trick", trick_request(lead="Zed", mode="turbo", players=["Miu", "Carol"], cards=[])),
        (
            "trick",
            trick_request(
                players=["Miu", "Carol", "miu", "Tom"], cards=["6", "2", "8", "10", "3"]
            ),
        ),
        ("trick", trick_request(cards=["6", "11", "9", "9", "9"])),
        ("trick", trick_request(cards=["9", "9", "9"])),
        ("trick", trick_request(cards=["N6", "N6", "3"])),
        ("trick", trick_request(hands={"Zed": ["2"], "Carol": ["5", "7"], "carol": ["2"]})),
        ("trick", trick_request(hands={"Carol": ["2"] + ["3"] * 8})),
        ("trick", trick_request(hands={"Carol": ["2", "10", "10"]})),
        ("trick", trick_request(hands={"Carol": ["2", "10"], "Tom": ["10"], "Romi": ["8", "10"]})),
        ("trick", trick_request(cards="6 2 8 10", extra=1)),
        ("trick", trick_request(cards=["6"] * 7, hands={"Tom": ["1"] * 10})),
    ],
    edits=[
        (["target"], "x"),
        (["target"], "0"),
        (["mode"], "turbo"),
        (["rounds", 0, "penalties", "Tom"], "-1"),
        (["rounds", 0, "trophies", "Tom"], "many"),
        (["rounds", 0, "tricks", 0, "cards", 1], "11"),
        (["rounds", 0, "tricks", 0, "lead"], " "),
        (["players", 0], "Eve"),
    ],
    changes=[
        Change(game([]), ["rounds"], [], [{"tricks": [], "trophies": None, "penalties": {}}]),
        Change(game([]), ["rounds", 0], None, {"trophies": {"Miu": 1}, "tricks": None}),
        Change(game([]), ["rounds", 0], None, {"tricks": [], "trophies": None}),
        Change(game([]), ["rounds", 0, "hands"], {"Tom": ["2"], "Miu": ["3"]}, {"Tom": ["5"]}),
        Change(game([]), ["rounds", 0, "hands"], {}, {"Miu": ["2", "N6"]}),
        Change(game([]), ["rounds", 0, "hands", "Tom"], None, ["2", "N6"]),
        Change(game([]), ["rounds", 0, "penalties"], {}, {"Tom": 1}),
        Change(game([]), ["rounds", 0, "penalties", "Tom"], 0, 1),
        Change(game([]), ["rounds", 0, "trophies"], None, {"Tom": 1, "Miu": 0}),
        Change(game([]), ["rounds", 0, "trophies", "Tom"], 0, 3),
        Change(game([]), ["rounds", 0, "tricks", 0, "winner"], None, "Tom"),
        Change(game([]), ["rounds", 0, "tricks", 0, "lead"], "Miu", "Tom"),
        Change(game([]), ["target"], 10, 15),
        Change(game([]), ["mode"], "basic", "quick"),
        Change(
            game([{"tricks": [{"lead": "Carol", "cards": ["6", "N6"]}]}]),
            ["rounds", 0, "tricks", 0, "cards"],
            ["6"],
            ["6", "N6"],
        ),
        Change(
            game([{"tricks": [{"lead": "Carol", "cards": ["6", "N6"]}]}]),
            ["rounds", 0, "tricks", 0, "cards"],
            ["6", "N6"],
            ["6"],
        ),
        Change(
            game([{"tricks": [{"lead": "Carol", "cards": ["N5"]}]}]),
            ["rounds", 0, "tricks"],
            [],
            [{"lead": "Carol", "cards": ["N5"]}],
        ),
        Change(
            game([{"tricks": [{"lead": "Carol", "cards": []}]}]),
            ["rounds", 0, "tricks"],
            [{"lead": "Carol", "cards": ["N5", "6"]}],
            [],
        ),
        Change(game([]), ["rounds", 0, "tricks"], [{"lead": "Tom", "cards": []}] * 2, []),
        Change(
            game([]),
            ["rounds", 0, "tricks", 0],
            None,
            {"lead": "Tom", "cards": ["N4", "5"], "winner": "Miu"},
        ),
        Change(game([]), ["rounds", 0, "tricks", 0], None, {"lead": "Tom", "cards": []}),
        Change(game([]), ["rounds", 0, "tricks"], [], ["a trick that is no object"]),
    ],
    endings=[{"target": 10, "standings": [{"player": "Miu", "score": 9}]}],
)
