"""Every sentence an engine builds for people goes through gettext (issue 36).

Under the pseudo-language of ``support/pseudo.py`` each message comes out wrapped in
⟦ ⟧, so English words left outside the brackets were built without gettext. For every
game, the checks score many states (the conformance strategies) and chosen ones, refuse
invalid ones, answer each endpoint's examples and more requests (odd ones drawn at random
for Owl About), refuse form edits, word the edit history and the Finish button and what
the engine says to the pages besides, and look at every human-facing string: problems'
``message``, breakdown lines' ``label``, ``warnings``, readings' ``text`` and the words
of the answers (:data:`support.words.HUMAN_KEYS`). Identifiers stay English and are left
out of the word check on purpose: ``decided_by``, the tiebreakers' ``label`` in the JSON
(``decided_by`` names them), ids, keys, paths and field names
(:func:`test_identifiers_stay_english` checks they are never translated).

The harness is in ``support/words.py``; each game's :class:`~support.words.Examples` in
``support/word_examples/`` (a new game adds its module there).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, Game
from companion.games.grid import place_name, places_name
from companion.games.limits import validate_model
from companion.games.names import hidden_character_message
from companion.games.problems import InvalidStateError, Problem, problem_messages
from companion.games.text import sentences, speaking, spoken_list
from support.every_game import STRATEGIES
from support.owl_about import FUZZ_STATES, FUZZ_TRICK_REQUESTS
from support.pseudo import PSEUDO
from support.word_examples import EXAMPLES
from support.word_examples.oddland import replayed_twice
from support.words import (
    answer,
    assert_history_in_pseudo,
    assert_scored_in_pseudo,
    assert_translated,
    english_left,
    names_in,
    problems_json,
)

SLUGS = sorted(GAMES)

#: Odd requests (endpoint name and body) drawn at random, for the games that have a
#: fuzz strategy of their own.
ODD_REQUESTS: dict[str, st.SearchStrategy[tuple[str, object]]] = {
    "owl-about": st.tuples(st.just("score"), FUZZ_STATES)
    | st.tuples(st.just("trick"), FUZZ_TRICK_REQUESTS),
}

#: The players the games' more words (:attr:`~support.words.Examples.words`) name: the
#: examples' tables, and Lucky's challenge between A and B.
WORDS_NAMES = ["Ann", "Ben", "Cy", "A", "B"]


def test_every_game_has_its_examples() -> None:
    assert set(EXAMPLES) == set(GAMES) == set(STRATEGIES)
    assert [slug for slug in SLUGS if not EXAMPLES[slug].filled] == []
    assert set(ODD_REQUESTS) <= set(GAMES)


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_scored_states_speak_the_reader_s_language(slug: str, data: st.DataObject) -> None:
    game = GAMES[slug]
    state = data.draw(STRATEGIES[slug], label="state")
    with speaking(PSEUDO):
        assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", SLUGS)
def test_chosen_states_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            assert game.validate(state) == [], state
            assert game.table_problems(state) == [], state
            assert_scored_in_pseudo(game, state)


@pytest.mark.parametrize("slug", SLUGS)
def test_refusals_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].refused:
            problems = game.validate(state) or game.table_problems(state)
            assert problems, state
            assert_translated(problems_json(problems), names=names_in(state))
            assert_translated(answer(game.api_endpoints()["score"], state))


@pytest.mark.parametrize("slug", SLUGS)
def test_endpoints_speak_the_reader_s_language(slug: str) -> None:
    """Each endpoint's example of the API description, and the game's own requests."""
    game = GAMES[slug]
    endpoints = game.api_endpoints()
    examples = [(name, described.example) for name, described in game.api_descriptions().items()]
    with speaking(PSEUDO):
        for name, body in [*examples, *EXAMPLES[slug].requests]:
            assert_translated(answer(endpoints[name], body), names=names_in(body))


@pytest.mark.parametrize("slug", sorted(ODD_REQUESTS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_odd_requests_speak_the_reader_s_language(slug: str, data: st.DataObject) -> None:
    name, body = data.draw(ODD_REQUESTS[slug], label="request")
    with speaking(PSEUDO):
        assert_translated(answer(GAMES[slug].api_endpoints()[name], body))


@pytest.mark.parametrize("slug", SLUGS)
def test_form_edits_and_history_speak_the_reader_s_language(slug: str) -> None:
    game = GAMES[slug]
    with speaking(PSEUDO):
        for path, raw in EXAMPLES[slug].edits:
            with pytest.raises(InvalidStateError) as refused:
                game.parse_edit(path, raw)
            assert_translated(problems_json(refused.value.problems))
        for ending in EXAMPLES[slug].endings:
            assert_translated({"words": game.over_words(ending)}, names=names_in(ending))
        for change in EXAMPLES[slug].changes:
            assert_history_in_pseudo(game, change)


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if EXAMPLES[slug].words])
def test_more_words_speak_the_reader_s_language(slug: str) -> None:
    """What the engine says to the pages beyond answers and history."""
    say = EXAMPLES[slug].words
    assert say is not None
    with speaking(PSEUDO):
        said = say()
    assert said
    assert_translated({"words": said}, names=WORDS_NAMES)


@pytest.mark.parametrize("slug", SLUGS)
def test_identifiers_stay_english(slug: str) -> None:
    """What clients key on is never translated: ``decided_by``, tiebreak labels, ids."""
    game = GAMES[slug]
    labels = [tiebreak.label for tiebreak in game.tiebreaks]
    with speaking(PSEUDO):
        for state in EXAMPLES[slug].scored:
            result = game.checked_score(state).to_json()
            assert "⟦" not in result["decided_by"]
            for standing in result["standings"]:
                assert [t["label"] for t in standing["tiebreak"]] == labels
            for reading in result.get("readings", ()):
                assert "⟦" not in reading["id"] + reading["rule"]


def test_a_remembered_replay_speaks_each_reader_s_language() -> None:
    """Oddland's replay cache keeps no words: a game replayed in English first says its
    stopping turn's problem in the next reader's language."""
    with speaking(PSEUDO):
        said = replayed_twice()
    assert said
    assert all(message.startswith("⟦") for message in said)


def test_the_shared_words_speak_the_reader_s_language() -> None:
    """Words every game uses: lists, sentences in a row, grid places, the count of
    problems left out, and the defaults of :class:`Game`."""
    with speaking(PSEUDO):
        said = [
            spoken_list(["Ann", "Ben", "Cy"]),
            spoken_list(["8", "10", "12"], joined_by="or"),
            sentences("⟦One.⟧", "⟦Two.⟧"),
            place_name((0, 1)),
            *(
                places_name(cells)
                for cells in ([(2, 3), (2, 4)], [(1, 0), (2, 0)], [(0, 0), (1, 1)])
            ),
            problem_messages([Problem("x", "⟦Wrong.⟧")] * 52)[-1],
            Game.over_words(GAMES["owl-about"], {}),
            Game.going_on_words(GAMES["owl-about"], {}),
            *problem_messages(refusal(lambda: GAMES["owl-about"].series({"games": []}))),
            hidden_character_message("\x00", subject="⟦Group name⟧"),
            *(
                p.message
                for p in refusal(lambda: validate_model(Chosen, {"size": 100, "kind": "x"}))
            ),
        ]
        assert_translated({"words": said}, names=["Ann", "Ben", "Cy"])


class Kind(StrEnum):
    """Choices a request model may take (as Oddland's species rules do)."""

    SMALL = "small"
    LARGE = "large"


class Chosen(pydantic.BaseModel):
    """A request with a bounded number and a choice: pydantic's own refusals (not strict,
    as Oddland's species rules, so that a text is read as a choice)."""

    model_config = pydantic.ConfigDict(extra="forbid")

    size: int = pydantic.Field(le=99)
    kind: Kind


def refusal(call: Callable[[], object]) -> list[Problem]:
    """The problems ``call`` raises."""
    with pytest.raises(InvalidStateError) as refused:
        call()
    return refused.value.problems


def test_the_check_finds_english_left_outside_the_brackets() -> None:
    """The check itself: bare English is found, identifiers and names are not."""
    warned = {
        "warnings": ["⟦Round 1⟧ is over"],
        "standings": [
            {"tiebreak": [{"label": "Best single bird"}], "breakdown": [{"label": "Ann"}]}
        ],
    }
    placed = {
        "cards": [{"place": "row 1, col 2", "words": "⟦Diamond = 5⟧"}],
        "standings": [{"tiebreak": [{"label": "Has Lucky"}], "breakdown": [{"label": "Ann"}]}],
    }
    assert english_left(warned, names=["Ann"]) == [("warnings[0]", "⟦Round 1⟧ is over")]
    assert english_left(placed, names=["Ann"]) == [("cards[0].place", "row 1, col 2")]
