"""Lucky's Misadventures end states the rules rule out (issue 34), refused by ``score``
and the escape check with a sentence naming the rule; and the ones next to them that the
rules allow, accepted.

An escape needs cards in the escaper's play: a copy must be left for them once the other
decks, and the Junk trashed for the Machines entered, are counted. A Sister is a Wicked
card.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import GAMES
from companion.games.luckys import facts as f
from companion.games.problems import InvalidStateError

LUCKYS = "luckys-misadventures"


def refused(body: dict[str, Any], check: str = "score") -> list[dict[str, Any]]:
    """The problems of a refused body (fails when it is answered), with their readings."""
    with pytest.raises(InvalidStateError) as refusal:
        GAMES[LUCKYS].api_endpoints()[check](body)
    return [
        {**p.to_json(), "reading": p.reading.id if p.reading else None}
        for p in refusal.value.problems
    ]


def answered(body: dict[str, Any], check: str = "score") -> dict[str, Any]:
    return GAMES[LUCKYS].api_endpoints()[check](body)


def escaped(by: str, **decks: Any) -> dict[str, Any]:
    """Lewis escaped with ``by``; these decks entered."""
    players = ["Lewis", "Carol", "Romi"]
    return {
        "players": players,
        "escaped": {"player": "Lewis", "by": by},
        "decks": decks,
    }


def junk(kind: str, count: int, vp: int = 2) -> dict[str, Any]:
    return {"kind": kind, "vp": vp, "count": count}


# (escape, the other decks, what Lewis cannot have in play, why not)
SHORT: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "pumpkin-ted",
        {"Carol": {"machines": {"fate-clock": 3}}, "Romi": {"machines": ["fate-clock"]}},
        "a Fate Clock",
        "all 4 Fate Clock cards are in other decks (Carol 3, Romi 1)",
    ),
    (
        "pumpkin-ted",
        {"Carol": {"hirelings": {"clockmakers": 5}}, "Romi": {"hirelings": {"clockmakers": 3}}},
        "a Clockmakers Hireling",
        "all 8 Clockmakers cards are in other decks (Carol 5, Romi 3)",
    ),
    (
        "pumpkin-ted",
        {
            "Carol": {"machines": {"dark-energy-machine": 3}},
            "Romi": {"junk": [junk("luminous-aether", 1)]},
        },
        "a Fate Clock",
        "no Fate Clock can have been built: building one trashes a Luminous Aether card, and"
        " of the box's 7 the decks hold 1 and the Machines built took 6",
    ),
    (
        "time-machine",
        {
            "Carol": {"junk": [junk("reactor-pump", 7)]},
            "Romi": {"junk": [junk("reactor-pump", 5)]},
        },
        "a Reactor Pump",
        "all 12 Reactor Pump cards are in other decks (Carol 7, Romi 5)",
    ),
    (
        "time-machine",
        {"Carol": {"machines": {"plasma-cannon": 4}, "junk": [junk("reactor-pump", 4)]}},
        "a Reactor Pump",
        "all 12 Reactor Pump cards are gone: the other decks hold 4 and the Machines built took 8",
    ),
    (
        "time-machine",
        {"Carol": {"junk": [junk("flux-capacitor", 2)]}},
        "the Time Machine",
        "no Time Machine can have been built: building one trashes 2 Flux Capacitor cards,"
        " and of the box's 3 the decks hold 2",
    ),
]


@pytest.mark.parametrize(("by", "decks", "card", "why"), SHORT)
def test_an_escape_whose_cards_are_all_elsewhere_is_refused(
    by: str, decks: dict[str, Any], card: str, why: str
) -> None:
    problems = refused(escaped(by, **decks))
    assert [p["path"] for p in problems] == ["escaped"]
    escape = f.ESCAPE_NAMES[f.Escape(by)]
    assert problems[0]["message"] == (
        f"Lewis cannot escape with {escape}: it needs {card} in Lewis's play, but {why}."
    )
    assert problems[0]["reading"] is None  # the box's counts, not a reading


@pytest.mark.parametrize(
    ("by", "decks"),
    [
        # Lewis holds the last Fate Clock, Clockmakers and Reactor Pump himself.
        (
            "pumpkin-ted",
            {
                "Lewis": {"machines": ["fate-clock"], "hirelings": {"clockmakers": 1}},
                "Carol": {"machines": {"fate-clock": 3}, "hirelings": {"clockmakers": 7}},
            },
        ),
        ("time-machine", {"Lewis": {"junk": [junk("reactor-pump", 1)]}}),
        (
            "time-machine",
            {
                "Lewis": {"junk": [junk("reactor-pump", 1)], "machines": ["time-machine"]},
                "Carol": {"junk": [junk("reactor-pump", 11), junk("flux-capacitor", 1)]},
            },
        ),
        # One copy is still somewhere else than the other decks: in a bank, say.
        ("pumpkin-ted", {"Carol": {"machines": {"fate-clock": 3}}}),
        ("time-machine", {"Carol": {"junk": [junk("reactor-pump", 11)]}}),
        ("pumpkin-ted", {"Carol": {"machines": {"dark-energy-machine": 3}}}),
        ("time-machine", {"Carol": {"junk": [junk("flux-capacitor", 1)]}}),
    ],
)
def test_an_escape_with_a_copy_left_for_the_escaper_stands(by: str, decks: dict[str, Any]) -> None:
    result = answered(escaped(by, **decks))
    assert (result["winners"], result["decided_by"]) == (["Lewis"], by)


@pytest.mark.parametrize("sister", ["Greed", "Despair", "Vanity", "the  vanity"])
@pytest.mark.parametrize("faction", ["tinkerer", "oddling"])
def test_a_sister_of_another_faction_than_wicked_is_refused(sister: str, faction: str) -> None:
    maven = {"name": sister, "faction": faction, "vp": 3}
    state = {"players": ["Lewis", "Carol"], "decks": {"Carol": {"mavens": [maven]}}}
    problems = refused(state)
    assert [p["path"] for p in problems] == ["decks.Carol.mavens[0].faction"]
    assert "one of the Three Sisters" in problems[0]["message"]
    assert "Sister Pact symbol" in problems[0]["message"]
    assert f"not {f.FACTION_NAMES[f.Faction(faction)]}." in problems[0]["message"]
    maven["faction"] = "wicked"
    assert answered(state)["standings"][0]["player"] == "Carol"


def test_other_mavens_keep_any_faction() -> None:
    mavens = [
        {"name": "Pumpkin Ted", "faction": "oddling", "vp": 6},
        {"name": "Queen of Spades", "faction": "tinkerer", "vp": 4},
        {"name": "Greedy Gus", "faction": "oddling", "vp": 2},
    ]
    state = {"players": ["Lewis", "Carol"], "decks": {"Carol": {"mavens": mavens}}}
    assert answered(state)["winners"] == ["Carol"]


def test_a_sister_in_another_deck_is_refused_on_the_app_s_reading() -> None:
    vanity = {"name": "Vanity", "faction": "wicked", "vp": 3}
    problems = refused(escaped("three-sisters", Romi={"mavens": [vanity]}))
    assert [p["path"] for p in problems] == ["escaped"]
    assert "there is one Vanity card and Romi's deck holds it." in problems[0]["message"]
    assert "is the app's reading" in problems[0]["message"]
    assert problems[0]["reading"] == "luckys-misadventures/escapes/sisters"


# --- the escape check, given the table ------------------------------------------------


def check(in_play: list[str], player: str = "Lewis", **decks: Any) -> dict[str, Any]:
    table = {"players": ["Lewis", "Carol"], "decks": decks}
    return {"in_play": in_play, "pumpkin_ted_triggered": True, "player": player, "table": table}


def test_the_escape_check_refuses_a_card_the_player_cannot_have_in_play() -> None:
    body = check(
        ["pumpkin-ted", "clockmakers", "fate-clock"], Carol={"machines": {"fate-clock": 4}}
    )
    problems = refused(body, "escape")
    assert [p["path"] for p in problems] == ["in_play[2]"]
    assert problems[0]["message"] == (
        "Lewis cannot have a Fate Clock in play: all 4 Fate Clock cards are in other decks"
        " (Carol 4)."
    )
    # Carol may have one in play; without the table the check cannot know.
    assert answered({**body, "player": "carol"}, "escape")["escapes"] == ["pumpkin-ted"]
    del body["player"], body["table"]
    assert answered(body, "escape")["escapes"] == ["pumpkin-ted"]


def test_the_escape_check_says_the_single_card_reading_it_refuses_on() -> None:
    ted = {"name": "Pumpkin Ted", "faction": "oddling", "vp": 6}
    problems = refused(check(["pumpkin-ted"], Carol={"mavens": [ted]}), "escape")
    assert problems[0]["path"] == "in_play[0]"
    assert problems[0]["reading"] == "luckys-misadventures/tiebreak/pumpkin-ted"


def test_the_escape_check_refuses_a_table_or_player_it_cannot_read() -> None:
    lost = refused({**check([]), "player": "Zed"}, "escape")
    assert [p["path"] for p in lost] == ["player"]
    bad = refused(check([], Carol={"lucky": 3}), "escape")
    assert [p["path"] for p in bad] == ["table.decks.Carol.lucky"]
    alone = refused({"in_play": [], "player": "Lewis"}, "escape")
    assert [p["path"] for p in alone] == ["table"]
