"""OddVille engine: the rulebook's example, every VP type, characters, Resources Board
workers, the clockwise tiebreak, validation, and the construction referee."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.grid import neighbours
from companion.games.oddville import (
    CHARACTERS,
    GAME,
    TIEBREAK,
    Kind,
    build_endpoint,
    parse,
    problems_in,
)
from companion.games.problems import InvalidStateError
from support.oddville import (
    RULEBOOK,
    RULEBOOK_CITY,
    RULEBOOK_PLAYERS,
    SQUARE,
    card,
    cities,
    sq,
    table,
)


def scores(state: dict[str, Any]) -> dict[str, int]:
    return {s.player: s.score for s in GAME.score(state).standings}


def card_points(state: dict[str, Any]) -> dict[tuple[int, int], int]:
    extra = GAME.score(state).extra["cards"]
    return {tuple(c["at"]): c["points"] for c in extra}


# --- the rulebook's scoring example ------------------------------------------------------


def test_the_rulebook_example_scores_as_printed() -> None:
    assert scores(RULEBOOK) == {"Blue": 8, "Purple": 10, "Red": 13, "Yellow": 7}


def test_the_rulebook_example_card_by_card() -> None:
    points = card_points(RULEBOOK)
    assert points[(0, -1)] == 4  # A: Diamond 4
    assert points[(0, 0)] == 4  # C: the Main Square, 4 to each owner
    assert points[(1, -1)] == 5  # B: 2 + 3 Masks
    assert points[(0, 1)] == 5  # D: 3 + 2 diamond cards
    assert points[(1, -2)] == 6  # E: 3 x 2 adjacent cards
    assert points[(1, 0)] == 3  # F: shields of B (1) and G (2)
    assert points[(1, 1)] == 3  # G: 1 + 2 cards in its column, itself included
    assert points[(0, -2)] == 4  # H: Diamond 4


def test_the_rulebook_example_explains_each_line() -> None:
    result = GAME.score(RULEBOOK)
    red = result.standing("Red")
    assert [line.label for line in red.breakdown] == [
        "Main Square at row 1, col 3: Main Square = 4 to each owner",
        "3 per adjacent card at row 2, col 1: 3 × 2 adjacent = 6",  # noqa: RUF001
        "Adjacent shields at row 2, col 3: shields 1 + 2 = 3",
    ]
    assert [line.rule for line in red.breakdown] == [
        "oddville/main-square",
        "oddville/vp/adjacent-x3",
        "oddville/vp/shields",
    ]
    purple = result.standing("Purple")
    assert [line.label for line in purple.breakdown] == [
        "Diamonds in the city at row 1, col 4: 3 + 2 diamonds = 5",
        "Guild at row 2, col 2: 2 + 3 Mask cards = 5",
    ]
    assert result.winners == ["Red"]
    assert result.decided_by == "score"
    assert result.finished is True


# --- every VP type -------------------------------------------------------------------------


def test_diamond_scores_its_value() -> None:
    state = table([card((1, 0), "diamond", "Ann", value=5), card((0, 1), "diamond", value=4)])
    assert card_points(state)[(1, 0)] == 5
    assert card_points(state)[(0, 1)] == 4


def test_diamonds_counts_every_diamond_card_in_the_city() -> None:
    city = [card((0, 1), "diamonds", "Ann")]
    assert card_points(table(city))[(0, 1)] == 3
    city += [card((1, 0), "diamond", value=4), card((1, 1), "diamond", value=5)]
    assert card_points(table(city))[(0, 1)] == 5


def test_adjacent_counts_the_main_square_as_a_card() -> None:
    # Only the Main Square touches it: 1 + 1.
    assert card_points(table([card((1, 0), "adjacent", "Ann")]))[(1, 0)] == 2
    city = [
        card((0, 1), "diamond", value=4),
        card((1, 1), "adjacent", "Ann"),
        card((1, 0), "diamond", value=4),
        card((2, 1), "diamond", value=4),
        card((1, 2), "diamond", value=4),
        card((2, 2), "diamond", value=4),  # diagonal: does not count
    ]
    assert card_points(table(city))[(1, 1)] == 5


def test_column_counts_itself_and_the_main_square() -> None:
    city = [card((1, 0), "column", "Ann"), card((2, 0), "diamond", value=4)]
    # Main Square, itself and the card below: 1 + 3.
    assert card_points(table(city))[(1, 0)] == 4
    alone = [card((0, 1), "column", "Ann")]
    assert card_points(table(alone))[(0, 1)] == 2  # 1 + itself


def test_row_counts_itself_and_the_main_square() -> None:
    city = [card((0, 1), "row", "Ann"), card((0, -1), "diamond", value=4)]
    assert card_points(table(city))[(0, 1)] == 5  # 2 + (Main Square, itself, the other)
    low = [card((1, 0), "row", "Ann")]
    assert card_points(table(low))[(1, 0)] == 3  # 2 + itself only


def test_adjacent_x3_counts_the_main_square() -> None:
    assert card_points(table([card((0, 1), "adjacent-x3", "Ann")]))[(0, 1)] == 3
    city = [card((0, 1), "adjacent-x3", "Ann"), card((1, 1), "diamond", value=4)]
    assert card_points(table(city))[(0, 1)] == 6


def test_shields_add_up_the_adjacent_shields_only() -> None:
    city = [
        card((1, 0), "shields", "Ann", shield=5),  # its own shield does not count
        card((1, 1), "diamond", value=4, shield=2),
        card((2, 0), "diamond", value=4, shield=3),
        card((2, 1), "diamond", value=4, shield=4),  # diagonal
    ]
    assert card_points(table(city))[(1, 0)] == 5
    assert card_points(table([card((1, 0), "shields", "Ann")]))[(1, 0)] == 0


def test_guild_counts_its_guild_itself_included() -> None:
    city = [
        card((0, 1), "guild", "Ann", value=1, guild="lily", counts="lily"),
        card((1, 1), "diamond", value=4, guild="lily"),
        card((1, 0), "diamond", value=4, guild="bells"),
    ]
    assert card_points(table(city))[(0, 1)] == 3  # 1 + 2 Lily cards
    # The guild may be given on the card alone.
    city[0]["points"].pop("guild")
    assert card_points(table(city))[(0, 1)] == 3


def test_main_square_gives_4_to_each_owner() -> None:
    state = table([sq("Ann", "Ben")])
    assert scores(state) == {"Ann": 4, "Ben": 4}
    assert scores(table([sq()])) == {"Ann": 0, "Ben": 0}


def test_unowned_cards_score_for_nobody_but_count_as_cards() -> None:
    city = [card((1, 0), "diamond", value=5), card((0, 1), "adjacent", "Ann")]
    assert scores(table(city)) == {"Ann": 2, "Ben": 0}


# --- characters and the Resources Board ----------------------------------------------------

EXPECTED_POINTS = {
    "hr-manager": 5,
    "ghost-of-lovely-spinster": 4,
    "landowner": 4,
    "tax-collector": 2,
    "seignior": 3,
    "benefactor": 3,
    "cheater": 3,
    "lamplighter": 2,
    "mistress": 5,
    "builder": 4,
    "bookkeeper": 2,
    "traveller": 7,
}


@pytest.mark.parametrize(("key", "points"), EXPECTED_POINTS.items())
def test_every_character_scores_its_points(key: str, points: int) -> None:
    state = table([sq()], characters={"Ben": [key]})
    assert scores(state) == {"Ann": 0, "Ben": points}
    line = GAME.score(state).standing("Ben").breakdown[0]
    assert line.label == CHARACTERS[key].name
    assert line.rule == f"oddville/character/{key}"


def test_there_are_twelve_characters() -> None:
    assert set(CHARACTERS) == set(EXPECTED_POINTS)


def test_the_traveller_is_worth_nothing_with_a_worker_on_the_main_square() -> None:
    state = table([sq("Ben")], characters={"Ben": ["traveller"], "Ann": ["mistress"]})
    assert scores(state) == {"Ann": 5, "Ben": 4}
    line = GAME.score(state).standing("Ben").breakdown[1]
    assert (line.label, line.points) == ("Traveller (a worker on the Main Square): 0", 0)


def test_resources_board_workers_score_1_each() -> None:
    state = table([sq()], resource_workers={"Ann": 3, "Ben": 0})
    assert scores(state) == {"Ann": 3, "Ben": 0}
    assert GAME.score(state).standing("Ann").breakdown[0].label == "Resources Board: 3 workers"


# --- the clockwise tiebreak ------------------------------------------------------------------


def tied(players: list[str], ender: str | None) -> dict[str, Any]:
    """Every player on 4 points (the Main Square), ``ender`` ended the game."""
    return table([sq(*players)], players, ended_by=ender)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_clockwise_tiebreak_from_every_seat(count: int) -> None:
    players = RULEBOOK_PLAYERS[:count]
    for seat, ender in enumerate(players):
        result = GAME.score(tied(players, ender))
        clockwise = players[seat:] + players[:seat]
        assert [s.player for s in result.standings] == clockwise
        assert [s.rank for s in result.standings] == list(range(1, count + 1))
        assert result.winners == [ender]
        assert result.decided_by == TIEBREAK.label
        values = [s.tiebreak[0].value for s in result.standings]
        assert values == list(range(count))


@pytest.mark.parametrize("count", [3, 4])
def test_a_tie_without_the_ender_goes_to_the_first_clockwise(count: int) -> None:
    players = RULEBOOK_PLAYERS[:count]
    for seat, ender in enumerate(players):
        others = [p for p in players if p != ender]
        state = table([sq(*others)], players, ended_by=ender)
        result = GAME.score(state)
        expected = players[(seat + 1) % count]
        assert result.winners == [expected]
        words = f"{ender} ended the game; {expected} is next clockwise."
        assert result.extra["tiebreak_words"] == words


def test_the_tiebreak_in_words() -> None:
    assert [TIEBREAK.say(v) for v in (0, 1, 3)] == [
        "ended the game",
        "next clockwise",
        "3 seats clockwise",
    ]
    assert TIEBREAK.rule == "oddville/tiebreak"
    assert TIEBREAK.key(0) < TIEBREAK.key(1)  # lower is better


def test_nobody_ended_the_game_yet_ties_share() -> None:
    result = GAME.score(tied(["Ann", "Ben"], None))
    assert result.winners == ["Ann", "Ben"]
    assert result.finished is False
    assert result.decided_by == "shared"
    assert any("not entered yet" in w for w in result.warnings)


def test_names_match_regardless_of_case() -> None:
    state = table([sq("ann")], ended_by="BEN", characters={"ben": ["cheater"]})
    assert scores(state) == {"Ann": 4, "Ben": 3}


# --- impossible cities -----------------------------------------------------------------------


def messages(state: dict[str, Any]) -> dict[str, str]:
    return {p.path: p.message for p in problems_in(state)}


def test_every_problem_is_listed_at_once() -> None:
    state = {
        "players": ["Ann", "Ben"],
        "ended_by": "Cy",
        "city": [
            sq(),
            card((-1, 0), "diamond", "Ann", value=4),  # above the Main Square's row
            card((3, 3), "diamond", "Ann", value=4),  # not connected
            card((1, 0), "diamond", "Ann", value=7),  # a Diamond worth 7
            card((1, 0), "diamond", "Ann", value=4),  # a second card on one place
            card((0, 1), "guild", "Ann", value=2),  # a guild card without a guild
            card((0, -1), "row", "Cy"),  # a worker of an unknown player
        ],
        "characters": {"Ann": ["cheater"], "Ben": ["cheater"]},
    }
    found = messages(state)
    assert found["ended_by"] == '"Cy" is not one of the players.'
    assert "above the Main Square's row" in found["city[1].at"]
    assert "does not connect to the Main Square" in found["city[2].at"]
    assert found["city[3].points.value"] == "A Diamond card is worth 5 or 4, not 7."
    assert found["city[4].at"] == "Two cards lie on row 2, col 2."
    assert found["city[5].points.guild"].startswith("A guild card needs its guild")
    assert found["city[6].owner"] == '"Cy" is not one of the players.'
    assert found["characters.Ben[0]"] == (
        "Only one Cheater exists, but it is entered for Ann and Ben."
    )
    with pytest.raises(InvalidStateError):
        GAME.score(state)


@pytest.mark.parametrize("count", [1, 5])
def test_one_or_five_players_are_refused(count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    assert messages(table([sq()], names))["players"] == (
        f"This game is for 2 to 4 players, not {count}."
    )


def test_more_problems() -> None:
    found = messages(
        table(
            [
                sq("Ann", "ann"),
                sq(at=(0, 5)),
                card((1, 0), "guild", "Ann", value=2, guild="mask", counts="lily"),
                card((2, 0), "colour", "Ann"),
                card((3, 0), "row", "Ann", value=2, shield=12, edges="XX", bonus="gold"),
                {"at": [4, 0], "owner": "Ann"},
                {"at": [4], "card": "tower"},
            ],
            characters={"Ann": ["wizard", "traveller", "traveller"], "Cy": []},
            resource_workers={"Ann": 10, "Cy": 1},
        )
    )
    assert found["city[0].owners[1]"] == "Ann can have only one worker on the Main Square."
    assert found["city[1]"] == "There is only one Main Square."
    assert "is one itself, but it shows the mask guild" in found["city[2].points.guild"]
    assert '"colour" is not a victory-point type' in found["city[3].points.kind"]
    assert "no value to choose" in found["city[4].points.value"]
    assert found["city[4].shield"] == "A card's shield shows 0 to 9 points."
    assert "H for houses" in found["city[4].edges"]
    assert '"gold" is not a bonus' in found["city[4].bonus"]
    assert found["city[5].points"] == "Enter the card's victory points."
    assert found["city[6].at"] == "A position is a [row, col] pair of whole numbers."
    assert "not a card the app knows" in found["city[6].card"]
    assert found["characters.Ann[0]"] == '"wizard" is not an OddVille character.'
    assert found["characters.Ann[2]"] == (
        "Only one Traveller exists, but it is entered for Ann twice."
    )
    assert found["characters.Cy"] == '"Cy" is not one of the players.'
    assert found["resource_workers.Ann"].startswith("Enter 0 to 9 workers")


def test_a_player_has_nine_workers() -> None:
    city = [sq("Ann")] + [card((1, c), "diamond", "Ann", value=4) for c in range(-3, 4)]
    city += [card((2, 0), "diamond", "Ann", value=4)]
    found = messages(table(city, resource_workers={"Ann": 1}))
    assert found["city"] == (
        "Ann has 9 workers, but 10 are entered (9 in the city, 1 on the Resources Board)."
    )


def test_the_main_square_row_is_row_0() -> None:
    found = messages(table([sq(at=(2, 0))]))
    assert found["city[0].at"].startswith("The Main Square's row is row 0")


def test_oversized_cities_are_refused_before_the_cards() -> None:
    state = table([card((1, 0), "diamond", value=4)] * 101)
    assert messages(state) == {"city": "A city of 101 cards is more than the app takes (100)."}


def test_malformed_shapes_are_problems_not_crashes() -> None:
    for bad in (
        [],
        {"players": "Ann"},
        {"players": ["Ann", "Ben"], "city": [{"at": ["0", 0]}]},
        {"players": ["Ann", "Ben"], "city": [{"at": [1, 0], "points": {"kind": 3}}]},
        {"players": ["Ann", "Ben"], "resource_workers": {"Ann": "2"}},
    ):
        assert problems_in(bad)


# --- properties ---------------------------------------------------------------------------


def standings(state: dict[str, Any]) -> list[Any]:
    body = GAME.score(state).to_json()
    return [body["standings"], body["winners"], body["decided_by"], body["warnings"]]


@settings(max_examples=40, deadline=None)
@given(cities(), st.integers(-5, 5))
def test_moving_the_whole_city_sideways_changes_nothing(state: dict[str, Any], by: int) -> None:
    moved = copy.deepcopy(state)
    for entry in moved["city"]:
        entry["at"][1] += by
    assert standings(moved) == standings(state)
    words = [c["words"] for c in GAME.score(state).extra["cards"]]
    assert [c["words"] for c in GAME.score(moved).extra["cards"]] == words


@settings(max_examples=40, deadline=None)
@given(cities())
def test_totals_are_the_owned_cards_characters_and_board(state: dict[str, Any]) -> None:
    result = GAME.score(state)
    per_card = result.extra["cards"]
    for standing in result.standings:
        name = standing.player
        owned = sum(c["points"] for c in per_card if name in c["owners"])
        characters = sum(
            0
            if key == "traveller" and name in state["city"][0]["owners"]
            else CHARACTERS[key].points
            for key in state["characters"][name]
        )
        assert standing.score == owned + characters + state["resource_workers"][name]


@settings(max_examples=25, deadline=None)
@given(cities())
def test_the_listed_order_of_cards_changes_nothing(state: dict[str, Any]) -> None:
    reordered = copy.deepcopy(state)
    reordered["city"].reverse()
    assert standings(reordered)[:3] == standings(state)[:3]


# --- the construction referee ------------------------------------------------------------


def build(city: list[dict[str, Any]], new: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return build_endpoint({"players": ["Ann", "Ben"], "city": city, "card": new, **extra})


def rules_broken(reply: dict[str, Any]) -> list[str]:
    return [p["message"] for p in reply["problems"]]


NEW = {"owner": "Ann", "points": {"kind": "diamond", "value": 4}}


def test_a_card_below_the_main_square_with_a_street_is_legal() -> None:
    reply = build([sq()], {"at": [1, 0], "edges": "SHHH", **NEW})
    assert reply["legal"] is True
    assert reply["problems"] == []
    assert reply["city"][-1]["at"] == [1, 0]
    assert len(reply["city"]) == 2


def test_the_main_square_has_no_bonus_and_streets_left_right_and_below() -> None:
    for at, edges in (([0, 1], "HHHS"), ([0, -1], "HSHH"), ([1, 0], "SHHH")):
        reply = build([sq()], {"at": at, "edges": edges, "bonus": "coin", **NEW})
        assert reply["legal"], at
        assert [b["from"] for b in reply["bonuses"]] == [at]
    reply = build([sq()], {"at": [1, 0], "edges": "HHHH", **NEW})
    assert rules_broken(reply) == [
        "Its top edge shows houses, but the card on row 1, col 1 shows a street there: houses"
        " meet houses and streets meet streets. The Main Square's streets on its left, right"
        " and lower sides are the app's reading of the card's picture; the rulebook's text"
        " does not list them."
    ]


def test_a_card_touching_only_a_corner_is_refused() -> None:
    reply = build([sq()], {"at": [1, 1], "edges": "HHHH", **NEW})
    assert reply["legal"] is False
    assert reply["city"] is None
    assert rules_broken(reply) == [
        "Row 2, col 2 touches no card of the city by an edge (a corner is not enough)."
    ]


def test_above_the_main_squares_row_is_refused() -> None:
    city = [sq(), card((0, 1), "row", "Ben", edges="HHHS")]
    reply = build(city, {"at": [-1, 1], "edges": "HHHH", **NEW})
    assert "is above the Main Square's row" in rules_broken(reply)[0]


def test_an_occupied_place_is_refused() -> None:
    reply = build([sq()], {"at": [0, 0], "edges": "HSSS", **NEW})
    assert "already holds a card" in rules_broken(reply)[0]


def test_a_turned_card_is_refused() -> None:
    reply = build([sq()], {"at": [1, 0], "edges": "SHHH", **NEW}, rotated=True)
    assert rules_broken(reply) == [
        "Building cards are never turned: lay it the way it is printed."
    ]


def test_every_shared_edge_must_match() -> None:
    city = [
        sq(),
        card((0, 1), "row", "Ben", edges="HHSS"),  # bottom: street
        card((1, 0), "row", "Ben", edges="SSHH"),  # right: street
    ]
    assert build(city, {"at": [1, 1], "edges": "SHHS", **NEW})["legal"]
    reply = build(city, {"at": [1, 1], "edges": "HHHH", **NEW})
    assert len(reply["problems"]) == 2
    reply = build(city, {"at": [1, 1], "edges": "SHHH", **NEW})
    assert rules_broken(reply) == [
        "Its left edge shows houses, but the card on row 2, col 1 shows a street there: houses"
        " meet houses and streets meet streets."
    ]


def test_unknown_edges_are_not_checked_but_said() -> None:
    city = [sq(), card((0, 1), "row", "Ben")]
    reply = build(city, {"at": [1, 1], "edges": "HHHH", **NEW})
    assert reply["legal"]
    assert "are not entered" in reply["warnings"][0]


def test_the_builder_needs_a_worker_left() -> None:
    reply = build([sq()], {"at": [1, 0], "edges": "SHHH", "points": {"kind": "row"}})
    assert rules_broken(reply) == ["Name who builds it: their worker goes on the card."]
    reply = build([sq()], {"at": [1, 0], "edges": "SHHH", **NEW}, resource_workers={"Ann": 9})
    assert "has no worker left" in rules_broken(reply)[0]


def test_bonuses_without_the_lamplighter_follow_the_streets() -> None:
    city = [
        sq(),
        card((0, 1), "row", "Ben", edges="HHSS", bonus="coin"),  # street below: linked
        card((0, 2), "row", "Ben", edges="HHHH", bonus="coin"),  # diagonal
        card((1, 2), "row", "Ben", edges="HHHH", bonus="double"),  # houses: not linked
        card((2, 2), "row", "Ben", edges="HHHH", bonus="transform"),  # diagonal
    ]
    new = {"at": [1, 1], "edges": "SHHS", "bonus": "any-resource", "guild": "bells", **NEW}
    reply = build(city, new)
    assert reply["legal"], reply
    assert [(b["from"], b["bonus"]) for b in reply["bonuses"]] == [
        ([1, 1], "any-resource"),
        ([0, 1], "coin"),
        (None, None),
    ]
    assert reply["bonuses"][1]["words"] == "Row 1, col 2, linked by a street: draw 1 Coin."
    assert reply["bonuses"][2]["guild"] == "bells"
    assert reply["bonuses"][2]["words"].startswith("Take the top Bells Character card")


def test_bonuses_with_the_lamplighter_come_from_every_adjacent_building() -> None:
    city = [
        sq(),
        card((0, 1), "row", "Ben", edges="HHSS", bonus="coin"),
        card((0, 2), "row", "Ben", edges="HHHH", bonus="coin"),
        card((1, 2), "row", "Ben", edges="HHHH", bonus="double"),
        card((2, 2), "row", "Ben", edges="HHHH", bonus="transform"),
    ]
    new = {"at": [1, 1], "edges": "SHHS", "bonus": "any-resource", **NEW}
    reply = build(city, new, characters={"Ann": ["lamplighter"]})
    assert [(b["from"], b["bonus"]) for b in reply["bonuses"]] == [
        ([1, 1], "any-resource"),
        ([0, 1], "coin"),
        ([1, 2], "double"),
    ]
    assert "(Lamplighter)" in reply["bonuses"][2]["words"]
    # Another player's Lamplighter gives Ann nothing.
    reply = build(city, new, characters={"Ben": ["lamplighter"]})
    assert len(reply["bonuses"]) == 2


def test_a_7th_worker_is_only_for_the_player_who_ends_the_game() -> None:
    """Ann's worker on the Main Square and 5 buildings: a 6th building is her 7th worker,
    which only who ends the game has (the app's reading, said in the answer)."""
    city = [sq("Ann")] + [card((1, c), "row", "Ann", edges="HHHH") for c in range(-2, 3)]
    city[3]["edges"] = "SHHH"
    new = {"at": [2, 0], "edges": "HHHH", **NEW}
    reply = build(city, new)
    assert reply["legal"], reply
    assert reply["warnings"][-1].startswith("This is Ann's 7th worker in the city: only the")
    assert [r["id"] for r in reply["readings"]] == ["oddville/app/too-many-workers"]
    reply = build(city, new, ended_by="Ben")
    assert rules_broken(reply) == [
        "Ann already has 6 workers in the city and did not end the game (Ben did): only that"
        " player can have a 7th."
    ]


def test_nobody_builds_a_7th_building() -> None:
    city = [sq()] + [card((1, c), "row", "Ann") for c in range(-2, 4)]
    reply = build(city, {"at": [2, 0], "edges": "HHHH", **NEW})
    assert rules_broken(reply) == [
        "Ann already owns 6 buildings: every player starts the game's last turn with at most"
        " 5 workers in the city and builds at most once in it, so nobody builds a 7th."
    ]


def test_after_a_6th_worker_only_the_builders_holder_builds() -> None:
    """Ben's 6th worker in the city makes this the last turn: Ann builds only with the
    Builder (after Ben's building)."""
    city = [sq()] + [card((1, c), "row", "Ben") for c in range(-2, 4)]
    new = {"at": [0, 1], "edges": "HHHS", **NEW}
    reply = build(city, new)
    assert rules_broken(reply) == [
        "Ben already has 6 workers in the city, so this is the game's last turn, when only"
        " the Builder's holder can still build after another player; Ann does not hold the"
        " Builder."
    ]
    assert build(city, new, characters={"Ann": ["builder"]})["legal"]


def test_a_malformed_build_request_is_invalid() -> None:
    with pytest.raises(InvalidStateError) as raised:
        build([sq()], {"at": [1, 0], "owner": "Cy", "points": {"kind": "diamond", "value": 7}})
    paths = {p.path for p in raised.value.problems}
    assert paths == {"card.owner", "card.points.value"}
    with pytest.raises(InvalidStateError):
        build([sq()], {"at": [1, 0], "card": SQUARE})


def test_rule_ids_are_named_everywhere() -> None:
    problems = problems_in(RULEBOOK | {"ended_by": "Nobody"})
    assert all(p.rule for p in problems)
    result = GAME.score(table([sq("Ann")], characters={"Ann": ["traveller"]}))
    assert all(line.rule for s in result.standings for line in s.breakdown)


def test_edits_and_history_words() -> None:
    state = GAME.new_state(["Ann", "Ben"], {})
    assert GAME.validate(state) == []
    assert GAME.parse_edit(["ended_by"], "Ann") == "Ann"
    with pytest.raises(InvalidStateError):
        GAME.parse_edit(["resource_workers", "Ann"], "10")
    assert GAME.describe_path(state, ["city", 2, "owner"]) == "city card 3"
    assert GAME.display_value(["city"], [1]) == "1 card"


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_is_known(kind: Kind) -> None:
    value = {"diamond": 4, "guild": 1}.get(kind.value)
    guild = "mask" if kind is Kind.GUILD else None
    state = table([card((1, 0), kind.value, "Ann", value=value, guild=guild)])
    assert GAME.validate(state) == []


def test_seats_and_permutations() -> None:
    for order in itertools.permutations(RULEBOOK_PLAYERS):
        state = table(RULEBOOK_CITY, list(order), ended_by="Red")
        assert scores(state) == {"Blue": 8, "Purple": 10, "Red": 13, "Yellow": 7}


def test_colours_are_the_four_and_distinct() -> None:
    assert GAME.validate(table([sq()], colours={"Ann": "red", "Ben": "yellow"})) == []
    found = messages(table([sq()], colours={"Ann": "red", "Ben": "red"}))
    assert found["colours.Ben"] == "Two players chose red: each colour goes to one player."
    found = messages(table([sq()], colours={"Ann": "green", "Cy": "red"}))
    assert found["colours.Ann"].startswith('"green" is not a colour')
    assert found["colours.Cy"] == '"Cy" is not one of the players.'
    city = parse(table([sq()], colours={"Ben": "purple"}))
    assert city.colours == {"Ann": "blue", "Ben": "purple"}


def test_every_rule_id_the_code_names_is_in_the_rules_file() -> None:
    import re
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rules = tomllib.loads((root / "companion/rules/oddville.toml").read_text())
    assert rules["game"] == "oddville"
    known = {f"oddville/{entry['id']}" for entry in rules["entry"]}
    sources = [*(root / "companion/games/oddville").glob("*.py")]
    sources += [*(root / "templates/games/oddville").glob("*.html")]
    named = {
        m for path in sources for m in re.findall(r'"(oddville/[a-z0-9/-]+)"', path.read_text())
    }
    named |= {c.rule for c in CHARACTERS.values()} | {TIEBREAK.rule or ""}
    assert named - known == set()
    for entry in rules["entry"]:
        assert not entry["clarification"] or entry["why"].strip(), entry["id"]


@settings(max_examples=40, deadline=None)
@given(cities(), st.data())
def test_a_legal_build_always_gives_a_valid_city(
    state: dict[str, Any], data: st.DataObject
) -> None:
    """Whatever the referee allows can be scored, and what it refuses says why."""
    taken = {tuple(c["at"]) for c in state["city"]}
    places = sorted({n for cell in taken for n in neighbours(cell)} - taken)
    at = data.draw(st.sampled_from(places))
    edges = data.draw(st.text(alphabet="HS", min_size=4, max_size=4))
    owner = data.draw(st.sampled_from(state["players"]))
    new = {"at": list(at), "owner": owner, "points": {"kind": "row"}, "edges": edges}
    reply = build_endpoint({**state, "card": new})
    if reply["legal"]:
        after = {**state, "city": reply["city"]}
        assert GAME.validate(after) == []
        assert len(after["city"]) == len(state["city"]) + 1
        assert reply["bonuses"][0]["from"] == list(at)
    else:
        assert reply["problems"]
        assert all(p["message"].endswith(".") for p in reply["problems"])
        assert reply["city"] is None
