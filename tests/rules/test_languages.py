"""The rules reference in every language (issue 36): each language's files have exactly
English's games, topics and entries (ids, topics, clarification flags, order), so every
verdict's link works in every language; the loader refuses any difference; and the
search reads each language as its players write it."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest

from companion.config import LANGUAGES
from companion.rules import RULES_DIR, RulesContentError, load, load_languages
from companion.rules.languages import fold
from companion.rules.search import RulesIndex

OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]
LIBRARIES = load_languages(LANGUAGES)


@functools.cache
def index_of(language: str) -> RulesIndex:
    return RulesIndex(LIBRARIES[language])


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_language_has_english_s_entries_in_its_own_words(language: str) -> None:
    english, translated = LIBRARIES["en"], LIBRARIES[language]
    assert translated.language == language
    assert list(translated.games) == list(english.games)
    for slug, rules in english.games.items():
        other = translated.games[slug]
        assert [t.id for t in other.topics] == [t.id for t in rules.topics]
        pairs = list(zip(rules.entries, other.entries, strict=True))
        for mine, theirs in pairs:
            assert (mine.id, mine.topic, mine.clarification) == (
                theirs.id,
                theirs.topic,
                theirs.clarification,
            )
        # Translated, not copied: the questions differ from English's almost everywhere
        # (a name alone, such as "Whalephant", may stay).
        same = [mine.rule_id for mine, theirs in pairs if mine.title == theirs.title]
        assert len(same) <= len(pairs) // 10, same


def copy_rules(tmp_path: Path) -> Path:
    """The shipped rules (English and every language) in a folder of their own."""
    folder = tmp_path / "rules"
    folder.mkdir()
    for path in RULES_DIR.glob("*.toml"):
        shutil.copy(path, folder)
    for language in OTHER_LANGUAGES:
        shutil.copytree(RULES_DIR / language, folder / language)
    return folder


def refusal(folder: Path) -> list[str]:
    with pytest.raises(RulesContentError) as refused:
        load_languages(LANGUAGES, folder)
    return refused.value.problems


def test_the_copied_rules_load(tmp_path: Path) -> None:
    libraries = load_languages(LANGUAGES, copy_rules(tmp_path))
    assert set(libraries) == set(LANGUAGES)


def test_a_language_missing_a_game_is_refused(tmp_path: Path) -> None:
    folder = copy_rules(tmp_path)
    (folder / "fr" / "oddland.toml").unlink()
    assert "fr/oddland.toml: missing (English has it)." in refusal(folder)


def test_a_language_missing_its_folder_is_refused(tmp_path: Path) -> None:
    folder = copy_rules(tmp_path)
    shutil.rmtree(folder / "es")
    assert any(p.startswith("es/") for p in refusal(folder))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_entry_english_lacks_or_has_is_refused(tmp_path: Path) -> None:
    folder = copy_rules(tmp_path)
    edit(folder / "de" / "owl-about.toml", 'id = "follow"', 'id = "folgen"')
    problems = refusal(folder)
    assert 'de/owl-about.toml: entry "follow" is missing (English has it).' in problems
    assert 'de/owl-about.toml: entry "folgen" is not in English.' in problems


def test_a_clarification_flag_that_differs_is_refused(tmp_path: Path) -> None:
    folder = copy_rules(tmp_path)
    path = folder / "es" / "odd-world.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index('id = "face-down"')
    flag = text.index("clarification = ", start)
    end = text.index("\n", flag)
    path.write_text(text[:flag] + "clarification = false" + text[end:], encoding="utf-8")
    problems = refusal(folder)
    assert any("face-down" in p and "clarification" in p for p in problems), problems


def test_a_topic_that_differs_is_refused(tmp_path: Path) -> None:
    folder = copy_rules(tmp_path)
    path = folder / "fr" / "odd-world.toml"
    english = load().games["odd-world"]
    first = english.topics[0].id
    edit(path, f'id = "{first}"', 'id = "autre"')
    problems = refusal(folder)
    assert any(p.startswith("fr/odd-world.toml") for p in problems), problems


@pytest.mark.parametrize(
    ("language", "typed", "same_as"),
    [
        ("fr", "egalite", "égalité"),
        ("es", "cuantas cartas", "cuántas cartas"),
        ("de", "grosse", "Größe"),
        ("de", "spielern", "Spieler"),
        ("de", "gespielt", "spielen"),
    ],
)
def test_players_spelling_finds_the_same_words(language: str, typed: str, same_as: str) -> None:
    index = index_of(language)
    assert [h.entry.rule_id for h in index.search(typed)] == [
        h.entry.rule_id for h in index.search(same_as)
    ]
    assert fold(same_as) == fold(fold(same_as))


def test_a_german_compound_the_rules_never_use_is_read_as_its_words() -> None:
    index = index_of("de")
    assert index.understand("müssen die straßen zusammenpassen").words == (
        "strassen",
        "zusammen",
        "passen",
    )


def test_a_search_marks_every_form_of_a_word_asked() -> None:
    """Snowball languages index words, not stems: every form of a word asked is marked."""
    index = index_of("es")
    hit = index.search("jugadores solitario", game="oddland")[0]
    assert "<mark>" in hit.title + hit.snippet
