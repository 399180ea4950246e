"""Search the rules as players ask: a question in their words, answered offline at once.

The index is built once at start-up, in memory, from SQLite FTS5 (it ships with
Python's own ``sqlite3``: nothing to install or pin). FTS5 does two jobs: its Porter
tokenizer gives every word of the entries its stem (*tiebreakers* and *tiebreak* are one
word), and it marks the matching words of the results (``highlight``/``snippet``).
Ranking is done here, over those stems, because players ask questions rather than type
keywords. A question is understood in four steps:

1. **Which game.** A game named in the question ("who wins owl about") scopes the
   answers to it; the other games' best answers are offered below, apart.
2. **Mended words.** A word the reference never uses (in any form) is replaced by the
   closest word it does use (:mod:`difflib`; the game asked about's words when there is
   one), but a word of the reference's own vocabulary, a game's name or a word that
   glues a question together is never rewritten ("odd world" stays).
3. **Synonyms players use.** Each word stands for a group: *max*, *most*, *limit*;
   *hold*, *keep*, *have*; *tie*, *draw*, *same points*; *run out*, *empty*, *no cards
   left*; and so on (:data:`SYNONYM_GROUPS`, :data:`PHRASES`).
4. **What it asks.** The question form ("how many", "who", "when", "where", "can I...",
   "what if") is matched against the form of each entry's own question (its title), and
   "how many ... can I have" also asks for a limit.

Each entry then scores, for every word asked, how rare that word is (IDF) times where it
occurs (its question, then keywords, then its answer, then the why of a reading) and how
often, scaled by the square of the share of the question it answers; an entry whose own
question has the form asked, or is covered by the words asked, gains a little, and one
whose subject the question names (a mode, a variant, a character...) gains by that
subject's rarity. Rarity is counted within the game when the question is about one game
(named, or asked on its rules page), so that no other game's content moves its answers;
across all games, each game weighs the same however many entries it has.

Each language has its own index (a :class:`RulesIndex` of that language's
:class:`~companion.rules.content.Library`) and reads questions as its players ask them
(:mod:`companion.rules.languages`): English through FTS5's Porter stemmer and the tables
below, German, French and Spanish folded without accents and stemmed with Snowball.

>>> from companion.rules import load
>>> index = RulesIndex(load())
>>> [hit.entry.rule_id for hit in index.search("cassowery")][:1]
['odd-world/components']
>>> index.search("nite card", game="owl-about")[0].entry.rule_id
'owl-about/night'
>>> answer = index.answer("what if two players tie odd world")
>>> answer.game, answer.hits[0].entry.rule_id
('odd-world', 'odd-world/tiebreak/species')
"""

from __future__ import annotations

import bisect
import difflib
import functools
import math
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import snowballstemmer
from markupsafe import Markup, escape

from companion.rules.content import Entry, Library
from companion.rules.languages import PROFILES, Language
from companion.rules.markdown import to_text

#: How many close words a typo is weighed against.
CLOSE_CHOICES = 5
#: The most results one search answers with.
MAX_RESULTS = 12
#: The most answers from other games offered below the named game's.
MAX_OTHERS = 4
#: The longest query read (longer ones are cut: nobody types more at a table).
MAX_QUERY_LENGTH = 100
#: How much a word counts by where it occurs: the entry's question most, then keywords.
FIELD_WEIGHTS = {"title": 3.0, "keywords": 2.0, "topic": 1.0, "body": 1.0, "why": 0.5}
#: How much a synonym counts against the word the player typed.
SYNONYM_WEIGHT = 0.8
#: How much a word still being typed counts (each word it may become).
PREFIX_WEIGHT = 0.9
#: How much an entry whose question has the form asked gains (in IDF units).
FORM_BONUS = 1.5
#: How much an entry gains when the question covers its own question (title) whole.
TITLE_BONUS = 3.0
#: How much an entry gains, times the rarity of its subject, when the question names what
#: it is about (the last part of its id, a name in its question, when no other entry of
#: its game has it for subject): "quick mode follow" asks about quick mode before the rule
#: it changes, "traveller on the main square" about the Traveller. A rarer subject is the
#: more precise one, so it gains more.
SUBJECT_BONUS = 1.0
#: How much leaving part of the question unanswered costs: what an entry matches is
#: scaled by the share of the question it answers to this power (2: an entry answering
#: two words of three keeps 4/9). The entry of a mode, a variant or a character also says
#: the general rule it changes, so it answers all of "follow in quick mode"; the general
#: rule misses "quick".
ANSWERED_POWER = 2.0
#: How much an entry using a word again gains (per doubling, about 0.7 times this).
REPEAT_GAIN = 0.2
#: How much a word found only in an entry's body answers that part of the question.
BODY_ANSWERS = 0.75
#: How much a word found only in the why of a reading answers (it explains the answer).
WHY_ANSWERS = 0.5
#: How close a typed word must be to a word of the entries to stand for it (0-1).
CLOSE_ENOUGH = 0.75
#: Words shorter than this are never corrected (too many near neighbours).
MIN_CORRECTED_LENGTH = 4
#: A mended word differs in length by at most this much.
LENGTH_SLACK = 2
#: The most words of a query searched for (a question never needs more; it keeps any
#: query, however long, well under the time a search may take).
MAX_WORDS = 6
#: The most words a word still being typed may stand for, and its shortest length.
MAX_PREFIXED = 40
MIN_PREFIX = 2
#: How many mended words and stems are remembered (typing resends the words before).
MENDED_CACHE = 4096
#: The shortest part of a compound word that is split (German), and the letters that may
#: join its parts (*Arbeit-s-karte*, *Kröte-n-karte*).
MIN_COMPOUND_PART = 4
JOINS = ("s", "n", "e", "en", "es")
#: How a kept ending of a language's words may be inflected (*Spieler*, *Spielern*).
KEPT_TAILS = ("", "n", "s", "in", "innen")
#: A German past participle is longer than this (*gelegt*, *gespielt*; not *gebt*).
PARTICIPLE_MIN = 5

#: Spellings, splits and phrases people type, mapped to one word the entries use.
PHRASES = {
    "tie break": "tiebreak",
    "tie breaker": "tiebreak",
    "tie breakers": "tiebreak",
    "tie-break": "tiebreak",
    "tie-breaker": "tiebreak",
    "tie-breakers": "tiebreak",
    "nite": "night",
    "nites": "night",
    "neighbor": "neighbour",
    "neighbors": "neighbours",
    "neighboring": "neighbouring",
    "same points": "tie",
    "same score": "tie",
    "same number of points": "tie",
    "equal points": "tie",
    "as many points": "tie",
    "at most": "max",
    "up to": "max",
    "next to": "adjacent",
    "face up": "faceup",
    "go first": "first",
    "goes first": "first",
    "game over": "end",
    # Short forms typed on a phone, without their apostrophe.
    "whats": "what",
    "hows": "how",
    "whos": "who",
    "wheres": "where",
    "whens": "when",
    "im": "i",
    "ive": "i",
    "cant": "can",
    "dont": "do",
    "doesnt": "does",
    "isnt": "is",
    "u": "you",
    "ur": "your",
    # Running out is one thing however it is said ("the piles ran dry", "no cards left").
    "run out": "empty",
    "runs out": "empty",
    "ran out": "empty",
    "running out": "empty",
    "run dry": "empty",
    "runs dry": "empty",
    "ran dry": "empty",
    "out of cards": "deck empty",
    "run out of cards": "deck empty",
    "runs out of cards": "deck empty",
    "ran out of cards": "deck empty",
    "no cards left": "deck empty",
    "no more cards": "deck empty",
    "none left": "empty",
    # "What counts as a territory?" asks what a territory is, not how anything counts.
    "count as": "is",
    "counts as": "is",
}
#: Forms of one word that the stemmer leaves apart (tied: "ti", tie: "tie"): a question
#: using one form finds the others as the word itself, not as a synonym.
WORD_FORMS = {"tied": "tie", "ties": "tie", "tying": "tie", "won": "win"}
#: Groups of words a player uses for one thing: a word of a group also finds the others.
SYNONYM_GROUPS = (
    ("max", "maximum", "most", "limit", "cap", "never more"),
    ("hold", "keep", "have", "own", "carry"),
    ("tie", "tied", "ties", "equal", "tiebreak", "tiebreaker"),
    ("win", "wins", "winner", "won", "victory", "winning", "beat", "beats"),
    ("start", "starts", "begin", "begins"),
    ("end", "ends", "finish", "over", "last"),
    ("score", "scoring", "points", "vp", "worth"),
    ("put", "place", "lay"),
    ("adjacent", "neighbour", "neighbours", "beside", "touch"),
    ("people", "players"),
    ("coin", "coins", "money"),
    ("rotate", "spin", "upside"),
    ("bird", "birds", "species"),
    ("mistake", "wrong", "penalty"),
    ("empty", "run out", "run dry", "gone"),
    ("show", "reveal"),
)
#: The words a limit question ("how many X can I have") also looks for.
LIMIT_WORDS = ("limit", "max", "most", "more", "never")
#: Words that only glue a question together; dropped unless nothing else is left.
_STOP_TEXT = """
a an and are at be by can could do does did for how i if in is it its my me of on or the
to what when where which who whom whose why with you your we our us they them their there
this that these those should would will may might must am was were been being get gets
got happen happens happened many much anything something any one s as than then so
else someone somebody anyone anybody now just only still also too very really please
allowed able possible supposed need needs up
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
#: Other names and short forms of the games (each slug's own words are names too).
GAME_ALIASES = {
    "odd-world": ("oddworld",),
    "owl-about": ("owlabout", "owl", "owls"),
    "oddland": ("odd land",),
    "oddville": ("odd ville",),
    "luckys-misadventures": ("luckys", "lucky s misadventures", "misadventures", "lucky s"),
}
#: The question forms, first words first (the first that fits is the form).
FORMS = (
    (("how", "many"), "how many"),
    (("how", "much"), "how many"),
    (("what", "if"), "what if"),
    (("who",), "who"),
    (("whose",), "who"),
    (("when",), "when"),
    (("where",), "where"),
    (("why",), "why"),
    (("how",), "how"),
    (("what",), "what"),
    (("which",), "what"),
)
#: The form of an entry explaining a whole thing ("How does quick mode work?"): the
#: answer a bare keyword ("quick mode", "characters") most likely wants.
OVERVIEW = "overview"
#: Words opening a yes-or-no question ("can I...", "does it count...").
YES_NO = frozenset(("can", "may", "must", "do", "does", "is", "are", "should", "could", "will"))
#: Words asking what one may have or hold (with "how many": a limit question).
HOLDING = frozenset(("hold", "keep", "have", "own", "carry"))

# Private-use characters mark matches in FTS5's output; they cannot occur in entries,
# survive escaping, and become <mark> afterwards.
OPEN, CLOSE = "\ue000", "\ue001"
WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*", re.UNICODE)
TOKEN_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _asks_how_it_works(words: Sequence[str]) -> bool:
    """An English question asking how a whole thing works ("how does quick mode work")."""
    return words[:1] == ["how"] and words[-1:] == ["work"]


#: How English players ask: the tables above, stemmed by FTS5's Porter tokenizer.
ENGLISH = Language(
    code="en",
    stemmer=None,
    phrases=PHRASES,
    word_forms=WORD_FORMS,
    synonym_groups=SYNONYM_GROUPS,
    stop_words=STOP_WORDS,
    forms=FORMS,
    overview=_asks_how_it_works,
    yes_no=YES_NO,
    holding=HOLDING,
    limit_words=LIMIT_WORDS,
    game_aliases=GAME_ALIASES,
    fold_accents=False,
)
#: Every language the search reads, by code.
LANGUAGES: dict[str, Language] = {"en": ENGLISH, **PROFILES}


@dataclass(frozen=True)
class Hit:
    """One search result: the entry, its question and a snippet with matches marked."""

    entry: Entry
    title: Markup
    snippet: Markup


@dataclass(frozen=True)
class Query:
    """A question as understood: the words searched, whether any were corrected, the
    game it names (if any) and the form of question it asks."""

    words: tuple[str, ...]
    corrected: bool
    game: str | None = None
    form: str | None = None


@dataclass(frozen=True)
class Answer:
    """The answer to a question: the entries of its game (or of all), best first, and
    the best of the other games when the question named one."""

    query: Query
    game: str | None
    named: bool
    hits: list[Hit]
    others: list[Hit]


@dataclass(frozen=True)
class _Concept:
    """One thing asked: the stems that find it, each with its weight."""

    stems: dict[str, float]
    counted: bool = True  # False: it adds to a score but is not required
    #: The stem of the word typed, when the entries use it: a synonym rarer than the
    #: word itself counts only as rare as the word.
    own: str | None = None


class _Words:
    """The words some entries use: what a typo is mended to and what a word still being
    typed may become, each found by a few lookups rather than by reading them all."""

    def __init__(self, words_of_entries: Iterable[set[str]]) -> None:
        #: Every word, folded, with how many entries use it.
        self.using: Counter[str] = Counter()
        for words in words_of_entries:
            self.using.update(words)
        #: The words most used first, and each word's place in that order.
        self.by_use = sorted(self.using, key=lambda w: -self.using[w])
        self.rank = {word: n for n, word in enumerate(self.by_use)}
        #: The words in alphabetical order, for a prefix's range (bisect).
        self.alphabetical = sorted(self.using)
        # Where a typo's candidates are found at once: by length and first letter, and by
        # length and ending (see closest).
        self.by_start: dict[tuple[int, str], list[str]] = {}
        self.by_ending: dict[tuple[int, str], list[str]] = {}
        for word in self.alphabetical:
            self.by_start.setdefault((len(word), word[0]), []).append(word)
            self.by_ending.setdefault((len(word), word[-2:]), []).append(word)
        #: Mended words remembered (typing resends the words before).
        self._mended: dict[str, str] = {}

    def mended(self, word: str) -> str:
        """The closest word to ``word``, remembered."""
        if word not in self._mended:
            if len(self._mended) >= MENDED_CACHE:
                self._mended.clear()
            self._mended[word] = self.closest(word)
        return self._mended[word]

    def closest(self, word: str) -> str:
        """The word closest to ``word`` (itself when none is close)."""
        size = len(word)
        # A typo keeps the word's first letter or its ending (players misspell the
        # middle: whalefant, tiebrake, sqaure): weighing only those words keeps a query
        # of made-up words fast.
        lengths = range(size - LENGTH_SLACK, size + LENGTH_SLACK + 1)
        candidates = list(
            dict.fromkeys(
                w
                for length in lengths
                for found in (
                    self.by_start.get((length, word[0]), ()),
                    self.by_ending.get((length, word[-2:]), ()),
                )
                for w in found
            )
        )
        close = difflib.get_close_matches(word, candidates, n=CLOSE_CHOICES, cutoff=CLOSE_ENOUGH)
        if not close:
            return word
        # Equally close words (tode: toad, told): the one more entries use is the one meant.
        best = difflib.SequenceMatcher(None, word, close[0]).ratio()
        tied = [w for w in close if difflib.SequenceMatcher(None, word, w).ratio() == best]
        return max(tied, key=lambda w: (self.using[w], w == close[0]))

    def prefixed(self, start: str) -> list[str]:
        """The words that begin with ``start``, most used first."""
        if len(start) < MIN_PREFIX:
            return []
        # The words beginning so are one run of the alphabetical list.
        first = bisect.bisect_left(self.alphabetical, start)
        last = bisect.bisect_left(self.alphabetical, start + "\U0010ffff", lo=first)
        return sorted(self.alphabetical[first:last], key=self.rank.__getitem__)[:MAX_PREFIXED]


class RulesIndex:
    """An in-memory index of a library's entries (thread-safe: one lock)."""

    def __init__(self, library: Library) -> None:
        self.library = library
        #: How players of the library's language ask (its words, forms and stemmer).
        self.language = LANGUAGES[library.language]
        language = self.language
        self._entries: list[Entry] = list(library)
        self._lock = threading.Lock()
        self._snowball = _stemmer(language)
        self._phrase = _phrases(language.phrases)
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE entries USING fts5("
            "game UNINDEXED, title, keywords, body, why, topic, subject,"
            f" tokenize = '{language.tokenizer}')"
        )
        self._db.execute("CREATE VIRTUAL TABLE entry_terms USING fts5vocab(entries, 'instance')")
        self._db.execute(
            f"CREATE VIRTUAL TABLE words USING fts5(word, tokenize = '{language.tokenizer}')"
        )
        self._db.execute("CREATE VIRTUAL TABLE word_terms USING fts5vocab(words, 'instance')")
        topics = {(g.slug, t.id): t.title for g in library.games.values() for t in g.topics}
        self._db.executemany(
            "INSERT INTO entries (rowid, game, title, keywords, body, why, topic, subject)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    n,
                    e.game,
                    e.title,
                    " ; ".join(e.keywords),
                    to_text(e.body),
                    to_text(e.why),
                    topics[e.game, e.topic],
                    " ".join(_subject(e, language, english=library.english)),
                )
                for n, e in enumerate(self._entries)
            ],
        )
        #: Each entry's stems in its question; those found only in its body or its why,
        #: with how much of the question each answers; and those naming its subject.
        self._titles: list[set[str]] = [set() for _ in self._entries]
        self._partly: list[dict[str, float]] = [{} for _ in self._entries]
        self._subjects: list[set[str]] = [set() for _ in self._entries]
        #: The index's own terms of each stem (what a match is marked by, Snowball only).
        self._terms_of: dict[str, list[str]] = {}
        #: The stems of the index's terms as Snowball makes them (a participle's verb must
        #: be one of them).
        self._base_stems: set[str] = set()
        self._postings = self._read_postings()
        #: Each entry's game; how rare each stem is in each game and across all (None);
        #: and each entry's game's rarities.
        self._game_of = [e.game for e in self._entries]
        self._rarity = _rarity(self._postings, self._game_of)
        self._row_rarity = [self._rarity[game] for game in self._game_of]
        self._forms = [
            _form(TOKEN_WORD.findall(language.folded(e.title)), language) for e in self._entries
        ]
        self._games = {slug: _game_names(slug, language) for slug in library.games}
        #: Each game's names by their first word, longest first.
        self._names_from: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for slug, names in self._games.items():
            for name in names:
                self._names_from.setdefault(name[0], []).append((name, slug))
        for found in self._names_from.values():
            found.sort(key=lambda named: -len(named[0]))
        self._openings = [_opening(e) for e in self._entries]
        #: The words of all entries, and of each game's: what a typo may be mended to and
        #: what a word being typed may become, in the game asked about if any.
        used = [_words_used(entry, language) for entry in self._entries]
        self._words = {None: _Words(used)} | {
            slug: _Words(used[n] for n, game in enumerate(self._game_of) if game == slug)
            for slug in library.games
        }
        self._synonyms = _synonym_map(language)
        never_mended = {w for names in self._games.values() for n in names for w in n}
        phrased = {w for said in language.phrases.values() for w in said.split()}
        never_mended |= language.stop_words | set(self._synonyms) | phrased
        self._known = frozenset(self._words[None].using) | never_mended
        self._stems: dict[str, str | None] = {}
        self._stem_all([*self._known, *(w for g in self._synonyms.values() for w in g)])
        self._word_of = {
            stem: word
            for word, stem in sorted(self._stems.items(), reverse=True)
            if stem is not None and word in self._words[None].using
        }
        glue = {self._stems.get(w) for w in language.stop_words}
        for stems in (*self._titles, *self._subjects):
            stems -= glue

    # --- understanding a question --------------------------------------------------------

    def understand(self, text: str, *, game: str | None = None) -> Query:
        """The words to search for ``text``: the game named, synonyms mapped, typos
        mended (to the words of ``game``, or of the game named, if any), glue dropped.

        >>> from companion.rules import load
        >>> RulesIndex(load()).understand("Who wins a Tie Break in Odd World?")
        Query(words=('wins', 'tiebreak'), corrected=False, game='odd-world', form='who')
        """
        language = self.language
        text = " ".join(WORD.findall(language.folded(text[:MAX_QUERY_LENGTH])))
        text = self._phrase.sub(lambda said: language.phrases[said.group(0)], text)
        typed = TOKEN_WORD.findall(text)
        # Only the first few unknown words are mended (mending is the costly part; the
        # question never needs more), and the last word may still be being typed: it is
        # mended only if no word begins so.
        unknown = [n for n, w in enumerate(typed) if w not in self._known][:MAX_WORDS]
        self._stem_all(typed[n] for n in unknown)
        vocabulary = self._vocabulary(game or self._named_game(typed)[0])
        words = [
            part
            for n, w in enumerate(typed)
            for part in (
                self._mend(w, vocabulary, last=n == len(typed) - 1) if n in unknown else w
            ).split()
        ]
        game, words = self._named_game(words)
        form = _form(words, language)
        content = [w for w in words if w not in language.stop_words]
        if not content and not game:
            content = words
        return Query(
            tuple(content[:MAX_WORDS]),
            corrected=words != typed and bool(set(words) - set(typed)),
            game=game,
            form=form,
        )

    def _named_game(self, words: list[str]) -> tuple[str | None, list[str]]:
        """The first game the words name, and the words without any game's name."""
        found: str | None = None
        rest: list[str] = []
        position = 0
        while position < len(words):
            match = self._game_at(words, position)
            if match is None:
                rest.append(words[position])
                position += 1
                continue
            slug, length = match
            found = found or slug
            position += length
        return found, rest

    def _game_at(self, words: list[str], position: int) -> tuple[str, int] | None:
        """The game whose longest name starts at ``position``, and that name's length."""
        for name, slug in self._names_from.get(words[position], ()):
            if tuple(words[position : position + len(name)]) == name:
                return slug, len(name)
        return None

    def _vocabulary(self, game: str | None) -> _Words:
        """The words of ``game``'s entries (of every entry when no game is asked)."""
        return self._words.get(game) or self._words[None]

    def _mend(self, word: str, vocabulary: _Words, *, last: bool) -> str:
        """The word itself if the reference uses it or another form of it (or it is a
        name, a synonym or glue; or, for the last word, if the vocabulary has words
        starting with it), else the closest word of the vocabulary."""
        if word in self._known or word.isdigit() or len(word) < MIN_CORRECTED_LENGTH:
            return word
        if self._stem(word) in self._postings:
            return word  # another form of a word the entries use (drawing: draw)
        if last and vocabulary.prefixed(word):
            return word  # still being typed: it stands for the words it begins
        parts = self._parts_of(word) if self.language.compounds else None
        if parts is not None:
            return " ".join(parts)  # a compound of words the entries use: those words
        return vocabulary.mended(word)

    def _parts_of(self, word: str) -> tuple[str, str] | None:
        """A compound the entries never use, as two words they do (German:
        *zusammenpassen* is *zusammen passen*, *Krötenkarte* is *Kröten Karte*), a joining
        *s*, *n* or *e* of the first part left out where it has one; the longest last part
        (the compound's head) when several splits fit; ``None`` when none does."""
        if len(word) < 2 * MIN_COMPOUND_PART:
            return None
        splits = []
        for cut in range(len(word) - MIN_COMPOUND_PART, MIN_COMPOUND_PART - 1, -1):
            first, last = word[:cut], word[cut:]
            firsts = [first] + [first[: -len(j)] for j in JOINS if first.endswith(j)]
            splits += [(f, last) for f in firsts if len(f) >= MIN_COMPOUND_PART]
        self._stem_all(w for split in splits for w in split)
        for first, last in splits:
            if self._stem(first) in self._postings and self._stem(last) in self._postings:
                return first, last
        return None

    # --- answering -------------------------------------------------------------------------

    def answer(self, text: str, *, game: str | None = None) -> Answer:
        """The entries answering ``text``, best first: in ``game`` if given, else in the
        game the question names (with the other games' best apart), else in all."""
        query = self.understand(text, game=game)
        scope = game or query.game
        if not query.words:
            if scope is None:
                return Answer(query, None, False, [], [])
            rows = [n for n, e in enumerate(self._entries) if e.game == scope]
            return Answer(query, scope, game is None, self._hits(rows[:MAX_RESULTS], []), [])
        concepts = self._concepts(query, self._vocabulary(scope))
        scores = self._scores(concepts, query.form, scope=scope, only=game is not None)
        ranked = sorted(scores, key=lambda n: (-scores[n], n))
        inside = [n for n in ranked if scope is None or self._entries[n].game == scope]
        outside = [] if game or scope is None else [n for n in ranked if n not in inside]
        words = [w for c in concepts for w in c.stems]
        return Answer(
            query,
            scope,
            scope is not None and game is None,
            self._hits(inside[:MAX_RESULTS], words),
            self._hits(outside[:MAX_OTHERS], words),
        )

    def search(self, text: str, *, game: str | None = None) -> list[Hit]:
        """The entries matching ``text`` (in one game, or all), best first: when the
        question names a game, its entries first, then the other games' best."""
        found = self.answer(text, game=game)
        return (found.hits + found.others)[:MAX_RESULTS]

    def _concepts(self, query: Query, vocabulary: _Words) -> list[_Concept]:
        """Each word asked as the stems that find it: its own, its synonyms', and for the
        word still being typed, those of the words of the vocabulary it begins."""
        concepts = []
        self._stem_all(w for w in query.words if " " not in w)
        for n, word in enumerate(query.words):
            weights: dict[str, float] = {}
            base = self.language.word_forms.get(word, word)
            self._weigh(weights, word, 1.0)
            self._weigh(weights, base, 1.0)
            for other in self._synonyms.get(base, ()):
                self._weigh(weights, other, SYNONYM_WEIGHT)
            if n == len(query.words) - 1 and word not in vocabulary.using:
                for longer in vocabulary.prefixed(word):
                    self._weigh(weights, longer, PREFIX_WEIGHT)
            own = self._stem(base) if " " not in base else None
            own = own if own in self._postings else None
            concepts.append(_Concept(weights, own=own))
        if query.form == "how many" and self.language.holding & set(query.words):
            limit: dict[str, float] = {}
            for word in self.language.limit_words:
                self._weigh(limit, word, SYNONYM_WEIGHT)
            concepts.append(_Concept(limit, counted=False))
        return concepts

    def _weigh(self, weights: dict[str, float], word: str, weight: float) -> None:
        for part in word.split():
            stem = self._stem(part)
            if stem is not None and weight > weights.get(stem, 0.0):
                weights[stem] = weight

    def _scores(
        self, concepts: Sequence[_Concept], form: str | None, *, scope: str | None, only: bool
    ) -> dict[int, float]:
        """Every entry answering some of the concepts, with its score: what it matches
        (rarity times place), times the share of the question it answers (squared), plus
        a little for a question of the form asked, for a question the words asked cover
        and for a subject they name. When the question is about one game (``scope``),
        rarity is counted within each entry's own game, and with ``only`` no other game's
        entry is scored; otherwise rarity is counted across all games."""
        rarity = self._row_rarity if scope else [self._rarity[None]] * len(self._entries)
        gained: dict[int, float] = {}
        answered: dict[int, float] = {}
        asked_stems: set[str] = set()
        for concept in concepts:
            asked_stems.update(concept.stems)
            best: dict[int, tuple[float, float]] = {}
            own = concept.own
            for stem, weight in concept.stems.items():
                for row, field in self._postings.get(stem, {}).items():
                    if only and self._game_of[row] != scope:
                        continue
                    idf = rarity[row][stem]
                    if own is not None:  # a rarer synonym counts as rare as the word typed
                        idf = min(idf, rarity[row].get(own, idf))
                    value = idf * weight * field
                    share = weight * self._partly[row].get(stem, 1.0)
                    old = best.get(row, (0.0, 0.0))
                    best[row] = (max(old[0], value), max(old[1], share))
            for row, (value, share) in best.items():
                gained[row] = gained.get(row, 0.0) + value
                answered[row] = answered.get(row, 0.0) + share * concept.counted
        asked = sum(c.counted for c in concepts) or 1
        scores = {}
        for row, value in gained.items():
            if not answered.get(row):
                continue
            part = answered[row] / asked
            score = value * part**ANSWERED_POWER
            if self._forms[row] == (form or OVERVIEW):
                score += FORM_BONUS * part
            title = self._titles[row]
            if title:
                score += TITLE_BONUS * part * len(title & asked_stems) / len(title)
            named = self._subjects[row] & asked_stems
            if named:
                subject = sum(rarity[row][stem] for stem in named) / len(self._subjects[row])
                score += SUBJECT_BONUS * part * subject
            scores[row] = score
        return scores

    # --- stems, and hits as shown ----------------------------------------------------------

    def _stem(self, word: str) -> str | None:
        if word not in self._stems:
            if len(self._stems) >= MENDED_CACHE:
                self._stems = {w: s for w, s in self._stems.items() if w in self._known}
            self._stem_all([word])
        return self._stems.get(word)

    def _stem_all(self, words: Iterable[str]) -> None:
        """Each word's stem as the index's tokenizer makes it (``None``: no stem).

        The words go in as one row, one token each, so that the stem at each token
        position is the stem of that word; the row is taken out again at once.
        """
        todo = sorted({w for w in words if w not in self._stems and TOKEN_WORD.fullmatch(w)})
        if not todo:
            return
        with self._lock:
            self._db.execute("INSERT INTO words (rowid, word) VALUES (1, ?)", (" ".join(todo),))
            found = dict(self._db.execute("SELECT offset, term FROM word_terms").fetchall())
            self._db.execute("DELETE FROM words WHERE rowid = 1")
            stems = {n: self._stem_term(term) for n, term in found.items()}
        for n, word in enumerate(todo):
            self._stems[word] = stems.get(n)

    def _read_postings(self) -> dict[str, dict[int, float]]:
        """For every stem, the entries using it, each with its best field's weight, a
        little more the more often the entry uses it (outside a why: it explains, it is
        not the answer). Also notes each entry's title stems, those that answer only in
        part, and its subject's."""
        cases = " ".join(f"WHEN '{c}' THEN {w}" for c, w in FIELD_WEIGHTS.items())
        rows = self._db.execute(
            f"SELECT term, doc, max(CASE col {cases} ELSE 0 END),"
            " sum(col NOT IN ('why', 'subject')), max(col = 'title'), max(col = 'subject')"
            " FROM entry_terms GROUP BY term, doc"
        ).fetchall()
        postings: dict[str, dict[int, float]] = {}
        subjects: list[tuple[str, int]] = []
        for term, doc, weight, uses, in_title, in_subject in self._by_stem(rows):
            if not weight:
                continue  # a word of the id only (an id may abbreviate): not the entry's
            if in_subject:
                subjects.append((term, doc))
            if in_title:
                self._titles[doc].add(term)
            elif weight <= FIELD_WEIGHTS["why"]:
                self._partly[doc][term] = WHY_ANSWERS
            elif weight <= FIELD_WEIGHTS["body"]:
                self._partly[doc][term] = BODY_ANSWERS
            gain = 1 + REPEAT_GAIN * math.log(max(uses, 1))
            postings.setdefault(term, {})[doc] = weight * gain
        # A subject is a name, not a topic, when no other entry of its game has it for
        # subject (*quick* names quick mode; *token* is the subject of several entries).
        naming = Counter((term, self._entries[doc].game) for term, doc in subjects)
        for term, doc in subjects:
            if naming[term, self._entries[doc].game] == 1:
                self._subjects[doc].add(term)
        return postings

    def _by_stem(self, rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
        """The index's rows per term and entry, per stem and entry: the index stems
        English itself (each term is a stem); a Snowball language's terms are its words,
        and the forms of one word count as that word (its best field, all its uses).
        Notes each stem's terms, which mark its matches."""
        if self.language.stemmer is None:
            return [tuple(row) for row in rows]
        merged: dict[tuple[str, int], list[Any]] = {}
        with self._lock:
            self._base_stems = {self._snowball(row[0]) for row in rows}
            for term, doc, weight, uses, in_title, in_subject in rows:
                stem = self._stem_term(term)
                terms = self._terms_of.setdefault(stem, [])
                if term not in terms:
                    terms.append(term)
                found = merged.get((stem, doc))
                if found is None:
                    merged[stem, doc] = [stem, doc, weight, uses, in_title, in_subject]
                else:
                    found[2] = max(found[2], weight)
                    found[3] += uses
                    found[4] = max(found[4], in_title)
                    found[5] = max(found[5], in_subject)
        return [tuple(row) for row in merged.values()]

    def _stem_term(self, term: str) -> str:
        """A term's stem; a German past participle's is its verb's, when the entries use
        the verb (*gespielt* is *spielen*, *gelegt* is *legen*; *Gebiet* stays)."""
        stem = self._snowball(term)
        if not (self.language.participles and len(term) > PARTICIPLE_MIN):
            return stem
        if term.startswith("ge") and term.endswith("t"):
            verb = self._snowball(term[2:-1] + "en")
            if verb in self._base_stems:
                return verb
        return stem

    def _hits(self, rows: Sequence[int], stems: Sequence[str]) -> list[Hit]:
        """The rows as shown: their questions and snippets, the words asked marked."""
        if not rows:
            return []
        marked: dict[int, tuple[str, str]] = {}
        terms = sorted(set(self._words_for(stems)))
        if terms:
            expression = " OR ".join('"' + t.replace('"', "") + '"' for t in terms)
            sql = (
                "SELECT rowid, highlight(entries, 1, ?, ?), snippet(entries, 3, ?, ?, '…', 18)"
                f" FROM entries WHERE entries MATCH ? AND rowid IN ({','.join('?' * len(rows))})"
            )
            with self._lock:
                found = self._db.execute(
                    sql, [OPEN, CLOSE, OPEN, CLOSE, expression, *rows]
                ).fetchall()
            marked = {row: (title, snip) for row, title, snip in found}
        hits = []
        for row in rows:
            entry = self._entries[row]
            title, snip = marked.get(row, (entry.title, self._openings[row]))
            hits.append(Hit(entry, _marked(title), _marked(snip)))
        return hits

    def _words_for(self, stems: Sequence[str]) -> Iterable[str]:
        """The words that mark each stem's matches: a word of the entries (FTS5's Porter
        stems it back when matching), or every form the entries use (Snowball: the
        index holds words, not stems)."""
        if self.language.stemmer is not None:
            return (term for stem in set(stems) for term in self._terms_of.get(stem, ()))
        return (self._word_of[stem] for stem in set(stems) if stem in self._word_of)


def _rarity(
    postings: dict[str, dict[int, float]], game_of: Sequence[str]
) -> dict[str | None, dict[str, float]]:
    """How rare every stem is (its IDF). Under each game's slug: counted among that
    game's own entries, for a question about one game, so that no other game's content
    changes how its entries rank. Under ``None``, for a question across all games: from
    the share of each game's entries using the stem, every game weighing the same, so
    that a game with many entries cannot make the others' words look common.

    >>> rarity = _rarity({"tie": {0: 1.0, 1: 1.0}, "owl": {2: 3.0}}, ["a", "a", "b"])
    >>> round(rarity["a"]["tie"], 2), round(rarity["b"]["owl"], 2)
    (0.18, 0.29)
    >>> round(rarity[None]["tie"], 2), round(rarity[None]["owl"], 2)
    (0.69, 0.69)
    """
    sizes = Counter(game_of)
    using: dict[str, Counter[str]] = {game: Counter() for game in sizes}
    for stem, rows in postings.items():
        for row in rows:
            using[game_of[row]][stem] += 1
    rarity: dict[str | None, dict[str, float]] = {
        game: {stem: math.log((sizes[game] + 1) / (count + 0.5)) for stem, count in found.items()}
        for game, found in using.items()
    }
    # The same smoothing as within a game: half an entry among all of them.
    total = len(game_of)
    rarity[None] = {
        stem: math.log(
            (1 + 1 / total)
            / (sum(using[g][stem] / sizes[g] for g in sizes) / len(sizes) + 0.5 / total)
        )
        for stem in postings
    }
    return rarity


def _form(words: Sequence[str], language: Language) -> str | None:
    """The form of a question from its words: "how many", "who", "can"... or None."""
    if language.overview(words):
        return OVERVIEW
    places = range(len(words)) if language.forms_anywhere else range(1)
    for start, form in language.forms:
        if any(tuple(words[at : at + len(start)]) == start for at in places):
            return form
    for start, form in language.forms:
        if len(start) == 1 and start[0] in words[:4]:
            return form
    return "yes-no" if words and words[0] in language.yes_no else None


def _subject(entry: Entry, language: Language, *, english: Library | None = None) -> list[str]:
    """The words naming what an entry is about: the last part of its id and the names
    (capitalised words) of its question after its first word. A translated entry's id is
    English: it takes its English entry's subject in the language's words, as the
    language's glossary says them (``Night Collection 3`` is *Nachtsammlung 3*), and the
    names of its own question where a capitalised word is a name (not in German, where
    every noun is). Only the game's own words count (its table of the glossary): a
    common word of the app (*tie*) names no one entry.

    >>> from companion.rules import load_languages
    >>> libraries = load_languages(["en", "de"])
    >>> _subject(libraries["en"].entry("owl-about/mode/quick"), ENGLISH)
    ['quick']
    >>> _subject(libraries["en"].entry("luckys-misadventures/tiebreak/pumpkin-ted"), ENGLISH)
    ['pumpkin', 'ted']
    >>> from companion.rules.languages import GERMAN
    >>> german = libraries["de"]
    >>> _subject(german.entry("owl-about/penalty"), GERMAN, english=german.english)
    ['strafpunkt']
    """
    named = [w for w in TOKEN_WORD.findall(entry.title)[1:] if w[0].isupper() and len(w) > 1]
    if language.code == ENGLISH.code:
        words = entry.id.rpartition("/")[2].split("-") + named
        return list(dict.fromkeys(word.casefold() for word in words))
    words = named if language.names_capitalised else []
    source = english.entry(entry.rule_id) if english is not None else None
    if source is not None:
        words = _said_in(language.glossary, entry.game, _subject(source, ENGLISH)) + words
    return list(dict.fromkeys(language.folded(word) for word in words))


def _said_in(
    glossary: Mapping[str, Mapping[str, str]], game: str, english_words: Sequence[str]
) -> list[str]:
    """English subject words in another language, as its glossary says them: the whole
    subject as the game's table or the app's has it (*night collection 3*, *solo*), else
    each word the game's own table has (its names: a common word of the app, such as
    *tie*, names no one entry); the words it has not are left out (an English word names
    nothing in another language)."""
    own, app = glossary.get(game, {}), glossary.get("app", {})
    said = " ".join(english_words)
    whole = own.get(said, app.get(said))
    if whole is not None:
        return whole.split()
    return [w for word in english_words for w in _glossary_word(own, word).split()]


def _glossary_word(glossary: Mapping[str, str], word: str) -> str:
    """A word in the glossary's language: as listed, or as its singular is ("" if not).

    >>> _glossary_word({"territory": "gebiet"}, "territories")
    'gebiet'
    """
    for form in (word, word.removesuffix("s"), word.removesuffix("ies") + "y"):
        if form in glossary:
            return glossary[form]
    return ""


def _game_names(slug: str, language: Language) -> list[tuple[str, ...]]:
    """The word sequences that name a game: its slug's words, joined, and its aliases
    (the English ones, the games' names being English, and the language's own)."""
    names = {tuple(slug.split("-")), (slug.replace("-", ""),)}
    aliases = (*GAME_ALIASES.get(slug, ()), *language.game_aliases.get(slug, ()))
    names |= {tuple(alias.split()) for alias in aliases}
    return sorted(names, key=len, reverse=True)


def _synonym_map(language: Language) -> dict[str, tuple[str, ...]]:
    """Each word of a synonym group, with the other words of its group."""
    found: dict[str, tuple[str, ...]] = {}
    for group in language.synonym_groups:
        for word in group:
            if " " not in word:
                found[word] = tuple(w for w in group if w != word)
    return found


def _opening(entry: Entry) -> str:
    """The start of an entry's answer, for a hit no word of the question marks."""
    words = to_text(entry.body).split()
    return " ".join(words[:18]) + (" …" if len(words) > 18 else "")


def _marked(text: str) -> Markup:
    """FTS5's output escaped, then its match markers turned into ``<mark>``."""
    safe = str(escape(text.replace(OPEN + CLOSE, "")))
    return Markup(safe.replace(OPEN, "<mark>").replace(CLOSE, "</mark>"))


def _words_used(entry: Entry, language: Language) -> set[str]:
    """Every word an entry uses, folded (what a typed word may be corrected to)."""
    text = language.folded(" ".join([entry.title, entry.body, entry.why, *entry.keywords]))
    return set(TOKEN_WORD.findall(text))


def _phrases(phrases: Mapping[str, str]) -> re.Pattern[str]:
    """Every phrase players say for a word of the entries, longest first, as whole words."""
    said = "|".join(map(re.escape, sorted(phrases, key=len, reverse=True)))
    return re.compile(r"\b(?:" + said + r")\b")


def _stemmer(language: Language) -> Callable[[str], str]:
    """A term's stem in ``language``: Snowball's, or the term itself (FTS5's Porter
    stemmed it). A word ending in one of the language's kept endings keeps it (German
    *Spieler* is not *Spiel*), however inflected. Not thread-safe: the index calls it
    under its lock.

    >>> from companion.rules.languages import GERMAN
    >>> stem = _stemmer(GERMAN)
    >>> stem("spielern"), stem("mitspieler"), stem("spielen"), stem("spiel")
    ('spieler', 'mitspieler', 'spiel', 'spiel')
    """
    if language.stemmer is None:
        return str
    snowball: Callable[[str], str] = snowballstemmer.stemmer(language.stemmer).stemWord
    kept = tuple(
        (ending, ending + tail) for ending in language.kept_endings for tail in KEPT_TAILS
    )

    @functools.lru_cache(maxsize=MENDED_CACHE * 4)
    def stem(term: str) -> str:
        for ending, inflected in kept:
            if term.endswith(inflected):
                return term[: len(term) - len(inflected) + len(ending)]
        return snowball(term)

    return stem
