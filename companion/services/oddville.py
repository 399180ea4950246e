"""OddVille operations on a stored play: place, change, remove and move city cards, the
Main Square's owners, characters, and the construction referee's builds.

Each operation is one edit of the play's log, built on the freshest stored state: the
phone says what it saw at the one place it changes (``base``), so two phones entering
different cards never clash, while a stale change of the same place is refused with
:class:`plays.EditConflict`. The engine validates every resulting state (a card that
would be cut off from the Main Square is refused with its reason).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games import oddville as engine
from companion.games.grid import Cell
from companion.games.oddville.facts import MAIN_SQUARE_AT
from companion.games.problems import InvalidStateError, Problem
from companion.games.text import _
from companion.models import Edit, Play
from companion.services import plays

CITY = "city"
#: What a legal building links to: how building works, and what it earns.
LEGAL_RULE = "oddville/turn/building"


def card_at(city: Sequence[Mapping[str, Any]], cell: Cell) -> int | None:
    """The index of the city card lying on a position, if any (the Main Square included)."""
    for index, card in enumerate(city):
        at = card.get("at")
        if isinstance(at, list) and tuple(at) == cell:
            return index
    return None


def place_of(city: Sequence[Mapping[str, Any]], cell: Cell, *, capital: bool = False) -> str:
    """A position as the page says it (columns from the city's leftmost card); ``capital``
    to start a sentence with it."""
    cols = [c["at"][1] for c in city if isinstance(c.get("at"), list)] + [cell[1]]
    return engine.place_words(cell, min(cols), capital=capital)


def _conflict(city: Sequence[Mapping[str, Any]], cell: Cell, now: str) -> plays.EditConflict:
    where = place_of(city, cell)
    message = _(
        "Someone changed %(place)s at the same time: it now holds %(card)s. Try again.",
        place=where,
        card=now,
    )
    return plays.EditConflict(CITY, city, message)


def _holds(card: Mapping[str, Any] | None) -> str:
    """What a place holds, in words (after "it now holds")."""
    if card is None:
        # TRANSLATORS: what a place of the OddVille city holds, in "it now holds no card".
        return _("no card")
    if card.get("card") == engine.MAIN_SQUARE:
        # TRANSLATORS: in "it now holds the Main Square".
        return _("the Main Square")
    # TRANSLATORS: in "it now holds a card".
    return _("a card")


def _check_base(city: Sequence[Mapping[str, Any]], cell: Cell, base: str | None) -> None:
    """``base`` is what the phone showed at the place: ``"empty"`` or ``"card"``."""
    if base is None:
        return
    index = card_at(city, cell)
    now = "empty" if index is None else "card"
    if now != base:
        raise _conflict(city, cell, _holds(None if index is None else city[index]))


def place_card(
    play: Play,
    *,
    at: Cell,
    card: Mapping[str, Any],
    base: str | None,
    author: plays.Author,
) -> Edit | None:
    """Put a building on a place, or replace what the building there shows."""

    def build(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        _check_base(city, at, base)
        index = card_at(city, at)
        entry = {"at": list(at), **card}
        if index is None:
            return [*city, entry]
        if city[index].get("card") == engine.MAIN_SQUARE:
            raise plays.EditRefused([Problem(CITY, _("The Main Square stays where it is."))])
        city[index] = entry
        return city

    return plays.update_value(play, path=CITY, build=build, author=author)


def remove_card(play: Play, *, at: Cell, author: plays.Author) -> Edit | None:
    """Take a building out of the city (never the Main Square)."""

    def build(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        index = card_at(city, at)
        if index is None:
            raise _conflict(city, at, _holds(None))
        if city[index].get("card") == engine.MAIN_SQUARE:
            raise plays.EditRefused([Problem(CITY, _("The Main Square cannot be removed."))])
        return city[:index] + city[index + 1 :]

    return plays.update_value(play, path=CITY, build=build, author=author)


def move_card(play: Play, *, source: Cell, target: Cell, author: plays.Author) -> Edit | None:
    """Move a building to an empty place."""

    def build(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        index = card_at(city, source)
        if index is None:
            raise _conflict(city, source, _holds(None))
        if city[index].get("card") == engine.MAIN_SQUARE:
            raise plays.EditRefused([Problem(CITY, _("The Main Square stays where it is."))])
        if card_at(city, target) is not None:
            where = place_of(city, target, capital=True)
            message = _("%(place)s already holds a card.", place=where)
            raise plays.EditRefused([Problem(CITY, message)])
        city[index] = {**city[index], "at": list(target)}
        return city

    return plays.update_value(play, path=CITY, build=build, author=author)


def set_square_owners(play: Play, *, owners: Sequence[str], author: plays.Author) -> Edit | None:
    """Whose workers stand on the Main Square (at most one each)."""

    def build(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for index, card in enumerate(city):
            if card.get("card") == engine.MAIN_SQUARE:
                city[index] = {**card, "owners": list(owners)}
                return city
        square = {"at": list(MAIN_SQUARE_AT), "card": engine.MAIN_SQUARE}
        return [{**square, "owners": list(owners)}, *city]

    return plays.update_value(play, path=CITY, build=build, author=author)


def set_character(
    play: Play, *, character: str, holder: str | None, author: plays.Author
) -> Edit | None:
    """Give a character card to a player (``None``: nobody holds it); it leaves whoever
    held it before, since each character exists once."""
    if character not in engine.CHARACTERS:
        raise plays.EditRefused([Problem("characters", _("Pick one of the 12 characters."))])

    def build(held: dict[str, list[str]]) -> dict[str, list[str]]:
        held = {name: [c for c in keys if c != character] for name, keys in held.items()}
        if holder is not None:
            held[holder] = [*held.get(holder, []), character]
        return held

    return plays.update_value(play, path="characters", build=build, author=author)


@dataclass(frozen=True)
class BuildVerdict:
    """The referee's answer for one building on the play page."""

    legal: bool
    messages: list[str]
    gains: list[str]
    warnings: list[str]
    #: The rules entry each message applies (``None`` where none does), for the links.
    rules: list[str | None] = field(default_factory=list)
    #: The app's readings the verdict rests on (the API's ``readings``).
    readings: list[dict[str, str]] = field(default_factory=list)


def check_build(
    state: Mapping[str, Any], *, card: Mapping[str, Any], rotated: bool
) -> tuple[BuildVerdict, list[dict[str, Any]] | None]:
    """Referee a building against the stored table; the new city when it is legal."""
    body = {key: copy.deepcopy(value) for key, value in state.items()}
    body["card"] = dict(card)
    body["rotated"] = rotated
    try:
        reply, rules = engine.build_verdict(body)
    except InvalidStateError as invalid:
        messages = [p.message for p in invalid.problems]
        return BuildVerdict(False, messages, [], [], [p.rule for p in invalid.problems]), None
    gains = [gain["words"] for gain in reply["bonuses"]]
    messages = [p["message"] for p in reply["problems"]]
    if reply["legal"]:
        messages = [_("Legal: this building follows every construction rule.")]
        rules = [LEGAL_RULE]
    verdict = BuildVerdict(
        reply["legal"], messages, gains, reply["warnings"], rules, reply.get("readings", [])
    )
    city: list[dict[str, Any]] | None = reply["city"]
    return verdict, city


def build(
    play: Play, *, card: Mapping[str, Any], rotated: bool, built: int, author: plays.Author
) -> BuildVerdict:
    """Build a card when the referee finds it legal (``built``: the cards the phone saw)."""
    verdict: BuildVerdict | None = None

    def grow(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal verdict
        if len(city) != built:
            raise plays.EditConflict(
                CITY, city, _("Another phone changed the city first: check the card again.")
            )
        state = {**play.state, CITY: city}
        verdict, after = check_build(state, card=card, rotated=rotated)
        if after is None:
            raise plays.EditRefused([Problem(CITY, m) for m in verdict.messages])
        return after

    plays.update_value(play, path=CITY, build=grow, author=author)
    assert verdict is not None
    return verdict


def take_back(play: Play, *, built: int, author: plays.Author) -> Edit | None:
    """Take back the last card built (``built``: the cards the phone saw)."""

    def build(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(city) != built:
            raise plays.EditConflict(
                CITY,
                city,
                _("Another phone changed the city first: look again before taking back."),
            )
        if not city or city[-1].get("card") == engine.MAIN_SQUARE:
            raise plays.EditRefused([Problem(CITY, _("There is no building to take back."))])
        return city[:-1]

    return plays.update_value(play, path=CITY, build=build, author=author)
