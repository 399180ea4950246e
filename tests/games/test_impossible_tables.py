"""Impossible tables (issue 26): tables the rules cannot produce are refused by the API
with a sentence naming the rule, and shown on the pages without blocking entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games import GAMES, odd_world
from companion.games.oddland.state import map_connection_problems
from companion.games.oddville.facts import CHARACTERS
from companion.games.problems import InvalidStateError
from companion.services.results import IMPOSSIBLE_TABLE, result_json


def refusal(slug: str, body: dict[str, Any], check: str = "score") -> list[dict[str, str]]:
    """The problems the API answers for this body (fails when it is scored)."""
    with pytest.raises(InvalidStateError) as refused:
        GAMES[slug].api_endpoints()[check](body)
    return [p.to_json() for p in refused.value.problems]


def _world(*displays: dict[str, int], face_down: str | None = None) -> dict[str, Any]:
    return {
        "players": [
            {"name": name, "display": display, "face_down": face_down}
            for name, display in zip(["Ann", "Ben", "Cy"], displays, strict=False)
        ]
    }


ALL_NINE = dict.fromkeys(odd_world.BIRDS, 1)


def test_odd_world_refuses_a_player_with_fewer_cards_than_were_dealt() -> None:
    state = _world({"hoopoe": 3}, {"hoopoe": 1, "shoebill": 1})
    problems = refusal("odd-world", state)
    assert [p["path"] for p in problems] == ["players[1].display"]
    assert "dealt 3" in problems[0]["message"]
    # The face-down card counts: 2 shown and 1 hidden is the set-up itself.
    assert GAMES["odd-world"].checked_score(
        _world({"hoopoe": 2}, {"shoebill": 2}, face_down="scarlet-ibis")
    )


def test_odd_world_refuses_two_displays_holding_every_bird_during_play() -> None:
    """With the face-down cards apart, the displays are what play revealed: two of them
    holding all nine is refused. Counted in, a face-down card may be a display's ninth
    bird (issue 34): refused only when no bird has a single card to be it."""
    problems = refusal("odd-world", _world(ALL_NINE, ALL_NINE, face_down="hoopoe"))
    assert [p["path"] for p in problems] == ["players[1].display"]
    assert "the game ends the moment one display holds all nine" in problems[0]["message"]
    doubled = dict.fromkeys(odd_world.BIRDS, 2)
    assert [p["path"] for p in refusal("odd-world", _world(doubled, doubled))] == [
        "players[1].display"
    ]
    assert GAMES["odd-world"].checked_score(_world(ALL_NINE, ALL_NINE)).finished


def test_odd_world_series_refuses_an_impossible_game() -> None:
    good = _world({"hoopoe": 3}, {"shoebill": 3})
    bad = _world({"hoopoe": 3}, {"shoebill": 2})
    problems = refusal("odd-world", {"games": [good, bad]}, "series")
    assert [p["path"] for p in problems] == ["games[1].players[1].display"]


def test_the_page_shows_an_impossible_table_but_not_a_table_being_entered() -> None:
    game = GAMES["odd-world"]
    being_entered = _world({"hoopoe": 3}, {"shoebill": 1})
    result = result_json(game, being_entered)
    assert result is not None
    assert not [w for w in result["warnings"] if w.startswith(IMPOSSIBLE_TABLE)]
    over = _world(ALL_NINE, {"shoebill": 1})
    result = result_json(game, over)
    assert result is not None
    assert [w for w in result["warnings"] if w.startswith(IMPOSSIBLE_TABLE)] == [
        IMPOSSIBLE_TABLE + game.table_problems(over)[0].message
    ]


def _city(players: list[str], characters: dict[str, list[str]]) -> dict[str, Any]:
    """A game under way where each character was taken by building a card with a guild
    symbol (laid in the Main Square's row)."""
    owners = [player for player in players for _ in characters.get(player, [])]
    city = [{"at": [0, 0], "card": "main-square", "owners": []}]
    city += [
        {"at": [0, col], "owner": owner, "guild": "mask", "points": {"kind": "row"}}
        for col, owner in enumerate(owners, start=1)
    ]
    return {"players": players, "ended_by": None, "city": city, "characters": characters}


@pytest.mark.parametrize(
    ("players", "characters", "most"),
    [
        (["A", "B"], {"A": ["landowner", "mistress", "builder"], "B": ["cheater", "seignior"]}, 4),
        (
            ["A", "B", "C"],
            {
                "A": ["landowner", "mistress", "builder"],
                "B": ["cheater", "seignior", "benefactor"],
                "C": ["bookkeeper", "lamplighter", "tax-collector"],
            },
            8,
        ),
    ],
)
def test_oddville_refuses_more_characters_than_the_player_count_leaves(
    players: list[str], characters: dict[str, list[str]], most: int
) -> None:
    problems = refusal("oddville", _city(players, characters))
    assert len(problems) == 1
    assert f"only {most} Character cards are in play" in problems[0]["message"]
    assert GAMES["oddville"].validate(_city(players, characters))  # refused at entry too
    fewer = {name: held[:1] for name, held in characters.items()}
    assert GAMES["oddville"].checked_score(_city(players, fewer))


def test_oddville_four_players_hold_every_character() -> None:
    keys = list(CHARACTERS)
    held = {"A": keys[:3], "B": keys[3:6], "C": keys[6:9], "D": keys[9:]}
    assert GAMES["oddville"].checked_score(_city(["A", "B", "C", "D"], held))


def test_owl_about_refuses_an_unfinished_round_before_the_last() -> None:
    one_trick = {"tricks": [{"lead": "A", "cards": ["6", "2", "8"]}]}
    body = {"players": ["A", "B", "C"], "mode": "basic", "rounds": [one_trick, one_trick]}
    problems = refusal("owl-about", body)
    assert [p["path"] for p in problems] == ["rounds[0].tricks"]
    assert "only the last round can still be under way" in problems[0]["message"]
    assert GAMES["owl-about"].checked_score({**body, "rounds": [one_trick]})


def test_oddland_refuses_more_species_than_the_box_has_cards() -> None:
    sides = dict.fromkeys(["begator", "flora", "owloose", "pangeroo", "whalephant"], "A")
    body = {"players": ["Ann", "Ben"], "map": [], "tokens": [], "sides": sides}
    assert GAMES["oddland"].checked_score({**body, "sides": {**sides, "grizzsleep": "B"}})
    problems = refusal("oddland", {**body, "sides": {**sides, "grizzsleep": "B", "x-y": None}})
    assert problems == [
        {
            "path": "sides",
            "message": "The box has 6 species cards, so at most 6 species are in play,"
            " but 7 were entered.",
        }
    ]


@pytest.mark.parametrize("rows", [["F"], ["FW", "S."], ["FFF", "FFF", "F.."], ["FF.", "FFW"]])
def test_oddland_refuses_a_map_two_by_two_cards_cannot_make(rows: list[str]) -> None:
    body = {"players": ["Ann", "Ben"], "map": rows, "tokens": [], "sides": {"begator": "A"}}
    problems = refusal("oddland", body)
    assert [p["path"] for p in problems] == ["map"]
    assert "every space lies in a 2x2 block" in problems[0]["message"]


@pytest.mark.parametrize(
    "rows",
    [
        ["FFWW", "FSSW"],
        ["FF", "FF", "WW", "WW"],  # the set-up pair seen from another side of the table
        ["FF..", "FFWW", "..WW"],  # shifted by one space: still next to each other
        ["FFFFF", "FFFFF"],
        ["FS", "WM"],  # the set-up under way: its first card alone
        [],  # nothing entered yet
    ],
)
def test_oddland_scores_maps_the_cards_can_make(rows: list[str]) -> None:
    body = {"players": ["Ann", "Ben"], "map": rows, "tokens": [], "sides": {"begator": "A"}}
    assert GAMES["oddland"].checked_score(body)


def _turn(at: list[int], token: dict[str, Any] | None = None) -> dict[str, Any]:
    turn: dict[str, Any] = {"card": {"at": at, "terrains": ["FS", "WM"]}}
    if token is not None:
        turn["token"] = token
    return turn


def test_oddland_refuses_a_play_along_turn_without_a_token_after_the_set_up() -> None:
    ann = {"player": "Ann", "species": "begator", "cells": [[0, 4]]}
    setup = [_turn([0, 0]), _turn([0, 2])]
    body = {"players": ["Ann", "Ben"], "sides": {"begator": "A"}}
    assert GAMES["oddland"].checked_score({**body, "cards": [*setup, _turn([0, 4], ann)]})
    problems = refusal("oddland", {**body, "cards": [*setup, _turn([0, 4])]})
    assert [p["path"] for p in problems] == ["cards[2].token"]
    assert "only the 2 cards laid at set-up carry none" in problems[0]["message"]
    first = {"player": "Ann", "species": "begator", "cells": [[0, 0]]}
    problems = refusal("oddland", {**body, "cards": [_turn([0, 0], first), _turn([0, 2])]})
    assert [p["path"] for p in problems] == ["cards[0].token"]


@pytest.mark.parametrize("at", [[0, 1], [1, 1], [-1, 0]])
def test_oddland_refuses_a_second_set_up_card_laid_on_the_first(at: list[int]) -> None:
    """The 2 set-up cards are dealt whole, next to each other: the second never covers
    the first (covering 1 or 2 of its spaces is a turn's right, not the deal's)."""
    body = {"players": ["Ann", "Ben"], "sides": {"begator": "A"}}
    problems = refusal("oddland", {**body, "cards": [_turn([0, 0]), _turn(at)]})
    assert [p["path"] for p in problems] == ["cards[1].card.at"]
    assert problems[0]["message"].startswith(
        "Card 2: The 2 set-up cards are dealt next to each other: this second one would lie"
        " on the first (whose top-left is at row 1, col 1)"
    )

    # Beside it, in line or shifted by one space (the app's reading, said), is the set-up.
    def read(cards: list[dict[str, Any]]) -> list[str]:
        return [r.id for r in GAMES["oddland"].checked_score({**body, "cards": cards}).readings]

    assert "oddland/setup/pair" not in read([_turn([0, 0]), _turn([2, 0])])
    assert "oddland/setup/pair" in read([_turn([0, 0]), _turn([-1, 2])])
    # A stored game stays readable: the page shows the problem rather than an empty map.
    assert not GAMES["oddland"].validate({**body, "cards": [_turn([0, 0]), _turn(at)]})


@pytest.mark.parametrize(
    ("at", "legal"), [([0, 1], False), ([2, 2], False), ([0, 2], True), ([1, -2], True)]
)
def test_oddland_placement_lays_the_second_set_up_card_beside_the_first(
    at: list[int], legal: bool
) -> None:
    body = {"map": ["FS", "WM"], "card": {"at": at, "terrains": ["FF", "WW"]}}
    reply = GAMES["oddland"].api_endpoints()["placement"](body)
    assert reply["legal"] is legal
    if not legal:
        assert "The 2 set-up cards are dealt next to each other" in reply["problems"][0]["message"]
        assert reply["problems"][0]["path"] == "card.at"
    shifted = at == [1, -2]
    assert ("readings" in reply) is shifted
    if shifted:
        assert [r["id"] for r in reply["readings"]] == ["oddland/setup/pair"]


def test_oddland_refuses_a_set_up_card_laid_with_a_token() -> None:
    """The 2 cards dealt face up start the map: tokens come with the turns after them."""
    ann = {"player": "Ann", "species": "begator", "cells": [[0, 2]]}
    ben = {"player": "Ben", "species": "flora", "cells": [[0, 4]]}
    body = {"players": ["Ann", "Ben"], "sides": {"begator": "A", "flora": "A"}}
    cards = [_turn([0, 0]), _turn([0, 2], ann), _turn([0, 4], ben)]
    problems = refusal("oddland", {**body, "cards": cards})
    assert [p["path"] for p in problems] == ["cards[1].token"]
    assert "Card 2 is laid at set-up" in problems[0]["message"]
    assert "carry no species token" in problems[0]["message"]
    legal = [_turn([0, 0]), _turn([0, 2]), _turn([0, 4], {**ann, "cells": [[0, 4]]})]
    assert GAMES["oddland"].checked_score({**body, "cards": legal})
    # The page shows it (a stored game stays readable) rather than refusing to load it.
    assert not GAMES["oddland"].validate({**body, "cards": cards})
    assert GAMES["oddland"].table_problems({**body, "cards": cards})


LUCKYS = "luckys-misadventures"


def _luckys(order: list[str] | None = None, **decks: Any) -> dict[str, Any]:
    players = list(decks)
    return {
        "players": players,
        "final_turn_order": order if order is not None else players,
        "decks": decks,
    }


@pytest.mark.parametrize(
    ("decks", "kind"),
    [
        (
            {
                "Lewis": {"machines": {"dark-energy-machine": 2}},
                "Carol": {"machines": {"dark-energy-machine": 2}},
            },
            "Luminous Aether",
        ),
        (
            {
                "Lewis": {"machines": ["time-machine"]},
                "Carol": {"junk": [{"kind": "flux-capacitor", "vp": 4, "count": 2}]},
            },
            "Flux Capacitor",
        ),
    ],
)
def test_luckys_refuses_machines_that_need_more_junk_than_the_box_holds(
    decks: dict[str, Any], kind: str
) -> None:
    problems = refusal(LUCKYS, _luckys(**decks))
    assert [p["path"] for p in problems] == ["decks"]
    assert f"{kind} cards exist: the Machines entered took" in problems[0]["message"]


def test_luckys_build_machine_says_no_once_the_junk_is_used_up() -> None:
    endpoint = GAMES[LUCKYS].api_endpoints()["build-machine"]
    aether = ["luminous-aether", "luminous-aether"]
    assert endpoint({"junk": aether, "built": {"dark-energy-machine": 2}})["can_build"] is True
    answer = endpoint({"junk": aether, "built": {"dark-energy-machine": 3}})
    assert (answer["can_build"], answer["left"]) == (False, 0)
    assert "6 were trashed" in answer["words"]
    problems = refusal(
        LUCKYS,
        {"junk": aether, "built": {"dark-energy-machine": 2, "mech-dragon": 2, "fate-clock": 4}},
        "build-machine",
    )
    assert [p["path"] for p in problems] == ["built"]


def test_luckys_refuses_a_final_turn_order_that_is_not_the_seating_rotated() -> None:
    decks = {"A": {}, "B": {}, "C": {}, "D": {}}
    assert GAMES[LUCKYS].checked_score(_luckys(["C", "D", "A", "B"], **decks))
    problems = refusal(LUCKYS, _luckys(["A", "C", "B", "D"], **decks))
    assert [p["path"] for p in problems] == ["final_turn_order"]
    assert "starting from A it is A, B, C, D" in problems[0]["message"]


def test_luckys_refuses_a_time_machine_escape_when_another_deck_holds_the_only_one() -> None:
    state = _luckys(
        Lewis={"junk": [{"kind": "reactor-pump", "vp": 2}]}, Carol={"machines": ["time-machine"]}
    )
    state["escaped"] = {"player": "Lewis", "by": "time-machine"}
    problems = refusal(LUCKYS, state)
    assert [p["path"] for p in problems] == ["escaped"]
    assert "Carol's deck holds it" in problems[0]["message"]
    state["escaped"] = {"player": "Carol", "by": "time-machine"}
    assert GAMES[LUCKYS].checked_score(state).winners == ["Carol"]
    # Decks not entered tell nothing: the escape stands.
    assert GAMES[LUCKYS].checked_score({**state, "decks": {}})


@pytest.mark.parametrize("name", ["Pumpkin Ted", "The Queen of Spades", "Greed"])
def test_luckys_refuses_a_single_maven_card_in_two_decks(name: str) -> None:
    held = {"mavens": [{"name": name, "faction": "wicked", "vp": 3}]}
    problems = refusal(LUCKYS, _luckys(Lewis=held, Carol=held))
    assert [p["path"] for p in problems] == ["decks"]
    assert "entered for Lewis and Carol" in problems[0]["message"]


def test_luckys_the_queen_of_spades_with_or_without_the() -> None:
    for name in ["The Queen of Spades", "queen of  spades", "the queen of spades"]:
        state = _luckys(
            Lewis={"lucky": 1},
            Carol={"lucky": 1, "mavens": [{"name": name, "faction": "wicked", "vp": 2}]},
        )
        state["decks"]["Lewis"]["hirelings"] = {"white-rabbit": 2}
        result = GAMES[LUCKYS].checked_score(state)
        assert (result.winners, result.decided_by) == (["Carol"], "Has the Queen of Spades")


# --- readings the rulebook does not make: the verdict says they are the app's ------------


def test_owl_about_says_fewest_vp_wins_is_the_apps_reading() -> None:
    body = {"players": ["A", "B", "C"], "mode": "basic", "rounds": []}
    readings = GAMES["owl-about"].checked_score(body).to_json()["readings"]
    assert len(readings) == 1
    assert "Fewest VP wins is the app's reading" in readings[0]["text"]


def test_oddland_labels_its_shared_victory_whalephant_and_solo_readings() -> None:
    shared = {"players": ["Ann", "Ben"], "map": ["FF", "FF"], "tokens": [], "sides": {}}
    result = GAMES["oddland"].checked_score(shared).to_json()
    assert result["decided_by"] == "shared"
    assert any("A shared victory is the app's reading" in r["text"] for r in result["readings"])
    whale = {"player": "Ann", "species": "whalephant", "cells": [[0, 0], [0, 1]]}
    solo = {
        "players": ["Ann"],
        "map": ["FFFFF", "FFFFF"],
        "tokens": [whale],
        "sides": {"whalephant": "A"},
    }
    readings = [r["text"] for r in GAMES["oddland"].checked_score(solo).to_json()["readings"]]
    assert any("Whalephant" in r and "app's reading" in r for r in readings)
    assert any("solo modifiers are the app's reading" in r for r in readings)


@pytest.mark.parametrize("count", [1, 6, 50])
def test_odd_world_says_its_player_count_is_the_apps_reading(count: int) -> None:
    players = [{"name": f"P{n}", "display": {"hoopoe": 3}} for n in range(count)]
    for check, body in [
        ("score", {"players": players}),
        ("series", {"games": [{"players": players}]}),
    ]:
        problems = refusal("odd-world", body, check)
        assert problems[0]["path"].endswith("players")
        assert f"not {count}." in problems[0]["message"]
        assert "2 to 5 is the app's reading" in problems[0]["message"]
    assert GAMES["odd-world"].player_count_reading in problems[0]["message"]


def test_the_standings_show_the_readings() -> None:
    source = (Path(__file__).resolve().parents[2] / "templates" / "_standings.html").read_text()
    assert "result.readings" in source


# --- issue 26, the rest: tables the rulebooks rule out, found by reading them ----------


def _building(at: list[int], owner: str | None, edges: str | None = None) -> dict[str, Any]:
    card: dict[str, Any] = {"at": at, "owner": owner, "points": {"kind": "row"}}
    if edges is not None:
        card["edges"] = edges
    return card


def test_oddville_refuses_neighbours_whose_edges_do_not_meet() -> None:
    square = {"at": [0, 0], "card": "main-square", "owners": []}
    meeting = [square, _building([1, 0], "A", "SSHH"), _building([1, 1], "B", "HHHH")]
    body = {"players": ["A", "B"], "ended_by": None, "city": meeting}
    problems = refusal("oddville", body)
    assert [p["path"] for p in problems] == ["city[2].edges"]
    assert problems[0]["message"] == (
        "The card on row 2, col 2 shows houses on its left edge, but the card on row 2,"
        " col 1 shows a street there: houses meet houses and streets meet streets."
    )
    # Against the Main Square the sentence says its streets are the app's reading.
    under = {**body, "city": [square, _building([1, 0], "A", "HHHH")]}
    [problem] = refusal("oddville", under)
    assert "The Main Square's streets on its left, right and lower sides" in problem["message"]
    # Edges not entered are not checked; edges that meet are scored.
    assert GAMES["oddville"].checked_score({**body, "city": [square, _building([1, 0], "A")]})
    fine = [square, _building([1, 0], "A", "SSHH"), _building([1, 1], "B", "HHHS")]
    assert GAMES["oddville"].checked_score({**body, "city": fine})


def test_oddville_refuses_more_buildings_or_workers_than_the_end_allows() -> None:
    square = {"at": [0, 0], "card": "main-square", "owners": ["A"]}
    six = [_building([1, col], "A") for col in range(6)]
    six[0]["guild"] = "lily"  # where A took the Traveller
    body = {
        "players": ["A", "B"],
        "ended_by": "A",
        "city": [square, *six],
        "characters": {"A": ["traveller"]},
    }
    # 6 buildings and the Traveller's worker on the Main Square: 7, legal for the player
    # who ended the game (the app's reading, said in the answer).
    result = GAMES["oddville"].checked_score(body).to_json()
    assert [r["id"] for r in result["readings"]] == ["oddville/app/too-many-workers"]
    problems = refusal("oddville", {**body, "city": [*body["city"], _building([2, 0], "A")]})
    assert [p["path"] for p in problems] == ["city"]
    assert "A owns 7 buildings" in problems[0]["message"]
    assert "at most 6" in problems[0]["message"]


@pytest.mark.parametrize("check", ["score", "map"])
def test_oddland_refuses_a_map_in_pieces(check: str) -> None:
    body: dict[str, Any] = {"map": ["FF.FF", "FF.FF"], "tokens": []}
    if check == "score":
        body.update(players=["Ann", "Ben"], sides={"begator": "A"})
    problems = refusal("oddland", body, check)
    assert [p["path"] for p in problems] == ["map"]
    assert "this map is in 2 pieces (one of them at row 1, col 4)" in problems[0]["message"]
    assert GAMES["oddland"].api_endpoints()[check]({**body, "map": ["FFFFF", "FFFFF"]})


@pytest.mark.parametrize("check", ["score", "map", "placement"])
def test_oddland_refuses_a_map_too_small_for_its_tokens(check: str) -> None:
    """Every token is a turn after the set-up pair's 8 spaces, and every turn's card adds
    at least 2: 2 tokens need 12 spaces (the bound was 2 x 2 + 6 = 10)."""
    ann = [{"player": "Ann", "species": "flora", "cells": [[0, n]]} for n in range(2)]
    body = {"map": ["FFFFF", "FFFFF"], "tokens": ann, **_EXTRA[check]}
    problems = refusal("oddland", body, check)
    assert [p["path"] for p in problems] == ["map"]
    assert "so the map has at least 12 spaces, not 10." in problems[0]["message"]
    assert "its 2 cards make 8 spaces" in problems[0]["message"]
    assert GAMES["oddland"].api_endpoints()[check]({**body, "tokens": ann[:1]})


#: What each Oddland endpoint needs besides a map and tokens.
_EXTRA: dict[str, dict[str, Any]] = {
    "score": {"players": ["Ann"], "sides": {"flora": "A"}},
    "map": {},
    # Below the map, against its left card: a legal turn.
    "placement": {"card": {"at": [2, 0], "terrains": ["FS", "WM"]}},
}


@pytest.mark.parametrize("check", ["score", "map", "placement"])
@pytest.mark.parametrize(
    "rows",
    [
        ["FFF", "FFF", "FFF"],  # 9 spaces, no 2 whole cards side by side
        ["FFF", "FFF"],  # 6 spaces: two cards overlapping
        ["FF..", "FF..", "..FF", "..FF"],  # two cards meeting at a corner (and in pieces)
    ],
)
def test_oddland_refuses_a_map_without_the_set_up_pair(check: str, rows: list[str]) -> None:
    """The 2 set-up cards are dealt whole, next to each other, and covered spaces stay
    spaces: every map keeps a full 2x4 block (or 4x2; shifted by one, as read)."""
    problems = refusal("oddland", {"map": rows, "tokens": [], **_EXTRA[check]}, check)
    pair = [p for p in problems if "set-up cards are dealt face up" in p["message"]]
    if map_connection_problems(rows):
        assert not pair  # in pieces already says what is wrong
        return
    assert problems == pair
    assert [p["path"] for p in pair] == ["map"]
    assert "every map holds 2 whole cards side by side" in pair[0]["message"]


def test_oddland_shows_a_finished_map_without_the_pair_and_not_one_being_painted() -> None:
    """A map being painted passes through such maps: the pages say it once the game is
    over, the API refuses it at once."""
    species = ["flora", "flora", "begator", "owloose", "pangeroo", "pigehorse"]
    tokens = [
        {"player": "Ann", "species": key, "cells": [[n // 3, n % 3]]}
        for n, key in enumerate(species)
    ]
    tokens.append({"player": "Ann", "species": "whalephant", "cells": [[2, 0], [2, 1]]})
    body = {"players": ["Ann"], "map": ["FFF", "FFF", "FFF"], "tokens": tokens, "sides": {}}
    assert GAMES["oddland"].validate(body) == []
    pending = [p.message for p in GAMES["oddland"].table_problems(body) if p.pending]
    assert any("every map holds 2 whole cards" in m for m in pending)
    unfinished = result_json(GAMES["oddland"], {**body, "tokens": tokens[:-1]})
    assert unfinished is not None
    assert not any(w.startswith(IMPOSSIBLE_TABLE) for w in unfinished["warnings"])
    finished = result_json(GAMES["oddland"], body)
    assert finished is not None
    assert finished["finished"]
    assert any("every map holds 2 whole cards" in w for w in finished["warnings"])


def test_oddland_refuses_tokens_placed_out_of_turn() -> None:
    """Turns go clockwise from whoever went first (the table chooses who)."""

    def token(player: str, col: int) -> dict[str, Any]:
        return {"player": player, "species": "flora", "cells": [[0, col]]}

    setup = [_turn([0, 0]), _turn([0, 2])]
    body = {"players": ["Ann", "Ben", "Cy"], "sides": {"flora": "A"}}
    clockwise = [_turn([0, 4], token("Ben", 4)), _turn([0, 6], token("Cy", 6))]
    clockwise.append(_turn([0, 8], token("Ann", 8)))
    assert GAMES["oddland"].checked_score({**body, "cards": [*setup, *clockwise]})
    again = [_turn([0, 4], token("Ben", 4)), _turn([0, 6], token("Ben", 6))]
    problems = refusal("oddland", {**body, "cards": [*setup, *again]})
    assert problems == [
        {
            "path": "cards[3].token.player",
            "message": "Card 4: it is Cy's turn (players take turns clockwise from Ben, who"
            " went first), so the token is Cy's, not Ben's.",
        }
    ]
