"""Questions as players ask them at the table, in their own words and their own language,
each with the entry that must come first: English in ``support/rules_questions.toml`` (at
least 100 across the five games), every other language the app speaks in
``support/rules_questions/<language>.toml`` (at least 12 a game), searched in that
language's rules. Typed as on a phone: lower case, with typos, short forms and no accents
or question mark. The search form's game menu is left on "All games": naming the game is
part of the question."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.config import LANGUAGES
from companion.games import GAMES
from companion.rules import load_languages
from companion.rules.search import RulesIndex
from support.rules_queries import QUESTIONS, questions_in

LIBRARIES = load_languages(LANGUAGES)
INDEXES = {language: RulesIndex(library) for language, library in LIBRARIES.items()}
#: The fewest questions of every game in a language's set (English: its whole set counts).
FEWEST = {"en": 20}
FEWEST_ELSEWHERE = 12


def test_the_english_set_is_large() -> None:
    assert len(QUESTIONS) >= 100


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_set_covers_every_game_and_names_real_entries(language: str) -> None:
    asked = questions_in(language)
    library = LIBRARIES[language]
    for question in asked:
        assert library.entry(question["first"]) is not None, question
        assert len(question["ask"].split()) >= 3, f"a question, not keywords: {question}"
        assert question["ask"] == question["ask"].lower(), f"typed as on a phone: {question}"
        assert "?" not in question["ask"], f"typed as on a phone: {question}"
    per_game = Counter(q["first"].split("/")[0] for q in asked)
    assert set(per_game) == set(GAMES)
    assert min(per_game.values()) >= FEWEST.get(language, FEWEST_ELSEWHERE), per_game


@pytest.mark.parametrize(
    ("language", "ask", "first"),
    [(language, q["ask"], q["first"]) for language in LANGUAGES for q in questions_in(language)],
    ids=lambda v: v,
)
def test_the_entry_answering_the_question_comes_first(language: str, ask: str, first: str) -> None:
    hits = INDEXES[language].search(ask)
    assert hits, f"nothing found for {ask!r}"
    assert hits[0].entry.rule_id == first, [h.entry.rule_id for h in hits[:3]]
