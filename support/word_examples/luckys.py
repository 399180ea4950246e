"""Lucky's Misadventures' examples for the words checks (see :mod:`support.words`):
refused and impossible tables, scored tables (escapes, Fate rounds, the final turn
order), referee requests (challenges, Feed the Toad!, buying points, Machines, escapes),
refused form edits, history lines, and what the round companion says."""

from __future__ import annotations

from typing import Any

from companion.games.luckys import facts as lf
from companion.games.luckys import referee as lr
from support.words import Change, Examples


def maven(name: str, faction: str = "oddling", vp: int = 3) -> dict[str, Any]:
    """A Maven as the API takes it."""
    return {"name": name, "faction": faction, "vp": vp}


def table(**changes: Any) -> dict[str, Any]:
    """A table of Lewis and Carol with a little of everything in their decks."""
    return {
        "players": ["Lewis", "Carol"],
        "decks": {
            "Lewis": {
                "lucky": 1,
                "hirelings": {"winged-monkey": 1, "white-rabbit": 2},
                "mavens": [maven("The Collector", "wicked", 3), maven("Pumpkin Ted")],
                "junk": [
                    {"kind": "clockwork-gizmo", "count": 2},
                    {"kind": "reactor-pump", "vp": 2},
                ],
                "machines": {"tiny-tin": 1},
            },
            "Carol": {"lucky": 1, "mavens": [maven("Queen of Spades", "wicked", 4)]},
        },
        **changes,
    }


#: Fourteen rounds of Fate cards, each card once per half (rounds 1-7, then 8-14).
ROUNDS = [
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


def referee_words() -> list[str]:
    """What the round companion and the pure referee checks say to the pages."""
    said = []
    for number, cards in enumerate(ROUNDS, 1):
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


EXAMPLES = Examples(
    refused=[
        table(players=["Lewis"]),
        table(players=["A", "B", "C", "D", "E"]),
        table(
            decks={
                "Zed": {},
                "Lewis": {
                    "lucky": 2,
                    "hirelings": {"dragon": 1, "winged-monkey": -1, "clockmakers": 120},
                    "mavens": [
                        maven(""),
                        maven("X" * 41),
                        maven("Ann\u202e"),
                        maven("Greed", "oddling"),
                        maven("Sprocket", "pirate", 9),
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
        table(
            decks={
                "Lewis": {
                    "hirelings": {"winged-monkey": 5},
                    "junk": [{"kind": "flux-capacitor", "vp": 1, "count": 3}],
                    "machines": {"time-machine": 2, "dark-energy-machine": 4},
                    "mavens": [maven("Greed", "wicked"), maven("Pumpkin Ted")],
                },
                "Carol": {
                    "hirelings": {"winged-monkey": 5},
                    "junk": [{"kind": "luminous-aether", "vp": 1, "count": 1}],
                    "mavens": [maven("Greed", "wicked"), maven("the pumpkin ted")],
                },
            }
        ),
        table(
            decks={
                "Lewis": {"mavens": [maven("Vanity", "wicked")] * 2},
                "Carol": {"mavens": [maven(f"W{n}", "wicked") for n in range(20)]},
            }
        ),
        table(escaped={"player": "Zed", "by": "broom"}),
        table(
            escaped={"player": "Lewis", "by": "time-machine"},
            decks={
                "Carol": {
                    "machines": ["time-machine"],
                    "junk": [{"kind": "reactor-pump", "vp": 1, "count": 12}],
                }
            },
        ),
        table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Carol": {
                    "mavens": [maven("Pumpkin Ted")],
                    "hirelings": {"clockmakers": 8},
                    "machines": {"fate-clock": 4},
                }
            },
        ),
        table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Lewis": {"mavens": [maven("Pumpkin Ted")], "hirelings": {"clockmakers": 1}},
                "Carol": {"junk": [{"kind": "clockwork-gizmo", "count": 16}]},
            },
        ),
        table(
            escaped={"player": "Lewis", "by": "pumpkin-ted"},
            decks={
                "Lewis": {"mavens": [maven("Pumpkin Ted")], "hirelings": {"clockmakers": 1}},
                "Carol": {
                    "junk": [{"kind": "luminous-aether", "vp": 1, "count": 6}],
                    "machines": {"mech-dragon": 1},
                },
            },
        ),
        table(
            escaped={"player": "Lewis", "by": "three-sisters"},
            decks={"Carol": {"mavens": [maven("Despair", "wicked")]}},
        ),
        table(final_turn_order=["Lewis", "Zed"]),
        table(final_turn_order=["Lewis", "Lewis"]),
        table(players=["A", "B", "C"], decks={}, final_turn_order=["A", "C", "B"]),
        table(toad="Zed", rounds=[["cups-1"], ["joker", "cups-1", "cups-1"]]),
        table(rounds=[["cups-1", "cups-2", "cups-3"], ["cups-1", "cups-4", "cups-5"]]),
        table(rounds=[["cups-1"] * 4] * 15),
        table(
            decks={
                "Lewis": {
                    "mavens": [maven("M")] * 60,
                    "junk": [{"kind": "reactor-pump", "vp": 1}] * 49,
                    "machines": ["tiny-tin"] * 38,
                }
            }
        ),
    ],
    scored=[
        table(),
        table(final_turn_order=["Carol", "Lewis"]),
        table(escaped={"player": "Carol", "by": "three-sisters"}),
        table(
            players=["Lewis", "Carol", "Ann"],
            escaped={"player": "Lewis", "by": "time-machine"},
            decks={},
        ),
        table(rounds=ROUNDS[:3]),
        table(rounds=ROUNDS[:3], toad="Lewis"),
        table(rounds=ROUNDS, toad="Lewis"),
        table(rounds=ROUNDS, toad="Lewis", final_turn_order=["Carol", "Lewis"]),
        {
            "players": ["Lewis", "Carol", "Ann"],
            "decks": {name: {"lucky": 1} for name in ("Lewis", "Carol", "Ann")},
            "final_turn_order": ["Carol", "Ann", "Lewis"],
        },
        {
            "players": ["Lewis", "Carol"],
            "decks": {
                "Lewis": {"lucky": 1, "mavens": [maven("Pumpkin Ted", "oddling", 2)]},
                "Carol": {"lucky": 1, "mavens": [maven("Queen of Spades", "wicked", 2)]},
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
                "table": table(
                    decks={
                        "Carol": {
                            "hirelings": {"clockmakers": 8},
                            "mavens": [maven("Pumpkin Ted")],
                        }
                    }
                ),
            },
        ),
        ("escape", {"in_play": ["greed"], "player": "Zed", "table": table()}),
        ("build-machine", {"junk": ["reactor-pump", "x"], "built": {"rocket": 1, "tiny-tin": 9}}),
        (
            "escape",
            {
                "in_play": ["reactor-pump"],
                "player": "Lewis",
                "table": table(
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
        Change(table(), ["decks"], table()["decks"], {"Lewis": {}, "Carol": {"lucky": 0}}),
        Change(table(), ["decks"], {"Lewis": {}}, {"Lewis": {}}),
        Change(
            table(),
            ["decks"],
            {"Lewis": {"mavens": [maven("Greed", "goblin")]}},
            {"Lewis": {"mavens": [maven("Greed", "wicked")], "machines": ["tiny-tin"]}},
        ),
        Change(table(), ["rounds"], [["cups-4"]], [["cups-4", "wands-5"]]),
        Change(table(), ["rounds"], [["cups-4", "wands-5"]], [["cups-4"]]),
        Change(table(), ["rounds"], [["cups-4"]], [["cups-4"], []]),
        Change(table(), ["rounds"], [["cups-4"]], [["cups-4"], ["joker", "death"]]),
        Change(table(), ["rounds"], [["cups-4"], ["death"]], [["cups-4"]]),
        Change(table(), ["rounds"], [["cups-4", "cups-4"]], [["cups-4"]]),
        Change(table(), ["escaped"], None, {"player": "Carol", "by": "pumpkin-ted"}),
        Change(table(), ["escaped"], {"player": "Carol", "by": "pumpkin-ted"}, None),
        Change(table(), ["final_turn_order"], None, ["Carol", "Lewis"]),
        Change(table(), ["final_turn_order"], ["Carol", "Lewis"], None),
        Change(table(), ["toad"], "Lewis", "Carol"),
        Change(table(), ["decks", "Lewis"], {}, {"lucky": 1}),
        Change(table(), ["rounds", 2, 1], None, "death"),
        Change(table(), ["rounds", 2, 1], "death", None),
        Change(table(), ["decks", "Lewis", "junk", 5, "vp"], 1, 2),
        Change(table(), ["decks", "Lewis", "mavens", 7, "vp"], 1, 2),
        Change(table(), ["escaped", "player"], "Carol", "Lewis"),
    ],
    endings=[
        {"standings": [], "escape": {"player": "Carol", "by": "three-sisters"}},
        {"standings": [], "escape": {"player": "Carol"}},
        {"standings": []},
    ],
    words=referee_words,
)
