"""Search as you type: a fixed set of queries people type at a table (typos, synonyms,
word forms, every game), each with the entry that must come first; highlighting is
escaped; a query never breaks the search, whatever it contains."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import GAMES
from companion.rules import RULES_DIR, Library, load
from companion.rules.search import MAX_RESULTS, STOP_WORDS, RulesIndex
from support.rules_queries import QUERIES, QUESTIONS

INDEX = RulesIndex(load())


def test_the_query_set_is_large_and_covers_every_game() -> None:
    assert len(QUERIES) >= 40
    games = {expected.split("/")[0] for _, _, expected in QUERIES}
    assert games == set(GAMES)


@pytest.mark.parametrize(("query", "game", "expected"), QUERIES)
def test_the_relevant_entry_comes_first(query: str, game: str | None, expected: str) -> None:
    hits = INDEX.search(query, game=game)
    assert hits, f"nothing found for {query!r}"
    assert hits[0].entry.rule_id == expected, [h.entry.rule_id for h in hits[:3]]


def test_one_game_only_when_asked() -> None:
    assert {h.entry.game for h in INDEX.search("tie", game="oddland")} == {"oddland"}
    assert len({h.entry.game for h in INDEX.search("tie")}) >= 3


def test_matching_words_are_highlighted() -> None:
    hit = INDEX.search("whalephant")[0]
    assert "<mark>Whalephant</mark>" in hit.title
    assert "<mark>" in INDEX.search("tiebreak", game="oddland")[0].title


def test_word_forms_are_highlighted_too() -> None:
    hits = INDEX.search("territories", game="oddland")
    assert any("<mark>territory</mark>" in hit.title for hit in hits)


def test_highlights_never_let_markup_through() -> None:
    hits = INDEX.search("player's tokens")
    assert hits
    for hit in hits:
        assert "<" not in str(hit.title).replace("<mark>", "").replace("</mark>", "")
        assert "&#39;" in hit.snippet or "'" not in hit.snippet


def test_typos_are_mended_and_said() -> None:
    query = INDEX.understand("Cassowery nite Tie-Break")
    assert query.words == ("cassowary", "night", "tiebreak")
    assert query.corrected


def test_no_words_no_results() -> None:
    assert INDEX.search("") == []
    assert INDEX.search("  ?! ") == []


@given(st.text(max_size=120))
def test_any_text_is_a_query(text: str) -> None:
    hits = INDEX.search(text)
    assert len(hits) <= 12


@pytest.mark.parametrize(
    "query",
    [
        "cassowery",
        "a",
        "the tiebreaker of the whalephants",
        "qwertyu asdfghjk zxcvbnm poiuytr lkjhgfd mnbvcxz qazwsxe edcrfvt tgbyhnu",
    ],
)
def test_hard_queries_answer_from_a_fresh_index(query: str) -> None:
    """How fast is for benchmarks/rules_bench.py (speed targets are not timed tests);
    here: a fresh index (no word mended from memory) answers each hard query."""
    index = RulesIndex(load())
    hits = index.search(query)
    assert len(hits) <= MAX_RESULTS


class CountedWords(list[str]):
    """A word list that counts how often it is read through whole."""

    passes = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        CountedWords.passes += 1
        return super().__iter__()


def test_a_search_never_reads_through_the_whole_vocabulary() -> None:
    """The worst query (every word made up, the last one a prefix) costs a few lookups per
    word, not a pass over the reference's words: that pass took up to 58 ms under load."""
    index = RulesIndex(load())
    for words in index._words.values():
        words.by_use = CountedWords(words.by_use)
        words.alphabetical = CountedWords(words.alphabetical)
    CountedWords.passes = 0
    index.search("qwertyu asdfghjk zxcvbnm poiuytr lkjhgfd mnbvcxz tie")
    index.search("whalefant surounding tiebrake sqaure fightin powr ti")
    index.search("whalefant surounding tiebrake sqaure oddland ti")
    index.search("fightin powr ti", game="owl-about")
    assert CountedWords.passes == 0


@pytest.mark.parametrize("start", ["ti", "whale", "sq", "zz", "night"])
def test_a_word_being_typed_stands_for_the_words_it_begins_most_used_first(start: str) -> None:
    for words in RulesIndex(load())._words.values():
        expected = [word for word in words.by_use if word.startswith(start)][:40]
        assert words.prefixed(start) == expected


# --- issue 26: questions as players ask them --------------------------------------------


def test_typo_mending_never_rewrites_a_game_s_name() -> None:
    query = INDEX.understand("what if two players tie odd world")
    assert "would" not in query.words
    assert query.game == "odd-world"
    assert not query.corrected


def test_typo_mending_never_rewrites_a_word_of_the_reference() -> None:
    """Every word the entries use stays as typed, wherever it stands in a question."""
    words = sorted({w for e in load() for w in e.title.casefold().split() if w.isalpha()})
    for word in words:
        query = INDEX.understand(f"{word} rules")
        assert word in query.words or word in STOP_WORDS or query.game, word
    assert not INDEX.understand("whalephant territory tiebreak").corrected


def test_typos_outside_the_reference_are_still_mended() -> None:
    assert INDEX.understand("whalefant").words == ("whalephant",)
    assert INDEX.understand("main sqaure").words == ("main", "square")
    assert INDEX.understand("tiebrake").words[0].startswith("tiebreak")


@pytest.mark.parametrize(
    ("question", "game"),
    [
        ("who wins owl about", "owl-about"),
        ("who wins in oddworld", "odd-world"),
        ("tie in odd land", "oddland"),
        ("max coins oddville", "oddville"),
        ("who goes first in lucky's misadventures", "luckys-misadventures"),
        ("nite card owl", "owl-about"),
    ],
)
def test_a_game_named_in_the_question_scopes_the_answer(question: str, game: str) -> None:
    answer = INDEX.answer(question)
    assert answer.game == game
    assert answer.named
    assert answer.hits
    assert {hit.entry.game for hit in answer.hits} == {game}
    assert all(hit.entry.game != game for hit in answer.others)


def test_who_wins_owl_about_answers_with_its_winner_and_offers_the_others_below() -> None:
    answer = INDEX.answer("who wins owl about")
    assert answer.hits[0].entry.rule_id == "owl-about/fewest-vp"
    assert answer.others, "the other games' best are offered below"
    assert INDEX.search("who wins owl about")[: len(answer.hits)] == answer.hits


def test_a_game_chosen_in_the_form_wins_over_one_named() -> None:
    answer = INDEX.answer("who wins owl about", game="oddland")
    assert answer.game == "oddland"
    assert not answer.named
    assert {hit.entry.game for hit in answer.hits} == {"oddland"}
    assert answer.others == []


def test_a_game_s_name_alone_lists_its_entries_in_page_order() -> None:
    answer = INDEX.answer("Oddland")
    entries = load().games["oddland"].entries
    assert [hit.entry for hit in answer.hits] == list(entries[:MAX_RESULTS])


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("how many coins can i have", "oddville/turn/coins"),
        ("max coins oddville", "oddville/turn/coins"),
        ("most coins I can keep", "oddville/turn/coins"),
        ("how many buildings can i hold", "oddville/turn/building"),
        ("nite card owl", "owl-about/night"),
        ("what if two players tie odd world", "odd-world/tiebreak/species"),
        ("same points in oddville", "oddville/tiebreak"),
    ],
)
def test_the_issue_s_questions_find_their_entry_first(question: str, first: str) -> None:
    hits = INDEX.search(question)
    assert hits[0].entry.rule_id == first, [h.entry.rule_id for h in hits[:3]]


def test_synonyms_players_use_find_the_words_of_the_entries() -> None:
    """max/most/limit, hold/keep/have, tie/same points: each finds what the other says."""
    for said in ("limit", "max", "most"):
        assert INDEX.search(f"{said} coins oddville")[0].entry.rule_id == "oddville/turn/coins"
    for said in ("hold", "keep", "have"):
        top = INDEX.search(f"how many building cards can i {said}")[0]
        assert top.entry.rule_id == "oddville/turn/building", said
    for said in ("tie", "same points", "tied", "equal points"):
        top = INDEX.search(f"{said} oddland")[0]
        assert top.entry.rule_id == "oddland/tiebreak/territories", said


@pytest.mark.parametrize(
    ("question", "game"), [("flor vp", "owl-about"), ("flor vp owl about", None)]
)
def test_a_typo_about_one_game_is_mended_to_that_game_s_words(
    question: str, game: str | None
) -> None:
    """Asked on Owl About's page, or naming it, *flor* is its *floor* (VP never drop under
    0), not Oddland's *Flora*, the closest word across all games."""
    assert INDEX.understand("flor vp").words == ("flora", "vp")
    assert INDEX.understand(question, game=game).words == ("floor", "vp")
    assert INDEX.search(question, game=game)[0].entry.rule_id == "owl-about/vp-floor"


# --- issue 35: one game's content cannot push another game's answers down ---------------


def _library_with_a_copycat(folder: Path, copied: str, copies: int = 12) -> Library:
    """The real rules plus a large made-up game ("filler") whose entries repeat every
    entry of ``copied`` twelve times: that game's words become common everywhere."""
    for path in RULES_DIR.glob("*.toml"):
        shutil.copy(path, folder / path.name)
    lines = ['game = "filler"', "", "[[topic]]", 'id = "copies"', 'title = "Copies"']
    for n in range(copies):
        for entry in load().games[copied].entries:
            lines += [
                "",
                "[[entry]]",
                f'id = "copy-{n}-{entry.id.replace("/", "-")}"',
                'topic = "copies"',
                f"title = {json.dumps(entry.title)}",
                f"body = {json.dumps(entry.body + ' ' + entry.why)}",
                f"keywords = {json.dumps(list(entry.keywords))}",
            ]
    (folder / "filler.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load(folder)


#: Every query and question, asked on the rules page of the game of its expected entry.
SCOPED = [(query, expected.split("/")[0]) for query, _, expected in QUERIES] + [
    (question["ask"], question["first"].split("/")[0]) for question in QUESTIONS
]


@pytest.mark.parametrize("copied", sorted(GAMES))
def test_a_large_game_full_of_another_game_s_words_changes_no_game_s_answers(
    tmp_path: Path, copied: str
) -> None:
    """Asked on a game's page or naming a game, a question is answered from that game's
    entries as they rank among themselves: a game with twelve times as many entries, all
    made of one game's words, neither reorders that game's answers nor any other's (with
    rarity counted across every entry, it did: *nite card* on Owl About's page, *all nine
    birds* on Odd World's)."""
    bigger = RulesIndex(_library_with_a_copycat(tmp_path, copied))
    assert sum(1 for entry in bigger.library if entry.game == "filler") > 100
    for query, game in SCOPED:
        alone = [hit.entry.rule_id for hit in INDEX.answer(query, game=game).hits]
        beside = [hit.entry.rule_id for hit in bigger.answer(query, game=game).hits]
        assert beside == alone, (query, game)
    for question in QUESTIONS:
        named = INDEX.answer(question["ask"])
        if named.named:
            beside = bigger.answer(question["ask"])
            assert [h.entry for h in beside.hits] == [h.entry for h in named.hits], question


# --- issue 34: a mode, a variant, the end of the game, a character named -----------------


@pytest.mark.parametrize(
    ("question", "first", "below"),
    [
        (
            "do we still follow speed when playing quick",
            "owl-about/mode/quick",
            "owl-about/follow",
        ),
        ("quick mode can i play a nite card", "owl-about/mode/quick", "owl-about/night"),
        (
            "what if i collect 3 nite cards",
            "owl-about/variant/night-collection-3",
            "owl-about/night",
        ),
        ("what if both piles run out", "odd-world/end", "odd-world/empty-pile"),
        ("both draw piles are empty now what", "odd-world/end", "odd-world/empty-pile"),
        ("no cards left to draw odd world", "odd-world/end", "odd-world/empty-pile"),
        ("what if only one pile is empty", "odd-world/empty-pile", "odd-world/end"),
        ("traveller on the square", "oddville/character/traveller", "oddville/main-square"),
        (
            "what happens when a guild pile runs out",
            "oddville/character-take",
            "odd-world/empty-pile",
        ),
    ],
)
def test_what_a_question_names_comes_before_the_general_rule(
    question: str, first: str, below: str
) -> None:
    """A mode or variant named ranks its entry above the rule it changes; both piles (or
    every card) running out is the end of the game, one pile only its split; a character
    named ranks its own entry above the place it acts on."""
    found = [hit.entry.rule_id for hit in INDEX.search(question)]
    assert found[0] == first, found[:3]
    assert below in found[1:], found
