"""Odd World engine: the rulebook's example, tiebreaks, validation, the series, properties."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.odd_world import (
    BIRDS,
    GAME,
    bird_points,
    not_over_warning,
    score_series,
)
from companion.games.problems import InvalidStateError
from support.odd_world import states


def player(name: str, face_down: str | None = None, **display: int) -> dict[str, Any]:
    """A player entry; bird keywords use underscores for hyphens."""
    return {
        "name": name,
        "display": {bird.replace("_", "-"): n for bird, n in display.items()},
        "face_down": face_down,
    }


def test_rulebook_scoring_example_adds_up_to_seven() -> None:
    # Top row 0, 5, 0 points; bottom row 1, 1, 0 points: 5 + 1 + 1 = 7.
    ann = player(
        "Ann",
        bird_of_paradise=2,
        hoopoe=5,
        scarlet_ibis=4,
        shoebill=1,
        hornbill=1,
        crowned_crane=2,
    )
    result = GAME.score({"players": [ann, player("Ben", cassowary=1)]})
    standing = result.standing("Ann")
    assert standing.score == 7
    assert [(line.label, line.points) for line in standing.breakdown] == [
        ("Bird-of-paradise: 2 cards (even)", 0),
        ("Hoopoe: 5 cards (odd)", 5),
        ("Scarlet ibis: 4 cards (even)", 0),
        ("Shoebill: 1 card (odd)", 1),
        ("Hornbill: 1 card (odd)", 1),
        ("Crowned crane: 2 cards (even)", 0),
    ]


def test_face_down_card_is_added_at_scoring() -> None:
    result = GAME.score(
        {"players": [player("Ann", "shoebill", shoebill=1), player("Ben", "hoopoe")]}
    )
    assert result.standing("Ann").score == 0  # two shoebills: even
    assert result.standing("Ben").score == 1


def test_most_points_wins_by_score() -> None:
    result = GAME.score({"players": [player("Ann", hoopoe=1), player("Ben", hoopoe=3)]})
    assert result.winners == ["Ben"]
    assert result.decided_by == "score"
    assert [s.rank for s in result.standings] == [1, 2]


def test_tie_broken_by_bird_species() -> None:
    ann = player("Ann", hoopoe=3)
    ben = player("Ben", hoopoe=1, shoebill=1, hornbill=1)
    result = GAME.score({"players": [ann, ben]})
    assert result.winners == ["Ben"]
    assert result.decided_by == "Bird species in display"
    assert [t.value for t in result.standing("Ben").tiebreak] == [3, 1]


def test_tie_broken_by_best_single_bird() -> None:
    ann = player("Ann", hoopoe=3, shoebill=1, hornbill=2)
    ben = player("Ben", hoopoe=1, shoebill=1, hornbill=2, cassowary=2)
    cy = player("Cy", hoopoe=1, shoebill=3, hornbill=2, cassowary=2)
    result = GAME.score({"players": [ben, ann, cy]})
    # Ann 4 points/3 species; Cy 4 points/4 species; Ben 2 points.
    assert [s.player for s in result.standings] == ["Cy", "Ann", "Ben"]
    ann2 = player("Ann", hoopoe=3, shoebill=1, hornbill=2, cassowary=2)
    result = GAME.score({"players": [cy, ann2]})
    assert result.decided_by == "shared"  # 4 points, 4 species, best bird 3 each
    ann3 = player("Ann", hoopoe=1, shoebill=1, hornbill=2, cassowary=2, king_vulture=2)
    dan = player("Dan", hoopoe=3, shoebill=1, hornbill=2, cassowary=2, king_vulture=2)
    eve = player("Eve", hoopoe=1, shoebill=1, hornbill=1, cassowary=2, king_vulture=1)
    result = GAME.score({"players": [eve, dan]})
    # Both 4 points and 5 species; Dan's best single bird is 3, Eve's 1.
    assert result.winners == ["Dan"]
    assert result.decided_by == "Best single bird"
    assert GAME.score({"players": [ann3, eve]}).standing("Ann").score == 2


def test_full_tie_shares_rank_and_keeps_seating_order() -> None:
    result = GAME.score(
        {"players": [player("Cy"), player("Ann", hoopoe=1), player("Ben", shoebill=1)]}
    )
    assert [(s.player, s.rank, s.winner) for s in result.standings] == [
        ("Ann", 1, True),
        ("Ben", 1, True),
        ("Cy", 3, False),
    ]
    assert result.decided_by == "shared"
    assert result.winners == ["Ann", "Ben"]


def test_finished_when_someone_has_all_nine_birds_with_face_down() -> None:
    eight = {bird.replace("-", "_"): 1 for bird in list(BIRDS)[:8]}
    open_game = GAME.score({"players": [player("Ann", **eight), player("Ben")]})
    assert not open_game.finished
    assert open_game.warnings == (not_over_warning(8),)
    [warning] = open_game.warnings
    assert "8 of the 72 cards are entered, so 64 are still in the draw piles" in warning
    done = GAME.score({"players": [player("Ann", "cassowary", **eight), player("Ben")]})
    assert done.finished
    assert done.warnings == ()
    assert [r.id for r in done.readings] == ["odd-world/face-down", "odd-world/end-check"]
    assert GAME.over_words(done.to_json()) == (
        "Ann's face-down card is the ninth bird: revealing it ends the game, so the app"
        " counts the game as over."
    )


def test_finished_once_every_card_is_on_the_table() -> None:
    half = {bird.replace("-", "_"): 8 for bird in list(BIRDS)[:4]}
    rest = {bird.replace("-", "_"): 8 for bird in list(BIRDS)[4:8]}
    nearly = {"players": [player("Ann", **half), player("Ben", cassowary=7, **rest)]}
    going_on = GAME.score(nearly)
    assert not going_on.finished
    assert GAME.going_on_words(going_on.to_json()) == (
        "nobody holds all nine birds yet and only 71 of the 72 cards are entered, so 1 is"
        " still in the draw piles"
    )
    every = {"players": [player("Ann", **half), player("Ben", "cassowary", cassowary=7, **rest)]}
    over = GAME.score(every)
    assert over.finished
    assert over.extra["cards_on_table"] == 72
    assert over.readings == ()  # the rules end it: both piles are empty
    assert GAME.over_words(over.to_json()) == (
        "All 72 cards are on the table: both draw piles are empty, so the game is over."
    )


@pytest.mark.parametrize(
    ("state", "path", "fragment"),
    [
        ({"players": [player("Ann")]}, "players", "2 to 5 players"),
        ({"players": [player(str(i)) for i in range(6)]}, "players", "2 to 5 players"),
        ({"players": [player("Ann"), player("ann")]}, "players[1].name", "names must differ"),
        ({"players": [player(""), player("Ben")]}, "players[0].name", "needs a name"),
        ({"players": [player("A" * 41), player("Ben")]}, "players[0].name", "40 characters"),
        ({"players": [player("Ann", dodo=1), player("Ben")]}, "players[0].display.dodo", "not an"),
        (
            {"players": [player("Ann", hoopoe=-1), player("Ben")]},
            "players[0].display.hoopoe",
            "negative",
        ),
        (
            {"players": [player("Ann", hoopoe=9), player("Ben")]},
            "players[0].display.hoopoe",
            "Only 8 Hoopoe",
        ),
        (
            {"players": [player("Ann", hoopoe=5), player("Ben", hoopoe=4)]},
            "players[1].display.hoopoe",
            "Only 8 Hoopoe cards exist, but 9 were entered.",
        ),
        (
            {"players": [player("Ann", "hoopoe", hoopoe=4), player("Ben", hoopoe=4)]},
            "players[1].display.hoopoe",
            "but 9 were entered",
        ),
        ({"players": [player("Ann", "dodo"), player("Ben")]}, "players[0].face_down", "not an"),
        (
            {"players": [{"name": "Ann", "display": {"hoopoe": "3"}}, player("B")]},
            "players[0].display.hoopoe",
            "whole number",
        ),
        (
            {"players": [{"name": "Ann", "colour": "red"}, player("B")]},
            "players[0].colour",
            "not known",
        ),
        ({}, "players", "required"),
    ],
)
def test_invalid_states_name_the_field(state: dict[str, Any], path: str, fragment: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        GAME.score(state)
    problems = {p.path: p.message for p in caught.value.problems}
    assert path in problems
    assert fragment in problems[path]
    assert problems[path].endswith(".")


def test_every_problem_is_reported_at_once() -> None:
    state = {"players": [player("Ann", dodo=1, hoopoe=-2), player("ann", "emu")]}
    paths = {p.path for p in GAME.validate(state)}
    assert paths == {
        "players[0].display.dodo",
        "players[0].display.hoopoe",
        "players[1].name",
        "players[1].face_down",
    }


def test_series_sums_scores_and_ties_share() -> None:
    g1 = {"players": [player("Ann", hoopoe=3), player("Ben", hoopoe=1)]}
    g2 = {"players": [player("ann", hoopoe=1), player("Ben", hoopoe=3)]}
    result = score_series({"games": [g1, g2]})
    assert [(s.player, s.score, s.rank) for s in result.standings] == [
        ("Ann", 4, 1),
        ("Ben", 4, 1),
    ]
    assert result.decided_by == "shared"
    assert [line.label for line in result.standings[0].breakdown] == ["Game 1", "Game 2"]
    assert not result.finished
    assert len(result.extra["games"]) == 2


def test_series_is_finished_after_three_finished_games() -> None:
    nine = {bird.replace("-", "_"): 1 for bird in BIRDS}
    game = {"players": [player("Ann", **nine), player("Ben", hoopoe=1)]}
    result = score_series({"games": [game, game, game]})
    assert result.finished
    assert result.winners == ["Ann"]
    assert result.standing("Ann").score == 27


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"games": []}, "games"),
        ({"games": [{"players": [player("A"), player("B")]}] * 4}, "games"),
        (
            {
                "games": [
                    {"players": [player("A"), player("B")]},
                    {"players": [player("A"), player("C")]},
                ]
            },
            "games[1].players",
        ),
        (
            {"games": [{"players": [player("A", hoopoe=9), player("B")]}]},
            "games[0].players[0].display.hoopoe",
        ),
        ({"games": "x"}, "games"),
    ],
)
def test_series_problems(body: dict[str, Any], path: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        score_series(body)
    assert path in {p.path for p in caught.value.problems}


def test_parse_edit_accepts_counts_and_birds_only() -> None:
    assert GAME.parse_edit(["players", 0, "display", "hoopoe"], "3") == 3
    assert GAME.parse_edit(["players", 1, "face_down"], "hoopoe") == "hoopoe"
    assert GAME.parse_edit(["players", 1, "face_down"], "") is None
    for path, raw in [
        (["players", 0, "display", "hoopoe"], "9"),
        (["players", 0, "display", "hoopoe"], "-1"),
        (["players", 0, "display", "hoopoe"], "x"),
        (["players", 0, "display", "dodo"], "1"),
        (["players", 0, "name"], "Eve"),
        (["players", 0, "face_down"], "emu"),
    ]:
        with pytest.raises(InvalidStateError):
            GAME.parse_edit(path, raw)


# --- properties ----------------------------------------------------------------------


@given(states())
def test_breakdown_adds_up_to_score(state: dict[str, Any]) -> None:
    for standing in GAME.score(state).standings:
        assert sum(line.points for line in standing.breakdown) == standing.score
        assert all(bird_points(line.points) == line.points for line in standing.breakdown)


@given(states())
def test_ranks_are_consistent_with_scores(state: dict[str, Any]) -> None:
    standings = GAME.score(state).standings
    for better, worse in itertools.pairwise(standings):
        assert better.score >= worse.score
        assert better.rank <= worse.rank
        if better.score > worse.score:
            assert worse.rank > better.rank
    assert standings[0].rank == 1
    assert [s.winner for s in standings] == [s.rank == 1 for s in standings]


@given(states())
def test_input_is_not_mutated(state: dict[str, Any]) -> None:
    before = copy.deepcopy(state)
    GAME.score(state)
    assert state == before


@given(states(), st.randoms(use_true_random=False))
def test_seating_order_does_not_change_scores(state: dict[str, Any], rng: Any) -> None:
    shuffled = {"players": list(state["players"])}
    rng.shuffle(shuffled["players"])
    scores = {s.player: (s.score, s.rank) for s in GAME.score(state).standings}
    assert {s.player: (s.score, s.rank) for s in GAME.score(shuffled).standings} == scores
