"""Load and check the rules content: one TOML file per game (``<slug>.toml``).

The format is described in the package docstring. :func:`load` reads every ``*.toml``
file of a folder and checks it; every mistake found is reported at once
(:class:`RulesContentError`), so a broken file stops the app at start-up rather than
showing a half-empty rules page.

>>> library = load()
>>> library.entry("owl-about/follow").title
'Which card may I play? (the follow rule)'
>>> library.entry("owl-about/nothing") is None
True
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

#: Where the content files live (next to this module): English here, every other
#: language in a folder named by its code (``de/owl-about.toml``).
RULES_DIR = Path(__file__).parent
#: The language of the files in ``RULES_DIR`` itself, which every other language follows.
ENGLISH = "en"

#: An entry or topic id: lowercase words of letters and digits joined by "-" or "/".
ID_PATTERN = re.compile(r"[a-z0-9]+(?:[-/][a-z0-9]+)*")
#: A game slug: lowercase words joined by "-" (never "/", which separates a rule id).
SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

FILE_KEYS = frozenset({"game", "topic", "entry"})
TOPIC_KEYS = frozenset({"id", "title"})
ENTRY_REQUIRED = frozenset({"id", "topic", "title", "body"})
ENTRY_KEYS = ENTRY_REQUIRED | {"clarification", "why", "keywords"}


class RulesContentError(Exception):
    """The rules content has mistakes; ``problems`` lists every one found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Entry:
    """One rules entry: a single question and its answer (and why, for a clarification)."""

    game: str
    id: str
    topic: str
    title: str
    body: str
    clarification: bool = False
    why: str = ""
    keywords: tuple[str, ...] = ()

    @property
    def rule_id(self) -> str:
        """The id code names it by: ``<slug>/<entry id>``."""
        return f"{self.game}/{self.id}"


@dataclass(frozen=True)
class Topic:
    """A group of entries on a game's rules page, in display order."""

    id: str
    title: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class GameRules:
    """One game's rules: topics in order, and its entries by id."""

    slug: str
    topics: tuple[Topic, ...]

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, in page order."""
        return tuple(entry for topic in self.topics for entry in topic.entries)


@dataclass(frozen=True)
class Library:
    """Every game's rules that exist as files in one language, and a lookup by rule id."""

    games: Mapping[str, GameRules]
    #: The language its entries are written in (``"en"``, ``"de"``...).
    language: str = ENGLISH
    #: The English library a translated one follows (``None`` for English itself).
    english: Library | None = field(default=None, repr=False, compare=False)

    def entry(self, rule_id: str) -> Entry | None:
        """The entry a rule id names (``owl-about/follow``), or ``None``."""
        slug, _, entry_id = rule_id.partition("/")
        game = self.games.get(slug)
        if game is None:
            return None
        return next((e for e in game.entries if e.id == entry_id), None)

    def __iter__(self) -> Iterator[Entry]:
        """Every entry of every game."""
        for game in self.games.values():
            yield from game.entries


def load(folder: Path = RULES_DIR, *, language: str = ENGLISH) -> Library:
    """Read and check every ``*.toml`` file of ``folder`` (in name order), written in
    ``language``."""
    problems: list[str] = []
    games: dict[str, GameRules] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as broken:
            problems.append(f"{path.name}: not valid TOML ({broken}).")
            continue
        game, found = parse_file(path.stem, data)
        problems += [f"{path.name}: {problem}" for problem in found]
        if game is not None:
            games[game.slug] = game
    if problems:
        raise RulesContentError(problems)
    return Library(games, language)


def load_languages(languages: Iterable[str], folder: Path = RULES_DIR) -> dict[str, Library]:
    """The rules in every language: English from ``folder``, each other language from
    ``folder/<language>``, each checked against English: the same games, topics and
    entries in the same order, with the same ids, topics and clarification flags (rule
    ids and anchors are shared, so a verdict's link works in every language). Every
    mistake of every language is reported at once.

    >>> libraries = load_languages(["en", "de"])
    >>> libraries["de"].entry("owl-about/follow").title
    'Welche Karte darf ich spielen? (die Bedienregel)'
    """
    english = load(folder)
    libraries = {ENGLISH: english}
    problems: list[str] = []
    for language in languages:
        if language == ENGLISH:
            continue
        where = folder / language
        try:
            translated = load(where, language=language)
        except RulesContentError as broken:
            problems += [f"{language}/{problem}" for problem in broken.problems]
            continue
        problems += [f"{language}/{p}" for p in differences(english, translated)]
        libraries[language] = replace(translated, english=english)
    if problems:
        raise RulesContentError(problems)
    return libraries


def differences(english: Library, translated: Library) -> list[str]:
    """Where a translated library's structure differs from English's (its words may).

    >>> english = load()
    >>> differences(english, english)
    []
    >>> differences(english, Library({}, "xx"))[:1]
    ['luckys-misadventures.toml: missing (English has it).']
    """
    problems = [
        f"{slug}.toml: not in English (no such game's rules)."
        for slug in translated.games
        if slug not in english.games
    ]
    for slug, rules in english.games.items():
        other = translated.games.get(slug)
        if other is None:
            problems.append(f"{slug}.toml: missing (English has it).")
            continue
        problems += [f"{slug}.toml: {problem}" for problem in _game_differences(rules, other)]
    return problems


def _game_differences(english: GameRules, translated: GameRules) -> list[str]:
    problems = []
    topics = [t.id for t in english.topics]
    if [t.id for t in translated.topics] != topics:
        problems.append(f"topics {[t.id for t in translated.topics]} are not English's {topics}.")
    mine = {e.id: e for e in translated.entries}
    theirs = {e.id: e for e in english.entries}
    problems += [f'entry "{i}" is missing (English has it).' for i in theirs if i not in mine]
    problems += [f'entry "{i}" is not in English.' for i in mine if i not in theirs]
    for entry_id, entry in theirs.items():
        other = mine.get(entry_id)
        if other is None:
            continue
        if other.topic != entry.topic:
            problems.append(f'entry "{entry_id}": topic "{other.topic}", English "{entry.topic}".')
        if other.clarification != entry.clarification:
            problems.append(
                f'entry "{entry_id}": clarification is {str(other.clarification).lower()},'
                f" English's {str(entry.clarification).lower()}."
            )
    shared = [e.id for e in english.entries if e.id in mine]
    if not problems and [e.id for e in translated.entries] != shared:
        problems.append("the entries are not in English's order.")
    return problems


def parse_file(slug: str, data: Mapping[str, Any]) -> tuple[GameRules | None, list[str]]:
    """One file's rules and every problem with it (the file is named ``<slug>.toml``).

    >>> rules, problems = parse_file("x", {"game": "y", "topic": [], "entry": []})
    >>> problems
    ['game is "y" but the file is named x.toml.', 'there are no entries.']
    """
    problems = [f"unknown key {key!r}." for key in sorted(set(data) - FILE_KEYS)]
    if not SLUG_PATTERN.fullmatch(slug):
        problems.append(f'"{slug}" is not a game slug.')
    if data.get("game") != slug:
        problems.append(f'game is "{data.get("game")}" but the file is named {slug}.toml.')
    topics = _list_of_tables(data, "topic", problems)
    entries = _list_of_tables(data, "entry", problems)
    topic_ids = _topic_problems(topics, problems)
    parsed = [_entry(slug, n, raw, topic_ids, problems) for n, raw in enumerate(entries)]
    seen: set[str] = set()
    for entry in parsed:
        if entry is not None:
            if entry.id in seen:
                problems.append(f'entry id "{entry.id}" is used twice.')
            seen.add(entry.id)
    if not entries:
        problems.append("there are no entries.")
    grouped = tuple(
        Topic(
            str(raw.get("id")),
            str(raw.get("title")),
            tuple(e for e in parsed if e is not None and e.topic == raw.get("id")),
        )
        for raw in topics
    )
    for topic in grouped:
        if not topic.entries and topic.id in topic_ids:
            problems.append(f'topic "{topic.id}" has no entries.')
    return (GameRules(slug, grouped) if not problems else None), problems


def _list_of_tables(data: Mapping[str, Any], key: str, problems: list[str]) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        problems.append(f"{key} must be a list of tables ([[{key}]]).")
        return []
    return value


def _topic_problems(topics: list[dict[str, Any]], problems: list[str]) -> set[str]:
    ids: set[str] = set()
    for number, raw in enumerate(topics, 1):
        where = f"topic {number}"
        problems += [f"{where}: unknown key {key!r}." for key in sorted(set(raw) - TOPIC_KEYS)]
        topic_id, title = raw.get("id"), raw.get("title")
        if not isinstance(topic_id, str) or not ID_PATTERN.fullmatch(topic_id):
            problems.append(f"{where}: id {topic_id!r} is not a valid id.")
            continue
        if not isinstance(title, str) or not title.strip():
            problems.append(f'topic "{topic_id}" needs a title.')
        if topic_id in ids:
            problems.append(f'topic id "{topic_id}" is used twice.')
        ids.add(topic_id)
    return ids


def _entry(
    slug: str, number: int, raw: dict[str, Any], topics: set[str], problems: list[str]
) -> Entry | None:
    where = f'entry "{raw.get("id")}"' if isinstance(raw.get("id"), str) else f"entry {number + 1}"
    before = len(problems)
    problems += [f"{where}: unknown key {key!r}." for key in sorted(set(raw) - ENTRY_KEYS)]
    problems += [f"{where}: {key} is missing." for key in sorted(ENTRY_REQUIRED - set(raw))]
    entry_id = raw.get("id")
    if "id" in raw and (not isinstance(entry_id, str) or not ID_PATTERN.fullmatch(entry_id)):
        problems.append(f"{where}: id {entry_id!r} is not a valid id.")
    for key in ("title", "body", "topic"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            problems.append(f"{where}: {key} must be a non-empty text.")
    if isinstance(raw.get("topic"), str) and raw["topic"] not in topics:
        problems.append(f'{where}: topic "{raw["topic"]}" is not one of the file\'s topics.')
    clarification = raw.get("clarification", False)
    why = raw.get("why", "")
    if not isinstance(clarification, bool):
        problems.append(f"{where}: clarification must be true or false.")
    if not isinstance(why, str):
        problems.append(f"{where}: why must be a text.")
    elif clarification is True and not why.strip():
        problems.append(f"{where}: a clarification needs a why.")
    keywords = raw.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        problems.append(f"{where}: keywords must be a list of texts.")
    if len(problems) > before:
        return None
    return Entry(
        game=slug,
        id=str(entry_id),
        topic=raw["topic"],
        title=raw["title"].strip(),
        body=raw["body"].strip(),
        clarification=clarification,
        why=why.strip(),
        keywords=tuple(keywords),
    )
