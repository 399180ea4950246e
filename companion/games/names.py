"""Players' names: what a name may hold (no hidden characters, something visible, not
looking like another's), how many players a game takes, and players found by name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from companion.games.limits import Size, list_size, text_size
from companion.games.problems import Problem
from companion.games.text import N_, _, sentences, spoken_list

MAX_NAME_LENGTH = 40


# Unicode categories that never belong in a name or typed text: controls (Cc: NUL, tab,
# escape), formats (Cf: bidi overrides and isolates such as U+202E and U+2066-2069,
# zero-width spaces, BOM), lone surrogates (Cs) and line/paragraph separators (Zl, Zp).
# They hide or reorder what other phones show, or break storage (NUL in PostgreSQL).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


# The zero-width non-joiner and joiner (Cf) are ordinary writing in Persian and Indic
# scripts and inside emoji sequences; they are allowed between two non-ASCII characters.
JOINERS = frozenset({"\u200c", "\u200d"})


def _name_too_long() -> str:
    return _("Names can have at most %(most)s characters.", most=MAX_NAME_LENGTH)


#: A player's name: longer than any name could be after trimming is refused at once.
NAME_SIZE = text_size(too_big=lambda _n: _name_too_long())


def players_size(minimum: int, maximum: int, each: Size = NAME_SIZE, *, reading: str = "") -> Size:
    """The players list of a game: more than it seats is refused before any player
    (``reading``: why the count is the app's reading, said after the refusal; a text
    marked for translation, translated when said)."""
    return list_size(
        maximum,
        lambda n: sentences(
            player_count_message(n, minimum=minimum, maximum=maximum),
            _(reading) if reading else "",
        ),
        each,
    )


def hidden_character(text: str) -> str | None:
    r"""The first control or invisible formatting character in ``text``, or None.

    The one test for player names in the engines and every text field of the web forms.

    >>> hidden_character("Ann") is None
    True
    >>> [hex(ord(hidden_character(text) or "")) for text in ("A\u202enn", "Ann\x00")]
    ['0x202e', '0x0']
    >>> hidden_character("Ann\u200dBen"), hidden_character("\U0001f468\u200d\U0001f469")
    ('\u200d', None)
    """
    for index, char in enumerate(text):
        if unicodedata.category(char) in HIDDEN_CATEGORIES and not _joins(text, index):
            return char
    return None


def _joins(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a joiner between two visible non-ASCII characters."""
    if text[index] not in JOINERS or not 0 < index < len(text) - 1:
        return False
    neighbours = (text[index - 1], text[index + 1])
    return all(
        not char.isascii() and unicodedata.category(char) not in HIDDEN_CATEGORIES
        for char in neighbours
    )


#: The hidden-character refusals of the engines' own subjects, each a whole sentence.
_HIDDEN_IN = {
    "This field": N_(
        "This field can't contain invisible or control characters (U+%(code)s); please retype it."
    ),
    "Names": N_(
        "Names can't contain invisible or control characters (U+%(code)s); please retype it."
    ),
}


def hidden_character_message(char: str, *, subject: str = "This field") -> str:
    r"""The sentence refusing a hidden character, naming its code point.

    ``subject`` is "This field", "Names" (sentences of their own) or a form field's label,
    already in the reader's language.

    >>> hidden_character_message("\u202e", subject="Names")
    "Names can't contain invisible or control characters (U+202E); please retype it."
    >>> hidden_character_message("\x00", subject="Group name")
    "Group name can't contain invisible or control characters (U+0000); please retype it."
    """
    code = f"{ord(char):04X}"
    if subject in _HIDDEN_IN:
        return _(_HIDDEN_IN[subject], code=code)
    # TRANSLATORS: "subject" is the label of the form field the character was typed in.
    return _(
        "%(subject)s can't contain invisible or control characters (U+%(code)s);"
        " please retype it.",
        subject=subject,
        code=code,
    )


def spoken_names(players: Sequence[str]) -> str:
    """Join names as people say them (see :func:`~companion.games.text.spoken_list`).

    >>> spoken_names(["Ann"]), spoken_names(["Ann", "Ben"]), spoken_names(["Ann", "Ben", "Cy"])
    ('Ann', 'Ann and Ben', 'Ann, Ben and Cy')
    """
    return spoken_list(players)


def name_problems(names: Sequence[str], *, path: Callable[[int], str]) -> list[Problem]:
    """Check player names: non-empty after trimming, at most 40 characters, no control or
    invisible formatting characters (see :func:`hidden_character`), something visible
    (see :func:`shows_nothing`), unique, and not looking like another (see
    :func:`looks_alike`).

    >>> [p.message for p in name_problems(["Ann", " ann"], path=lambda i: f"players[{i}]")]
    ['Two players are called "ann"; names must differ.']
    >>> [p.message for p in name_problems(["Ann", "\u0410nn"], path=str)]
    ['"\u0410nn" looks just like "Ann"; pick a name everyone can tell apart.']
    >>> [p.message for p in name_problems(["\u3164"], path=str)]
    ['A name needs at least one letter, digit or sign you can see.']
    """
    problems = []
    seen: dict[str, str] = {}
    shapes: dict[str, str] = {}  # skeleton -> the first name that looks so
    for index, raw in enumerate(names):
        name = raw.strip()
        looks = name_skeletons(name)
        problem = _name_problem(
            raw, name, seen, [shapes[shape] for shape in looks & shapes.keys()]
        )
        if problem is not None:
            problems.append(Problem(path(index), problem))
        seen.setdefault(name.casefold(), name)
        for shape in looks:
            shapes.setdefault(shape, name)
    return problems


def _name_problem(raw: str, name: str, seen: Mapping[str, str], twins: list[str]) -> str | None:
    """What is wrong with one name given the names before it (by casefold) and those it
    looks like (by skeleton), if anything."""
    hidden = hidden_character(raw)
    if not name:
        return _("A player needs a name.")
    if len(name) > MAX_NAME_LENGTH:
        return _name_too_long()
    if hidden is not None:
        return hidden_character_message(hidden, subject="Names")
    if shows_nothing(name):
        return _(SHOWS_NOTHING_MESSAGE)
    if name.casefold() in seen:
        return _('Two players are called "%(name)s"; names must differ.', name=name)
    if twins:
        return lookalike_message(name, twins[0])
    return None


# Letters and signs that draw nothing, though Unicode files them as letters or symbols
# (Hangul fillers, the blank Braille pattern): a name of only these looks empty. Marks
# that draw nothing (U+034F and the variation selectors) need no list: a name of marks
# alone is refused anyway, since a mark is no letter.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


# Unicode's default-ignorable marks: nothing on screen, so no part of what a name looks
# like (U+034F COMBINING GRAPHEME JOINER, Mongolian and other variation selectors).
IGNORABLE_MARKS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f" + "".join(map(chr, range(0xFE00, 0xFE10)))
)


# Categories that draw something: letters, digits, punctuation, symbols, spacing marks.
VISIBLE_CATEGORY_STARTS = ("L", "N", "P", "S", "Mc")


#: Marked for translation: say it with ``_(SHOWS_NOTHING_MESSAGE)``.
SHOWS_NOTHING_MESSAGE = N_("A name needs at least one letter, digit or sign you can see.")


def shows_nothing(name: str) -> bool:
    """Whether a name would look empty: no character of it draws anything.

    >>> shows_nothing("\u3164"), shows_nothing("\u2800 \u034f"), shows_nothing("Ann\u3164")
    (True, True, False)
    """
    return not any(
        unicodedata.category(char).startswith(VISIBLE_CATEGORY_STARTS)
        and char not in BLANK_LETTERS
        and char not in IGNORABLE_MARKS
        for char in name
    )


def lookalike_message(name: str, twin: str) -> str:
    """The sentence refusing a name that looks like one already there."""
    return _(
        '"%(name)s" looks just like "%(twin)s"; pick a name everyone can tell apart.',
        name=name,
        twin=twin,
    )


def looks_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be mistaken for on screen, or None.

    Two names look alike when their confusable skeletons match (Unicode's UTS #39 idea:
    every character replaced by the one it is mistaken for, from Unicode's confusables
    data as the ``confusable-homoglyphs`` package ships it), as written or casefolded,
    after dropping what draws nothing and collapsing runs of spaces. Names that differ
    only in case are the same name, said elsewhere; here they are not reported.

    >>> looks_alike("\u0410nn", ["Ben", "Ann"]), looks_alike("Ian", ["lan"])
    ('Ann', 'lan')
    >>> looks_alike("Ann\u3164", ["Ann"]), looks_alike("Anna", ["Ann"])
    ('Ann', None)
    >>> looks_alike("ANN", ["Ann"]) is None
    True
    """
    mine = name_skeletons(name)
    folded = name.casefold()
    for other in others:
        if other.casefold() != folded and mine & name_skeletons(other):
            return other
    return None


def name_skeletons(name: str) -> frozenset[str]:
    """What a name looks like, as written and casefolded (see :func:`looks_alike`)."""
    return frozenset({_skeleton(name), _skeleton(name.casefold())})


def _skeleton(text: str) -> str:
    # Joiners (the only hidden characters a name may hold) go with what draws nothing.
    drawn = unicodedata.normalize("NFD", text).translate(_skeleton_table())
    return " ".join(drawn.split())


def load_lookalikes() -> None:
    """Build the table of characters that look alike now (a server calls this as it
    starts) rather than in the first request that checks a name."""
    _skeleton_table()


@cache
def _skeleton_table() -> dict[int, str | None]:
    """``str.translate``'s table: each confusable character to the one standing for all
    it may be mistaken for (the lowest code point of its class), and what draws nothing
    to nothing. Built once per process from the package's data (imported here: loading
    it takes a tenth of a second that most uses never need)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])
            char = parent[char]
        return char

    for char, homoglyphs in confusables_data.items():
        for glyph in homoglyphs:
            if len(char) == 1 and len(glyph["c"]) == 1:
                first, second = sorted((root(char), root(glyph["c"])))
                parent[second] = first
    table: dict[int, str | None] = {ord(char): root(char) for char in parent}
    table.update((ord(char), None) for char in BLANK_LETTERS | IGNORABLE_MARKS | JOINERS)
    return table


def player_count_problems(
    count: int, *, minimum: int, maximum: int, path: str = "players"
) -> list[Problem]:
    """Check the number of players against a game's limits."""
    if minimum <= count <= maximum:
        return []
    return [Problem(path, player_count_message(count, minimum=minimum, maximum=maximum))]


def player_count_message(count: int, *, minimum: int, maximum: int) -> str:
    """The sentence for a player count outside a game's limits."""
    return _(
        "This game is for %(minimum)s to %(maximum)s players, not %(count)s.",
        minimum=minimum,
        maximum=maximum,
        count=count,
    )


@dataclass(frozen=True)
class Roster:
    """The players of a request: names as shown (trimmed), found regardless of case.

    >>> roster = Roster.of([" Ann", "Ben", "ann"])
    >>> roster.names, roster.find("ANN "), roster.find("Cy"), roster.find(" ")
    (('Ann', 'Ben', 'ann'), 'Ann', None, None)
    >>> roster.seated
    {'ann': 'Ann', 'ben': 'Ben'}
    """

    names: tuple[str, ...]

    @classmethod
    def of(cls, raw: Sequence[str]) -> Roster:
        """The roster of names as entered."""
        return cls(tuple(name.strip() for name in raw))

    @property
    def seated(self) -> dict[str, str]:
        """Casefolded name -> name as seated (the first of duplicates, already reported)."""
        names: dict[str, str] = {}
        for name in self.names:
            names.setdefault(name.casefold(), name)
        return names

    def find(self, name: str) -> str | None:
        """The player a name refers to, or ``None`` when nobody is called that."""
        wanted = name.strip().casefold()
        return self._found.get(wanted) if wanted else None

    @cached_property
    def _found(self) -> dict[str, str]:
        # Built once per roster: a big table looks up an owner for every card it holds.
        return self.seated
