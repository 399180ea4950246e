"""Owl About: each trick is judged once, during validation, and reused.

Validation checks a round without problems in one pass (``state._clean_round``) and
judges each complete trick there (``TrickInput.played``); scoring and the play-along
reuse it, and a process remembers the rounds it judged (``state.CHECKED_ROUNDS``). These
tests hold that shortcut to the detailed path it replaces: with ``_clean_round`` switched
off, every round goes through the detailed checks, and every trick is judged from
scratch by ``trick_progress`` in scoring and the play-along. Both paths must give the
same results, boards and problems, for legal games and for broken ones.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import owl_about as oa
from companion.games.names import Roster
from companion.games.owl_about import state as owl_state
from companion.games.problems import InvalidStateError
from support.owl_about import FULL_DECK, games

GAME = oa.GAME
NAMES = ["Ann", "Ben", "Cy", "Dot", "Ed", "Flo"]


@contextmanager
def from_scratch() -> Iterator[None]:
    """Every round through the detailed checks, every trick judged from scratch."""
    with mock.patch.object(owl_state, "_clean_round", return_value=None):
        yield


def outcome(state: dict[str, Any]) -> tuple[str, Any]:
    """The score request's answer, or its problems (path, message, rules entry)."""
    try:
        return "result", GAME.score(state).to_json()
    except InvalidStateError as error:
        return "problems", [(p.path, p.message, p.rule) for p in error.problems]


def board_or_problems(state: dict[str, Any]) -> object:
    try:
        return oa.board(state)
    except InvalidStateError as error:
        return [(p.path, p.message) for p in error.problems]


def assert_same_both_ways(state: dict[str, Any]) -> tuple[str, Any]:
    """The shared path (twice: judged, then remembered) and the detailed one agree."""
    oa.forget_checked_rounds()
    judged, judged_board = outcome(state), board_or_problems(state)
    remembered, remembered_board = outcome(state), board_or_problems(state)
    with from_scratch():
        scratch, scratch_board = outcome(state), board_or_problems(state)
    assert judged == scratch
    assert remembered == scratch
    assert judged_board == remembered_board == scratch_board
    # Boards compare their tricks field by field; repr covers every view too.
    assert repr(judged_board) == repr(scratch_board)
    return judged


def play_along_round(
    rnd: random.Random, players: Sequence[str], mode: str, *, cards_down: int
) -> dict[str, Any]:
    """A round played card by card with every hand entered, ``cards_down`` cards so far
    (now and then a card breaking a rule, and an override in advanced mode)."""
    size = oa.PLAYER_CHART[len(players)].hand_cards
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(players)}
    entered = {p: list(hand) for p, hand in hands.items() if rnd.random() < 0.8}
    lead = rnd.choice(players)
    tricks: list[dict[str, Any]] = []
    down = 0
    while down < cards_down and len(tricks) < size:
        cards: list[str] = []
        for seat in oa.seating_from(players, lead):
            if down == cards_down:
                break
            legal = oa.legal_cards(hands[seat], cards, mode=mode)
            choice = rnd.choice(legal if rnd.random() < 0.9 else hands[seat])
            hands[seat].remove(choice)
            cards.append(choice)
            down += 1
        trick: dict[str, Any] = {"lead": lead, "cards": cards}
        tricks.append(trick)
        if len(cards) < len(players):
            break
        lead = oa.trick_progress(mode=mode, players=players, lead=lead, cards=cards).winner or lead
        if mode == oa.Mode.ADVANCED and rnd.random() < 0.2:
            lead = rnd.choice(players)
            trick["winner"] = lead
    if tricks and len(tricks[-1]["cards"]) == len(players) and len(tricks) < size:
        tricks.append({"lead": lead, "cards": []})
    return {"tricks": tricks, "open": True, "hands": entered}


@st.composite
def play_along_games(draw: st.DrawFn) -> dict[str, Any]:
    """Legal games (any mode, variants, summaries) whose last round is being played
    along with entered hands, or is complete."""
    state = draw(games())
    players = state["players"]
    size = oa.PLAYER_CHART[len(players)].hand_cards
    rnd = draw(st.randoms(use_true_random=False))
    cards_down = draw(st.integers(0, size * len(players)))
    state["rounds"].append(play_along_round(rnd, players, state["mode"], cards_down=cards_down))
    if draw(st.booleans()):
        # Names typed in another case or with spaces are found all the same.
        for trick in state["rounds"][-1]["tricks"]:
            trick["lead"] = f" {trick['lead'].lower()} "
    return state


@settings(max_examples=80, deadline=None)
@given(games())
def test_property_legal_games_score_the_same_from_shared_and_scratch_tricks(
    state: dict[str, Any],
) -> None:
    kind, _ = assert_same_both_ways(state)
    assert kind == "result"


@settings(max_examples=80, deadline=None)
@given(play_along_games())
def test_property_play_along_games_and_their_boards_are_the_same_both_ways(
    state: dict[str, Any],
) -> None:
    assert_same_both_ways(state)


EDITS = (
    *("card", "lead", "winner", "drop", "extra", "trick", "hand", "penalty", "trophy"),
    *("mode", "players", "open", "case"),
)


def mutate(rnd: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """One to three edits that may break a game: cards, leads, takers, tricks, hands,
    penalties, trophies, the mode or the players."""
    state = copy.deepcopy(state)
    players = list(state["players"])
    rounds = state["rounds"]
    for _ in range(rnd.randint(1, 3)):
        kind = rnd.choice(EDITS)
        played = [r for r in rounds if r.get("tricks")]
        if kind == "mode":
            state["mode"] = rnd.choice(["basic", "quick", "advanced", "slow"])
        elif kind == "players":
            state["players"] = [*players, players[0]] if rnd.random() < 0.5 else players[:-1]
        elif kind == "open" and rounds:
            rnd.choice(rounds)["open"] = True
        elif kind == "trophy" and rounds:
            rnd.choice(rounds)["trophies"] = {rnd.choice(players): rnd.randint(-1, 30)}
        elif kind == "penalty" and rounds:
            who = rnd.choice([*players, "Nobody", players[0].lower()])
            rnd.choice(rounds)["penalties"] = {who: rnd.randint(-1, 12)}
        elif played:
            round_ = rnd.choice(played)
            trick = rnd.choice(round_["tricks"])
            if kind == "card" and trick["cards"]:
                at = rnd.randrange(len(trick["cards"]))
                trick["cards"][at] = rnd.choice([*oa.DECK, "11", "n6", "X"])
            elif kind == "lead":
                trick["lead"] = rnd.choice([*players, "Nobody", f" {players[1].upper()} "])
            elif kind == "winner":
                trick["winner"] = rnd.choice([*players, "Nobody", None])
            elif kind == "drop" and trick["cards"]:
                trick["cards"].pop()
            elif kind == "extra":
                trick["cards"].append(rnd.choice(FULL_DECK))
            elif kind == "trick":
                round_["tricks"].append(copy.deepcopy(trick))
            elif kind == "hand":
                hands = round_.setdefault("hands", {})
                hands[rnd.choice([*players, "Nobody"])] = rnd.sample(FULL_DECK, rnd.randint(0, 10))
            elif kind == "case":
                trick["lead"] = trick["lead"].upper()
    return state


@settings(max_examples=200, deadline=None)
@given(play_along_games(), st.randoms(use_true_random=False))
def test_property_edited_games_give_the_same_problems_or_results_both_ways(
    state: dict[str, Any], rnd: random.Random
) -> None:
    assert_same_both_ways(mutate(rnd, state))


def test_broken_games_do_reach_the_detailed_checks() -> None:
    """The edits above do break games (else the property would test little)."""
    rnd = random.Random(3)
    state = {
        "players": NAMES[:4],
        "mode": "basic",
        "rounds": [play_along_round(rnd, NAMES[:4], "basic", cards_down=32)],
    }
    broken = [outcome(mutate(random.Random(seed), state))[0] for seed in range(60)]
    assert broken.count("problems") > 20
    assert broken.count("result") > 5


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(oa.Mode)),
    st.integers(3, 6).flatmap(lambda n: st.permutations(FULL_DECK).map(lambda d: d[:n])),
    st.booleans(),
)
def test_property_judge_trick_agrees_with_the_card_by_card_rules(
    mode: oa.Mode, cards: list[str], override: bool
) -> None:
    players = NAMES[: len(cards)]
    lead = players[len(cards) // 2]
    seats = oa.seating_from(players, lead)
    taker = players[0] if override else None
    judged = oa.judge_trick(mode, seats=seats, cards=cards, taker=taker)
    progress = oa.trick_progress(mode=mode, players=players, lead=lead, cards=cards)
    trick = oa.TrickInput(lead, tuple(cards), taker)
    assert judged == oa.play_trick(trick, mode=mode, players=players)
    assert judged.fp == progress.fp
    assert judged.winner == (taker or progress.winner)
    assert judged.trophies == oa.trick_trophies(cards) == progress.trophies
    assert judged.same_speed == oa.same_speed(cards)
    assert judged.night_cards == sum(1 for c in cards if oa.card(c).night)


def test_parsed_tricks_carry_their_judgement_and_hand_built_ones_do_not() -> None:
    state = {
        "players": ["Miu", "Carol", "Romi", "Tom"],
        "rounds": [
            {
                "open": True,
                "tricks": [
                    {"lead": "Miu", "cards": ["6", "2", "8", "10"]},
                    {"lead": "carol", "cards": ["9"]},
                ],
            }
        ],
    }
    tricks = oa.parse(state).rounds[0].tricks
    assert tricks is not None
    done, short = tricks
    assert done.played == oa.play_trick(done, mode=oa.Mode.BASIC, players=state["players"])
    assert (short.lead, short.played) == ("Carol", None)
    # The judgement follows from the other fields: it is left out of equality.
    assert done == oa.TrickInput("Miu", ("6", "2", "8", "10"), None)


def test_a_remembered_round_is_shared_and_the_memory_stays_bounded() -> None:
    rnd = random.Random(5)
    players = NAMES[:5]
    oa.forget_checked_rounds()
    state = {
        "players": players,
        "rounds": [play_along_round(rnd, players, "basic", cards_down=35)],
    }
    first = oa.parse(state).rounds[0].tricks
    again = oa.parse(copy.deepcopy(state)).rounds[0].tricks
    assert first is again
    with mock.patch.object(owl_state, "CHECKED_ROUNDS_SIZE", 3):
        for cards_down in range(5, 35, 5):
            other = {
                "players": players,
                "rounds": [play_along_round(rnd, players, "basic", cards_down=cards_down)],
            }
            GAME.score(other)
            assert len(owl_state.CHECKED_ROUNDS) <= 3
    oa.forget_checked_rounds()
    assert not owl_state.CHECKED_ROUNDS
    assert oa.parse(state).rounds[0].tricks == first


def test_a_broken_round_is_not_remembered() -> None:
    oa.forget_checked_rounds()
    state = {
        "players": ["Miu", "Carol", "Romi", "Tom"],
        "rounds": [{"tricks": [{"lead": "Miu", "cards": ["6", "2", "8", "N9"]}]}],
    }
    with pytest.raises(InvalidStateError):
        GAME.score(state)
    assert not owl_state.CHECKED_ROUNDS


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["Ann", "ann", " Ben", "BEN ", "Cy", "", " ", "Dot"]), max_size=6),
    st.sampled_from(["Ann", "ann", "ANN", " ann ", "Ben", "ben", "Cy", "cy ", "", " ", "Eve"]),
)
def test_property_the_roster_finds_names_as_the_base_roster_does(
    names: list[str], wanted: str
) -> None:
    roster = oa.Roster.of(names)
    assert roster.find(wanted) == Roster.of(names).find(wanted)
