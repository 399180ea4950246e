"""Lucky's Misadventures engine: the cards as data, the rulebook's example round, the six
tiebreakers, escapes, validation and properties."""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.luckys import GAME, referee
from companion.games.luckys import facts as f
from companion.games.luckys.game import NO_TOAD_WARNING, NOT_OVER_WARNING
from companion.games.luckys.referee import InPlay
from companion.games.luckys.scoring import NO_TURN_ORDER_WARNING, TIEBREAKS
from companion.games.problems import InvalidStateError
from support.luckys import NAMES, maven, tables

# --- the cards as data ---------------------------------------------------------------------


def test_fate_deck_matches_the_components_list() -> None:
    minors = [c for c in f.FATE.values() if not c.major]
    majors = [c for c in f.FATE.values() if c.major]
    assert len(f.FATE) == f.COMPONENTS["fate"] == 24
    assert len(minors) == f.COMPONENTS["minor fate"] == 18
    assert len(majors) == f.COMPONENTS["major fate"] == 6
    for suit in f.Suit:
        assert sorted(c.value for c in minors if c.suit is suit) == [1, 2, 3, 4, 5, 6]
    assert f.FATE["fortune"].value == 5


def test_wands_and_majors_pass_the_toad_and_nothing_else_does() -> None:
    passing = {c.code for c in f.FATE.values() if c.passes}
    assert passing == {f"wands-{v}" for v in range(1, 7)} | set(f.MAJORS)


def test_junk_machines_hirelings_mavens_match_the_components_list() -> None:
    assert sum(copies for _, copies in f.JUNK.values()) == f.COMPONENTS["junk"] == 48
    assert sum(m.copies for m in f.MACHINES.values()) == f.COMPONENTS["machines"] == 37
    assert [m.copies for m in f.MACHINES.values()].count(4) == 9
    assert f.MACHINES["time-machine"].copies == 1
    assert sum(c for _, _, c in f.HIRELINGS.values()) == f.COMPONENTS["hirelings"] == 24
    assert sum(f.MAVENS.values()) == f.COMPONENTS["mavens"] == 59
    assert sum(f.SIDEKICKS.values()) == f.COMPONENTS["sidekicks"] == 36
    assert f.LUCKY_CARDS == f.COMPONENTS["lucky"] == f.MAX_PLAYERS
    assert f.STARTING_DECK == 11


def test_machine_matrix_pairs_are_unique_and_score_as_printed() -> None:
    pairs = [tuple(sorted(m.junk)) for m in f.MACHINES.values()]
    assert len(set(pairs)) == len(pairs) == 10
    assert {m.name: m.vp for m in f.MACHINES.values()} == {
        "Creepy Doll Bot": 6,
        "Steam Golem": 7,
        "Tiny Tin": 7,
        "Mech Dragon": 10,
        "Dirigible": 8,
        "Electro Brain": 9,
        "Plasma Cannon": 9,
        "Dark Energy Machine": 9,
        "Fate Clock": 9,
        "Time Machine": 13,
    }
    assert f.machine_for("luminous-aether", "clockwork-gizmo") == f.MACHINES["fate-clock"]
    assert f.machine_for("flux-capacitor", "reactor-pump") is None


# --- the rulebook's example round ------------------------------------------------------------

EXAMPLE_FATE = ["cups-4", "wands-5", "death"]


def test_example_round_toad_passes_twice_and_lands_back_on_lewis() -> None:
    moved = referee.feed_the_toad(["Lewis", "Carol"], "Lewis", EXAMPLE_FATE)
    assert (moved.holder, moved.passes, moved.turn_order) == ("Lewis", 2, ("Lewis", "Carol"))
    body = {"players": ["Lewis", "Carol"], "holder": "Lewis", "fate": EXAMPLE_FATE}
    answer = GAME.api_endpoints()["feed-the-toad"](body)
    assert answer["holder"] == "Lewis"
    assert answer["passes"] == 2


def test_example_round_buy_points() -> None:
    suits = referee.suits_in_play(EXAMPLE_FATE)
    assert suits == (f.Suit.CUPS, f.Suit.WANDS)
    carol = referee.buy_points(
        lucky=False,
        scarecrows=[f.Suit.WANDS, f.Suit.SWORDS],
        white_rabbits=0,
        oddlings=[],
        suits=suits,
    )
    assert carol.total == 3
    lewis = referee.buy_points(
        lucky=False, scarecrows=[], white_rabbits=0, oddlings=[2], suits=suits
    )
    assert lewis.total == 2  # Stormbringer
    answer = GAME.api_endpoints()["buy-points"](
        {"scarecrows": ["wands", "swords"], "fate": EXAMPLE_FATE}
    )
    assert answer["points"] == 3
    assert answer["most_purchases"] == 2


def test_example_round_challenges() -> None:
    endpoint = GAME.api_endpoints()["challenge"]
    tinkerer = endpoint(
        {"kind": "tinkerer", "powers": {"Lewis": 2, "Carol": 0}, "turn_order": ["Lewis", "Carol"]}
    )
    assert {k: tinkerer[k] for k in ("outcome", "winners", "margin")} == {
        "outcome": "crushed-it",
        "winners": ["Lewis"],
        "margin": 2,
    }
    wicked = endpoint(
        {"kind": "wicked", "powers": {"Lewis": 2, "Carol": 1}, "turn_order": ["Lewis", "Carol"]}
    )
    assert (wicked["outcome"], wicked["winners"], wicked["margin"]) == (
        "minor-victory",
        ["Lewis"],
        1,
    )
    assert "Maven" in wicked["words"]


def test_example_round_death_trashes_hands_but_not_in_the_first_two_rounds() -> None:
    later = referee.fate_round(EXAMPLE_FATE, round_number=3)
    death = next(e for e in later.effects if e.card == "death")
    assert "trashes" in death.words
    assert "Junk and Machines" in death.words
    early = referee.fate_round(EXAMPLE_FATE, round_number=2)
    assert "no effect" in next(e for e in early.effects if e.card == "death").words


def test_challenge_ties_and_no_winner() -> None:
    tie = referee.challenge({"A": 3, "B": 3, "C": 1}, ["C", "B", "A"])
    assert (tie.outcome, tie.winners, tie.margin) == ("tie", ("B", "A"), 0)
    assert "cheapest" in tie.words
    none = referee.challenge({"A": 0, "B": 0}, ["A", "B"])
    assert (none.outcome, none.winners) == ("no-winner", ())


def test_fortune_bands_from_the_other_two_values() -> None:
    def band(a: str, b: str) -> str:
        return referee.fortune_words(["fortune", a, b])

    assert "no Tinkerer" in band("cups-1", "swords-1")
    assert "no Tinkerer" in band("cups-2", "swords-3")
    assert "no Wicked" in band("cups-3", "swords-3")
    assert "4 cards" in band("cups-3", "wands-6")
    assert "Machines" in band("cups-6", "wands-6")
    assert "printed on Death" in band("cups-6", "death")


def test_white_rabbits_and_lucky_add_buy_points() -> None:
    points = referee.buy_points(
        lucky=True, scarecrows=[f.Suit.CUPS], white_rabbits=3, oddlings=[1], suits=[]
    )
    assert points.total == 1 + 1 + (2 + 1 + 1) + 1


def test_machine_builder_counts_what_is_already_built() -> None:
    build = referee.build_machine("reactor-pump", "clockwork-gizmo", {"tiny-tin": 3})
    assert build.machine is not None
    assert build.machine.name == "Tiny Tin"
    assert build.left == 1
    answer = GAME.api_endpoints()["build-machine"](
        {"junk": ["flux-capacitor", "flux-capacitor"], "built": {"time-machine": 1}}
    )
    assert (answer["machine"], answer["vp"], answer["left"], answer["can_build"]) == (
        "time-machine",
        13,
        0,
        False,
    )
    nothing = GAME.api_endpoints()["build-machine"]({"junk": ["flux-capacitor", "reactor-pump"]})
    assert nothing["machine"] is None


# --- escapes -------------------------------------------------------------------------------


def met(cards: set[InPlay], *, triggered: bool = False) -> dict[str, bool]:
    checks = referee.escape_checks(cards, pumpkin_ted_triggered=triggered)
    return {c.by.value: c.met for c in checks}


def test_time_machine_escape_needs_the_machine_and_a_reactor_pump() -> None:
    assert met({InPlay.TIME_MACHINE, InPlay.REACTOR_PUMP})["time-machine"] is True
    assert met({InPlay.TIME_MACHINE})["time-machine"] is False
    assert met({InPlay.REACTOR_PUMP})["time-machine"] is False


def test_three_sisters_escape_needs_all_three() -> None:
    assert met({InPlay.GREED, InPlay.DESPAIR, InPlay.VANITY})["three-sisters"] is True
    assert met({InPlay.GREED, InPlay.VANITY})["three-sisters"] is False


def test_pumpkin_ted_escape_needs_his_trigger_a_clockmakers_and_a_fate_clock() -> None:
    cards = {InPlay.PUMPKIN_TED, InPlay.CLOCKMAKERS, InPlay.FATE_CLOCK}
    assert met(cards, triggered=True)["pumpkin-ted"] is True
    assert met(cards, triggered=False)["pumpkin-ted"] is False
    assert met(cards - {InPlay.FATE_CLOCK}, triggered=True)["pumpkin-ted"] is False
    assert met(cards - {InPlay.CLOCKMAKERS}, triggered=True)["pumpkin-ted"] is False
    answer = GAME.api_endpoints()["escape"](
        {"in_play": ["pumpkin-ted", "clockmakers"], "pumpkin_ted_triggered": True}
    )
    assert answer["escapes"] == []
    ted = next(c for c in answer["conditions"] if c["by"] == "pumpkin-ted")
    assert ted["missing"] == ["a Fate Clock"]
    assert "own turn" in answer["reminder"]


def test_an_escape_wins_outright_and_everyone_else_shares_second() -> None:
    state = table(
        Lewis=deck(machines=["time-machine", "mech-dragon"]),
        Carol=deck(),
        Ann=deck(),
        escaped={"player": "carol", "by": "three-sisters"},
    )
    result = GAME.score(state).to_json()
    assert result["winners"] == ["Carol"]
    assert result["decided_by"] == "three-sisters"
    assert [(s["player"], s["rank"], s["score"]) for s in result["standings"]] == [
        ("Carol", 1, 0),
        ("Lewis", 2, 0),
        ("Ann", 2, 0),
    ]
    assert result["escape"] == {
        "player": "Carol",
        "by": "three-sisters",
        "words": result["decided_words"],
    }
    assert result["finished"] is True


# --- the tally and the six tiebreakers ------------------------------------------------------


def deck(**parts: Any) -> dict[str, Any]:
    """A deck with Lucky unless told otherwise."""
    return {"lucky": 1, **parts}


def table(
    order: list[str] | None = None, escaped: dict[str, str] | None = None, **decks: Any
) -> dict[str, Any]:
    """A table of these decks in seating order; the last turn order defaults to seating."""
    players = list(decks)
    return {
        "players": players,
        "escaped": escaped,
        "final_turn_order": order if order is not None else players,
        "decks": decks,
    }


def test_every_kind_of_card_scores_as_the_rules_say() -> None:
    state = table(
        Lewis=deck(
            hirelings={"winged-monkey": 2, "clockmakers": 1, "white-rabbit": 0},
            mavens=[maven("The Collector", "wicked", 3)],
            junk=[
                {"kind": "clockwork-gizmo"},
                {"kind": "reactor-pump", "vp": 2},
                {"kind": "analog-encryptor", "vp": 3, "count": 2},
            ],
            machines=["tiny-tin", "time-machine"],
        ),
        Carol=deck(lucky=0),
    )
    lewis = GAME.score(state).standing("Lewis")
    assert [(line.label, line.points) for line in lewis.breakdown] == [
        ("Lucky", 10),
        ("Winged Monkey: 2", 2),
        ("Clockmakers: 1", 1),
        ("The Collector (Wicked)", 3),
        ("Clockwork Gizmo: 1 (1 VP each)", 1),
        ("Reactor Pump: 1 (2 VP each)", 2),
        ("Analog Encryptor: 2 (3 VP each)", 6),
        ("Tiny Tin: 1 (7 VP each)", 7),
        ("Time Machine: 1 (13 VP each)", 13),
    ]
    assert lewis.score == 45
    values = {t.label: t.value for t in lewis.tiebreak}
    assert values["VP from Wicked cards"] == 2 + 3
    assert values["VP from Ally cards"] == 10 + 3 + 3


def _decided(state: dict[str, Any]) -> tuple[list[str], str, str]:
    from companion.services.explain import decision

    result = GAME.score(state).to_json()
    return result["winners"], result["decided_by"], decision(result, over=True)


def test_tiebreaker_1_lucky() -> None:
    # Carol traded Lucky away but holds the same VP in Mavens.
    state = table(
        Lewis=deck(),
        Carol=deck(lucky=0, mavens=[maven("A", vp=5), maven("B", vp=5)]),
    )
    winners, by, words = _decided(state)
    assert (winners, by) == (["Lewis"], "Has Lucky")
    assert "Lewis holds Lucky, Carol no Lucky" in words


def test_tiebreaker_2_pumpkin_ted() -> None:
    state = table(
        Lewis=deck(mavens=[maven("Somebody", vp=6)]),
        Carol=deck(mavens=[maven("pumpkin  TED", vp=6)]),
    )
    winners, by, words = _decided(state)
    assert (winners, by) == (["Carol"], "Has Pumpkin Ted")
    assert "Carol holds Pumpkin Ted" in words


def test_tiebreaker_3_queen_of_spades() -> None:
    state = table(
        Lewis=deck(mavens=[maven("Queen of Spades", "wicked", 4)]),
        Carol=deck(mavens=[maven("Other", "wicked", 4)]),
    )
    assert _decided(state)[:2] == (["Lewis"], "Has the Queen of Spades")


def test_tiebreaker_4_wicked_vp() -> None:
    state = table(
        Lewis=deck(mavens=[maven("T", "tinkerer", 4)]),
        Carol=deck(mavens=[maven("W", "wicked", 4)]),
    )
    assert _decided(state)[:2] == (["Carol"], "VP from Wicked cards")


def test_tiebreaker_5_ally_vp() -> None:
    state = table(
        Lewis=deck(junk=[{"kind": "reactor-pump", "vp": 4}]),
        Carol=deck(mavens=[maven("O", "oddling", 4)]),
    )
    assert _decided(state)[:2] == (["Carol"], "VP from Ally cards")


def test_tiebreaker_6_last_player_to_take_a_turn() -> None:
    state = table(order=["Carol", "Lewis"], Lewis=deck(), Carol=deck())
    winners, by, words = _decided(state)
    assert (winners, by) == (["Lewis"], "Later in the last turn order")
    assert "Lewis turn 2 in the last round" in words


#: A half of 7 rounds, every card once: 6 Wands and 3 majors pass the Toad (9 passes).
FULL_HALF = [[f"cups-{v}", f"swords-{v}", f"wands-{v}"] for v in range(1, 7)] + [
    ["death", "fool", "tower"]
]


def test_last_turn_order_follows_the_round_companion_when_not_given() -> None:
    state = table(Lewis=deck(), Carol=deck())
    del state["final_turn_order"]
    state["toad"] = "Lewis"
    # 9 passes in the first half, 10 in the second: after 19 passes Carol holds the
    # Feed the Toad! card in the last round, so Lewis takes the last turn.
    second = [["magician", "swords-1", "wands-1"], *FULL_HALF[1:]]
    state["rounds"] = [*FULL_HALF, *second]
    result = GAME.score(state)
    assert result.winners == ["Lewis"]
    assert result.decided_by == "Later in the last turn order"


def test_mid_game_the_last_tiebreaker_is_not_decided_from_an_early_round() -> None:
    state = table(Lewis=deck(), Carol=deck())
    del state["final_turn_order"]
    state["toad"] = "Lewis"
    state["rounds"] = [["cups-1", "wands-2", "swords-3"], ["cups-2", "swords-1", "cups-3"]]
    result = GAME.score(state)
    assert result.winners == ["Lewis", "Carol"]
    assert result.decided_by == "shared"
    assert NOT_OVER_WARNING in result.warnings


def test_without_the_first_toad_holder_the_last_tiebreaker_stays_undecided() -> None:
    state = table(Lewis=deck(), Carol=deck())
    del state["final_turn_order"]
    state["rounds"] = [*FULL_HALF, *FULL_HALF]
    result = GAME.score(state)
    assert result.winners == ["Lewis", "Carol"]
    assert result.decided_by == "shared"
    assert NO_TOAD_WARNING in result.warnings


def test_a_shared_result_when_the_last_turn_order_is_unknown() -> None:
    state = table(Lewis=deck(), Carol=deck())
    del state["final_turn_order"]
    result = GAME.score(state)
    assert result.winners == ["Lewis", "Carol"]
    assert result.decided_by == "shared"
    assert NO_TURN_ORDER_WARNING in result.warnings


def test_the_game_is_over_after_an_escape_or_fourteen_rounds() -> None:
    state = table(Lewis=deck(), Carol=deck())
    assert GAME.score(state).finished is False
    half = [
        [f"{s}-{v}", f"{t}-{v}", f"{u}-{v}"]
        for v in range(1, 7)
        for s, t, u in [("cups", "swords", "wands")]
    ]
    state["rounds"] = [*half, ["death", "fool", "tower"]] * 2
    assert GAME.validate(state) == []
    assert GAME.score(state).finished is True
    state["rounds"][-1] = ["death", "fool"]
    assert GAME.score(state).finished is False


def test_tiebreaks_are_in_the_rulebook_order_with_direction_words_and_rules() -> None:
    assert [t.label for t in TIEBREAKS] == [
        "Has Lucky",
        "Has Pumpkin Ted",
        "Has the Queen of Spades",
        "VP from Wicked cards",
        "VP from Ally cards",
        "Later in the last turn order",
    ]
    assert all(t.rule and t.rule.startswith("luckys-misadventures/") for t in TIEBREAKS)
    assert TIEBREAKS[0].say(1) == "holds Lucky"
    assert TIEBREAKS[3].say(5) == "5 VP from Wicked cards"


# --- validation ------------------------------------------------------------------------------


def problems(state: object) -> dict[str, str]:
    return {p.path: p.message for p in GAME.validate(state)}


def test_every_problem_of_an_impossible_table_is_listed() -> None:
    state = table(
        Lewis=deck(
            lucky=2,
            hirelings={"winged-monkey": 5},
            mavens=[maven("Big", vp=9)],
            junk=[{"kind": "reactor-pump"}, {"kind": "flux-capacitor", "vp": 2, "count": 3}],
            machines={"time-machine": 1, "tiny-tin": 3},
        ),
        Carol=deck(
            hirelings={"winged-monkey": 4},
            junk=[{"kind": "flux-capacitor", "vp": 2}, {"kind": "bolt", "vp": 1}],
            machines=["time-machine", "tiny-tin", "tiny-tin", "warp-drive"],
        ),
    )
    state["rounds"] = [["cups-1", "cups-1", "joker"]]
    found = problems(state)
    assert found["decks.Lewis.lucky"].startswith("Each player has one Lucky card, not 2.")
    assert "app's reading" in found["decks.Lewis.lucky"]
    assert found["decks.Lewis.mavens[0].vp"] == "A Maven is worth 2 to 6 VP, not 9."
    assert found["decks.Lewis.junk[0].vp"] == "Enter the VP printed on the Reactor Pump."
    assert "bolt" in found["decks.Carol.junk[1].kind"]
    assert "warp-drive" in found["decks.Carol.machines[3]"]
    assert "twice in round 1" in found["rounds[0][1]"]
    assert "not a Fate card" in found["rounds[0][2]"]
    totals = [p.message for p in GAME.validate(state) if p.path == "decks"]
    assert "Only 8 Winged Monkey cards exist, but 9 were entered." in totals
    assert (
        "Only 3 Flux Capacitor cards exist: the Machines entered took 4 to build (trashed"
        " Junk is gone from the game), and the decks hold 4 more." in totals
    )
    assert "Only 1 Time Machine card exists, but 2 were entered." in totals
    assert "Only 4 Tiny Tin cards exist, but 5 were entered." in totals


@pytest.mark.parametrize("count", [1, 5])
def test_one_or_five_players_are_refused(count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    found = problems({"players": names})
    assert found["players"].startswith(f"This game is for 2 to 4 players, not {count}.")
    assert "2 to 4 players is the app's reading" in found["players"]


def test_a_fate_card_comes_up_once_per_half() -> None:
    rounds = [[f"cups-{r}", f"swords-{r}", f"wands-{r}"] for r in range(1, 7)]
    state = {"players": ["A", "B"], "rounds": [*rounds, ["death", "fool", "cups-1"]]}
    assert "already came up in round 1" in problems(state)["rounds[6][2]"]
    second_half = [*rounds, ["death", "fool", "tower"], ["cups-1", "swords-1", "wands-1"]]
    assert problems({"players": ["A", "B"], "rounds": second_half}) == {}


def test_unknown_names_and_bad_turn_orders() -> None:
    state = table(Lewis=deck(), Carol=deck())
    state["decks"]["Zed"] = deck()
    state["final_turn_order"] = ["Lewis", "Lewis"]
    state["escaped"] = {"player": "Nobody", "by": "rocket"}
    found = problems(state)
    assert "decks.Zed" in found
    assert "escaped.by" in found
    assert "escaped.player" in found
    assert "final_turn_order" in found


def test_api_checks_are_strict() -> None:
    endpoints = GAME.api_endpoints()
    bad = [
        ("feed-the-toad", {"players": ["A", "B"], "holder": "A", "fate": ["cups-1", "cups-1"]}),
        ("feed-the-toad", {"players": ["A"], "holder": "A", "fate": ["cups-1", "cups-2", "x"]}),
        ("challenge", {"kind": "odd", "powers": {"A": -1, "B": 2}}),
        ("challenge", {"powers": {"A": 1, "B": 2}, "turn_order": ["A", "C"]}),
        ("buy-points", {"scarecrows": ["cups", "cups"], "white_rabbits": 9}),
        ("build-machine", {"junk": ["bolt"]}),
        ("escape", {"in_play": ["rocket"]}),
    ]
    for name, body in bad:
        with pytest.raises(InvalidStateError):
            endpoints[name](body)


# --- the app's readings, said in the answers that apply them -------------------------------

READING = "luckys-misadventures/"


def reading_ids(answer: dict[str, Any]) -> list[str]:
    return [r["id"].removeprefix(READING) for r in answer.get("readings", [])]


def test_feed_the_toad_says_which_cards_pass_it_is_the_app_s_reading() -> None:
    toad = GAME.api_endpoints()["feed-the-toad"]
    calm = toad(
        {
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["cups-1", "swords-2", "cups-3"],
        }
    )
    assert (calm["holder"], reading_ids(calm)) == ("Lewis", ["feed-the-toad/symbols"])
    assert "is the app's reading" in calm["readings"][0]["text"]
    # Fortune's sum 3: "no Tinkerer phase", read as no Tinkerer challenge.
    low = toad(
        {
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["fortune", "cups-1", "swords-2"],
        }
    )
    assert reading_ids(low) == ["feed-the-toad/symbols", "fate/fortune-phases"]
    assert "no Tinkerer challenge this round" in low["effects"][-1]
    high = toad(
        {
            "players": ["Lewis", "Carol"],
            "holder": "Lewis",
            "fate": ["fortune", "cups-4", "wands-5"],
        }
    )
    assert reading_ids(high) == ["feed-the-toad/symbols"]


def test_the_round_companion_carries_the_toad_reading() -> None:
    view = referee.companion(["Lewis", "Carol"], "Lewis", [["cups-4", "wands-5", "death"]])
    fate = view.rounds[0].fate
    assert fate is not None
    assert [r.id for r in fate.readings] == [READING + "feed-the-toad/symbols"]


def test_the_challenge_margin_against_the_runner_up_is_the_app_s_reading() -> None:
    challenge = GAME.api_endpoints()["challenge"]
    two = challenge({"powers": {"Lewis": 3, "Carol": 1}})
    assert (two["outcome"], reading_ids(two)) == ("crushed-it", [])
    three = challenge({"powers": {"Lewis": 3, "Carol": 2, "Romi": 0}})
    assert (three["outcome"], three["margin"]) == ("minor-victory", 1)
    assert reading_ids(three) == ["clarify/challenge-margin"]
    tie = challenge({"powers": {"Lewis": 3, "Carol": 3, "Romi": 0}})
    assert reading_ids(tie) == []  # a tie is the rulebook's own case


def test_the_places_after_an_escape_are_the_app_s_reading() -> None:
    three = table(
        Lewis=deck(), Carol=deck(), Romi=deck(), escaped={"player": "Romi", "by": "three-sisters"}
    )
    assert reading_ids(GAME.score(three).to_json()) == ["escapes/others-rank"]
    two = table(Lewis=deck(), Carol=deck(), escaped={"player": "Carol", "by": "three-sisters"})
    assert "readings" not in GAME.score(two).to_json()


@pytest.mark.parametrize(
    ("name", "reading"),
    [("Pumpkin Ted", "tiebreak/pumpkin-ted"), ("Queen of Spades", "tiebreak/queen")],
)
def test_a_single_maven_card_s_tiebreak_and_refusal_say_the_reading(
    name: str, reading: str
) -> None:
    held = deck(mavens=[maven(name, "wicked", 3)])
    tied = table(Lewis=held, Carol=deck(hirelings={"white-rabbit": 3}))
    assert reading_ids(GAME.score(tied).to_json()) == [reading]
    untied = table(Lewis=held, Carol=deck(hirelings={"white-rabbit": 2}))
    assert reading_ids(GAME.score(untied).to_json()) == []
    twice = problems(table(Lewis=held, Carol=held))["decks"]
    assert "entered for Lewis and Carol" in twice
    assert "single" in twice
    assert "is the app's reading" in twice


def test_the_last_turn_order_from_the_rounds_rests_on_the_toad_reading() -> None:
    # Each half deals 21 of the 24 Fate cards (3 are put aside unseen), 3 a round.
    codes = sorted(f.FATE)
    halves = [codes[3:], codes[:21]]
    rounds = [half[i : i + 3] for half in halves for i in range(0, 21, 3)]
    state = table(Lewis=deck(), Carol=deck())
    state.update(final_turn_order=None, toad="Lewis", rounds=rounds)
    result = GAME.score(state).to_json()
    assert result["decided_by"] == "Later in the last turn order"
    assert reading_ids(result) == ["feed-the-toad/symbols"]
    # Entered by the table, the last turn order rests on no reading of the app's.
    state["final_turn_order"] = ["Lewis", "Carol"]
    assert "readings" not in GAME.score(state).to_json()


# --- properties and the conformance strategy ---------------------------------------------------


@given(tables())
def test_totals_equal_the_breakdown(state: dict[str, Any]) -> None:
    before = copy.deepcopy(state)
    for standing in GAME.score(state).standings:
        assert standing.score == sum(line.points for line in standing.breakdown)
    assert state == before


fate_rounds = st.lists(st.sampled_from(sorted(f.FATE)), min_size=3, max_size=3, unique=True)


@given(
    size=st.integers(2, 4),
    seat=st.integers(0, 3),
    fate=fate_rounds,
)
def test_toad_holder_is_the_seat_plus_passes_modulo_players(
    size: int, seat: int, fate: list[str]
) -> None:
    players = NAMES[:size]
    seat %= size
    moved = referee.feed_the_toad(players, players[seat], fate)
    assert moved.passes == sum(1 for c in fate if c.startswith("wands-") or "-" not in c)
    assert moved.holder == players[(seat + moved.passes) % size]
    assert moved.turn_order[0] == moved.holder
    assert sorted(moved.turn_order) == sorted(players)


@given(size=st.integers(2, 4), rounds=st.lists(fate_rounds, max_size=7))
def test_companion_follows_the_toad_round_after_round(size: int, rounds: list[list[str]]) -> None:
    players = NAMES[:size]
    view = referee.companion(players, players[0], rounds)
    total = sum(referee.passes(r) for r in rounds)
    assert view.holder == players[total % size]
    for before, after in zip(view.rounds, view.rounds[1:], strict=False):
        assert after.holder_before == before.holder


# --- the rules reference file ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
RULES_FILE = ROOT / "companion" / "rules" / "luckys-misadventures.toml"


def test_every_rule_id_the_code_names_has_an_entry() -> None:
    rules = tomllib.loads(RULES_FILE.read_text())
    assert rules["game"] == f.SLUG
    entries = {entry["id"] for entry in rules["entry"]}
    sources = [*(ROOT / "companion" / "games" / "luckys").glob("*.py")]
    sources += [*(ROOT / "templates" / "games" / "luckys-misadventures").glob("*.html")]
    used = {
        match
        for path in sources
        for match in re.findall(r'"luckys-misadventures/([a-z0-9/-]+)"', path.read_text())
    }
    assert used
    assert used <= entries, sorted(used - entries)
    assert {t.rule.removeprefix("luckys-misadventures/") for t in TIEBREAKS if t.rule} <= entries


def test_rules_entries_follow_the_format() -> None:
    rules = tomllib.loads(RULES_FILE.read_text())
    topics = {topic["id"] for topic in rules["topic"]}
    ids = [entry["id"] for entry in rules["entry"]]
    assert len(ids) == len(set(ids))
    for entry in rules["entry"]:
        assert re.fullmatch(r"[a-z0-9/-]+", entry["id"])
        assert entry["topic"] in topics
        assert entry["body"].strip()
        if entry["clarification"]:
            assert entry["why"].strip(), entry["id"]
