"""Tests for the Owl About engine: rulebook examples, variants, validation and properties.

No Flask here: the engine is pure and is called directly.
"""

from __future__ import annotations

import ast
import copy
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import owl_about as oa
from companion.games.owl_about import readings as oa_readings
from companion.games.problems import InvalidStateError, Problem
from support.owl_about import (
    FAR_TARGET,
    FULL_DECK,
    FUZZ_STATES,
    FUZZ_TRICK_REQUESTS,
    MODES,
    TABLE,
    game,
    games,
    trophies_round,
)

GAME = oa.GAME
TRIO = ["Ann", "Ben", "Cy"]


# --- helpers -------------------------------------------------------------------------------------


def is_sentence(message: str) -> bool:
    """A message a player reads: starts with a capital letter, ends with a full stop."""
    return message[:1].isupper() and message.endswith(".")


def problems_of(state: object) -> list[Problem]:
    problems = GAME.validate(state)
    with pytest.raises(InvalidStateError):
        GAME.score(state)
    return problems


def problem_at(problems: Sequence[Problem], path: str) -> Problem:
    """The problem at a path; fails with every problem listed when there is none."""
    found = [p for p in problems if p.path == path]
    assert found, f"no problem at {path!r}: {problems}"
    assert all(is_sentence(p.message) for p in found), found
    return found[0]


def chained_tricks(
    players: Sequence[str], first_lead: str, card_rows: Sequence[Sequence[str]], mode: str
) -> list[dict[str, Any]]:
    """Tricks whose leads follow the winners, as a table would play them."""
    tricks = []
    lead = first_lead
    for cards in card_rows:
        tricks.append({"lead": lead, "cards": list(cards)})
        winner = oa.trick_progress(mode=mode, players=players, lead=lead, cards=cards).winner
        assert winner is not None
        lead = winner
    return tricks


def scores(state: object) -> dict[str, int]:
    return {s.player: s.score for s in GAME.score(state).standings}


def round_json(state: object, index: int = 0) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = GAME.score(state).extra["rounds"]
    return rounds[index]


# --- game facts ----------------------------------------------------------------------------------


def test_deck_has_36_cards_of_which_4_are_night_cards() -> None:
    assert oa.DECK_SIZE == 36
    assert sum(1 for c in oa.CARDS.values() if c.night) == 4
    assert sum(n for code, n in oa.DECK.items() if not oa.card(code).night) == 32


@pytest.mark.parametrize("row", oa.player_chart(), ids=lambda r: f"{r.players}p")
def test_every_chart_row_deals_the_whole_deck(row: oa.ChartRow) -> None:
    assert row.players * row.hand_cards + row.face_up + row.face_down == oa.DECK_SIZE


def test_four_players_play_eight_tricks_and_the_targets_match_the_chart() -> None:
    assert oa.PLAYER_CHART[4].tricks == 8
    assert [oa.default_target(n) for n in range(3, 7)] == [15, 10, 10, 10]
    assert oa.player_chart()[0].to_json() == {
        "players": 3,
        "hand_cards": 9,
        "face_up": 3,
        "face_down": 6,
        "target": 15,
    }


def test_unknown_card_code_raises_value_error() -> None:
    with pytest.raises(ValueError, match="no Owl About card"):
        oa.card("11")


# --- fighting power and trick winners (rulebook examples) ----------------------------------------

RULEBOOK_TRICK = ["6", "2", "8", "10"]  # Miu, Carol, Romi, Tom


def test_rulebook_trick_the_2_becomes_12_fp_and_wins() -> None:
    outcome = oa.trick_outcome(oa.Mode.BASIC, RULEBOOK_TRICK)
    assert outcome.fp == (6, 12, 8, 10)
    assert outcome.winner == 1  # Carol's 2
    progress = oa.trick_progress(mode="basic", players=TABLE, lead="Miu", cards=RULEBOOK_TRICK)
    assert (progress.winner, progress.trophies) == ("Carol", 1)


def test_rulebook_tie_example_the_first_8_wins() -> None:
    progress = oa.trick_progress(
        mode="basic", players=TABLE, lead="Miu", cards=["6", "2", "8", "8"]
    )
    assert progress.fp == (6, 2, 8, 8)
    assert progress.winner == "Romi"


def test_rulebook_quick_mode_example_no_unique_fp_so_the_lead_wins() -> None:
    outcome = oa.trick_outcome(oa.Mode.QUICK, ["2", "2", "N4", "6"])
    assert outcome.fp == (2, 2, 6, 6)
    assert outcome.winner == oa.LEAD


def test_quick_mode_the_highest_unique_fp_wins() -> None:
    # 8 is played twice, so the highest single FP is the 6.
    assert oa.trick_outcome("quick", ["8", "3", "8", "6"]).winner == 3
    assert oa.trick_outcome("quick", ["8", "3", "9", "6"]).winner == 2


@pytest.mark.parametrize(
    ("code", "trick", "fp"),
    [
        ("1", ["1", "9"], 11),
        ("2", ["2", "10"], 12),
        ("1", ["1", "8"], 1),
        ("N4", ["N4"], 6),
        ("N7", ["N7", "10"], 9),
        ("10", ["10", "1"], 10),
        ("3", ["3", "9"], 3),
    ],
)
def test_fighting_power(code: str, trick: list[str], fp: int) -> None:
    assert oa.fighting_power(code, trick) == fp


def test_a_night_card_beats_the_day_card_of_the_next_speed_up() -> None:
    progress = oa.trick_progress(mode="basic", players=TRIO, lead="Ann", cards=["7", "N6", "5"])
    assert progress.fp == (7, 8, 5)
    assert (progress.winner, progress.trophies) == ("Ben", 3)


def test_partial_trick_names_the_player_winning_so_far_and_the_next_player() -> None:
    empty = oa.trick_progress(mode="basic", players=TABLE, lead="Romi", cards=[])
    assert (empty.winner, empty.next_player, empty.complete) == (None, "Romi", False)
    half = oa.trick_progress(mode="basic", players=TABLE, lead="Romi", cards=["5", "9"])
    assert (half.winner, half.next_player, half.seats[:2]) == ("Tom", "Miu", ("Romi", "Tom"))
    with pytest.raises(ValueError, match="one card per player"):
        oa.trick_progress(mode="basic", players=TRIO, lead="Ann", cards=["1", "2", "3", "4"])


# --- play rules (rulebook examples) --------------------------------------------------------------


def test_rulebook_play_example_every_choice_is_legal() -> None:
    hands = {"Miu": ["6", "N6", "3"], "Carol": ["2", "5"], "Romi": ["8", "3"], "Tom": ["8", "10"]}
    assert oa.legal_cards(hands["Miu"], [], mode="basic") == ["6", "3"]
    assert oa.legal_cards(hands["Carol"], ["6"], mode="basic") == ["2", "5"]
    assert oa.legal_cards(hands["Romi"], ["6", "2"], mode="basic") == ["8"]
    assert oa.legal_cards(hands["Tom"], ["6", "2", "8"], mode="basic") == ["8", "10"]


def test_rulebook_night_card_example() -> None:
    assert oa.rule_breaks("N6", hand=["6", "N6"], played_before=[], mode="basic") == [
        oa.RuleBreak.NIGHT
    ]
    assert oa.rule_breaks("N6", hand=["5", "N6"], played_before=[], mode="basic") == []


def test_a_night_card_counts_its_number_as_speed_for_the_follow_rule() -> None:
    assert oa.rule_breaks("3", hand=["3", "N6"], played_before=["6"], mode="basic") == [
        oa.RuleBreak.FOLLOW
    ]
    assert oa.rule_breaks("3", hand=["3", "N5"], played_before=["6"], mode="basic") == []


# --- the trick endpoint --------------------------------------------------------------------------


def trick_request(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "mode": "basic",
        "lead": "Miu",
        "players": list(TABLE),
        "cards": list(RULEBOOK_TRICK),
    }
    body.update(changes)
    return body


def test_trick_endpoint_answers_the_api_example() -> None:
    handler = GAME.api_endpoints()["trick"]
    answer = handler(trick_request(hands={"Carol": ["2", "5"]}))
    assert answer["winner"] == "Carol"
    assert answer["fp"] == [6, 12, 8, 10]
    assert answer["trophies"] == 1
    assert answer["problems"] == []
    assert (answer["complete"], answer["next"], answer["playable"]) == (True, None, None)
    json.dumps(answer)


def test_trick_endpoint_with_every_hand_of_the_rulebook_example_finds_nothing_wrong() -> None:
    hands = {"Miu": ["6", "N6"], "Carol": ["2", "5"], "Romi": ["8", "3"], "Tom": ["8", "10"]}
    assert oa.check_trick(trick_request(hands=hands))["problems"] == []


def test_trick_endpoint_reports_the_follow_rule() -> None:
    answer = oa.check_trick(trick_request(cards=["6", "2", "3", "10"], hands={"Romi": ["8", "3"]}))
    assert answer["winner"] == "Carol"
    [problem] = answer["problems"]
    assert problem["path"] == "cards[2]"
    assert "Romi" in problem["message"]
    assert is_sentence(problem["message"])


def test_trick_endpoint_reports_the_night_rule_even_for_the_lead() -> None:
    answer = oa.check_trick(
        trick_request(cards=["N6", "2", "8", "10"], hands={"Miu": ["6", "N6"]})
    )
    [problem] = answer["problems"]
    assert problem["path"] == "cards[0]"
    assert "day 6" in problem["message"]
    assert is_sentence(problem["message"])


def test_trick_endpoint_quick_mode_lets_everyone_play_any_one_card() -> None:
    # The rulebook's quick mode: every player plays any one card at once, so neither the
    # follow rule nor the night rule applies (Tom may play his night 7 holding a day 7).
    hands = {"Romi": ["8", "3"], "Tom": ["N7", "7"]}
    answer = oa.check_trick(trick_request(mode="quick", cards=["6", "2", "3", "N7"], hands=hands))
    assert answer["problems"] == []
    basic = oa.check_trick(trick_request(mode="basic", cards=["6", "2", "8", "N7"], hands=hands))
    assert [p["path"] for p in basic["problems"]] == ["cards[3]"]


def test_trick_endpoint_advanced_mode_applies_the_follow_rule() -> None:
    answer = oa.check_trick(
        trick_request(mode="advanced", cards=["6", "2", "3", "10"], hands={"Romi": ["8", "3"]})
    )
    assert [p["path"] for p in answer["problems"]] == ["cards[2]"]


def test_trick_endpoint_partial_trick_names_the_next_player_and_their_legal_cards() -> None:
    answer = oa.check_trick(trick_request(cards=["6", "2"], hands={"Romi": ["8", "3", "N7", "7"]}))
    assert (answer["winner"], answer["complete"], answer["next"]) == ("Miu", False, "Romi")
    assert answer["playable"] == ["8", "7"]
    assert answer["fp"] == [6, 2]


def test_trick_endpoint_trophies_count_night_cards() -> None:
    answer = oa.check_trick(trick_request(cards=["N5", "N6", "3", "1"]))
    assert (answer["winner"], answer["trophies"]) == ("Carol", 5)


def test_trick_endpoint_finds_names_regardless_of_case() -> None:
    answer = oa.check_trick(trick_request(lead="miu", hands={"carol": ["2", "5"]}))
    assert answer["winner"] == "Carol"


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"lead": "Zed"}, "lead"),
        ({"mode": "turbo"}, "mode"),
        ({"players": ["Miu", "Carol"], "cards": ["6", "2"]}, "players"),
        ({"players": ["Miu", "Carol", "miu", "Tom"]}, "players[2]"),
        ({"cards": []}, "cards"),
        ({"cards": ["6", "2", "8", "10", "3"]}, "cards"),
        ({"cards": ["6", "11", "8", "10"]}, "cards[1]"),
        ({"cards": ["9", "9", "9"]}, "cards[2]"),
        ({"hands": {"Zed": ["2"]}}, "hands.Zed"),
        ({"hands": {"Carol": ["5", "7"]}}, "hands.Carol"),
        ({"hands": {"Carol": ["2", "X"]}}, "hands.Carol[1]"),
        ({"hands": {"Carol": ["2"] + ["3"] * 8}}, "hands.Carol"),
        ({"hands": {"Carol": ["2", "10", "10"]}}, "cards[3]"),
        ({"hands": {"Carol": ["2", "10"], "Tom": ["10"], "Romi": ["8", "10"]}}, "hands.Romi[1]"),
        ({"hands": {"Carol": ["2"], "carol": ["2"]}}, "hands.carol"),
        ({"cards": "6 2 8 10"}, "cards"),
        ({"extra": 1}, "extra"),
    ],
)
def test_trick_endpoint_rejects_impossible_requests(changes: dict[str, Any], path: str) -> None:
    with pytest.raises(InvalidStateError) as raised:
        oa.check_trick(trick_request(**changes))
    problem_at(raised.value.problems, path)


# --- round scoring -------------------------------------------------------------------------------


def test_rulebook_scoring_example() -> None:
    trophies = {"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0}
    assert oa.trophy_vp(trophies) == {"Miu": 4, "Carol": 1, "Tom": 1, "Romi": 4}
    state = game([trophies_round(trophies)])
    assert scores(state) == {"Miu": 4, "Carol": 1, "Tom": 1, "Romi": 4}
    assert round_json(state)["vp"] == {"Miu": 4, "Carol": 1, "Romi": 4, "Tom": 1}


def test_tied_most_trophies_both_gain_that_many() -> None:
    assert oa.trophy_vp({"A": 5, "B": 5, "C": 2}) == {"A": 5, "B": 5, "C": 3}


def test_trick_by_trick_round_counts_tricks_and_night_cards() -> None:
    rows = [RULEBOOK_TRICK, ["N5", "3", "1", "4"], ["7", "N7", "1", "2"]]
    state = game([{"tricks": chained_tricks(TABLE, "Miu", rows, "basic")}])
    played = round_json(state)
    # Carol takes the 2/12 trick and leads; the Night 5 (7 FP) is Carol's; Night 7 is Romi's.
    assert [t["winner"] for t in played["tricks"]] == ["Carol", "Carol", "Romi"]
    assert played["trophies"] == {"Miu": 0, "Carol": 4, "Romi": 3, "Tom": 0}
    assert played["night_cards"] == {"Miu": 0, "Carol": 1, "Romi": 1, "Tom": 0}
    assert played["vp"] == {"Miu": 4, "Carol": 4, "Romi": 1, "Tom": 4}
    assert played["complete"] is False


def test_rulebook_trick_winner_leads_the_next_trick() -> None:
    tricks = [
        {"lead": "Miu", "cards": RULEBOOK_TRICK},
        {"lead": "Carol", "cards": ["3", "4", "5", "1"]},
    ]
    assert GAME.validate(game([{"tricks": tricks}])) == []


def test_penalties_add_vp_to_the_round() -> None:
    state = game([trophies_round({"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0}, Tom=2)])
    assert scores(state)["Tom"] == 3
    assert round_json(state)["penalties"] == {"Miu": 0, "Carol": 0, "Romi": 0, "Tom": 2}


def test_penalty_keys_match_names_regardless_of_case() -> None:
    state = game([trophies_round({"miu": 4, "CAROL": 3, "Tom": 3}, tom=1)])
    assert scores(state) == {"Miu": 4, "Carol": 1, "Tom": 2, "Romi": 4}


def test_missing_trophy_count_means_zero() -> None:
    state = game([trophies_round({"Miu": 8})])
    assert scores(state) == {"Miu": 8, "Carol": 8, "Romi": 8, "Tom": 8}


# --- variants ------------------------------------------------------------------------------------

#: Three tricks in which Ann collects three night cards (as lead, with two 1s or 3s).
THREE_NIGHTS = [["N7", "1", "1"], ["N6", "1", "1"], ["N5", "3", "3"]]


def test_same_speed_gives_the_trick_winner_one_vp() -> None:
    tricks = chained_tricks(TRIO, "Ann", [["6", "N6", "6"], ["2", "3", "4"]], "advanced")
    state = game([{"tricks": tricks}], players=TRIO, mode="advanced", variants=["same-speed"])
    played = round_json(state)
    assert played["tricks"][0]["same_speed"] is True
    # Ben's Night 6 takes the same-speed trick; Ann's 4 takes the next one.
    assert played["trophies"] == {"Ann": 1, "Ben": 3, "Cy": 0}
    assert played["same_speed"] == {"Ann": 0, "Ben": 1, "Cy": 0}
    assert played["vp"] == {"Ann": 2, "Ben": 3 + 1, "Cy": 3}


def test_same_speed_counts_for_the_overridden_winner() -> None:
    tricks = [{"lead": "Ann", "cards": ["6", "N6", "6"], "winner": "Cy"}]
    state = game([{"tricks": tricks}], players=TRIO, mode="advanced", variants=["same-speed"])
    assert round_json(state)["same_speed"] == {"Ann": 0, "Ben": 0, "Cy": 1}


def test_same_speed_is_off_unless_chosen() -> None:
    tricks = chained_tricks(TRIO, "Ann", [["6", "N6", "6"]], "advanced")
    state = game([{"tricks": tricks}], players=TRIO, mode="advanced")
    assert round_json(state)["same_speed"] == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert scores(state) == {"Ann": 3, "Ben": 3, "Cy": 3}


def test_night_collection_three_night_cards_void_the_round_vp() -> None:
    tricks = chained_tricks(TRIO, "Ann", THREE_NIGHTS, "advanced")
    state = game(
        [{"tricks": tricks}], players=TRIO, mode="advanced", variants=["night-collection"]
    )
    played = round_json(state)
    assert played["trophies"] == {"Ann": 9, "Ben": 0, "Cy": 0}
    assert played["night_collection"] == {"Ann": "round-voided"}
    assert scores(state) == {"Ann": 0, "Ben": 9, "Cy": 9}


def test_night_collection_is_off_unless_chosen() -> None:
    tricks = chained_tricks(TRIO, "Ann", THREE_NIGHTS, "advanced")
    state = game([{"tricks": tricks}], players=TRIO, mode="advanced")
    assert scores(state)["Ann"] == 9


def test_a_voided_round_keeps_same_speed_bonuses_and_penalties() -> None:
    rows = [*THREE_NIGHTS, ["6", "6", "6"]]
    tricks = chained_tricks(TRIO, "Ann", rows, "advanced")
    variants = ["same-speed", "night-collection"]
    state = game(
        [{"tricks": tricks, "penalties": {"Ann": 2}}],
        players=TRIO,
        mode="advanced",
        variants=variants,
    )
    played = round_json(state)
    assert played["same_speed"]["Ann"] == 1
    assert played["vp"]["Ann"] == 1 + 2  # trophy VP voided; bonus and penalty stay
    assert scores(state)["Ann"] == 3


def test_night_collection_all_four_night_cards_reset_the_total() -> None:
    rows = [*THREE_NIGHTS, ["N4", "2", "2"]]
    tricks = chained_tricks(TRIO, "Ann", rows, "advanced")
    state = game(
        [
            trophies_round({"Ann": 5, "Ben": 2, "Cy": 2}),
            {"tricks": tricks, "penalties": {"Ann": 1}},
        ],
        players=TRIO,
        mode="advanced",
        variants=["night-collection"],
    )
    result = GAME.score(state)
    ann = result.standing("Ann")
    assert ann.score == 0
    assert [(line.label, line.points) for line in ann.breakdown] == [
        ("Round 1", 5),
        ("Round 2", 1),
        ("Round 2: night collection reset", -6),
    ]
    rounds = result.extra["rounds"]
    assert rounds[1]["night_collection"] == {"Ann": "total-reset"}
    assert rounds[1]["totals"] == {"Ann": 0, "Ben": 3 + 12, "Cy": 3 + 12}
    assert result.winners == ["Ann"]


def test_variants_cannot_be_applied_to_a_round_entered_as_trophies() -> None:
    state = game(
        [trophies_round({"Ann": 9, "Ben": 0, "Cy": 0})],
        players=TRIO,
        mode="advanced",
        variants=["night-collection"],
    )
    result = GAME.score(state)
    assert result.standing("Ann").score == 9
    assert any("variants could not be applied" in w for w in result.warnings)


# --- the winner override -------------------------------------------------------------------------


def test_override_gives_the_trick_and_the_next_lead_to_the_named_player() -> None:
    tricks = [
        {"lead": "Miu", "cards": ["6", "N5", "8", "10"], "winner": "tom"},
        {"lead": "Tom", "cards": ["5", "4", "3", "1"]},
    ]
    state = game([{"tricks": tricks}], mode="advanced")
    played = round_json(state)
    assert [t["winner"] for t in played["tricks"]] == ["Tom", "Tom"]
    assert played["trophies"]["Tom"] == 3 + 1
    # FP are still reported as played: the override records a special effect.
    assert played["tricks"][0]["fp"] == [6, 7, 8, 10]


def test_lead_after_an_override_must_be_the_overridden_winner() -> None:
    tricks = [
        {"lead": "Miu", "cards": ["6", "N5", "8", "10"], "winner": "Tom"},
        {"lead": "Miu", "cards": ["3", "4", "5", "1"]},
    ]
    problem = problem_at(
        problems_of(game([{"tricks": tricks}], mode="advanced")), "rounds[0].tricks[1].lead"
    )
    assert "Tom" in problem.message


# --- game end ------------------------------------------------------------------------------------


FIRST_ROUND = {"Miu": 4, "Carol": 3, "Tom": 3, "Romi": 0}  # 4, 1, 1, 4 VP
SECOND_ROUND = {"Miu": 8, "Carol": 0, "Tom": 0, "Romi": 0}  # 8, 8, 8, 8 VP


def test_game_ends_when_someone_reaches_the_target_and_fewest_vp_win_shared() -> None:
    state = game([trophies_round(FIRST_ROUND), trophies_round(SECOND_ROUND)], target=None)
    result = GAME.score(state)
    assert result.finished is True
    assert result.extra["target"] == 10
    assert [(s.player, s.score, s.rank) for s in result.standings] == [
        ("Carol", 9, 1),
        ("Tom", 9, 1),
        ("Miu", 12, 3),
        ("Romi", 12, 3),
    ]
    assert (result.winners, result.decided_by) == (["Carol", "Tom"], "shared")
    assert not any("target" in w for w in result.warnings)


def test_a_single_lowest_total_wins_by_score() -> None:
    state = game([trophies_round(FIRST_ROUND, Tom=1), trophies_round(SECOND_ROUND)], target=None)
    result = GAME.score(state)
    assert (result.winners, result.decided_by) == (["Carol"], "score")


def test_game_goes_on_below_the_target() -> None:
    state = game([trophies_round(FIRST_ROUND), trophies_round(SECOND_ROUND)], target=13)
    result = GAME.score(state)
    assert result.finished is False
    assert any("13 VP" in w for w in result.warnings)


def test_three_players_default_to_a_target_of_15() -> None:
    state = game([trophies_round({"Ann": 14, "Ben": 1, "Cy": 2})], players=TRIO, target=None)
    result = GAME.score(state)
    assert (result.extra["target"], result.finished) == (15, False)
    state["rounds"].append(trophies_round({"Ann": 9}))
    assert GAME.score(state).finished is True


def test_reaching_the_target_exactly_ends_the_game() -> None:
    assert GAME.score(game([trophies_round(FIRST_ROUND)], target=4)).finished is True


def test_a_round_after_the_end_of_the_game_is_a_problem() -> None:
    rounds = [
        trophies_round(FIRST_ROUND),
        trophies_round(SECOND_ROUND),
        trophies_round(FIRST_ROUND),
    ]
    problems = problems_of(game(rounds, target=10))
    assert [p.path for p in problems] == ["rounds[2]"]
    assert "round 2" in problems[0].message


def test_an_unfinished_round_does_not_end_the_game() -> None:
    tricks = chained_tricks(TRIO, "Ann", [["N7", "1", "1"]], "basic")
    result = GAME.score(game([{"tricks": tricks}], players=TRIO, target=1))
    assert result.finished is False
    assert any("1 of 9 tricks" in w for w in result.warnings)


def test_no_rounds_yet_is_a_shared_lead_at_zero() -> None:
    result = GAME.score(game([]))
    assert [s.score for s in result.standings] == [0, 0, 0, 0]
    assert (result.decided_by, result.finished, result.extra["rounds"]) == ("shared", False, [])


# --- warnings about wrong cards proved by the recorded tricks ------------------------------------


def test_recorded_tricks_reveal_a_broken_follow_rule() -> None:
    # Romi plays a 3 below the 6 and later plays an 8: the 8 was in hand all along.
    rows = [["6", "2", "3", "1"], ["4", "5", "8", "2"]]
    result = GAME.score(game([{"tricks": chained_tricks(TABLE, "Miu", rows, "basic")}]))
    [warning] = [w for w in result.warnings if "trick 1" in w]
    assert warning.startswith("Round 1, trick 1: With a card of speed 6 or faster in hand, Romi")
    assert warning.endswith(oa.WRONG_CARD_REMINDER)


def test_recorded_tricks_reveal_a_broken_night_rule_only_in_basic_mode() -> None:
    # Quick mode lets every player play any one card; advanced mode's effects may
    # override the rule (the recorded tricks cannot tell).
    rows = [["N6", "2", "3", "1"], ["6", "5", "4", "2"]]
    for mode, expected in (("basic", 1), ("quick", 0), ("advanced", 0)):
        tricks = chained_tricks(TABLE, "Miu", rows, mode)
        warnings = GAME.score(game([{"tricks": tricks}], mode=mode)).warnings
        assert len([w for w in warnings if "Night 6" in w]) == expected, mode


def test_inconsistent_trophy_total_is_a_warning() -> None:
    result = GAME.score(game([trophies_round({"Miu": 3, "Carol": 2})]))
    assert any("add up to 5" in w for w in result.warnings)
    fine = GAME.score(game([trophies_round({"Miu": 8, "Carol": 2})]))  # 8 tricks + 1 night
    assert not any("add up" in w for w in fine.warnings)


# --- validation ----------------------------------------------------------------------------------


def full_deck_tricks(players: Sequence[str], count: int) -> list[dict[str, Any]]:
    """``count`` legal-lead tricks dealt from the deck in order (no card over its copies)."""
    deck = [code for code, copies in oa.DECK.items() for _ in range(copies)]
    size = len(players)
    rows = [deck[i * size : (i + 1) * size] for i in range(count)]
    return chained_tricks(players, players[0], rows, "basic")


def one_trick_state(**trick: Any) -> dict[str, Any]:
    base = {"lead": "Miu", "cards": list(RULEBOOK_TRICK)}
    base.update(trick)
    return game([{"tricks": [base]}])


@pytest.mark.parametrize(
    ("state", "path"),
    [
        (game([], players=["Ann", "Ben"]), "players"),
        (game([], players=[f"P{i}" for i in range(7)]), "players"),
        (game([], players=["Ann", "Ben", " ann "]), "players[2]"),
        (game([], players=["Ann", "Ben", ""]), "players[2]"),
        (game([], mode="turbo"), "mode"),
        (game([], mode="advanced", variants=["same-speed", "double-owl"]), "variants[1]"),
        (game([], mode="basic", variants=["same-speed"]), "variants"),
        (game([], mode="quick", variants=["night-collection"]), "variants"),
        (game([], target=0), "target"),
        (one_trick_state(cards=["6", "2", "11", "10"]), "rounds[0].tricks[0].cards[2]"),
        (one_trick_state(cards=["6", "n4", "8", "10"]), "rounds[0].tricks[0].cards[1]"),
        (one_trick_state(cards=["6", "2", "8"]), "rounds[0].tricks[0].cards"),
        (one_trick_state(cards=["6", "2", "8", "10", "1"]), "rounds[0].tricks[0].cards"),
        (one_trick_state(lead="Zed"), "rounds[0].tricks[0].lead"),
        (one_trick_state(winner="Tom"), "rounds[0].tricks[0].winner"),
        (game([{"tricks": [], "trophies": {}}]), "rounds[0]"),
        (game([{"penalties": {}}]), "rounds[0]"),
        (game([{"trophies": None, "tricks": None}]), "rounds[0]"),
        (game([trophies_round({"Miu": -1})]), "rounds[0].trophies.Miu"),
        (game([trophies_round({"Miu": 17})]), "rounds[0].trophies.Miu"),
        (game([trophies_round({"Zed": 2})]), "rounds[0].trophies.Zed"),
        (game([trophies_round({"Miu": 2, "miu": 3})]), "rounds[0].trophies.miu"),
        (game([trophies_round({}, Zed=1)]), "rounds[0].penalties.Zed"),
        (game([trophies_round({}, Tom=-1)]), "rounds[0].penalties.Tom"),
        (game([{"tricks": full_deck_tricks(TABLE, 9)}]), "rounds[0].tricks"),
        (game([{"tricks": full_deck_tricks(TRIO, 10)}], players=TRIO), "rounds[0].tricks"),
    ],
)
def test_each_impossible_state_has_a_problem_at_its_path(state: dict[str, Any], path: str) -> None:
    problem_at(problems_of(state), path)


def test_more_copies_of_a_card_in_a_round_than_the_deck_has() -> None:
    tricks = [
        {"lead": "Miu", "cards": ["9", "1", "2", "3"]},
        {"lead": "Carol", "cards": ["9", "N4", "4", "1"]},
        {"lead": "Carol", "cards": ["9", "N4", "4", "1"]},
    ]
    problems = problems_of(game([{"tricks": tricks}]))
    nine = problem_at(problems, "rounds[0].tricks[2].cards[0]")
    assert nine.message == 'Only 2 "9" cards exist, but 3 were played in this round.'
    night = problem_at(problems, "rounds[0].tricks[2].cards[1]")
    assert night.message == 'Only 1 "Night 4" card exists, but 2 were played in this round.'


def test_the_same_card_may_come_back_in_the_next_round() -> None:
    round_ = {"tricks": chained_tricks(TABLE, "Miu", [["9", "9", "N4", "1"]], "basic")}
    assert GAME.validate(game([round_, copy.deepcopy(round_)])) == []


def test_a_lead_who_did_not_take_the_previous_trick_is_a_problem() -> None:
    tricks = [
        {"lead": "Miu", "cards": RULEBOOK_TRICK},
        {"lead": "Tom", "cards": ["3", "4", "5", "1"]},
    ]
    problem = problem_at(problems_of(game([{"tricks": tricks}])), "rounds[0].tricks[1].lead")
    assert problem.message == (
        "The previous trick went to Carol, so Carol leads this one, not Tom."
    )


def test_the_first_trick_of_every_round_may_have_any_lead() -> None:
    rounds = [
        {"tricks": [{"lead": "Tom", "cards": ["1", "2", "3", "4"]}]},
        {"tricks": [{"lead": "Carol", "cards": ["1", "2", "3", "4"]}]},
    ]
    assert GAME.validate(game(rounds)) == []


def test_an_override_outside_advanced_mode_is_a_problem() -> None:
    problem = problem_at(problems_of(one_trick_state(winner="Tom")), "rounds[0].tricks[0].winner")
    assert "advanced mode" in problem.message


def test_an_override_naming_nobody_is_a_problem() -> None:
    state = one_trick_state(winner="Zed")
    state["mode"] = "advanced"
    problem = problem_at(problems_of(state), "rounds[0].tricks[0].winner")
    assert problem.message == 'No player at this table is called "Zed".'


def test_trophy_limit_message_explains_the_maximum() -> None:
    problem = problem_at(
        problems_of(game([trophies_round({"Miu": 17})])), "rounds[0].trophies.Miu"
    )
    assert "at most 16 trophies" in problem.message


def test_sixteen_trophies_are_possible_for_four_players() -> None:
    assert GAME.validate(game([trophies_round({"Miu": 16})])) == []


@pytest.mark.parametrize(
    ("state", "path"),
    [
        ({"players": "Miu, Carol, Tom"}, "players"),
        ({"players": TABLE, "target": "10"}, "target"),
        ({"players": TABLE, "target": True}, "target"),
        ({"players": TABLE, "target": 10.0}, "target"),
        ({"players": TABLE, "mode": 1}, "mode"),
        ({"players": TABLE, "variants": "same-speed"}, "variants"),
        ({"players": TABLE, "colour": "red"}, "colour"),
        ({"players": TABLE, "rounds": [{"trophies": {"Miu": "4"}}]}, "rounds[0].trophies.Miu"),
        ({"players": TABLE, "rounds": [{"trophies": {}, "extra": 1}]}, "rounds[0].extra"),
        (
            {"players": TABLE, "rounds": [{"tricks": [{"cards": ["1"]}]}]},
            "rounds[0].tricks[0].lead",
        ),
        (
            {"players": TABLE, "rounds": [{"tricks": [{"lead": "Miu", "cards": [6, 2, 8, 10]}]}]},
            "rounds[0].tricks[0].cards[0]",
        ),
        ({}, "players"),
    ],
)
def test_json_types_are_checked_strictly(state: dict[str, Any], path: str) -> None:
    problem_at(problems_of(state), path)


@pytest.mark.parametrize("body", [None, [], "x", 3, {"players": None}])
def test_malformed_bodies_raise_invalid_state_not_a_crash(body: object) -> None:
    for handler in GAME.api_endpoints().values():
        with pytest.raises(InvalidStateError):
            handler(body)


def test_every_problem_is_reported_at_once() -> None:
    state = game(
        [
            {"tricks": [{"lead": "Zed", "cards": ["6", "11"]}], "penalties": {"Bob": 1}},
            trophies_round({"Miu": -2}),
        ],
        mode="quick",
        variants=["same-speed"],
        target=0,
    )
    paths = {p.path for p in problems_of(state)}
    assert paths >= {
        "variants",
        "target",
        "rounds[0].tricks[0].lead",
        "rounds[0].tricks[0].cards",
        "rounds[0].tricks[0].cards[1]",
        "rounds[0].penalties.Bob",
        "rounds[1].trophies.Miu",
    }


# --- new_state, parse_edit, the Game interface ---------------------------------------------------


def test_new_state_is_a_valid_empty_game_with_the_chart_target() -> None:
    state = GAME.new_state(TABLE, {})
    assert state == {"players": TABLE, "mode": "basic", "variants": [], "target": 10, "rounds": []}
    assert GAME.validate(state) == []
    chosen = GAME.new_state(TRIO, {"mode": "advanced", "variants": "same-speed", "target": "20"})
    assert (chosen["variants"], chosen["target"]) == (["same-speed"], 20)


@pytest.mark.parametrize(
    ("players", "options", "path"),
    [
        (["Ann", "Ben"], {}, "players"),
        (TABLE, {"mode": "turbo"}, "mode"),
        (TABLE, {"variants": ["same-speed"]}, "variants"),
        (TABLE, {"target": "ten"}, "target"),
    ],
)
def test_new_state_refuses_impossible_games(
    players: list[str], options: dict[str, Any], path: str
) -> None:
    with pytest.raises(InvalidStateError) as raised:
        GAME.new_state(players, options)
    problem_at(raised.value.problems, path)


def test_new_round_shapes_are_valid_rounds() -> None:
    state = GAME.new_state(TABLE, {})
    state["rounds"] = [oa.new_round(TABLE), oa.new_round(TABLE, summarised=True)]
    assert GAME.validate(state) == []


@pytest.mark.parametrize(
    ("path", "raw", "value"),
    [
        (["target"], "12", 12),
        (["mode"], "quick", "quick"),
        (["rounds", 1, "penalties", "Tom"], "1", 1),
        (["rounds", 0, "trophies", "Miu"], "0", 0),
        (["rounds", 0, "tricks", 2, "cards", 3], " n7 ", "N7"),
        (["rounds", 0, "tricks", 2, "cards", 3], "10", "10"),
        (["rounds", 0, "tricks", 2, "lead"], " Tom ", "Tom"),
        (["rounds", 0, "tricks", 2, "winner"], "Carol", "Carol"),
        (["rounds", 0, "tricks", 2, "winner"], "", None),
    ],
)
def test_parse_edit_accepts_simple_values(path: list[str | int], raw: str, value: object) -> None:
    assert GAME.parse_edit(path, raw) == value


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        (["target"], "0"),
        (["target"], "ten"),
        (["target"], "1.5"),
        (["mode"], "turbo"),
        (["rounds", 0, "penalties", "Tom"], "-1"),
        (["rounds", 0, "tricks", 0, "cards", 0], "11"),
        (["rounds", 0, "tricks", 0, "lead"], "  "),
        (["players", 0], "Zed"),
        (["variants"], "same-speed"),
        (["rounds", "x", "penalties", "Tom"], "1"),
    ],
)
def test_parse_edit_rejects_other_edits(path: list[str | int], raw: str) -> None:
    with pytest.raises(InvalidStateError) as raised:
        GAME.parse_edit(path, raw)
    assert all(is_sentence(p.message) for p in raised.value.problems)


def test_the_engine_satisfies_the_game_interface() -> None:
    assert (GAME.slug, GAME.name) == ("owl-about", "Owl About")
    assert (GAME.min_players, GAME.max_players) == (3, 6)
    assert isinstance(GAME.engine_version, int)
    assert set(GAME.api_endpoints()) == {"score", "trick"}


def test_the_engine_module_is_pure() -> None:
    tree = ast.parse(
        "\n".join(p.read_text(encoding="utf-8") for p in Path(oa.__file__).parent.glob("*.py"))
    )
    imported = {
        name
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
    }
    allowed = {"__future__", "collections", "collections.abc", "dataclasses", "enum", "typing"}
    own = {name for name in imported if name.startswith("companion.games.owl_about.")}
    shared = {  # pure, every engine's
        f"companion.games.{name}"
        for name in (
            "base",
            "schemas",
            "problems",
            "limits",
            "names",
            "ranking",
            "readings",
            "text",
        )
    }
    assert imported - own <= allowed | {"pydantic"} | shared


# --- properties ----------------------------------------------------------------------------------


def assert_api_shape(body: dict[str, Any], players: Sequence[str]) -> None:
    assert body["game"] == "owl-about"
    assert isinstance(body["finished"], bool)
    assert all(isinstance(w, str) for w in body["warnings"])
    standings = body["standings"]
    assert sorted(s["player"] for s in standings) == sorted(players)
    for standing in standings:
        assert set(standing) == {"player", "score", "rank", "winner", "breakdown", "tiebreak"}
        assert sum(line["points"] for line in standing["breakdown"]) == standing["score"]
        assert standing["winner"] is (standing["rank"] == 1)
        assert standing["tiebreak"] == []
    assert [s["score"] for s in standings] == sorted(s["score"] for s in standings)
    assert body["winners"] == [s["player"] for s in standings if s["winner"]]
    assert body["decided_by"] in {"score", "shared"}
    assert (body["decided_by"] == "shared") is (len(body["winners"]) > 1)
    for played in body["rounds"]:
        assert {"trophies", "vp", "tricks"} <= set(played)
        assert set(played["trophies"]) == set(played["vp"]) == set(players)
        for trick in played["tricks"]:
            assert trick["winner"] in players
            assert len(trick["fp"]) == len(players)
            assert all(isinstance(fp, int) for fp in trick["fp"])
    json.dumps(body)


@settings(max_examples=60, deadline=None)
@given(games())
def test_property_scored_games_keep_every_invariant(state: dict[str, Any]) -> None:
    before = copy.deepcopy(state)
    body = GAME.api_endpoints()["score"](state)
    assert state == before, "the engine must not change its input"
    assert_api_shape(body, state["players"])
    for entered, played in zip(state["rounds"], body["rounds"], strict=True):
        # VP never go below 0, neither per round nor in total.
        assert min(played["vp"].values()) >= 0
        assert min(played["totals"].values()) >= 0
        if entered.get("tricks") is not None:
            cards = [c for t in entered["tricks"] for c in t["cards"]]
            nights = sum(1 for c in cards if oa.card(c).night)
            expected = len(entered["tricks"]) + 2 * nights
            assert sum(played["trophies"].values()) == expected
    if state["mode"] != oa.Mode.ADVANCED:
        # Legal play never draws a wrong-card warning.
        assert not any(oa.WRONG_CARD_REMINDER in w for w in body["warnings"])


def tricks_of(size: int) -> st.SearchStrategy[list[str]]:
    """Any cards the deck could put into one trick, in play order."""
    return st.permutations(FULL_DECK).map(lambda deck: list(deck[:size]))


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 6).flatmap(tricks_of))
def test_property_basic_winner_holds_the_first_highest_fp(cards: list[str]) -> None:
    outcome = oa.trick_outcome("basic", cards)
    assert outcome.fp[outcome.winner] == max(outcome.fp)
    assert outcome.winner == min(i for i, fp in enumerate(outcome.fp) if fp == max(outcome.fp))


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 6).flatmap(tricks_of))
def test_property_quick_winner_is_a_unique_fp_or_the_lead(cards: list[str]) -> None:
    outcome = oa.trick_outcome("quick", cards)
    counts = Counter(outcome.fp)
    unique = [fp for fp, n in counts.items() if n == 1]
    if unique:
        assert outcome.fp[outcome.winner] == max(unique)
    else:
        assert outcome.winner == oa.LEAD


@settings(max_examples=100, deadline=None)
@given(
    st.integers(3, 6).flatmap(tricks_of),
    st.lists(st.sampled_from(FULL_DECK), max_size=9),
    st.sampled_from(MODES),
)
def test_property_legal_cards_are_exactly_the_ones_breaking_no_rule(
    played: list[str], hand: list[str], mode: str
) -> None:
    before = played[:-1]
    legal = oa.legal_cards(hand, before, mode=mode)
    assert bool(legal) == bool(hand), "a non-empty hand always has a legal card"
    for code in hand:
        broken = oa.rule_breaks(code, hand=hand, played_before=before, mode=mode)
        assert (code in legal) is (not broken)


def test_the_api_example_state_scores() -> None:
    state = {
        "players": ["Miu", "Carol", "Romi", "Tom"],
        "mode": "basic",
        "variants": [],
        "target": 10,
        "rounds": [
            {
                "tricks": [{"lead": "Miu", "cards": ["6", "2", "8", "10"]}],
                "trophies": None,
                "penalties": {},
            }
        ],
    }
    body = GAME.api_endpoints()["score"](state)
    assert_api_shape(body, TABLE)
    [played] = body["rounds"]
    assert played["tricks"][0]["winner"] == "Carol"
    assert played["tricks"][0]["fp"] == [6, 12, 8, 10]
    assert played["trophies"] == {"Miu": 0, "Carol": 1, "Romi": 0, "Tom": 0}
    assert played["vp"] == {"Miu": 1, "Carol": 1, "Romi": 1, "Tom": 1}


# --- fuzzing: no input, however odd, gets past validation unexplained or crashes -------------


@settings(max_examples=150, deadline=None)
@given(FUZZ_STATES)
def test_fuzz_states_are_scored_or_explained(state: dict[str, Any]) -> None:
    problems = GAME.validate(state)
    assert all(is_sentence(p.message) for p in problems), problems
    if not problems:
        assert_api_shape(
            GAME.api_endpoints()["score"](state), [p.strip() for p in state["players"]]
        )


@settings(max_examples=150, deadline=None)
@given(FUZZ_TRICK_REQUESTS)
def test_fuzz_trick_requests_are_answered_or_explained(body: dict[str, Any]) -> None:
    messages: list[str]
    try:
        answer = oa.check_trick(body)
    except InvalidStateError as invalid:
        messages = [p.message for p in invalid.problems]
    else:
        assert answer["winner"] in [p.strip() for p in body["players"]]
        messages = [p["message"] for p in answer["problems"]]
    assert all(is_sentence(m) for m in messages), messages


# --- playing along: open rounds, hands, the board ---------------------------------------------


RULEBOOK_ROW = ["6", "2", "8", "10"]


def open_round(tricks: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"tricks": tricks, "open": True, **extra}


def test_an_open_round_may_end_with_a_short_or_empty_trick() -> None:
    for cards in ([], ["6"], ["6", "2", "8"]):
        tricks = [{"lead": "Miu", "cards": RULEBOOK_ROW}, {"lead": "Carol", "cards": cards}]
        assert GAME.validate(game([open_round(tricks)])) == [], cards


def test_without_open_a_short_trick_is_still_a_problem_as_in_the_api() -> None:
    state = game([{"tricks": [{"lead": "Miu", "cards": ["6"]}]}])
    problem_at(problems_of(state), "rounds[0].tricks[0].cards")


def test_only_the_last_trick_of_the_last_round_may_be_short() -> None:
    short_first = open_round(
        [{"lead": "Miu", "cards": ["6"]}, {"lead": "Miu", "cards": RULEBOOK_ROW}]
    )
    problem_at(problems_of(game([short_first])), "rounds[0].tricks[0].cards")
    earlier = open_round([{"lead": "Miu", "cards": ["6"]}])
    problem_at(
        problems_of(game([earlier, trophies_round({"Miu": 1})])), "rounds[0].tricks[0].cards"
    )
    problem_at(problems_of(game([{**trophies_round({}), "open": True}])), "rounds[0].open")


def test_a_short_trick_scores_nothing_and_has_no_taker_yet() -> None:
    tricks = [{"lead": "Miu", "cards": RULEBOOK_ROW}, {"lead": "Carol", "cards": ["N4"]}]
    result = round_json(game([open_round(tricks)]))
    assert result["trophies"] == {"Miu": 0, "Carol": 1, "Romi": 0, "Tom": 0}
    assert result["complete"] is False
    with_winner = [tricks[0], {"lead": "Carol", "cards": ["N4"], "winner": "Tom"}]
    state = game([open_round(with_winner)], mode="advanced")
    problem_at(problems_of(state), "rounds[0].tricks[1].winner")


def test_round_view_follows_the_trick_and_the_used_cards() -> None:
    tricks = [{"lead": "Miu", "cards": RULEBOOK_ROW}, {"lead": "Carol", "cards": ["9", "9"]}]
    view = oa.round_view(oa.parse(game([open_round(tricks)])), 0)
    assert view.current is not None
    assert (view.current.number, view.current.lead, view.current.next_player) == (
        2,
        "Carol",
        "Tom",
    )
    assert view.current.seats == ("Carol", "Romi", "Tom", "Miu")
    assert view.left["9"] == 0
    assert view.left["10"] == 1
    assert view.last_taker == "Carol"
    assert [p.fp for p in view.tricks[0].plays] == [6, 12, 8, 10]


def test_round_view_after_a_complete_trick_offers_the_next_one_led_by_its_taker() -> None:
    view = oa.round_view(oa.parse(game([open_round([{"lead": "Miu", "cards": RULEBOOK_ROW}])])), 0)
    assert view.current is not None
    assert (view.current.number, view.current.lead, view.current.plays) == (2, "Carol", ())


def test_round_view_shows_an_override_and_who_the_cards_chose() -> None:
    tricks = [{"lead": "Miu", "cards": RULEBOOK_ROW, "winner": "Tom"}]
    view = oa.round_view(oa.parse(game([open_round(tricks)], mode="advanced")), 0)
    assert (view.tricks[0].winner, view.tricks[0].beats) == ("Tom", "Carol")
    assert view.current is not None
    assert view.current.lead == "Tom"


def test_entered_hands_name_broken_rules_and_the_playable_cards() -> None:
    hands = {"Romi": ["3", "8", "1"], "Tom": ["N6", "6", "1"]}
    tricks = [{"lead": "Miu", "cards": ["6", "2", "3"]}]
    view = oa.round_view(oa.parse(game([open_round(tricks, hands=hands)])), 0)
    romi = view.tricks[0].plays[2]
    assert romi.broken
    assert "Romi had to play one of those instead of the 3" in romi.broken[0]
    assert view.playable == ("6",)
    assert view.hands["Romi"] == ("8", "1")


def test_hands_are_not_checked_in_advanced_mode() -> None:
    hands = {"Romi": ["3", "8"]}
    tricks = [{"lead": "Miu", "cards": ["6", "2", "5"]}]
    state = game([open_round(tricks, hands=hands)], mode="advanced")
    assert GAME.validate(state) == []
    view = oa.round_view(oa.parse(state), 0)
    assert view.tricks[0].plays[2].broken == ()
    assert view.playable is None


@pytest.mark.parametrize(
    ("hands", "path"),
    [
        ({"Zed": ["1"]}, "rounds[0].hands.Zed"),
        ({"Miu": ["1"], "miu": ["2"]}, "rounds[0].hands.miu"),
        ({"Miu": ["11"]}, "rounds[0].hands.Miu[0]"),
        ({"Miu": ["1"] * 9}, "rounds[0].hands.Miu"),
        ({"Miu": ["9", "9"], "Tom": ["9"]}, "rounds[0].hands.Tom[0]"),
        ({"Miu": ["5"]}, "rounds[0].tricks[0].cards[0]"),
    ],
)
def test_impossible_hands_are_problems(hands: dict[str, list[str]], path: str) -> None:
    state = game([open_round([{"lead": "Miu", "cards": ["6"]}], hands=hands)])
    problem_at(problems_of(state), path)


def test_entered_hands_add_rule_break_warnings_to_the_score() -> None:
    hands = {"Romi": ["3", "8", "1"]}
    tricks = [{"lead": "Miu", "cards": ["6", "2", "3", "1"]}]
    warnings = GAME.score(game([open_round(tricks, hands=hands)])).warnings
    assert any("Round 1, trick 1: With a card of speed 6" in w for w in warnings)


def test_board_knows_when_a_round_may_start_and_who_leads_it() -> None:
    rows = [RULEBOOK_ROW, ["9", "1", "N7", "3"]]
    tricks = chained_tricks(TABLE, "Miu", rows, "basic")
    in_play = oa.board(game([open_round(tricks)]))
    assert (in_play.round_open, in_play.can_start_round) == (True, False)
    assert in_play.current is not None
    taker = oa.trick_progress(
        mode="basic", players=TABLE, lead=tricks[-1]["lead"], cards=rows[-1]
    ).winner
    assert in_play.next_lead() == in_play.current.last_taker == taker
    done = oa.board(game([open_round(full_deck_tricks(TABLE, 8))]))
    assert done.can_start_round
    assert done.current is not None
    assert done.current.current is None
    assert done.next_lead() == done.current.last_taker
    over = oa.board(game([trophies_round({"Miu": 9})], target=5))
    assert (over.ended_after, over.can_start_round) == (1, False)


def test_open_round_is_a_valid_first_round() -> None:
    state = GAME.new_state(TRIO, {})
    state["rounds"] = [oa.open_round(lead="Ben")]
    assert GAME.validate(state) == []
    assert oa.board(state).current is not None


def test_parse_hand_reads_codes_and_refuses_unknown_cards() -> None:
    assert oa.parse_hand(" n4,10  1 ", where="hand") == ["N4", "10", "1"]
    with pytest.raises(InvalidStateError) as raised:
        oa.parse_hand("4 44", where="hand")
    problem_at(raised.value.problems, "hand")


@pytest.mark.parametrize(
    ("path", "value", "shown"),
    [
        (["rounds"], [{}, {}], "2 rounds"),
        (["rounds", 0, "tricks", 1, "cards"], [], "no card yet"),
        (
            ["rounds", 0, "tricks"],
            [{"lead": "Tom", "cards": ["N7"]}],
            "1 trick (the last led by Tom: Night 7)",
        ),
        (["rounds", 0, "tricks", 0, "winner"], None, "the cards decide"),
        (["rounds", 0, "hands"], {"Miu": ["1", "2"]}, "entered for Miu"),
        (["rounds", 0, "penalties"], {}, "none"),
        (["rounds", 0], {"tricks": None, "trophies": {"Miu": 2}}, "trophies Miu 2"),
    ],
)
def test_values_are_shown_in_words_and_hands_stay_secret(
    path: list[str | int], value: object, shown: str
) -> None:
    assert GAME.display_value(path, value) == shown


def test_paths_are_described_for_the_history() -> None:
    assert GAME.describe_path({}, ["rounds", 1, "tricks", 0, "winner"]) == "Round 2, trick 1 taker"
    assert GAME.describe_path({}, ["rounds", 0, "penalties"]) == "Round 1 penalties"
    assert GAME.describe_path({}, ["rounds", 0, "penalties", "Tom"]) == "Round 1: Tom's penalty"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=8 * 4 - 1))
def test_property_a_round_played_card_by_card_is_valid_at_every_tap(cards_down: int) -> None:
    """Every prefix of a round played along validates, and counts only complete tricks."""
    full = full_deck_tricks(TABLE, 8)
    flat = [(t["lead"], c) for t in full for c in t["cards"]]
    tricks: list[dict[str, Any]] = []
    for index in range(cards_down + 1):
        lead, code = flat[index]
        if index % len(TABLE) == 0:
            tricks.append({"lead": lead, "cards": []})
        tricks[-1]["cards"].append(code)
    state = game([open_round(tricks)])
    assert GAME.validate(state) == []
    complete = (cards_down + 1) // len(TABLE)
    assert sum(round_json(state)["trophies"].values()) >= complete
    assert len(round_json(state)["tricks"]) == complete


# --- night collection 3 and 4 apart (issue 9, point 11) ------------------------------------------

FOUR_NIGHTS = [*THREE_NIGHTS, ["N4", "2", "2"]]


def night_game(rows: list[list[str]], variants: Sequence[str]) -> dict[str, Any]:
    tricks = chained_tricks(TRIO, "Ann", rows, "advanced")
    before = trophies_round({"Ann": 5, "Ben": 2, "Cy": 2})
    return game([before, {"tricks": tricks}], players=TRIO, mode="advanced", variants=variants)


@pytest.mark.parametrize(
    ("rows", "variants", "effect"),
    [
        (THREE_NIGHTS, ["night-collection-3"], "round-voided"),
        (FOUR_NIGHTS, ["night-collection-3"], "round-voided"),  # all 4 is 3 as well
        (THREE_NIGHTS, ["night-collection-4"], None),
        (FOUR_NIGHTS, ["night-collection-4"], "total-reset"),
        (THREE_NIGHTS, ["night-collection"], "round-voided"),
        (FOUR_NIGHTS, ["night-collection"], "total-reset"),
        (FOUR_NIGHTS, ["night-collection-3", "night-collection-4"], "total-reset"),
    ],
)
def test_night_collection_3_and_4_are_separate_variants(
    rows: list[list[str]], variants: list[str], effect: str | None
) -> None:
    played = round_json(night_game(rows, variants), 1)
    assert played["night_collection"] == ({"Ann": effect} if effect else {})
    total = scores(night_game(rows, variants))["Ann"]
    trophies = played["trophies"]["Ann"]
    expected = {"round-voided": 5, "total-reset": 0, None: 5 + trophies}[effect]
    assert total == expected


@pytest.mark.parametrize("rows", [THREE_NIGHTS, FOUR_NIGHTS])
def test_old_night_collection_means_both_with_exactly_the_same_output(
    rows: list[list[str]],
) -> None:
    old = GAME.api_endpoints()["score"](night_game(rows, ["same-speed", "night-collection"]))
    both = ["same-speed", "night-collection-3", "night-collection-4"]
    assert GAME.api_endpoints()["score"](night_game(rows, both)) == old


def test_an_unknown_variant_names_the_new_ones() -> None:
    problem = problem_at(problems_of(game([], mode="advanced", variants=["nc5"])), "variants[0]")
    assert "night-collection-3" in problem.message
    assert "night-collection-4" in problem.message


# --- bounds on penalties and the target ----------------------------------------------------------


@pytest.mark.parametrize("penalty", [9, 10**40])
def test_a_penalty_beyond_the_cards_a_player_plays_is_refused(penalty: int) -> None:
    state = game([trophies_round({"Miu": 8}, Tom=penalty)])
    problem = problem_at(problems_of(state), "rounds[0].penalties.Tom")
    assert "at most 8 VP in a round with 4 players" in problem.message


def test_a_penalty_for_every_card_is_the_most() -> None:
    assert scores(game([trophies_round({"Miu": 8}, Tom=8)]))["Tom"] == 8 + 8


@pytest.mark.parametrize("target", [0, 100, 10**40])
def test_the_target_is_1_to_99(target: int) -> None:
    problem = problem_at(problems_of(game([], target=target)), "target")
    assert problem.message == "The target must be from 1 to 99 VP."


def test_the_target_99_and_1_are_fine() -> None:
    assert GAME.validate(game([], target=99)) == []
    assert GAME.validate(game([], target=1)) == []


def test_new_state_refuses_a_target_over_99() -> None:
    with pytest.raises(InvalidStateError):
        GAME.new_state(TABLE, {"target": "100"})


# --- what a whole round's trophies add up to -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "possible"),
    [(3, (9, 11, 13, 15, 17)), (4, (8, 10, 12, 14, 16)), (5, (13, 15)), (6, (14,))],
)
def test_a_rounds_trophies_total_the_tricks_plus_two_per_night_card_dealt(
    players: int, possible: tuple[int, ...]
) -> None:
    assert oa.PLAYER_CHART[players].trophy_totals == possible


SIX = ["A", "B", "C", "D", "E", "F"]


def test_six_players_must_total_exactly_the_tricks_plus_eight() -> None:
    chart = oa.PLAYER_CHART[6]
    assert oa.trophy_total_problem(dict.fromkeys(SIX, 0) | {"A": 14}, chart=chart) is None
    problem = oa.trophy_total_problem(dict.fromkeys(SIX, 0) | {"A": 8}, chart=chart)
    assert problem is not None
    assert "exactly 14" in problem
    assert is_sentence(problem)


def test_an_impossible_trophy_total_is_scored_as_given_with_a_warning() -> None:
    state = game([trophies_round({"A": 6, "B": 2})], players=SIX)
    result = GAME.score(state)
    assert result.standing("A").score == 6
    [warning] = [w for w in result.warnings if "add up" in w]
    assert warning.startswith("Round 1: the trophies add up to 8, but with 6 players")
    fine = GAME.score(game([trophies_round({"A": 8, "B": 6})], players=SIX))
    assert not any("add up" in w for w in fine.warnings)
    five = GAME.score(game([trophies_round({"A": 9})], players=SIX[:5]))
    assert any("so 13 or 15." in w for w in five.warnings)


# --- hidden hands: what one phone may show -------------------------------------------------------


def test_a_board_seen_by_one_player_shows_only_their_hand() -> None:
    state = game(
        [
            {
                "open": True,
                "tricks": [{"lead": "Miu", "cards": ["6"]}],
                "hands": {"Carol": ["2", "8", "N6"], "Tom": ["10", "3"]},
            }
        ]
    )
    whole = oa.board(state)
    assert whole.current is not None
    assert whole.current.playable == ("8", "N6")
    carol = whole.seen_by("Carol").current
    assert carol is not None
    assert (carol.hands, carol.playable) == ({"Carol": ("2", "8", "N6")}, ("8", "N6"))
    for other in ("Tom", "Miu", None):
        seen = whole.seen_by(other).current
        assert seen is not None
        assert seen.playable is None
        assert "Carol" not in seen.hands
        assert seen.entered == ("Carol", "Tom")
    tom = whole.seen_by("Tom").current
    assert tom is not None
    assert tom.hands == {"Tom": ("10", "3")}


def test_the_history_names_whose_hand_changed_never_the_cards() -> None:
    path = ["rounds", 0, "hands"]
    said = GAME.describe_change({}, path, {}, {"Ann": ["2", "N6", "10"]})
    assert said == "Round 1: Ann's hand entered"
    said = GAME.describe_change({}, path, {"Ann": ["2"]}, {"Ann": ["3"], "Ben": ["4"]})
    assert said == "Round 1: Ann's hand corrected; Ben's hand entered"
    assert GAME.describe_change({}, path, {"Ann": ["2"]}, {}) == "Round 1: Ann's hand cleared"
    assert GAME.display_value([*path, "Ann"], ["2", "N6"]) == "a hand"


def test_no_last_trick_is_claimed_after_a_round_entered_as_trophies() -> None:
    played = oa.board(
        game([{"tricks": chained_tricks(TRIO, "Ann", [["6", "2", "8"]], "basic")}], players=TRIO)
    )
    assert played.last_taker == "Cy"
    trophies = oa.board(game([trophies_round({"Ann": 9})], players=TRIO))
    assert trophies.last_taker is None
    assert trophies.next_lead() == "Ann"


# --- issue 34: the readings a verdict rests on ------------------------------------------------

SMALL = "owl-about/small-owls"
NIGHT_7 = "owl-about/small-owls/night-7"
QUICK = "owl-about/mode/quick/ties"


@pytest.mark.parametrize(
    ("mode", "cards", "expected"),
    [
        ("basic", ["6", "2", "8", "10"], [SMALL]),
        ("basic", ["1", "9", "3"], [SMALL]),
        ("advanced", ["N7", "1", "3"], [NIGHT_7]),
        ("basic", ["1", "N7", "10"], [SMALL]),  # a day 10 is there: the boost, no question
        ("basic", ["N7", "5", "6"], []),  # no 1 or 2: nothing to change
        ("basic", ["9", "10", "N7"], []),
        ("quick", ["2", "2", "N4", "6"], [QUICK]),  # the rulebook's example
        ("quick", ["8", "8", "5", "5", "3"], [QUICK]),
        ("quick", ["6", "6", "2"], []),  # the next highest is unique: the rule itself
        ("quick", ["7", "7", "7"], []),  # every FP the same: the lead, by the rule
        ("quick", ["9", "6", "6"], []),  # the highest is unique
        ("basic", ["8", "8", "5", "5"], []),  # the first card played takes a tie
        ("quick", ["1", "1", "9", "9"], [SMALL, QUICK]),
    ],
)
def test_trick_readings(mode: str, cards: list[str], expected: list[str]) -> None:
    players = ["A", "B", "C", "D", "E"][: len(cards)]
    answer = oa.check_trick({"mode": mode, "lead": "A", "players": players, "cards": cards})
    assert [r["id"] for r in answer.get("readings", [])] == expected
    fp = list(oa.trick_outcome(mode, cards).fp)
    assert [r.id for r in oa_readings.trick_readings(oa.Mode(mode), cards, fp)] == expected


def _collects(nights: Sequence[str], variants: Sequence[str], **penalties: int) -> list[str]:
    """The reading ids of a game in which Ann takes a trick with each of these nights."""
    tricks = [{"lead": "Ann", "cards": [night, "1", "2"]} for night in nights]
    state = {
        "players": TRIO,
        "mode": "advanced",
        "variants": list(variants),
        "target": FAR_TARGET,
        "rounds": [{"open": True, "tricks": tricks, "penalties": penalties}],
    }
    return [r.id for r in GAME.score(state).readings]


ALL_NIGHTS = ["N4", "N5", "N6", "N7"]


@pytest.mark.parametrize(
    ("nights", "variants", "penalties", "expected"),
    [
        (ALL_NIGHTS[:3], ["night-collection-3"], {}, []),
        (ALL_NIGHTS[:3], ["night-collection-3"], {"Ann": 1}, ["owl-about/night-collection-void"]),
        (ALL_NIGHTS[:3], ["night-collection-3"], {"Ben": 1}, []),
        (ALL_NIGHTS, ["night-collection-3"], {}, ["owl-about/night-collection-both"]),
        (
            ALL_NIGHTS,
            ["night-collection-3"],
            {"Ann": 2},
            ["owl-about/night-collection-both", "owl-about/night-collection-void"],
        ),
        (ALL_NIGHTS, ["night-collection-4"], {}, ["owl-about/night-collection-reset"]),
        (
            ALL_NIGHTS,
            ["night-collection"],
            {"Ann": 1},
            ["owl-about/night-collection-both", "owl-about/night-collection-reset"],
        ),
        (ALL_NIGHTS, [], {}, []),
        (ALL_NIGHTS[:3], ["night-collection-4"], {}, []),
    ],
)
def test_night_collection_readings(
    nights: list[str], variants: list[str], penalties: dict[str, int], expected: list[str]
) -> None:
    found = _collects(nights, variants, **penalties)
    assert found[0] == "owl-about/fewest-vp"
    # The Night 7 trick holds a 1 and a 2 next to a Night 7: that reading comes along.
    assert [r for r in found[1:] if r != NIGHT_7] == expected
