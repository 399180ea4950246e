"""Problems with a state: where (a path into it) and what, in a sentence a player
understands (in the reader's language: :mod:`companion.games.text`); every engine reports
them the same way, and the API lists at most 50.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pydantic

from companion.games.text import N_, _, ngettext, spoken_list

if TYPE_CHECKING:
    from companion.games.readings import Reading

#: The most problems one answer lists; the rest are only counted (``more_problems``), so
#: a request full of mistakes still gets a short answer.
MAX_PROBLEMS = 50


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
    #: The app's reading the refusal rests on, when the rulebook leaves room (the API
    #: lists it in the answer's ``readings``). Not part of a problem's shape, nor of
    #: equality.
    reading: Reading | None = field(default=None, compare=False, repr=False)

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
        messages.append(ngettext("And %(num)s more problem.", "And %(num)s more problems.", more))
    return messages


class InvalidStateError(Exception):
    """Raised by ``parse`` when a state is impossible or incomplete; holds every problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))
        self.problems: list[Problem] = list(problems)


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


#: Our sentence for each kind of error pydantic reports (its ``type``); translated when
#: said (:func:`problems_from_pydantic`).
_PYDANTIC_MESSAGES: dict[str, str] = {
    "missing": N_("This is required."),
    "extra_forbidden": N_("This field is not known."),
    "int_type": N_("Enter a whole number."),
    "int_parsing": N_("Enter a whole number."),
    "int_from_float": N_("Enter a whole number."),
    "string_type": N_("Enter a text."),
    "list_type": N_("Enter a list."),
    "dict_type": N_("Enter an object."),
    "model_type": N_("Enter an object."),
    "bool_type": N_("Enter true or false."),
}

#: Sentences for pydantic's bounds, with the bound as ``%(bound)s`` (its context's value).
_PYDANTIC_BOUNDS: dict[str, tuple[str, str]] = {
    "less_than_equal": ("le", N_("Input should be less than or equal to %(bound)s.")),
    "greater_than_equal": ("ge", N_("Input should be greater than or equal to %(bound)s.")),
    "less_than": ("lt", N_("Input should be less than %(bound)s.")),
    "greater_than": ("gt", N_("Input should be greater than %(bound)s.")),
}

#: The values pydantic lists as expected (``'smallest' or 'largest'``), each quoted.
_QUOTED = re.compile(r"'([^']*)'")


def _pydantic_message(detail: Mapping[str, Any]) -> str:
    """One of pydantic's errors in a sentence of ours, in the reader's language.

    >>> _pydantic_message({"type": "enum", "ctx": {"expected": "'a', 'b' or 'c'"}})
    "Input should be 'a', 'b' or 'c'."
    >>> _pydantic_message({"type": "less_than_equal", "ctx": {"le": 99}})
    'Input should be less than or equal to 99.'
    """
    kind = str(detail["type"])
    context = detail.get("ctx") or {}
    message = _PYDANTIC_MESSAGES.get(kind)
    if message is not None:
        return _(message)
    if kind in _PYDANTIC_BOUNDS:
        bound, sentence = _PYDANTIC_BOUNDS[kind]
        return _(sentence, bound=context.get(bound))
    choices = _QUOTED.findall(str(context.get("expected", "")))
    if kind in ("enum", "literal_error") and choices:
        quoted = [f"'{choice}'" for choice in choices]
        # TRANSLATORS: the choices are values to type as they are, each in quotes.
        return _("Input should be %(choices)s.", choices=spoken_list(quoted, joined_by="or"))
    # An engine's own error (a ``PydanticCustomError`` raised by a model's validator): its
    # sentence, written (and translated) where it is raised. No other kind of pydantic's
    # errors comes from the request models.
    message = str(detail["msg"]).rstrip(".") + "."
    return message[0].upper() + message[1:]


def problems_from_pydantic(error: pydantic.ValidationError) -> list[Problem]:
    """Turn pydantic's errors into problems with API paths and plain sentences."""
    return [
        Problem(path_of(detail["loc"]), _pydantic_message(detail))
        for detail in error.errors(include_url=False)
    ]
