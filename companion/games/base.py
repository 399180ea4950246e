"""Common types every game engine speaks, and the shared ranking with tiebreakers.

An engine turns a JSON-like *state* (what the players entered) into a :class:`Result`.
Validation never stops at the first mistake: it collects every :class:`Problem`, each
with a path into the state (``players[1].display.hoopoe``) and a sentence a player at
the table understands.

Ranking is shared: :func:`rank` orders players by score (highest or lowest first),
then by an ordered list of tiebreak values, assigns competition ranks (1, 1, 3) and
names what decided the winner.

>>> order = rank(
...     [Entry("Ann", 7, (6, 5)), Entry("Ben", 7, (6, 3)), Entry("Cy", 2, (1, 1))],
...     tiebreaks=(Tiebreak("Bird species in display"), Tiebreak("Best single bird")),
... )
>>> [(s.player, s.rank) for s in order.standings]
[('Ann', 1), ('Ben', 2), ('Cy', 3)]
>>> order.decided_by
'Best single bird'
"""

from __future__ import annotations

import abc
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from typing import Any, ClassVar, TypeVar

import pydantic

MAX_NAME_LENGTH = 40
#: The most problems one answer lists; the rest are only counted (``more_problems``), so
#: a request full of mistakes still gets a short answer.
MAX_PROBLEMS = 50
#: The longest text accepted where a name, key or code goes, checked before anything
#: else. Names themselves allow 40 characters after trimming; this cap only keeps
#: absurdly long texts out of the checks (and out of the sentences that quote them).
MAX_TEXT_LENGTH = 100
#: The most fields any object of a request may have: the largest request object has
#: 8, and objects keyed by players or species stay well below this.
MAX_FIELDS = 20

# Unicode categories that never belong in a name or typed text: controls (Cc: NUL, tab,
# escape), formats (Cf: bidi overrides and isolates such as U+202E and U+2066-2069,
# zero-width spaces, BOM), lone surrogates (Cs) and line/paragraph separators (Zl, Zp).
# They hide or reorder what other phones show, or break storage (NUL in PostgreSQL).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# The zero-width non-joiner and joiner (Cf) are ordinary writing in Persian and Indic
# scripts and inside emoji sequences; they are allowed between two non-ASCII characters.
JOINERS = frozenset({"\u200c", "\u200d"})

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


class Decision(StrEnum):
    """Generic values of ``Result.decided_by`` (a tiebreaker's label is the other kind)."""

    SCORE = "score"
    SHARED = "shared"


class ScoreOrder(StrEnum):
    """Whether the highest or the lowest score ranks first."""

    HIGHEST_FIRST = "highest"
    LOWEST_FIRST = "lowest"


#: The configuration of every request model: unknown fields are refused, types are not
#: coerced (``"3"`` is not a number).
STRICT = pydantic.ConfigDict(extra="forbid", strict=True)


#: A rule-reference id (``owl-about/follow``): the rules entry a verdict applies. Carried
#: by problems, breakdown lines and tiebreaks for the rules reference; never in the API.
RuleId = str


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entered state: where it is, and what is wrong.

    ``rule`` names the rules entry the problem applies (not part of the API shape, nor
    of equality).

    >>> Problem("cards", "Follow.", rule="owl-about/follow") == Problem("cards", "Follow.")
    True
    """

    path: str
    message: str
    rule: RuleId | None = field(default=None, compare=False, repr=False)
    #: An impossible table that entry still under way passes through (a player with 2
    #: cards while the birds are being counted): the pages show it only once the game
    #: is over. Not part of the API shape, nor of equality.
    pending: bool = field(default=False, compare=False, repr=False)

    def to_json(self) -> dict[str, str]:
        """The API shape of a problem."""
        return {"path": self.path, "message": self.message}


def listed_problems(problems: Sequence[Problem]) -> tuple[list[Problem], int]:
    """The problems worth listing (at most :data:`MAX_PROBLEMS`) and how many are left out.

    >>> shown, more = listed_problems([Problem("x", "Wrong.")] * 52)
    >>> len(shown), more
    (50, 2)
    """
    return list(problems[:MAX_PROBLEMS]), max(0, len(problems) - MAX_PROBLEMS)


def problem_messages(problems: Sequence[Problem]) -> list[str]:
    """The sentences of the listed problems, and one counting those left out (for pages).

    >>> problem_messages([Problem("x", "Wrong.")] * 51)[-2:]
    ['Wrong.', 'And 1 more problem.']
    """
    shown, more = listed_problems(problems)
    messages = [p.message for p in shown]
    if more:
        messages.append(f"And {more} more problem{'s' if more > 1 else ''}.")
    return messages


class InvalidStateError(Exception):
    """Raised by ``parse`` when a state is impossible or incomplete; holds every problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems: list[Problem] = list(problems)


@dataclass(frozen=True)
class BreakdownLine:
    """One line of a player's score explanation; the lines add up to the score."""

    label: str
    points: int
    #: The rules entry this line scores (not part of the API shape, nor of equality).
    rule: RuleId | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The API shape of a breakdown line."""
        return {"label": self.label, "points": self.points}


#: A tiebreak value: a number, or numbers compared one by one ("largest first").
TiebreakScalar = int | tuple[int, ...]


class Better(StrEnum):
    """Which tiebreak values win: the higher or the lower ones."""

    HIGHER = "higher"
    LOWER = "lower"


def plain_words(value: TiebreakScalar) -> str:
    """A tiebreak value as the standings have always shown it: ``6``, ``5/3``.

    >>> plain_words(6), plain_words((5, 3)), plain_words(())
    ('6', '5/3', '')
    """
    return "/".join(map(str, value)) if isinstance(value, tuple) else str(value)


@dataclass(frozen=True)
class Tiebreak:
    """A tiebreaker as the rules state it: its label, which values win, and its words.

    ``words`` puts one player's value in words for the explanation ("6", "holds Lucky",
    "territories 5, 3"); ``rule`` names the rules entry.

    >>> species = Tiebreak("Bird species in display", rule="odd-world/tiebreak/species")
    >>> species.say(6), species.key(6), Tiebreak("Turn", Better.LOWER).key(2)
    ('6', -6, 2)
    >>> Tiebreak("Sizes").key((5, 3))
    (-5, -3)
    """

    label: str
    better: Better = Better.HIGHER
    words: Callable[[TiebreakScalar], str] = plain_words
    rule: RuleId | None = None

    def say(self, value: TiebreakScalar | list[int]) -> str:
        """One value in words (a JSON list is read as the tuple it was)."""
        return self.words(tuple(value) if isinstance(value, list) else value)

    def key(self, value: Any) -> Any:
        """A sort key that puts the winning values first."""
        if self.better is Better.LOWER:
            return value
        if isinstance(value, tuple):
            return tuple(-v for v in value)
        return -value


@dataclass(frozen=True)
class TiebreakValue:
    """One tiebreak value of a player, labelled as the rules name it."""

    label: str
    value: int | tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The API shape of a tiebreak value (tuples become lists)."""
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"label": self.label, "value": value}


@dataclass(frozen=True)
class Entry:
    """A player's score and tiebreak values, before ranking."""

    player: str
    score: int
    tiebreak: tuple[Any, ...] = ()
    breakdown: tuple[BreakdownLine, ...] = ()


@dataclass(frozen=True)
class Standing:
    """A ranked player: score, competition rank, breakdown and tiebreak values."""

    player: str
    score: int
    rank: int
    winner: bool
    breakdown: tuple[BreakdownLine, ...]
    tiebreak: tuple[TiebreakValue, ...]

    def to_json(self) -> dict[str, Any]:
        """The API shape of a standing."""
        return {
            "player": self.player,
            "score": self.score,
            "rank": self.rank,
            "winner": self.winner,
            "breakdown": [line.to_json() for line in self.breakdown],
            "tiebreak": [value.to_json() for value in self.tiebreak],
        }


@dataclass(frozen=True)
class Ranking:
    """The outcome of :func:`rank`: ordered standings and what decided the winner."""

    standings: tuple[Standing, ...]
    decided_by: str

    @property
    def winners(self) -> list[str]:
        """Names of the rank-1 players."""
        return [s.player for s in self.standings if s.winner]


@dataclass(frozen=True)
class Result:
    """A scored state: the API's result object, plus game-specific extras."""

    game: str
    standings: tuple[Standing, ...]
    decided_by: str
    finished: bool
    warnings: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[str]:
        """Names of the rank-1 players."""
        return [s.player for s in self.standings if s.winner]

    def standing(self, player: str) -> Standing:
        """The standing of one player by name."""
        return next(s for s in self.standings if s.player == player)

    def to_json(self) -> dict[str, Any]:
        """The API shape of a result (extras are added as top-level fields)."""
        body: dict[str, Any] = {
            "game": self.game,
            "standings": [s.to_json() for s in self.standings],
            "winners": self.winners,
            "decided_by": self.decided_by,
            "finished": self.finished,
            "warnings": list(self.warnings),
        }
        body.update(self.extra)
        return body


def _sort_key(entry: Entry, order: ScoreOrder, tiebreaks: Sequence[Tiebreak]) -> tuple[Any, ...]:
    primary = entry.score if order is ScoreOrder.LOWEST_FIRST else -entry.score
    return (primary, *(t.key(v) for t, v in zip(tiebreaks, entry.tiebreak, strict=True)))


def rank(
    entries: Sequence[Entry],
    *,
    tiebreaks: Sequence[Tiebreak] = (),
    order: ScoreOrder = ScoreOrder.HIGHEST_FIRST,
) -> Ranking:
    """Rank players by score, then by each tiebreaker in turn.

    Players still tied after every tiebreaker share a competition rank and keep their
    seating (input) order. A tuple tiebreak value compares element by element, which
    suits "largest territory, then the next largest...". Every entry has exactly one
    value per tiebreaker: a mismatch is an error, never silently dropped.

    >>> r = rank([Entry("A", 3), Entry("B", 5), Entry("C", 5)])
    >>> [(s.player, s.rank, s.winner) for s in r.standings], r.decided_by
    ([('B', 1, True), ('C', 1, True), ('A', 3, False)], 'shared')
    >>> rank([Entry("A", 3), Entry("B", 1)], order=ScoreOrder.LOWEST_FIRST).winners
    ['B']
    >>> rank([Entry("A", 3, (1, 2))], tiebreaks=(Tiebreak("Only one"),))
    Traceback (most recent call last):
    ...
    ValueError: A has 2 tiebreak values for 1 tiebreaker(s).
    """
    for entry in entries:
        if len(entry.tiebreak) != len(tiebreaks):
            raise ValueError(
                f"{entry.player} has {len(entry.tiebreak)} tiebreak values"
                f" for {len(tiebreaks)} tiebreaker(s)."
            )
    if not entries:
        return Ranking((), Decision.SHARED.value)

    # Each entry's key is worked out once (the standings compare neighbours' keys again).
    keyed = [(_sort_key(entry, order, tiebreaks), entry) for entry in entries]
    # sorted() is stable, so fully tied players keep seating order.
    keyed.sort(key=lambda pair: pair[0])
    standings: list[Standing] = []
    for position, (key, entry) in enumerate(keyed):
        previous = standings[-1] if standings else None
        tied = previous is not None and keyed[position - 1][0] == key
        place = previous.rank if tied and previous is not None else position + 1
        standings.append(
            Standing(
                player=entry.player,
                score=entry.score,
                rank=place,
                winner=place == 1,
                breakdown=entry.breakdown,
                tiebreak=tuple(
                    TiebreakValue(t.label, value)
                    for t, value in zip(tiebreaks, entry.tiebreak, strict=True)
                ),
            )
        )
    return Ranking(tuple(standings), _decided_by(keyed, tiebreaks))


def _decided_by(
    keyed: Sequence[tuple[tuple[Any, ...], Entry]], tiebreaks: Sequence[Tiebreak]
) -> str:
    """Name what separated the leader from the runner-up (or that the victory is shared),
    given the entries in order with their sort keys."""
    if len(keyed) < 2:
        return Decision.SCORE.value
    (first_key, first), (second_key, second) = keyed[0], keyed[1]
    if first_key == second_key:
        return Decision.SHARED.value
    if first.score != second.score:
        return Decision.SCORE.value
    for tiebreak, mine, theirs in zip(tiebreaks, first.tiebreak, second.tiebreak, strict=True):
        if mine != theirs:
            return tiebreak.label
    return Decision.SHARED.value  # pragma: no cover - keys differ, so some value differs


# --- validation helpers shared by every engine ---------------------------------------


def path_of(location: Iterable[str | int]) -> str:
    """Format a location as an API path: ``("players", 1, "name")`` -> ``players[1].name``.

    >>> path_of(["players", 1, "display", "hoopoe"])
    'players[1].display.hoopoe'
    >>> path_of([])
    ''
    """
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int] | None:
    """Split an API path back into keys and indexes; ``None`` when it is malformed.

    >>> parse_path("players[1].display.hoopoe")
    ['players', 1, 'display', 'hoopoe']
    >>> parse_path("players[x]") is None
    True
    """
    parts: list[str | int] = []
    for match in _PATH_PART.finditer(path):
        key, index = match.groups()
        parts.append(int(index) if index is not None else key)
    return parts if parts and path_of(parts) == path else None


_PYDANTIC_MESSAGES: dict[str, str] = {
    "missing": "This is required.",
    "extra_forbidden": "This field is not known.",
    "int_type": "Enter a whole number.",
    "int_parsing": "Enter a whole number.",
    "int_from_float": "Enter a whole number.",
    "string_type": "Enter a text.",
    "list_type": "Enter a list.",
    "dict_type": "Enter an object.",
    "model_type": "Enter an object.",
    "bool_type": "Enter true or false.",
}


def problems_from_pydantic(error: pydantic.ValidationError) -> list[Problem]:
    """Turn pydantic's errors into problems with API paths and plain sentences."""
    problems = []
    for detail in error.errors(include_url=False):
        message = _PYDANTIC_MESSAGES.get(detail["type"])
        if message is None:
            message = str(detail["msg"]).rstrip(".") + "."
            message = message[0].upper() + message[1:]
        problems.append(Problem(path_of(detail["loc"]), message))
    return problems


def validate_model(model: type[ModelT], data: object, size: Size | None = None) -> ModelT:
    """Validate JSON data into a pydantic model, raising :class:`InvalidStateError`.

    With ``size``, the data's sizes are checked first (:func:`size_problems`): an
    oversized request is refused at once, before a single item is validated.
    """
    if size is not None:
        too_big = size_problems(data, size)
        if too_big:
            raise InvalidStateError(too_big)
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as error:
        raise InvalidStateError(problems_from_pydantic(error)) from None


# --- sizes, checked before any item ----------------------------------------------------


@dataclass(frozen=True)
class Size:
    """How big one place of a request may be; checked before its items are validated.

    ``kind`` is the JSON type the limit applies to (``list``, ``dict`` or ``str``); a
    value of another type is left to the validation proper, which names the type it
    wants. ``most`` caps the length (items, fields or characters) and ``too_big`` says
    so in a sentence, given the length. ``each`` limits every item of a list or value of
    an object, ``fields`` limits named fields of an object (before ``each``).
    """

    kind: type[list[Any]] | type[dict[str, Any]] | type[str]
    most: int
    too_big: Callable[[int], str]
    each: Size | None = None
    fields: Mapping[str, Size] = field(default_factory=dict)


def text_size(most: int = MAX_TEXT_LENGTH, too_big: Callable[[int], str] | None = None) -> Size:
    """A text of at most ``most`` characters."""
    return Size(
        str, most, too_big or (lambda n: f"This text has {n} characters; at most {most} fit here.")
    )


def list_size(most: int, too_big: Callable[[int], str], each: Size | None = None) -> Size:
    """A list of at most ``most`` items, each within ``each``."""
    return Size(list, most, too_big, each)


def object_size(
    fields: Mapping[str, Size] | None = None, *, each: Size | None = None, most: int = MAX_FIELDS
) -> Size:
    """An object of at most ``most`` fields; named ``fields`` and every value (``each``)."""
    return Size(
        dict,
        most,
        lambda n: f"This has {n} fields; at most {most} are expected here.",
        each,
        fields or {},
    )


#: A player's name: longer than any name could be after trimming is refused at once.
NAME_SIZE = text_size(too_big=lambda _n: f"Names can have at most {MAX_NAME_LENGTH} characters.")


def players_size(minimum: int, maximum: int, each: Size = NAME_SIZE) -> Size:
    """The players list of a game: more than it seats is refused before any player."""
    return list_size(
        maximum, lambda n: player_count_message(n, minimum=minimum, maximum=maximum), each
    )


def size_problems(data: object, size: Size, location: Sequence[str | int] = ()) -> list[Problem]:
    """Every place of ``data`` bigger than ``size`` allows.

    The items of an oversized place are never looked at, so the check costs no more
    than a request of allowed size, however big the request is.

    >>> size = object_size({"players": players_size(2, 5)})
    >>> size_problems({"players": ["Ann"] * 262_000}, size)
    [Problem(path='players', message='This game is for 2 to 5 players, not 262000.')]
    >>> size_problems({"players": ["Ann", "x" * 200]}, size)[0].path
    'players[1]'
    """
    if not location and _fits(data, size):
        return []  # the usual request: no path need be built for any of its places
    if not isinstance(data, size.kind):
        return []
    assert isinstance(data, list | dict | str)  # the kinds a Size is made for
    if len(data) > size.most:
        return [Problem(path_of(location), size.too_big(len(data)))]
    problems: list[Problem] = []
    if isinstance(data, list):
        each = size.each
        if each is not None:
            for index, item in enumerate(data):
                if _worth_a_look(item, each):
                    problems += size_problems(item, each, [*location, index])
    elif isinstance(data, dict):
        for key, value in data.items():
            if len(key) > MAX_TEXT_LENGTH:
                # The key itself would make the path: name the object instead.
                problems.append(
                    Problem(
                        path_of(location),
                        f"A key has {len(key)} characters; at most {MAX_TEXT_LENGTH} fit here.",
                    )
                )
                continue
            limit = size.fields.get(key, size.each)
            if limit is not None and _worth_a_look(value, limit):
                problems += size_problems(value, limit, [*location, key])
    return problems


def _fits(data: object, size: Size) -> bool:
    """Whether ``data`` fits ``size`` everywhere (:func:`size_problems` finds nothing)."""
    if not isinstance(data, size.kind):
        return True
    if len(data) > size.most:
        return False
    if isinstance(data, list):
        each = size.each
        if each is None:
            return True
        if each.kind is str:  # a list of texts: no call per item
            most = each.most
            return all(len(item) <= most for item in data if isinstance(item, str))
        return all(_fits(item, each) for item in data)
    if isinstance(data, dict):
        for key, value in data.items():
            if len(key) > MAX_TEXT_LENGTH:
                return False
            limit = size.fields.get(key, size.each)
            if limit is not None and not _fits(value, limit):
                return False
    return True


def _worth_a_look(item: object, size: Size) -> bool:
    """Whether ``item`` may break ``size``: a container always may (through its items); a
    text only when too long; anything else is for the validation proper. Deciding here
    spares a call per card of a big table."""
    if not isinstance(item, size.kind):
        return False
    return not isinstance(item, str) or len(item) > size.most


def problems_of(check: Callable[[object], object], state: object) -> list[Problem]:
    """Every problem ``check`` (a parse or score function) raises for a state; empty when
    it passes. Engines implement ``validate`` with it.

    >>> problems_of(lambda state: state, {})
    []
    """
    try:
        check(state)
    except InvalidStateError as invalid:
        return invalid.problems
    return []


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


def hidden_character_message(char: str, *, subject: str = "This field") -> str:
    r"""The sentence refusing a hidden character, naming its code point.

    >>> hidden_character_message("\u202e", subject="Names")
    "Names can't contain invisible or control characters (U+202E); please retype it."
    """
    return (
        f"{subject} can't contain invisible or control characters "
        f"(U+{ord(char):04X}); please retype it."
    )


def spoken_names(players: Sequence[str]) -> str:
    """Join names as people say them.

    >>> spoken_names(["Ann"]), spoken_names(["Ann", "Ben"]), spoken_names(["Ann", "Ben", "Cy"])
    ('Ann', 'Ann and Ben', 'Ann, Ben and Cy')
    """
    if len(players) <= 1:
        return "".join(players)
    return f"{', '.join(players[:-1])} and {players[-1]}"


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
        return "A player needs a name."
    if len(name) > MAX_NAME_LENGTH:
        return f"Names can have at most {MAX_NAME_LENGTH} characters."
    if hidden is not None:
        return hidden_character_message(hidden, subject="Names")
    if shows_nothing(name):
        return SHOWS_NOTHING_MESSAGE
    if name.casefold() in seen:
        return f'Two players are called "{name}"; names must differ.'
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
SHOWS_NOTHING_MESSAGE = "A name needs at least one letter, digit or sign you can see."


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
    return f'"{name}" looks just like "{twin}"; pick a name everyone can tell apart.'


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
    return f"This game is for {minimum} to {maximum} players, not {count}."


# --- numbers typed into a form, and players found by name ---------------------------------

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def whole_number(
    where: str,
    raw: str,
    *,
    minimum: int,
    maximum: int | None = None,
    unit: str = "",
    out_of_range: str | None = None,
) -> int:
    """A whole number typed into a form, within bounds; :class:`InvalidStateError` otherwise.

    ``unit`` names what is counted ("cards"), ``out_of_range`` replaces the sentence for a
    number outside the bounds.

    >>> whole_number("n", " 3 ", minimum=0, maximum=8, unit="cards")
    3
    >>> whole_number("n", "9", minimum=0, maximum=8, unit="cards")
    Traceback (most recent call last):
    ...
    companion.games.base.InvalidStateError: n: Enter 0 to 8 cards.
    >>> whole_number("n", "x", minimum=1)
    Traceback (most recent call last):
    ...
    companion.games.base.InvalidStateError: n: Enter a whole number.
    >>> whole_number("n", "0", minimum=1)
    Traceback (most recent call last):
    ...
    companion.games.base.InvalidStateError: n: Enter at least 1.
    """
    text = raw.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        what = f" of {unit}" if unit else ""
        raise InvalidStateError([Problem(where, f"Enter a whole number{what}.")])
    value = int(text)
    if value < minimum or (maximum is not None and value > maximum):
        if out_of_range is None:
            counted = f" {unit}" if unit else ""
            out_of_range = (
                f"Enter at least {minimum}{counted}."
                if maximum is None
                else f"Enter {minimum} to {maximum}{counted}."
            )
        raise InvalidStateError([Problem(where, out_of_range)])
    return value


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


# --- the engine interface ------------------------------------------------------------------


@dataclass(frozen=True)
class ApiDescription:
    """What the OpenAPI description of ``/api/v1`` says of one JSON endpoint.

    ``request`` is the pydantic model the handler validates its body with (the request
    body's schema is generated from it); ``answer`` is the JSON Schema of a 200 answer
    (see :mod:`companion.games.schemas`); ``example`` a request that gets one.
    """

    summary: str
    request: type[pydantic.BaseModel]
    answer: Mapping[str, Any]
    example: Mapping[str, Any]


class Game(abc.ABC):
    """What every game registers: identity, limits, capabilities, validation and scoring.

    An engine subclasses it and overrides ``validate``, ``score``, ``new_state``,
    ``parse_edit`` and ``api_endpoints``; every other hook has a default that suits a
    game without that capability, so services and templates call them all directly.
    """

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Bumped whenever scoring changes, so cached results can be recomputed.
    engine_version: ClassVar[int]
    #: Whether the highest or the lowest score ranks first.
    score_order: ClassVar[ScoreOrder] = ScoreOrder.HIGHEST_FIRST
    #: The tiebreakers after the score, in the order the rules apply them.
    tiebreaks: ClassVar[tuple[Tiebreak, ...]] = ()
    #: Whether several games in a row can be linked, their summed score deciding
    #: (:meth:`series` scores them).
    has_series: ClassVar[bool] = False
    #: Whether the game can be entered move by move with the referee checking each move.
    has_play_along: ClassVar[bool] = False
    #: Keys of a state whose values only their owner's phone may see (a hand of cards):
    #: exports shared through a link leave their contents out.
    private_keys: ClassVar[frozenset[str]] = frozenset()
    #: Card pickers: the deck (card code -> copies) and the cards by code; empty when the
    #: game has no such picker.
    deck: ClassVar[Mapping[str, int]] = {}
    cards: ClassVar[Mapping[str, Any]] = {}
    #: The birds of a display game (key -> name); empty for other games.
    birds: ClassVar[Mapping[str, str]] = {}

    @property
    def player_counts(self) -> range:
        """Every number of players the game seats."""
        return range(self.min_players, self.max_players + 1)

    @abc.abstractmethod
    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state (empty when it can be scored)."""

    @abc.abstractmethod
    def score(self, state: object) -> Result:
        """Score a state; raises :class:`InvalidStateError` with every problem."""

    @abc.abstractmethod
    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A fresh entry state for a new play with these players in seating order."""

    @abc.abstractmethod
    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """The JSON value a single edit sets at ``path``, from the text a form sent.

        Raises :class:`InvalidStateError` when the path may not be edited on its own or the
        text is not a value for it.
        """

    @abc.abstractmethod
    def api_endpoints(self) -> Mapping[str, Callable[[object], dict[str, Any]]]:
        """The game's JSON endpoints (``score`` and any referee checks): name -> handler.

        A handler takes the decoded request body and returns the response body; it
        raises :class:`InvalidStateError` for an impossible state.
        """

    def table_problems(self, state: object) -> list[Problem]:  # noqa: ARG002
        """Every way a state that :meth:`validate` accepts is still a table the rules
        cannot produce (an impossible table): the API refuses it (422), the pages show
        it beside the standings without refusing the edits that lead there, because
        entry passes through such states (a display counted bird by bird).

        Only called on a state :meth:`validate` accepts.
        """
        return []

    def checked_score(self, state: object) -> Result:
        """Score a state, refusing an impossible table too (the API's ``score``): raises
        :class:`InvalidStateError` with every problem :meth:`table_problems` finds."""
        result = self.score(state)
        problems = self.table_problems(state)
        if problems:
            raise InvalidStateError(problems)
        return result

    def api_descriptions(self) -> Mapping[str, ApiDescription]:
        """What the API description says of each endpoint of :meth:`api_endpoints`, by the
        same names. An endpoint left out is described as taking and answering any JSON
        object (the tests name it)."""
        return {}

    # The hooks below take what a game's override needs; their defaults ignore it (noqa).
    # Overrides call it ``_name`` when they ignore an argument too.

    def series(self, data: object) -> Result:  # noqa: ARG002
        """Score linked games (``{"games": [state, ...]}``) when :attr:`has_series`."""
        raise InvalidStateError([Problem("games", f"{self.name} has no series variant.")])

    def is_play_along(self, state: Mapping[str, Any]) -> bool:  # noqa: ARG002
        """Whether a stored state is entered move by move (see :attr:`has_play_along`)."""
        return False

    def over_words(self, result: Mapping[str, Any]) -> str:  # noqa: ARG002
        """Why the rules say the game is over (a scored result whose ``finished`` is true),
        as the Finish button says it ("Ann holds all nine birds: the game is over.")."""
        return "By its rules, the game is over."

    def going_on_words(self, result: Mapping[str, Any]) -> str:  # noqa: ARG002
        """Why the rules do not say the game is over yet ("nobody holds all nine birds
        yet"): the Finish button asks before ending it."""
        return "its rules do not say it is over yet"

    def describe_path(self, state: Mapping[str, Any], path: Sequence[str | int]) -> str:  # noqa: ARG002
        """A field's name for people ("Ben's Hoopoe"); by default its API path."""
        return path_of(path)

    def display_value(self, path: Sequence[str | int], value: Any) -> str:  # noqa: ARG002
        """A stored value as people read it; by default its text."""
        return str(value)

    def describe_change(
        self,
        state: Mapping[str, Any],  # noqa: ARG002
        path: Sequence[str | int],  # noqa: ARG002
        previous: Any,  # noqa: ARG002
        value: Any,  # noqa: ARG002
    ) -> str | None:
        """One change in the game's own words, or ``None`` for "field: before → after"."""
        return None

    def board(self, state: object) -> object | None:  # noqa: ARG002
        """The play-along picture of a state, for games that have one."""
        return None

    def chart(self) -> Sequence[Any]:
        """The game's player chart (limits per player count), for games that have one."""
        return ()
