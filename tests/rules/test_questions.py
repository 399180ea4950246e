"""Questions as players ask them at the table, in their own words, each with the entry
that must come first (the set lives in ``support/rules_questions.toml``: at least 100
across the five games, typed as on a phone, in lower case, with typos and short forms and
no question mark). The search form's game menu is left on "All games": naming the game is
part of the question."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games import GAMES
from companion.rules import load
from companion.rules.search import RulesIndex
from support.rules_queries import QUESTIONS

INDEX = RulesIndex(load())


def test_the_set_is_large_covers_every_game_and_names_real_entries() -> None:
    assert len(QUESTIONS) >= 100
    library = load()
    for question in QUESTIONS:
        assert library.entry(question["first"]) is not None, question
        assert len(question["ask"].split()) >= 3, f"a question, not keywords: {question}"
        assert question["ask"] == question["ask"].lower(), f"typed as on a phone: {question}"
        assert "?" not in question["ask"], f"typed as on a phone: {question}"
    per_game = Counter(q["first"].split("/")[0] for q in QUESTIONS)
    assert set(per_game) == set(GAMES)
    assert min(per_game.values()) >= 20, per_game


@pytest.mark.parametrize(
    ("ask", "first"), [(q["ask"], q["first"]) for q in QUESTIONS], ids=lambda v: v
)
def test_the_entry_answering_the_question_comes_first(ask: str, first: str) -> None:
    hits = INDEX.search(ask)
    assert hits, f"nothing found for {ask!r}"
    assert hits[0].entry.rule_id == first, [h.entry.rule_id for h in hits[:3]]
