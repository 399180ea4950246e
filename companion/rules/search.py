"""Search the rules as you type: SQLite FTS5 in memory, built once at start-up.

Why FTS5: it ships with Python's own ``sqlite3`` (nothing to install, nothing to pin),
works whatever database the app itself uses, ranks with BM25, stems English word forms
with its Porter tokenizer (*tiebreakers* finds *tiebreak*), runs prefix queries for the
word still being typed, and marks the matching words itself (``highlight``/``snippet``).
Typos are mended before the query reaches it: a word the entries never use is replaced
by the closest words they do use (:mod:`difflib`, standard library), and a few spellings
people use at the table are mapped to the entries' words (*nite* -> *night*).

>>> from companion.rules import load
>>> index = RulesIndex(load())
>>> [hit.entry.rule_id for hit in index.search("cassowery")][:1]
['odd-world/components']
>>> index.search("nite card", game="owl-about")[0].entry.rule_id
'owl-about/night'
"""

from __future__ import annotations

import difflib
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape

from companion.rules.content import Entry, Library
from companion.rules.markdown import to_text

#: How many close words a typo is weighed against.
CLOSE_CHOICES = 5
#: The most results one search answers with.
MAX_RESULTS = 12
#: The longest query read (longer ones are cut: nobody types more at a table).
MAX_QUERY_LENGTH = 100
#: BM25 weights of the columns: a word in the question counts most, then the keywords.
WEIGHTS = {"title": 6.0, "keywords": 3.0, "body": 1.0}
#: How close a typed word must be to a word of the entries to stand for it (0-1).
CLOSE_ENOUGH = 0.75
#: Words shorter than this are never corrected (too many near neighbours).
MIN_CORRECTED_LENGTH = 4
#: A mended word differs in length by at most this much (closer words are never longer
#: or shorter by more at the ratio above, for words of the entries' lengths).
LENGTH_SLACK = 2
#: The most words of a query searched for (a question never needs more; it keeps any
#: query, however long, well under the time a search may take).
MAX_WORDS = 6
#: How many mended words are remembered (typing resends the words typed before).
MENDED_CACHE = 4096

#: Spellings and splits people type, mapped to the words the entries use.
SYNONYMS = {
    "tie break": "tiebreak",
    "tie breaker": "tiebreak",
    "tie breakers": "tiebreak",
    "tie-break": "tiebreak",
    "tie-breaker": "tiebreak",
    "nite": "night",
    "nites": "night",
    "neighbor": "neighbour",
    "neighbors": "neighbours",
    "neighboring": "neighbouring",
}
#: Words that only glue a question together; dropped unless nothing else is left.
_STOP_TEXT = """
a an and are at be by can do does for how i if in is it my of on or the to what when where
which who why with you your
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

# Private-use characters mark matches in FTS5's output; they cannot occur in entries,
# survive escaping, and become <mark> afterwards.
OPEN, CLOSE = "\ue000", "\ue001"
WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*", re.UNICODE)
TOKEN_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Hit:
    """One search result: the entry, its question and a snippet with matches marked."""

    entry: Entry
    title: Markup
    snippet: Markup


@dataclass(frozen=True)
class Query:
    """A query as understood: the words searched, and whether any were corrected."""

    words: tuple[str, ...]
    corrected: bool


class RulesIndex:
    """An in-memory FTS5 index of a library's entries (thread-safe: one lock)."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self._entries: list[Entry] = list(library)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE entries USING fts5("
            "game UNINDEXED, title, keywords, body,"
            " tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        self._db.executemany(
            "INSERT INTO entries (rowid, game, title, keywords, body) VALUES (?, ?, ?, ?, ?)",
            [
                (n, e.game, e.title, " ; ".join(e.keywords), _searchable_body(e))
                for n, e in enumerate(self._entries)
            ],
        )
        self._entries_using = _entries_using(self._entries)
        self._vocabulary = sorted(self._entries_using)
        self._known = frozenset(self._vocabulary)
        self._by_length: dict[int, list[str]] = {}
        for word in self._vocabulary:
            self._by_length.setdefault(len(word), []).append(word)
        self._mended: dict[str, str] = {}

    def understand(self, text: str) -> Query:
        """The words to search for ``text``: synonyms mapped, typos mended, glue dropped.

        >>> from companion.rules import load
        >>> RulesIndex(load()).understand("Who wins a Tie Break?")
        Query(words=('wins', 'tiebreak'), corrected=False)
        """
        text = " ".join(WORD.findall(text[:MAX_QUERY_LENGTH].casefold()))
        for said, meant in SYNONYMS.items():
            text = re.sub(rf"\b{re.escape(said)}\b", meant, text)
        words = list(TOKEN_WORD.findall(text))
        content = ([w for w in words if w not in STOP_WORDS] or words)[:MAX_WORDS]
        mended = [self._mend(w, last=n == len(content) - 1) for n, w in enumerate(content)]
        return Query(tuple(mended), corrected=mended != content)

    def _mend(self, word: str, *, last: bool) -> str:
        """The word itself if the entries use it (or, for the last word, start with it),
        else the closest word they use."""
        if word in self._known or word.isdigit() or len(word) < MIN_CORRECTED_LENGTH:
            return word
        if last and any(w.startswith(word) for w in self._vocabulary):
            return word  # still being typed: the prefix query finds it
        if word not in self._mended:
            if len(self._mended) >= MENDED_CACHE:
                self._mended.clear()
            self._mended[word] = self._closest(word)
        return self._mended[word]

    def _closest(self, word: str) -> str:
        """The word of the entries closest to ``word`` (itself when none is close)."""
        size = len(word)
        candidates = [
            w
            for length in range(size - LENGTH_SLACK, size + LENGTH_SLACK + 1)
            for w in self._by_length.get(length, ())
        ]
        close = difflib.get_close_matches(word, candidates, n=CLOSE_CHOICES, cutoff=CLOSE_ENOUGH)
        if not close:
            return word
        # Equally close words (tode: toad, told): the one more entries use is the one meant.
        best = difflib.SequenceMatcher(None, word, close[0]).ratio()
        tied = [w for w in close if difflib.SequenceMatcher(None, word, w).ratio() == best]
        return max(tied, key=lambda w: (self._entries_using[w], w == close[0]))

    def search(self, text: str, *, game: str | None = None) -> list[Hit]:
        """The entries matching ``text`` (in one game, or all), best first.

        Every word must match (its stem, or the start of the last word); when no entry has
        them all, entries with any of them are ranked instead.
        """
        query = self.understand(text)
        if not query.words:
            return []
        terms = [_term(w, prefix=n == len(query.words) - 1) for n, w in enumerate(query.words)]
        hits = self._match(" AND ".join(terms), game)
        return hits or self._match(" OR ".join(terms), game)

    def _match(self, expression: str, game: str | None) -> list[Hit]:
        weights = ", ".join(str(WEIGHTS[c]) for c in ("title", "keywords", "body"))
        sql = (
            "SELECT rowid, highlight(entries, 1, ?, ?), snippet(entries, 3, ?, ?, '…', 18)"
            f" FROM entries WHERE entries MATCH ? {'AND game = ?' if game else ''}"
            f" ORDER BY bm25(entries, 0.0, {weights}) LIMIT {MAX_RESULTS}"
        )
        params: list[str] = [OPEN, CLOSE, OPEN, CLOSE, expression]
        if game:
            params.append(game)
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [
            Hit(self._entries[row], _marked(title), _marked(snip)) for row, title, snip in rows
        ]


def _term(word: str, *, prefix: bool) -> str:
    """One FTS5 query term, quoted (so no word is read as an operator)."""
    quoted = '"' + word.replace('"', "") + '"'
    return f"({quoted} OR {quoted}*)" if prefix else quoted


def _marked(text: str) -> Markup:
    """FTS5's output escaped, then its match markers turned into ``<mark>``."""
    safe = str(escape(text.replace(OPEN + CLOSE, "")))
    return Markup(safe.replace(OPEN, "<mark>").replace(CLOSE, "</mark>"))


def _searchable_body(entry: Entry) -> str:
    text = to_text(entry.body)
    return f"{text} {to_text(entry.why)}" if entry.why else text


def _entries_using(entries: Iterable[Entry]) -> Counter[str]:
    """Every word the entries use, folded (what a typed word may be corrected to), with
    how many entries use it."""
    using: Counter[str] = Counter()
    for entry in entries:
        text = " ".join([entry.title, entry.body, entry.why, *entry.keywords]).casefold()
        using.update(set(TOKEN_WORD.findall(text)))
    return using
