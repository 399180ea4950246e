"""Sizes and counts checked before any item (so an oversized request is answered at
once), validating a state against its pydantic model, and numbers typed into a form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import pydantic

from companion.games.problems import InvalidStateError, Problem, path_of, problems_from_pydantic
from companion.games.text import N_, _

#: The longest text accepted where a name, key or code goes, checked before anything
#: else. Names themselves allow 40 characters after trimming; this cap only keeps
#: absurdly long texts out of the checks (and out of the sentences that quote them).
MAX_TEXT_LENGTH = 100


#: The most fields any object of a request may have: the largest request object has
#: 8, and objects keyed by players or species stay well below this.
MAX_FIELDS = 20


ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


#: The configuration of every request model: unknown fields are refused, types are not
#: coerced (``"3"`` is not a number).
STRICT = pydantic.ConfigDict(extra="forbid", strict=True)


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


@dataclass(frozen=True)
class Size:
    """How big one place of a request may be; checked before its items are validated.

    ``kind`` is the JSON type the limit applies to (``list``, ``dict`` or ``str``); a
    value of another type is left to the validation proper, which names the type it
    wants. ``most`` caps the length (items, fields or characters) and ``too_big`` says
    so in a sentence, given the length (built when said: in the reader's language).
    ``each`` limits every item of a list or value of an object, ``fields`` limits named
    fields of an object (before ``each``).
    """

    kind: type[list[Any]] | type[dict[str, Any]] | type[str]
    most: int
    too_big: Callable[[int], str]
    each: Size | None = None
    fields: Mapping[str, Size] = field(default_factory=dict)


def text_size(most: int = MAX_TEXT_LENGTH, too_big: Callable[[int], str] | None = None) -> Size:
    """A text of at most ``most`` characters."""
    return Size(str, most, too_big or (lambda n: _text_too_long(n, most)))


def _text_too_long(length: int, most: int) -> str:
    """The sentence refusing a text longer than ``most`` characters."""
    return _(
        "This text has %(length)s characters; at most %(most)s fit here.", length=length, most=most
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
        lambda n: _(
            "This has %(count)s fields; at most %(most)s are expected here.", count=n, most=most
        ),
        each,
        fields or {},
    )


def size_problems(data: object, size: Size, location: Sequence[str | int] = ()) -> list[Problem]:
    """Every place of ``data`` bigger than ``size`` allows.

    The items of an oversized place are never looked at, so the check costs no more
    than a request of allowed size, however big the request is.

    >>> from companion.games.names import players_size
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
                if _may_exceed(item, each):
                    problems += size_problems(item, each, [*location, index])
    elif isinstance(data, dict):
        for key, value in data.items():
            if len(key) > MAX_TEXT_LENGTH:
                # The key itself would make the path: name the object instead.
                problems.append(
                    Problem(
                        path_of(location),
                        _(
                            "A key has %(length)s characters; at most %(most)s fit here.",
                            length=len(key),
                            most=MAX_TEXT_LENGTH,
                        ),
                    )
                )
                continue
            limit = size.fields.get(key, size.each)
            if limit is not None and _may_exceed(value, limit):
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


def _may_exceed(item: object, size: Size) -> bool:
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


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")

#: What a number typed into a form counts (``""``: nothing in particular).
Counted = Literal["", "cards", "Lucky cards", "VP", "workers", "points"]


@dataclass(frozen=True)
class _UnitSentences:
    """The sentences refusing a number of one unit, each whole (so translators can move
    its words): not a whole number, below ``%(minimum)s``, or outside ``%(minimum)s`` to
    ``%(maximum)s``."""

    not_whole: str
    at_least: str
    between: str


_UNITS: dict[Counted, _UnitSentences] = {
    "": _UnitSentences(
        N_("Enter a whole number."),
        N_("Enter at least %(minimum)s."),
        N_("Enter %(minimum)s to %(maximum)s."),
    ),
    "cards": _UnitSentences(
        N_("Enter a whole number of cards."),
        N_("Enter at least %(minimum)s cards."),
        N_("Enter %(minimum)s to %(maximum)s cards."),
    ),
    "Lucky cards": _UnitSentences(
        N_("Enter a whole number of Lucky cards."),
        N_("Enter at least %(minimum)s Lucky cards."),
        N_("Enter %(minimum)s to %(maximum)s Lucky cards."),
    ),
    "VP": _UnitSentences(
        N_("Enter a whole number of VP."),
        N_("Enter at least %(minimum)s VP."),
        N_("Enter %(minimum)s to %(maximum)s VP."),
    ),
    "workers": _UnitSentences(
        N_("Enter a whole number of workers."),
        N_("Enter at least %(minimum)s workers."),
        N_("Enter %(minimum)s to %(maximum)s workers."),
    ),
    "points": _UnitSentences(
        N_("Enter a whole number of points."),
        N_("Enter at least %(minimum)s points."),
        N_("Enter %(minimum)s to %(maximum)s points."),
    ),
}


def whole_number(
    where: str,
    raw: str,
    *,
    minimum: int,
    maximum: int | None = None,
    unit: Counted = "",
    out_of_range: str | None = None,
) -> int:
    """A whole number typed into a form, within bounds; :class:`InvalidStateError` otherwise.

    ``unit`` names what is counted ("cards": each unit has its own whole sentences),
    ``out_of_range`` replaces the sentence for a number outside the bounds.

    >>> whole_number("n", " 3 ", minimum=0, maximum=8, unit="cards")
    3
    >>> whole_number("n", "9", minimum=0, maximum=8, unit="cards")
    Traceback (most recent call last):
    ...
    companion.games.problems.InvalidStateError: n: Enter 0 to 8 cards.
    >>> whole_number("n", "x", minimum=1)
    Traceback (most recent call last):
    ...
    companion.games.problems.InvalidStateError: n: Enter a whole number.
    >>> whole_number("n", "0", minimum=1)
    Traceback (most recent call last):
    ...
    companion.games.problems.InvalidStateError: n: Enter at least 1.
    """
    text = raw.strip()
    sentences = _UNITS[unit]
    if not _WHOLE_NUMBER.fullmatch(text):
        raise InvalidStateError([Problem(where, _(sentences.not_whole))])
    value = int(text)
    if value < minimum or (maximum is not None and value > maximum):
        if out_of_range is None:
            out_of_range = (
                _(sentences.at_least, minimum=minimum)
                if maximum is None
                else _(sentences.between, minimum=minimum, maximum=maximum)
            )
        raise InvalidStateError([Problem(where, out_of_range)])
    return value
