"""Oddland engine: territories, token facts, scoring, the placement referee, validation."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.oddland import (
    GAME,
    TIEBREAK,
    Card,
    Token,
    TurnModel,
    analyse_map,
    apply_placement,
    begator_a,
    check_placement,
    map_endpoint,
    placement_endpoint,
    replay,
    rule_score,
    token_facts,
)
from companion.games.oddland.species import (
    Region,
    SideRule,
    Terrain,
    TwoSpace,
    Unit,
    describe,
    token_limit,
    tokens_per_player,
)
from companion.games.problems import InvalidStateError, Problem
from support.oddland import MAPS, tables, tok

API_MAP = ["FFWW", "FSSW", "MM.."]
BEGATOR_A_JSON: dict[str, Any] = {
    "points": 2,
    "per": "space",
    "region": "neighbors",
    "solo_modifier": -3,
}


def state(
    tokens: list[dict[str, Any]] | None = None,
    *,
    players: list[str] | None = None,
    rows: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A score request: two players on the API example map, Begator and Flora on side A."""
    body: dict[str, Any] = {
        "players": ["Ann", "Ben"] if players is None else players,
        "map": API_MAP if rows is None else rows,
        "tokens": tokens or [],
        "sides": {"begator": "A", "flora": "A"},
    }
    body.update(extra)
    return body


def territories(rows: list[str]) -> list[tuple[str, int, tuple[int, ...]]]:
    """Terrain, size and neighbours of each territory, in id order."""
    return [(t.terrain.value, t.size, t.neighbors) for t in analyse_map(rows).territories]


def problems(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in GAME.validate(body)]


# --- the rulebook's pictures and reminders --------------------------------------------


def test_rulebook_territory_sizes_four_and_one() -> None:
    # A 2x2 forest block is a size-4 territory; a lone water space is a size-1 one.
    assert territories(["FFW", "FFS"]) == [("F", 4, (1, 2)), ("W", 1, (0, 2)), ("S", 1, (0, 1))]


def test_rulebook_neighbouring_territories_share_an_edge_not_a_corner() -> None:
    # F at top-left and F at bottom-right touch only at a corner: two territories, and
    # the two waters (also corner-only) are not neighbours either.
    assert territories(["FW", "WF"]) == [
        ("F", 1, (1, 2)),
        ("W", 1, (0, 3)),
        ("W", 1, (0, 3)),
        ("F", 1, (1, 2)),
    ]


def test_rulebook_begator_scores_two_per_space_in_neighbouring_territories() -> None:
    # Begator on the forest: neighbours are water (3), shore (2) and mountain (2).
    result = GAME.score(state([tok("Ann", "begator", (0, 1))]))
    assert result.standing("Ann").score == 14
    assert result.standing("Ann").breakdown[0].label == (
        "Begator (A) at row 1, col 2: 7 spaces in neighbouring territories, 2 points each"
    )


def test_rulebook_flora_a_has_no_scoring_effect() -> None:
    result = GAME.score(state([tok("Ben", "flora", (2, 0))]))
    assert result.standing("Ben").score == 0
    assert result.standing("Ben").breakdown[0].label == (
        "Flora (A) at row 3, col 1: no scoring effect"
    )


def test_rulebook_merged_territory_is_occupied_by_every_token_in_it() -> None:
    # A card joined two forests after each got a token: both now share the size-7 forest.
    body = state(
        [tok("Ann", "begator", (0, 0)), tok("Ben", "begator", (0, 4))],
        rows=["FFWFF", "SFFFS", "MMMMM"],
    )
    merged = map_endpoint({"map": body["map"], "tokens": body["tokens"]})["territories"][0]
    assert (merged["size"], merged["tokens"]) == (7, [0, 1])
    result = GAME.score(body)
    # Both Begators see the same neighbours: water (1), two shores (1 + 1), mountain (5).
    assert result.standing("Ann").score == result.standing("Ben").score == 16


def test_rulebook_surrounding_spaces_include_the_space_itself() -> None:
    rule = SideRule(points=1, per=Unit.SPACE, region=Region.SURROUNDING, terrain=Terrain.FOREST)
    analysis = analyse_map(["FFF", "FFF", "FFF"], [Token("Ann", "owloose", ((1, 1),))])
    assert rule_score(analysis, 0, rule).points == 9
    without = rule.model_copy(update={"count_own_space": False})
    assert rule_score(analysis, 0, without).points == 8


def test_rulebook_own_space_counts_when_it_meets_the_criteria() -> None:
    rule = SideRule(points=1, region=Region.ROW, terrain=Terrain.FOREST)
    analysis = analyse_map(["FWF"], [Token("Ann", "pangeroo", ((0, 0),))])
    assert rule_score(analysis, 0, rule).detail == "2 forest spaces in its row"


def test_rulebook_each_flora_scores_on_its_own_and_the_total_is_written() -> None:
    body = state(
        [tok("Ann", "flora", (0, 0)), tok("Ann", "flora", (2, 1))],
        definitions={"flora": {"B": {"points": 1, "region": "territory"}}},
    )
    body["sides"]["flora"] = "B"
    standing = GAME.score(body).standing("Ann")
    assert [(line.label, line.points) for line in standing.breakdown] == [
        ("Flora (B) at row 1, col 1: 3 spaces in its territory", 3),
        ("Flora (B) at row 3, col 2: 2 spaces in its territory", 2),
    ]
    assert standing.score == 5


def test_setup_facts_seven_tokens_and_one_flora_less_with_four_or_five() -> None:
    assert [tokens_per_player(n) for n in range(1, 6)] == [7, 7, 7, 6, 6]
    assert [token_limit("flora", player_count=n) for n in range(1, 6)] == [2, 2, 2, 1, 1]
    assert token_limit("owloose", player_count=2) == 1
    # Contents list: 35 tokens, 7 per player, for 5 sets.
    assert 5 * tokens_per_player(1) == 35


# --- territories on tricky shapes ------------------------------------------------------


def test_ring_around_a_lake_is_one_territory_with_one_neighbour() -> None:
    assert territories(["FFF", "FWF", "FFF"]) == [("F", 8, (1,)), ("W", 1, (0,))]


def test_ring_around_a_hole_is_one_territory() -> None:
    analysis = analyse_map(["FFF", "F.F", "FFF"])
    assert [t.size for t in analysis.territories] == [8]
    assert (1, 1) not in analysis.spaces


def test_ragged_rows_and_blank_rows() -> None:
    # Row 2 is empty, so the forest above and the water below never touch.
    assert territories(["F", "FFF", "", "WW"]) == [("F", 4, ()), ("W", 2, ())]


def test_space_and_dot_both_mean_no_card() -> None:
    assert territories(["F F", "F.F"]) == [("F", 2, ()), ("F", 2, ())]


def test_territories_in_reading_order_of_their_first_cell() -> None:
    # The shore's first cell (0, 2) comes before the water's (1, 0).
    analysis = analyse_map(["MMS", "WMS", "WWW"])
    assert [(t.terrain.value, t.cells[0]) for t in analysis.territories] == [
        ("M", (0, 0)),
        ("S", (0, 2)),
        ("W", (1, 0)),
    ]
    assert analysis.territories[2].cells == ((1, 0), (2, 0), (2, 1), (2, 2))


def test_long_snake_territory_needs_no_recursion() -> None:
    rows = ["F" * 73, "." * 72 + "F", "F" * 73]
    assert [t.size for t in analyse_map(rows).territories] == [147]


def test_map_endpoint_json_exactly() -> None:
    body = {
        "map": ["FFW", "FWW", "MWS", "MWS"],
        "tokens": [tok("Ann", "begator", (2, 2)), tok("Ben", "flora", (0, 1))],
    }
    assert map_endpoint(body) == {
        "territories": [
            {
                "id": 0,
                "terrain": "F",
                "size": 3,
                "cells": [[0, 0], [0, 1], [1, 0]],
                "neighbors": [1, 2],
                "tokens": [1],
            },
            {
                "id": 1,
                "terrain": "W",
                "size": 5,
                "cells": [[0, 2], [1, 1], [1, 2], [2, 1], [3, 1]],
                "neighbors": [0, 2, 3],
                "tokens": [],
            },
            {
                "id": 2,
                "terrain": "M",
                "size": 2,
                "cells": [[2, 0], [3, 0]],
                "neighbors": [0, 1],
                "tokens": [],
            },
            {
                "id": 3,
                "terrain": "S",
                "size": 2,
                "cells": [[2, 2], [3, 2]],
                "neighbors": [1],
                "tokens": [0],
            },
        ]
    }
    assert GAME.api_endpoints()["map"](body) == map_endpoint(body)


def test_map_and_placement_refuse_a_map_two_by_two_cards_cannot_make() -> None:
    for endpoint, extra in [
        (map_endpoint, {}),
        (placement_endpoint, {"card": {"at": [0, 2], "terrains": ["FF", "FF"]}}),
    ]:
        with pytest.raises(InvalidStateError) as raised:
            endpoint({"map": ["FW", "S."], **extra})
        assert [p.path for p in raised.value.problems] == ["map"]
        assert "every space lies in a 2x2 block" in raised.value.problems[0].message
        assert endpoint({"map": ["FW", "SS"], **extra})


def test_map_endpoint_with_players_checks_owners() -> None:
    body = {
        "map": ["FFFFF", "FFFFF"],
        "tokens": [tok("Zed", "flora", (0, 0))],
        "players": ["Ann"],
    }
    with pytest.raises(InvalidStateError) as raised:
        map_endpoint(body)
    assert [(p.path, p.message) for p in raised.value.problems] == [
        ("tokens[0].player", '"Zed" is not one of the players.')
    ]


def test_map_endpoint_reports_tokens_off_the_map() -> None:
    with pytest.raises(InvalidStateError) as raised:
        map_endpoint({"map": ["FFFFF.", "FFFFF."], "tokens": [tok("Ann", "flora", (0, 5))]})
    assert raised.value.problems[0].path == "tokens[0].cells[0]"


# --- token facts ---------------------------------------------------------------------


def test_token_facts_count_every_region() -> None:
    analysis = analyse_map(
        API_MAP, [Token("Ann", "begator", ((0, 1),)), Token("Ben", "flora", ((2, 0),))]
    )
    facts = token_facts(analysis)[0].to_json()
    assert facts["territories"] == [{"id": 0, "terrain": "F", "size": 3}]
    assert facts["neighbors"] == [
        {"id": 1, "terrain": "W", "size": 3},
        {"id": 2, "terrain": "S", "size": 2},
        {"id": 3, "terrain": "M", "size": 2},
    ]
    areas = facts["areas"]
    assert areas["row"]["terrains"] == {"F": 2, "S": 0, "W": 2, "M": 0}
    assert areas["column"] == {
        "spaces": 3,
        "terrains": {"F": 1, "S": 1, "W": 0, "M": 1},
        "territories": 3,
        "tokens": 1,
        "species": {"begator": 1},
    }
    # Diagonals through (0, 1): (1, 0), (1, 2) and (2, 3) is empty.
    assert areas["diagonals"]["spaces"] == 3
    assert areas["surrounding"]["spaces"] == 6
    assert areas["neighbors"]["spaces"] == 7
    assert areas["neighbors"]["species"] == {"flora": 1}
    assert areas["map"]["species"] == {"begator": 1, "flora": 1}
    assert areas["row-and-column"]["spaces"] == 6


def test_token_facts_of_a_two_space_token_cover_both_territories() -> None:
    analysis = analyse_map(["FFWW", "FFW."], [Token("Ann", "whalephant", ((0, 1), (0, 2)))])
    facts = token_facts(analysis)[0]
    assert [t.size for t in facts.territories] == [4, 3]
    assert facts.neighbors == ()
    assert facts.areas[Region.ROW].spaces == 4
    assert facts.areas[Region.COLUMN].spaces == 4


# --- scoring ----------------------------------------------------------------------------


def test_api_example_scores_and_reads_manual_points() -> None:
    body = state(
        [tok("Ann", "begator", (0, 1)), tok("Ben", "flora", (2, 0))],
        points={"Ben": {"pangeroo": 4}},
        solo=False,
    )
    result = GAME.score(body).to_json()
    assert [(s["player"], s["score"], s["rank"]) for s in result["standings"]] == [
        ("Ann", 14, 1),
        ("Ben", 4, 2),
    ]
    assert result["standings"][1]["breakdown"] == [
        {"label": "Flora (A) at row 3, col 1: no scoring effect", "points": 0},
        {"label": "Pangeroo: entered on the scoreboard", "points": 4},
    ]
    assert result["winners"] == ["Ann"]
    assert result["decided_by"] == "score"
    assert result["finished"] is False
    assert result["warnings"] == [
        "Not every player has placed all 7 tokens yet: the game goes on."
    ]


def test_manual_points_take_precedence_over_computed_ones() -> None:
    body = state([tok("Ann", "begator", (0, 1))], points={"Ann": {"begator": 3}})
    standing = GAME.score(body).standing("Ann")
    assert standing.score == 3
    assert [line.label for line in standing.breakdown] == ["Begator: entered on the scoreboard"]


def test_manual_points_null_means_not_entered() -> None:
    body = state([tok("Ann", "begator", (0, 1))], points={"Ann": {"begator": None}})
    assert GAME.score(body).standing("Ann").score == 14


def test_manual_points_match_names_regardless_of_case() -> None:
    body = state([], points={" ann": {"owloose": 5}})
    assert GAME.score(body).standing("Ann").score == 5


def test_token_without_a_side_scores_zero_with_a_warning() -> None:
    body = state([tok("Ann", "owloose", (0, 0))])
    result = GAME.score(body)
    standing = result.standing("Ann")
    assert [(line.label, line.points) for line in standing.breakdown] == [
        ("Owloose at row 1, col 1: not scored", 0)
    ]
    assert result.warnings[0] == (
        "Ann's Owloose at row 1, col 1 scored 0: no side was chosen for Owloose; "
        "enter Ann's Owloose points instead."
    )


def test_token_of_an_unknown_side_scores_zero_with_a_warning() -> None:
    body = state([tok("Ann", "begator", (0, 1)), tok("Ann", "sea-dragon", (2, 0))])
    body["sides"].update(begator="B", **{"sea-dragon": "A"})
    result = GAME.score(body)
    assert result.standing("Ann").score == 0
    assert result.warnings[:2] == (
        "Ann's Begator at row 1, col 2 scored 0: the app does not know how Begator B scores; "
        "enter Ann's Begator points instead.",
        "Ann's Sea Dragon at row 3, col 1 scored 0: the app does not know how Sea Dragon A "
        "scores; enter Ann's Sea Dragon points instead.",
    )


def test_manual_points_silence_the_warning() -> None:
    body = state([tok("Ann", "owloose", (0, 0))], points={"Ann": {"owloose": 6}})
    result = GAME.score(body)
    assert result.standing("Ann").score == 6
    assert not any("Owloose" in w for w in result.warnings)


def test_definition_reproduces_begator_a_exactly() -> None:
    tokens = [tok("Ann", "begator", (0, 1)), tok("Ben", "begator", (1, 1))]
    built_in = GAME.score(state(tokens)).to_json()
    defined = GAME.score(state(tokens, definitions={"begator": {"A": BEGATOR_A_JSON}})).to_json()
    # Only the reading differs: a table's own definition rests on no reading of the app's.
    assert [r["id"] for r in built_in.pop("readings")] == ["oddland/species/begator"]
    assert defined == built_in
    # The same definition under another species' name scores the same numbers.
    other = [tok("Ann", "owloose", (0, 1)), tok("Ben", "owloose", (1, 1))]
    body = state(other, definitions={"owloose": {"B": BEGATOR_A_JSON}})
    body["sides"]["owloose"] = "B"
    assert [s.score for s in GAME.score(body).standings] == [16, 14]


def test_definition_describes_itself() -> None:
    assert describe(SideRule.model_validate(BEGATOR_A_JSON)) == (
        "2 points per space in neighbouring territories (solo modifier -3)"
    )


@pytest.mark.parametrize(
    ("rule", "points", "detail"),
    [
        ({"points": 5, "region": "territory"}, 15, "3 spaces in its territory, 5 points each"),
        (
            {"points": 5, "region": "territory", "two_space": "largest"},
            20,
            "4 spaces in its territory, 5 points each",
        ),
        (
            {"points": 1, "per": "territory", "region": "neighbors", "terrain": "S"},
            1,
            "1 shore territory in neighbouring territories",
        ),
        ({"points": 2, "region": "row"}, 8, "4 spaces in its row, 2 points each"),
        (
            {"points": 1, "region": "row", "count_own_space": False},
            2,
            "2 spaces in its row (not its own space)",
        ),
        ({"points": 1, "region": "column", "terrain": "F"}, 2, "2 forest spaces in its column"),
        ({"points": 1, "region": "row-and-column"}, 6, "6 spaces in its row and column"),
        ({"points": 1, "region": "diagonals"}, 7, "7 spaces on its diagonals"),
        ({"points": 1, "region": "surrounding"}, 8, "8 spaces in its surrounding spaces"),
        ({"points": 1, "per": "territory", "region": "map"}, 4, "4 territories on the whole map"),
        (
            {"points": 3, "per": "token", "region": "map", "species": "flora"},
            3,
            "1 Flora token on the whole map, 3 points each",
        ),
        (
            {"points": 1, "per": "token", "region": "map", "terrain": "S"},
            1,
            "1 token on shore on the whole map",
        ),
        ({"points": 0}, 0, "no points"),
    ],
)
def test_rule_vocabulary_on_a_two_space_token(
    rule: dict[str, Any], points: int, detail: str
) -> None:
    # Whalephant on forest (size 4) and water (size 3); a flora on the lone shore.
    rows = ["FFWW", "FFWS", "M..."]
    tokens = [
        Token("Ann", "whalephant", ((0, 1), (0, 2))),
        Token("Ben", "flora", ((1, 3),)),
    ]
    analysis = analyse_map(rows, tokens)
    scored = rule_score(analysis, 0, SideRule.model_validate(rule))
    assert (scored.points, scored.detail) == (points, detail)


def test_whalephant_line_names_both_spaces() -> None:
    body = state(
        [tok("Ann", "whalephant", (0, 2), (1, 2))],
        rows=["FFWW", "FSWW"],
        definitions={"whalephant": {"A": {"points": 5}}},
    )
    body["sides"]["whalephant"] = "A"
    line = GAME.score(body).standing("Ann").breakdown[0]
    assert (line.label, line.points) == (
        "Whalephant (A) at rows 1-2, col 3: 4 spaces in its territory, 5 points each",
        20,
    )


def test_tie_broken_by_largest_territory() -> None:
    rows = ["FFFW", "SSMW"]
    body = state([tok("Ann", "flora", (0, 0)), tok("Ben", "flora", (1, 3))], rows=rows, solo=False)
    result = GAME.score(body)
    assert result.winners == ["Ann"]
    assert result.decided_by == TIEBREAK
    assert [t.value for t in result.standing("Ann").tiebreak] == [(3,)]
    assert result.to_json()["standings"][0]["tiebreak"] == [{"label": TIEBREAK, "value": [3]}]


def test_tie_broken_by_next_largest_territory() -> None:
    rows = ["FFFWWW", "SSM.MS"]
    body = state(
        [
            tok("Ann", "flora", (0, 0)),
            tok("Ann", "flora", (1, 0)),
            tok("Ben", "flora", (0, 3)),
            tok("Ben", "flora", (1, 2)),
        ],
        rows=rows,
    )
    result = GAME.score(body)
    # Ann (3, 2) beats Ben (3, 1) on the second-largest territory.
    assert [s.player for s in result.standings] == ["Ann", "Ben"]
    assert [s.rank for s in result.standings] == [1, 2]
    assert result.decided_by == TIEBREAK


def test_full_tie_is_shared() -> None:
    body = state([tok("Ann", "flora", (0, 0)), tok("Ben", "flora", (0, 2))], rows=["FFWW"])
    result = GAME.score(body)
    assert result.winners == ["Ann", "Ben"]
    assert [s.rank for s in result.standings] == [1, 1]
    assert result.decided_by == "shared"


def test_player_with_fewer_tokens_loses_the_tiebreak_chain() -> None:
    body = state(
        [tok("Ann", "flora", (0, 0)), tok("Ann", "flora", (0, 3)), tok("Ben", "flora", (0, 2))],
        rows=["FWSM"],
    )
    result = GAME.score(body)
    assert result.winners == ["Ann"]
    assert [t.value for t in result.standing("Ben").tiebreak] == [(1, 0)]


def test_finished_when_everyone_placed_a_full_set() -> None:
    rows = ["FWFWFWFW", "WFWFWFWF"]
    species = ["begator", "flora", "flora", "owloose", "pangeroo", "pigehorse", "grizzsleep"]
    tokens = [tok("Ann", s, (0, c)) for c, s in enumerate(species)]
    tokens += [tok("Ben", s, (1, c)) for c, s in enumerate(species)]
    result = GAME.score(
        state(tokens, rows=rows, points={p: dict.fromkeys(species[3:], 1) for p in ("Ann", "Ben")})
    )
    assert result.finished is True
    assert result.warnings == ()


def test_solo_applies_the_modifier_once_per_species() -> None:
    body = state([tok("Ann", "begator", (0, 1)), tok("Ann", "flora", (2, 0))], players=["Ann"])
    standing = GAME.score(body).standing("Ann")
    assert [(line.label, line.points) for line in standing.breakdown] == [
        ("Begator (A) at row 1, col 2: 7 spaces in neighbouring territories, 2 points each", 14),
        ("Begator (A): solo modifier", -3),
        ("Flora (A) at row 3, col 1: no scoring effect", 0),
    ]
    assert standing.score == 11
    assert standing.rank == 1


def test_solo_can_be_switched_off_for_one_player() -> None:
    body = state([tok("Ann", "begator", (0, 1))], players=["Ann"], solo=False)
    assert GAME.score(body).standing("Ann").score == 14


def test_solo_manual_points_include_the_modifier_and_may_be_negative() -> None:
    body = state([tok("Ann", "begator", (0, 1))], players=["Ann"], points={"Ann": {"begator": -2}})
    assert GAME.score(body).standing("Ann").score == -2


def test_solo_definition_modifier() -> None:
    body = state(
        [tok("Ann", "owloose", (0, 0))],
        players=["Ann"],
        definitions={"owloose": {"A": {"points": 1, "region": "row", "solo_modifier": 2}}},
    )
    body["sides"]["owloose"] = "A"
    assert GAME.score(body).standing("Ann").score == 4 + 2


def test_breakdown_lines_sorted_by_species_then_position() -> None:
    body = state(
        [tok("Ann", "flora", (2, 0)), tok("Ann", "begator", (0, 1)), tok("Ann", "flora", (0, 3))]
    )
    labels = [line.label for line in GAME.score(body).standing("Ann").breakdown]
    assert [label.split(":")[0] for label in labels] == [
        "Begator (A) at row 1, col 2",
        "Flora (A) at row 1, col 4",
        "Flora (A) at row 3, col 1",
    ]


def test_begator_function_matches_the_api_example() -> None:
    analysis = analyse_map(API_MAP, [Token("Ann", "begator", ((2, 1),))])
    # Mountain (2 spaces) touches forest (3) and shore (2).
    assert begator_a(analysis, 0).points == 10


# --- the placement referee ------------------------------------------------------------

TWO_CARDS = ["FFWW", "FSSW"]
#: The set-up pair and one turn's card: a map a token can lie on (a turn's card adds 2
#: spaces at least, so the pair alone holds none).
THREE_CARDS = ["FFWW", "FSSW", "..MM", "..MM"]
BEN_FLORA = Token("Ben", "flora", ((0, 0),))


def messages(
    rows: list[str],
    card: Card,
    *,
    tokens: tuple[Token, ...] = (BEN_FLORA,),
    token: Token | None = None,
    players: list[str] | None = None,
) -> list[tuple[str, str]]:
    found = check_placement(rows, card=card, tokens=tokens, token=token, players=players)
    return [(p.path, p.message) for p in found]


def test_first_card_goes_anywhere() -> None:
    card = Card((3, 7), ("FS", "WM"))
    assert messages([], card, tokens=()) == []
    assert apply_placement([], card=card).rows == ("", "", "", ".......FS", ".......WM")


def test_card_below_with_token_is_legal() -> None:
    card = Card((2, 0), ("MM", "WS"))
    token = Token("Ann", "begator", ((2, 0),))
    assert messages(TWO_CARDS, card, token=token, players=["Ann", "Ben"]) == []
    after = apply_placement(TWO_CARDS, card=card, tokens=(BEN_FLORA,), token=token)
    assert after.rows == ("FFWW", "FSSW", "MM", "WS")
    assert after.tokens == (BEN_FLORA, token)
    assert after.shift == (0, 0)


def test_card_touching_only_at_a_corner_is_illegal() -> None:
    assert messages(TWO_CARDS, Card((2, 4), ("MM", "MM"))) == [
        ("card", "The card must share an edge with a space of the map.")
    ]


def test_card_far_away_is_illegal() -> None:
    assert messages(TWO_CARDS, Card((9, 9), ("MM", "MM")))[0][0] == "card"


def test_card_may_cover_two_spaces() -> None:
    card = Card((1, 2), ("MM", "MM"))
    assert messages(TWO_CARDS, card, token=Token("Ann", "begator", ((2, 2),))) == []
    assert apply_placement(TWO_CARDS, card=card).rows == ("FFWW", "FSMM", "..MM")


def test_card_covering_three_spaces_is_illegal() -> None:
    rows = ["FFWW", "FSSW", "MM"]
    assert messages(rows, Card((1, 1), ("WW", "WW"))) == [
        ("card", "The card covers 3 spaces of the map; at most 2 may be covered.")
    ]


def test_card_covering_four_spaces_is_illegal() -> None:
    found = messages(TWO_CARDS, Card((0, 1), ("MM", "MM")), tokens=())
    assert found == [("card", "The card covers 4 spaces of the map; at most 2 may be covered.")]


def test_card_never_covers_a_token() -> None:
    assert messages(TWO_CARDS, Card((-1, 0), ("MM", "MM"))) == [
        ("card", "The card would cover Ben's Flora at row 1, col 1; tokens are never covered.")
    ]


def test_token_goes_on_the_new_card() -> None:
    found = messages(
        TWO_CARDS, Card((2, 0), ("MM", "WS")), token=Token("Ann", "owloose", ((1, 3),))
    )
    assert found == [
        ("token.cells[0]", "A token goes on one of the 4 spaces of the card just played.")
    ]


def test_token_may_not_join_a_territory_that_holds_a_token() -> None:
    # The card's forest joins Ben's forest; its mountains are free.
    card = Card((2, 0), ("FM", "MM"))
    assert messages(TWO_CARDS, card, token=Token("Ann", "owloose", ((2, 0),))) == [
        (
            "token.cells[0]",
            "Row 3, col 1 is in a territory that already holds Ben's Flora; "
            "a new token needs a territory of its own.",
        )
    ]
    assert messages(TWO_CARDS, card, token=Token("Ann", "owloose", ((3, 1),))) == []


def test_card_may_merge_territories_that_hold_tokens() -> None:
    rows = ["FF.FF", "SS.SS"]
    tokens = (Token("Ann", "flora", ((0, 0),)), Token("Ben", "flora", ((0, 4),)))
    card = Card((0, 1), ("FF", "MM"))  # covers (0, 1) and (1, 1), fills the gap
    token = Token("Cy", "begator", ((1, 2),))
    assert messages(rows, card, tokens=tokens, token=token) == []
    after = apply_placement(rows, card=card, tokens=tokens, token=token)
    assert after.rows == ("FFFFF", "SMMSS")
    merged = analyse_map(list(after.rows), list(after.tokens)).territories[0]
    assert (merged.size, merged.tokens) == (5, (0, 1))
    # The merged forest holds tokens, so the new token cannot go there.
    into = Token("Cy", "begator", ((0, 2),))
    assert [path for path, _ in messages(rows, card, tokens=tokens, token=into)] == [
        "token.cells[0]"
    ]


def test_no_room_for_a_token_means_the_card_must_move() -> None:
    card = Card((2, 0), ("FF", "FF"))
    assert messages(TWO_CARDS, card) == [
        (
            "card",
            "Every space of this card lies in a territory that already holds a token, "
            "so no token could go on it; move the card.",
        )
    ]


def test_two_space_token_on_two_adjacent_spaces_of_the_card() -> None:
    card = Card((2, 0), ("MM", "WS"))
    whale = Token("Ann", "whalephant", ((2, 0), (2, 1)))
    assert messages(TWO_CARDS, card, token=whale) == []
    apart = Token("Ann", "whalephant", ((2, 0), (3, 1)))
    assert messages(TWO_CARDS, card, token=apart) == [
        ("token.cells", "A Whalephant's two spaces must share an edge.")
    ]
    half_off = Token("Ann", "whalephant", ((1, 1), (2, 1)))
    assert ("token.cells[0]", "A token goes on one of the 4 spaces of the card just played.") in (
        messages(TWO_CARDS, card, token=half_off)
    )
    single = Token("Ann", "whalephant", ((2, 0),))
    assert messages(TWO_CARDS, card, token=single) == [
        ("token.cells", "A Whalephant covers exactly 2 spaces, not 1.")
    ]


def test_two_space_token_needs_two_free_adjacent_spaces() -> None:
    # Only (3, 1) is free: the other three spaces join Ben's forest.
    card = Card((2, 0), ("FF", "FM"))
    whale = Token("Ann", "whalephant", ((3, 1), (3, 0)))
    found = messages(TWO_CARDS, card, token=whale)
    assert found[0] == (
        "card",
        "No two adjacent spaces of this card lie in territories without a token, "
        "so the Whalephant has no room; move the card.",
    )
    assert found[1][0] == "token.cells[1]"


def test_single_space_token_may_not_take_two_spaces() -> None:
    token = Token("Ann", "begator", ((2, 0), (2, 1)))
    assert messages(TWO_CARDS, Card((2, 0), ("MM", "WS")), token=token) == [
        ("token.cells", "A Begator covers exactly 1 space, not 2.")
    ]


def test_supply_is_checked_when_players_are_given() -> None:
    card = Card((2, 0), ("MM", "WS"))
    second = Token("Ben", "flora", ((2, 0),))
    assert messages(TWO_CARDS, card, token=second, players=["Ann", "Ben"]) == []
    crowd = ["Ann", "Ben", "Cy", "Di"]
    assert messages(TWO_CARDS, card, token=second, players=crowd) == [
        (
            "token.species",
            "Ben has only 1 Flora token (with 4 players one Flora goes back to the box).",
        )
    ]
    stranger = Token("Zed", "begator", ((2, 0),))
    assert messages(TWO_CARDS, card, token=stranger, players=["Ann", "Ben"]) == [
        ("token.player", '"Zed" is not one of the players.')
    ]


def test_a_player_with_every_token_placed_has_none_left() -> None:
    rows = ["FWFWFWFW"]
    species = ["begator", "flora", "flora", "owloose", "pangeroo", "pigehorse", "grizzsleep"]
    tokens = tuple(Token("Ann", s, ((0, c),)) for c, s in enumerate(species))
    whale = Token("Ann", "whalephant", ((1, 0), (1, 1)))
    found = messages(rows, Card((1, 0), ("MM", "MM")), tokens=tokens, token=whale, players=["Ann"])
    assert found == [("token", "Ann has already placed all 7 tokens.")]


def test_apply_shifts_when_the_card_lies_above_or_left() -> None:
    token = Token("Ann", "begator", ((-1, -2),))
    after = apply_placement(
        TWO_CARDS, card=Card((-1, -2), ("MS", "WM")), tokens=(BEN_FLORA,), token=token
    )
    assert after.shift == (1, 2)
    assert after.rows == ("MS", "WMFFWW", "..FSSW")
    assert after.tokens == (Token("Ben", "flora", ((1, 2),)), Token("Ann", "begator", ((0, 0),)))


def test_apply_refuses_an_illegal_turn() -> None:
    with pytest.raises(InvalidStateError) as raised:
        apply_placement(TWO_CARDS, card=Card((9, 9), ("MM", "MM")))
    assert raised.value.problems[0].path == "card"


def test_check_refuses_a_malformed_card() -> None:
    with pytest.raises(InvalidStateError) as raised:
        check_placement(TWO_CARDS, card=Card((2, 0), ("MX", "M")))
    assert [p.path for p in raised.value.problems] == ["card.terrains[0]", "card.terrains[1]"]


def test_placement_endpoint_legal_turn() -> None:
    body = {
        "map": THREE_CARDS,
        "tokens": [tok("Ben", "flora", (0, 0))],
        "players": ["Ann", "Ben"],
        "card": {"at": [2, 0], "terrains": ["MM", "WS"]},
        "token": tok("Ann", "begator", (3, 1)),
    }
    assert GAME.api_endpoints()["placement"](body) == {
        "legal": True,
        "problems": [],
        "map": ["FFWW", "FSSW", "MMMM", "WSMM"],
        "tokens": [tok("Ben", "flora", (0, 0)), tok("Ann", "begator", (3, 1))],
        "shift": [0, 0],
    }


def test_placement_endpoint_illegal_turn() -> None:
    body = {"map": TWO_CARDS, "card": {"at": [5, 5], "terrains": ["MM", "WS"]}}
    assert placement_endpoint(body) == {
        "legal": False,
        "problems": [
            {"path": "card", "message": "The card must share an edge with a space of the map."}
        ],
        "map": None,
        "tokens": None,
        "shift": None,
    }


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"card": {"at": [1], "terrains": ["MM", "WS"]}}, "card.at"),
        ({"card": {"at": [2, 0], "terrains": ["MM"]}}, "card.terrains"),
        ({"card": {"at": [2, 0], "terrains": ["Mx", "WS"]}}, "card.terrains[0]"),
        ({"card": {"at": [999, 0], "terrains": ["MM", "WS"]}}, "card.at"),
        ({"token": {"player": "Ann", "species": "begator", "cells": [[2]]}}, "token.cells[0]"),
        ({"token": tok("  ", "begator", (2, 0))}, "token.player"),
        ({"map": ["FFXW"]}, "map[0]"),
        ({"players": ["Ann", "ann"]}, "players[1]"),
        ({"card": "MMWS"}, "card"),
    ],
)
def test_placement_endpoint_rejects_malformed_requests(change: dict[str, Any], path: str) -> None:
    body: dict[str, Any] = {"map": TWO_CARDS, "card": {"at": [2, 0], "terrains": ["MM", "WS"]}}
    body.update(change)
    with pytest.raises(InvalidStateError) as raised:
        placement_endpoint(body)
    assert path in [p.path for p in raised.value.problems]


# --- validation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            state(rows=["FFWW", "FXSw"]),
            (
                "map[1]",
                'Row 2 has "X", "w"; use F (forest), S (shore), W (water), '
                'M (mountain) or "." for no card.',
            ),
        ),
        (
            state([tok("Ann", "flora", (5, 0))]),
            ("tokens[0].cells[0]", "Row 6, col 1 is outside the map."),
        ),
        (
            state([tok("Ann", "flora", (0, -1))]),
            ("tokens[0].cells[0]", "Row 1, col 0 is outside the map."),
        ),
        (
            state([tok("Ann", "flora", (2, 2))]),
            (
                "tokens[0].cells[0]",
                "There is no map card at row 3, col 3; a token must lie on a space.",
            ),
        ),
        (
            state([tok("Ann", "flora", (0, 0)), tok("Ben", "flora", (0, 0))]),
            ("tokens[1].cells[0]", "Another token (tokens[0]) already lies on row 1, col 1."),
        ),
        (
            state([tok("Ann", "whalephant", (0, 0))]),
            ("tokens[0].cells", "A Whalephant covers exactly 2 spaces, not 1."),
        ),
        (
            state([tok("Ann", "whalephant", (0, 0), (1, 1))]),
            ("tokens[0].cells", "A Whalephant's two spaces must share an edge."),
        ),
        (
            state([tok("Ann", "whalephant", (0, 0), (0, 0))]),
            ("tokens[0].cells", "A Whalephant's two spaces must share an edge."),
        ),
        (
            state([tok("Ann", "begator", (0, 0), (0, 1))]),
            ("tokens[0].cells", "A Begator covers exactly 1 space, not 2."),
        ),
        (
            state([{"player": "Ann", "species": "flora", "cells": [[0, 0, 1]]}]),
            ("tokens[0].cells[0]", "A position is a pair [row, col]."),
        ),
        (
            state([tok("Zed", "flora", (0, 0))]),
            ("tokens[0].player", '"Zed" is not one of the players.'),
        ),
        (
            state([tok("Ann", "Flora!", (0, 0))]),
            (
                "tokens[0].species",
                '"Flora!" is not a species key; use lower-case letters, digits and hyphens.',
            ),
        ),
        (
            state(sides={"begator": "C"}),
            ("sides.begator", 'A species card has side "A" or "B", not "C".'),
        ),
        (
            state(sides={"Begator": "A"}),
            (
                "sides.Begator",
                '"Begator" is not a species key; use lower-case letters, digits and hyphens.',
            ),
        ),
        (
            state([tok("Ann", "begator", (0, 0)), tok("Ann", "begator", (0, 2))]),
            ("tokens[1].species", "Ann has only 1 Begator token."),
        ),
        (
            state(
                [tok("Ann", "flora", (0, 0)), tok("Ann", "flora", (0, 2))],
                players=["Ann", "Ben", "Cy", "Di"],
            ),
            (
                "tokens[1].species",
                "Ann has only 1 Flora token (with 4 players one Flora goes back to the box).",
            ),
        ),
        (
            state(
                [tok("Ann", "flora", (0, c)) for c in range(2)]
                + [tok("Ann", f"s{c}", (0, c)) for c in range(2, 8)],
                rows=["FWFWFWFW"],
            ),
            (
                "tokens[7]",
                "With 2 players each player has 7 tokens; this is Ann's token number 8.",
            ),
        ),
        (state(players=[]), ("players", "This game is for 1 to 5 players, not 0.")),
        (
            state(players=["A", "B", "C", "D", "E", "F"]),
            ("players", "This game is for 1 to 5 players, not 6."),
        ),
        (state(players=["Ann", " "]), ("players[1]", "A player needs a name.")),
        (
            state(players=["Ann", " ANN "]),
            ("players[1]", 'Two players are called "ANN"; names must differ.'),
        ),
        (
            state(players=["Ann", "x" * 41]),
            ("players[1]", "Names can have at most 40 characters."),
        ),
        (
            state(solo=True),
            ("solo", "Solo mode is for 1 player, but 2 players were entered."),
        ),
        (
            state(points={"Zed": {"begator": 3}}),
            ("points.Zed", '"Zed" is not one of the players.'),
        ),
        (
            state(points={"Ann": {"begator": -3}}),
            ("points.Ann.begator", "Points cannot be negative outside solo mode."),
        ),
        (
            state(points={"Ann": {"begator": 1000}}),
            ("points.Ann.begator", "One species scores at most 999 points."),
        ),
        (
            state(points={"Ann": {"Bad Key": 1}}),
            (
                "points.Ann.Bad Key",
                '"Bad Key" is not a species key; use lower-case letters, digits and hyphens.',
            ),
        ),
        (
            state(definitions={"owloose": {"C": {"points": 1}}}),
            ("definitions.owloose.C", 'A species card has side "A" or "B", not "C".'),
        ),
        (
            state(definitions={"owloose": {"B": {"points": 1, "region": "sky"}}}),
            (
                "definitions.owloose.B.region",
                "Input should be 'territory', 'neighbors', 'row', 'column', 'row-and-column', "
                "'diagonals', 'surrounding' or 'map'.",
            ),
        ),
        (
            state(definitions={"owloose": {"B": {"points": 1, "species": "flora"}}}),
            ("definitions.owloose.B", 'A species filter only works with "per": "token".'),
        ),
        (
            state(definitions={"owloose": {"B": {"points": 1, "shape": "round"}}}),
            ("definitions.owloose.B.shape", "This field is not known."),
        ),
        (
            state(rows=["FFFF"] * 38),
            ("map", "The 37 map cards in the box make at most 148 spaces, but this map has 152."),
        ),
        (state(rows=["F"] * 149), ("map", "A map can span at most 148 rows, not 149.")),
        (state(rows=["F" * 149]), ("map[0]", "A row can span at most 148 spaces.")),
        (state(colour="red"), ("colour", "This field is not known.")),
        (state(solo="yes"), ("solo", "Enter true or false.")),
        (
            state(points={"Ann": {"begator": True}}),
            ("points.Ann.begator", "Enter a whole number."),
        ),
    ],
    ids=lambda value: value[0] if isinstance(value, tuple) else None,
)
def test_validation_problem(body: dict[str, Any], expected: tuple[str, str]) -> None:
    found = problems(body)
    assert expected in found, found
    with pytest.raises(InvalidStateError):
        GAME.score(body)


def test_validation_reports_every_problem_at_once() -> None:
    body = state(
        [tok("Zed", "flora", (9, 9)), tok("Ann", "whalephant", (0, 0))],
        players=["Ann", "ann"],
        rows=["FFQ"],
        sides={"flora": "Z"},
        solo=True,
    )
    assert {path for path, _ in problems(body)} == {
        "players[1]",
        "solo",
        "map[0]",
        "tokens[0].player",
        "tokens[0].cells[0]",
        "tokens[1].cells",
        "sides.flora",
    }


def test_malformed_position_does_not_also_complain_about_the_count() -> None:
    body = state([{"player": "Ann", "species": "flora", "cells": [[0]]}])
    assert problems(body) == [("tokens[0].cells[0]", "A position is a pair [row, col].")]


def test_negative_points_are_fine_in_solo() -> None:
    assert problems(state(players=["Ann"], points={"Ann": {"begator": -3}})) == []


def test_map_problems_are_reported_by_analyse_map() -> None:
    with pytest.raises(InvalidStateError) as raised:
        analyse_map(["FQ"], [Token("Ann", "flora", ((3, 3),))])
    assert [p.path for p in raised.value.problems] == ["map[0]"]


# --- the engine interface ----------------------------------------------------------------


def test_game_conformance() -> None:
    assert (GAME.slug, GAME.name, GAME.min_players, GAME.max_players) == (
        "oddland",
        "Oddland",
        1,
        5,
    )
    for count in range(1, 6):
        fresh = GAME.new_state([f"P{i}" for i in range(count)], {})
        assert GAME.validate(fresh) == []
        result = GAME.score(fresh).to_json()
        assert result["game"] == "oddland"
        assert result["finished"] is False
        assert result["warnings"] == []
    assert set(GAME.api_endpoints()) == {"score", "map", "placement"}
    assert GAME.api_endpoints()["score"](state()) == GAME.score(state()).to_json()


def test_new_state_defaults() -> None:
    fresh = GAME.new_state(["Ann", "Ben"], {})
    assert fresh["sides"]["begator"] == "A"
    assert fresh["solo"] is False
    assert GAME.new_state(["Ann"], {})["solo"] is True
    assert GAME.new_state(["Ann"], {"sides": {"owloose": "B"}})["sides"] == {"owloose": "B"}


@pytest.mark.parametrize(
    ("path", "raw", "value"),
    [
        (["points", "Ben", "pangeroo"], "4", 4),
        (["points", "Ben", "pangeroo"], " -2 ", -2),
        (["points", "Ben", "pangeroo"], "", None),
        (["sides", "begator"], "b", "B"),
        (["sides", "begator"], "", None),
        (["solo"], "true", True),
        (["solo"], "off", False),
        (["solo"], "", None),
        (["map", 2], "ffw.s", "FFW.S"),
        (["tokens", 0, "player"], " Ann ", "Ann"),
        (["tokens", 0, "species"], "whalephant", "whalephant"),
        (["tokens", 0, "cells"], "2,3", [[2, 3]]),
        (["tokens", 0, "cells"], "2,3; 2,4", [[2, 3], [2, 4]]),
        (["tokens", 0, "cells"], "[[1, 1]]", [[1, 1]]),
    ],
)
def test_parse_edit(path: list[str | int], raw: str, value: object) -> None:
    assert GAME.parse_edit(path, raw) == value


@pytest.mark.parametrize(
    ("path", "raw", "message"),
    [
        (["points", "Ben", "pangeroo"], "four", "Enter a whole number of points."),
        (["points", "Ben", "pangeroo"], "5000", "One species scores at most 999 points."),
        (["sides", "begator"], "C", 'Pick side "A" or "B".'),
        (["solo"], "maybe", "Enter true or false."),
        (
            ["map", 0],
            "FFQ",
            'Row 1 has "Q"; use F (forest), S (shore), W (water), '
            'M (mountain) or "." for no card.',
        ),
        (["tokens", 0, "cells"], "2;3", 'Enter positions as "row,col", separated by ";".'),
        (["tokens", 0, "cells"], "[[1, true]]", 'Enter positions as "row,col", separated by ";".'),
        (["tokens", 0, "cells"], "[1, 2]", 'Enter positions as "row,col", separated by ";".'),
        (["tokens", 0, "species"], "Begator", "This cannot be changed here."),
        (["players", 0], "Ann", "This cannot be changed here."),
    ],
)
def test_parse_edit_rejects(path: list[str | int], raw: str, message: str) -> None:
    with pytest.raises(InvalidStateError) as raised:
        GAME.parse_edit(path, raw)
    assert raised.value.problems[0].message == message


# --- properties --------------------------------------------------------------------------


@given(MAPS)
def test_territory_sizes_add_up_to_the_spaces(rows: list[str]) -> None:
    analysis = analyse_map(rows)
    assert sum(t.size for t in analysis.territories) == len(analysis.spaces)
    assert sum(1 for row in rows for ch in row if ch != ".") == len(analysis.spaces)
    assert sorted(c for t in analysis.territories for c in t.cells) == sorted(analysis.spaces)


@given(MAPS)
def test_neighbour_relation_is_symmetric_and_irreflexive(rows: list[str]) -> None:
    found = analyse_map(rows).territories
    for territory in found:
        assert territory.id not in territory.neighbors
        assert list(territory.neighbors) == sorted(territory.neighbors)
        for other in territory.neighbors:
            assert territory.id in found[other].neighbors
            assert found[other].terrain != territory.terrain


@given(MAPS)
def test_territories_are_numbered_in_reading_order(rows: list[str]) -> None:
    found = analyse_map(rows).territories
    firsts = [t.cells[0] for t in found]
    assert firsts == sorted(firsts)
    assert all(list(t.cells) == sorted(t.cells) for t in found)


@given(tables(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_token_order(body: dict[str, Any], rnd: random.Random) -> None:
    shuffled = copy.deepcopy(body)
    rnd.shuffle(shuffled["tokens"])
    assert GAME.score(shuffled).to_json() == GAME.score(body).to_json()


@given(tables())
def test_input_is_not_mutated_and_breakdown_adds_up(body: dict[str, Any]) -> None:
    before = copy.deepcopy(body)
    result = GAME.score(body)
    map_endpoint({"map": body["map"], "tokens": body["tokens"]})
    assert body == before
    for standing in result.standings:
        assert sum(line.points for line in standing.breakdown) == standing.score


@given(tables())
def test_begator_definition_matches_the_built_in_everywhere(body: dict[str, Any]) -> None:
    tokens = [Token(t["player"], t["species"], (tuple(t["cells"][0]),)) for t in body["tokens"]]
    analysis = analyse_map(body["map"], tokens)
    rule = SideRule.model_validate(BEGATOR_A_JSON)
    for index in range(len(tokens)):
        assert rule_score(analysis, index, rule) == begator_a(analysis, index)


@settings(max_examples=50)
@given(MAPS, st.integers(-3, 10), st.integers(-3, 10), st.sampled_from(["FS", "MW", "WW"]))
def test_placement_check_never_crashes_and_apply_keeps_the_map(
    rows: list[str], top: int, left: int, terrains: str
) -> None:
    card = Card((top, left), (terrains, terrains[::-1]))
    before = copy.deepcopy(rows)
    found = check_placement(rows, card=card)
    assert rows == before
    if not found:
        after = apply_placement(rows, card=card)
        analysis = analyse_map(list(after.rows))
        shifted = (top + after.shift[0], left + after.shift[1])
        assert analysis.spaces[shifted].value == terrains[0]
        old = analyse_map(rows).spaces
        covered = set(card.spaces())
        for (r, c), terrain in old.items():
            if (r, c) not in covered:
                assert analysis.spaces[(r + after.shift[0], c + after.shift[1])] is terrain


def test_two_space_pick_chooses_by_size() -> None:
    analysis = analyse_map(["FFWW", "FFW."], [Token("Ann", "whalephant", ((0, 1), (0, 2)))])
    small = SideRule(points=1, two_space=TwoSpace.SMALLEST)
    large = SideRule(points=1, two_space=TwoSpace.LARGEST)
    assert (rule_score(analysis, 0, small).points, rule_score(analysis, 0, large).points) == (3, 4)


FUZZ_KEYS = [
    "players",
    "map",
    "tokens",
    "sides",
    "points",
    "solo",
    "definitions",
    "player",
    "species",
    "cells",
    "card",
    "at",
    "terrains",
    "token",
    "Ann",
    "begator",
    "A",
    "per",
    "region",
]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 9)
    | st.text(alphabet="FSWM.aAB", max_size=4)
    | st.sampled_from(["Ann", "begator", "whalephant", "A", "row", "space"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FUZZ_KEYS), inner, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=150)
@given(
    st.sampled_from(["score", "map", "placement"]),
    st.dictionaries(st.sampled_from(FUZZ_KEYS), JSON_VALUES, max_size=7),
)
def test_endpoints_answer_or_refuse_but_never_crash(name: str, body: dict[str, Any]) -> None:
    answer = _answer(name, body)
    if isinstance(answer, list):
        assert answer
        assert all(problem.message.endswith(".") for problem in answer)


def _answer(name: str, body: dict[str, Any]) -> dict[str, Any] | list[Problem]:
    """The endpoint's reply, or the problems it refused the body with."""
    try:
        return GAME.api_endpoints()[name](body)
    except InvalidStateError as invalid:
        return invalid.problems


VALID_BODIES: dict[str, dict[str, Any]] = {
    "score": state(
        [tok("Ann", "begator", (0, 1)), tok("Ben", "whalephant", (0, 2), (0, 3))],
        rows=["FFWW", "FSSW", "MMSS"],
        points={"Ben": {"pangeroo": 4}},
        definitions={"whalephant": {"A": {"points": 5, "two_space": "largest"}}},
    ),
    "map": {"map": API_MAP, "tokens": [tok("Ann", "flora", (2, 0))], "players": ["Ann"]},
    "placement": {
        "map": THREE_CARDS,
        "tokens": [tok("Ben", "flora", (0, 0))],
        "players": ["Ann", "Ben"],
        "card": {"at": [2, 0], "terrains": ["MM", "WS"]},
        "token": tok("Ann", "whalephant", (2, 0), (2, 1)),
    },
}


def _locations(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside a JSON value (the value itself excluded)."""
    children: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        children = list(value.items())
    elif isinstance(value, list):
        children = list(enumerate(value))
    found = []
    for key, child in children:
        found.append((*prefix, key))
        found += _locations(child, (*prefix, key))
    return found


@settings(max_examples=200)
@given(st.sampled_from(sorted(VALID_BODIES)), st.data())
def test_mutated_bodies_answer_or_refuse_but_never_crash(name: str, data: st.DataObject) -> None:
    body = copy.deepcopy(VALID_BODIES[name])
    assert not isinstance(_answer(name, body), list)
    *parents, last = data.draw(st.sampled_from(_locations(body)))
    holder = body
    for key in parents:
        holder = holder[key]
    holder[last] = data.draw(JSON_VALUES)
    answer = _answer(name, body)
    if isinstance(answer, list):
        assert answer
        assert all(problem.message.endswith(".") for problem in answer)


# --- play-along games stored card by card ---------------------------------------------------


def turn(at: list[int], terrains: list[str], **token: Any) -> dict[str, Any]:
    """One play-along turn (a token when ``token`` names its player)."""
    body: dict[str, Any] = {"card": {"at": at, "terrains": terrains}}
    if token:
        body["token"] = {"species": "begator", **token}
    return body


def test_play_along_cards_build_the_map_and_score_like_an_entered_one() -> None:
    cards = [
        turn([0, 0], ["FF", "WW"], player="Ann", cells=[[0, 0]]),
        turn([-2, 0], ["MM", "SS"], player="Ben", species="flora", cells=[[-2, 0]]),
    ]
    played = state(rows=[], cards=cards)
    assert GAME.validate(played) == []
    entered = state(
        rows=["MM", "SS", "FF", "WW"],
        tokens=[
            {"player": "Ann", "species": "begator", "cells": [[2, 0]]},
            {"player": "Ben", "species": "flora", "cells": [[0, 0]]},
        ],
    )
    assert GAME.score(played).to_json() == GAME.score(entered).to_json()


def test_an_illegal_card_makes_the_play_along_state_invalid() -> None:
    cards = [turn([0, 0], ["FF", "WW"]), turn([5, 5], ["FF", "WW"])]
    problems = GAME.validate(state(rows=[], cards=cards))
    assert problems == [
        Problem("cards[1].card", "Card 2: The card must share an edge with a space of the map.")
    ]
    taken = [
        turn([0, 0], ["FF", "WW"], player="Ann", cells=[[0, 0]]),
        turn([0, 2], ["FM", "MM"], player="Ben", species="flora", cells=[[0, 2]]),
    ]
    [problem] = GAME.validate(state(rows=[], cards=taken))
    assert problem.path == "cards[1].token.cells[0]"
    assert "already holds Ann's Begator" in problem.message


def test_play_along_needs_an_empty_map_field_and_known_players() -> None:
    cards = [turn([0, 0], ["FF", "WW"], player="Zed", cells=[[0, 0]])]
    messages = [p.message for p in GAME.validate(state(cards=cards))]
    assert (
        "A play-along game builds its map from its cards: leave map and tokens empty." in messages
    )
    assert 'Card 1: "Zed" is not one of the players.' in messages


def test_new_state_options_for_the_pages() -> None:
    fresh = GAME.new_state(
        ["Ann"],
        {"sides": {"owloose": "B"}, "solo": False, "play_along": True,
         "definitions": {"owloose": {"B": {"points": 1}}}},
    )  # fmt: skip
    assert fresh["solo"] is False
    assert fresh["cards"] == []
    assert fresh["definitions"] == {"owloose": {"B": {"points": 1}}}
    assert GAME.validate(fresh) == []
    assert "cards" not in GAME.new_state(["Ann"], {})


@pytest.mark.parametrize(
    ("parts", "words"),
    [
        (["map", 0], "map row 1"),
        (["map"], "the map"),
        (["tokens"], "the tokens"),
        (["cards"], "the play-along cards"),
        (["points", "Ben", "sea-dragon"], "Ben's Sea Dragon points"),
        (["sides", "begator"], "the Begator side"),
        (["definitions"], "the species definitions"),
        (["odd", 1], "odd[1]"),
    ],
)
def test_describe_path(parts: list[str | int], words: str) -> None:
    assert GAME.describe_path({}, parts) == words


@pytest.mark.parametrize(
    ("parts", "value", "shown"),
    [
        (["map", 1], "FF.W", "FF.W"),
        (["map", 1], "", "no spaces"),
        (["map"], ["FF", ".W"], "3 spaces"),
        (["tokens"], [{}], "1 token"),
        (["cards"], [], "0 cards"),
        (["points"], {"Ben": {"owloose": 4, "flora": None}}, "Ben: owloose 4"),
        (["points"], {}, "nothing"),
        (["definitions"], {"owloose": {"B": {"points": 1}}}, "owloose: B defined"),
        (["solo"], None, "nothing"),
        (["solo"], True, "True"),
    ],
)
def test_display_value(parts: list[str | int], value: Any, shown: str) -> None:
    assert GAME.display_value(parts, value) == shown


# --- what the 37 map cards can make -----------------------------------------------------


def rows_with(cells: list[tuple[int, int]]) -> list[str]:
    """Map rows with a forest space at each cell (and nothing elsewhere)."""
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    return ["".join("F" if (r, c) in cells else "." for c in range(width)) for r in range(height)]


EXTENT = "the 37 map cards make at most 74 rows or columns, and 112 together."


@pytest.mark.parametrize(
    ("rows", "span"),
    [
        (["F"] * 75, "75 rows and 1 column"),
        (["F" * 75], "1 row and 75 columns"),
        (rows_with([(i, i) for i in range(60)]), "60 rows and 60 columns"),
        (rows_with([(0, 0), (73, 39)]), "74 rows and 40 columns"),
    ],
)
def test_maps_beyond_what_the_cards_make_are_refused(rows: list[str], span: str) -> None:
    assert problems(state(rows=rows)) == [("map", f"The spaces of this map span {span}; {EXTENT}")]


@pytest.mark.parametrize(
    "rows",
    [
        ["F"] * 74,
        ["F" * 74],
        rows_with([(0, 0), (73, 37)]),  # 74 + 38 = 112
        rows_with([(0, 0), (55, 55)]),
        ["", "", "..F", "..W"],  # empty rows and columns around the spaces do not count
    ],
)
def test_maps_the_cards_can_make_pass(rows: list[str]) -> None:
    assert problems(state(rows=rows)) == []


def test_a_staircase_of_all_37_cards_reaches_the_limit() -> None:
    # Each card shares an edge with the one before, 2 rows down and 1 column right.
    cards = [{"card": {"at": [2 * n, n], "terrains": ["FF", "FF"]}} for n in range(37)]
    body = {"players": ["Ann"], "cards": cards}
    rows, _, laid = replay([TurnModel.model_validate(card) for card in cards])
    assert laid == []
    assert (len(rows), max(len(row) for row in rows)) == (74, 38)
    # Scored, a turn without a token is refused: only the 2 set-up cards carry none.
    assert {p.path for p in GAME.validate(body)} == {f"cards[{n}].token" for n in range(2, 37)}
    body["cards"] = [*cards, {"card": {"at": [74, 37], "terrains": ["FF", "FF"]}}]
    assert problems(body) == [("cards", "The box has 37 map cards, but 38 turns were entered.")]


def test_placement_beyond_what_the_cards_make_is_illegal() -> None:
    # A map of 2x2 cards in one piece spanning 74 rows is already all 37 cards: one more
    # card beyond it is refused.
    body = {"map": ["FF"] * 74, "card": {"at": [74, 0], "terrains": ["FF", "FF"]}}
    reply = placement_endpoint(body)
    assert reply["legal"] is False
    assert reply["problems"] == [
        {"path": "card", "message": "The 37 cards of the box cannot make a map this big."},
        {
            "path": "card",
            "message": f"With this card the map would span 76 rows and 2 columns; {EXTENT}",
        },
    ]


# --- readings said aloud ----------------------------------------------------------------


def reading_ids(body: dict[str, Any]) -> list[str]:
    """The ids of the readings a score answer carries."""
    return [r["id"] for r in GAME.api_endpoints()["score"](body).get("readings", [])]


#: Ann's two Flora share the joined forest of 6; Ben's lie in a water of 6 and a shore of 5.
JOINED = ["FFFWWW", "FFFWWW", "SSSSSM", "MMMMMM"]
JOINED_TOKENS = [
    tok("Ann", "flora", (0, 0)),
    tok("Ann", "flora", (1, 2)),
    tok("Ben", "flora", (0, 3)),
    tok("Ben", "flora", (2, 0)),
]


def test_two_tokens_in_a_joined_territory_are_said_when_they_decide() -> None:
    body = state(JOINED_TOKENS, rows=JOINED)
    result = GAME.api_endpoints()["score"](body)
    # Per token Ann wins (6, 6 against 6, 5); once per territory Ben would (6 against 6, 5).
    assert result["winners"] == ["Ann"]
    assert [r["id"] for r in result["readings"]] == ["oddland/tiebreak/two-tokens"]
    # Ben's shore grows to 8: he wins either way, and the reading decided nothing.
    grown = state(JOINED_TOKENS, rows=["FFFWWW", "FFFWWW", "SSSSSS", "MMMMSS"])
    assert GAME.api_endpoints()["score"](grown)["winners"] == ["Ben"]
    assert "oddland/tiebreak/two-tokens" not in reading_ids(grown)
    # Points apart: no tiebreak is compared at all.
    ahead = state(JOINED_TOKENS, rows=JOINED, points={"Ben": {"flora": 1}})
    assert "oddland/tiebreak/two-tokens" not in reading_ids(ahead)


def test_lines_past_a_gap_are_said_only_when_the_gap_changes_the_count() -> None:
    row = {"owloose": {"A": {"points": 1, "region": "row"}}}
    body = state([tok("Ann", "owloose", (0, 0))], rows=["FF.FF", "FFFFF", "FFFFF"])
    body["sides"]["owloose"] = "A"
    assert reading_ids({**body, "definitions": row}) == ["oddland/lines"]
    # Its column has no gap: both readings count the same.
    column = {"owloose": {"A": {"points": 1, "region": "column"}}}
    assert "oddland/lines" not in reading_ids({**body, "definitions": column})
    # Only mountain counts, and none lies past the gap.
    mountain = {"owloose": {"A": {"points": 1, "region": "row", "terrain": "M"}}}
    assert "oddland/lines" not in reading_ids({**body, "definitions": mountain})
    # Points typed on the scoreboard: nothing the app counted.
    typed = {**body, "definitions": row, "points": {"Ann": {"owloose": 2}}}
    assert "oddland/lines" not in reading_ids(typed)


def test_begator_a_is_said_only_when_the_app_scores_it() -> None:
    body = state([tok("Ann", "begator", (0, 0))], rows=["FFWW", "FFWW", "SSMM"])
    assert reading_ids(body) == ["oddland/species/begator"]
    defined = {**body, "definitions": {"begator": {"A": BEGATOR_A_JSON}}}
    assert reading_ids(defined) == []
    assert reading_ids({**body, "points": {"Ann": {"begator": 9}}}) == []


def test_flora_a_solo_modifier_is_said_in_solo_only() -> None:
    body = state([tok("Ann", "flora", (0, 0))], players=["Ann"], rows=["FFWW", "FFWW", "SSMM"])
    assert reading_ids(body) == ["oddland/solo", "oddland/species/flora-solo"]
    two = state([tok("Ann", "flora", (0, 0))], rows=["FFWW", "FFWW", "SSMM"])
    assert "oddland/species/flora-solo" not in reading_ids(two)


def test_a_species_limit_refusal_carries_the_token_count_reading() -> None:
    ann = [tok("Ann", key, (0, n)) for n, key in enumerate(["begator", "begator"])]
    with pytest.raises(InvalidStateError) as raised:
        GAME.api_endpoints()["score"](state(ann, rows=["FFFFFF", "FFFFFF"]))
    [refused] = raised.value.problems
    assert refused.path == "tokens[1].species"
    assert refused.reading is not None
    assert refused.reading.id == "oddland/tokens"
    # The total of 7 tokens is the rulebook's own.
    many = [tok("Ann", "flora", (0, 0)), tok("Ann", "flora", (0, 1))]
    many += [tok("Ann", key, (1, n)) for n, key in enumerate(["a", "b", "c", "d", "e", "f"])]
    with pytest.raises(InvalidStateError) as raised:
        GAME.api_endpoints()["score"](state(many, rows=["F" * 12] * 2))
    assert [(p.path, p.reading) for p in raised.value.problems] == [("tokens[7]", None)]


def test_referee_answers_carry_the_whalephant_and_set_up_readings() -> None:
    whale = tok("Ann", "whalephant", (2, 0), (2, 1))
    body = {"map": THREE_CARDS, "card": {"at": [2, 0], "terrains": ["MM", "WS"]}}
    reply = placement_endpoint({**body, "token": whale})
    assert reply["legal"]
    assert [r["id"] for r in reply["readings"]] == ["oddland/species/whalephant"]
    assert "readings" not in placement_endpoint({**body, "token": tok("Ann", "begator", (2, 0))})
    # Refused, the Whalephant still rests on the reading.
    apart = placement_endpoint({**body, "token": tok("Ann", "whalephant", (2, 0), (3, 1))})
    assert not apart["legal"]
    assert [r["id"] for r in apart["readings"]] == ["oddland/species/whalephant"]
    shifted = map_endpoint({"map": ["FF..", "FFWW", "..WW"], "tokens": []})
    assert [r["id"] for r in shifted["readings"]] == ["oddland/setup/pair"]
    assert "readings" not in map_endpoint({"map": TWO_CARDS, "tokens": []})
