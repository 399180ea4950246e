"""The Owl About trick checker: who takes this trick? (no table or game needed).

A GET form, so any state of it can be bookmarked or shared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from flask import request
from werkzeug.wrappers import Response

from companion.games import owl_about as oa
from companion.games.problems import InvalidStateError, listed_problems
from companion.games.text import N_, _, sentences
from companion.web import security
from companion.web.game_pages import GameTool
from companion.web.owl_about.view import PICKER
from companion.web.responses import page_or_fragment

CHECKER_PAGE = "games/owl-about/checker.html"
CHECKER_FRAGMENT = "games/owl-about/_checker.html"
CHECKER_PLAYERS = tuple(range(oa.MIN_PLAYERS, oa.MAX_PLAYERS + 1))
DEFAULT_CHECKER_PLAYERS = 4
#: Each mode as the checker's picker names it (translated where shown).
CHECKER_MODES: dict[oa.Mode, str] = {
    oa.Mode.BASIC: N_("Basic"),
    oa.Mode.QUICK: N_("Quick"),
    oa.Mode.ADVANCED: N_("Advanced"),
}


def _seat_names(count: int) -> list[str]:
    """The checker's players: the lead, then clockwise (in the reader's language)."""
    # TRANSLATORS: the trick checker's name for the player who leads the trick.
    lead = _("Lead")
    # TRANSLATORS: the trick checker's names for the players after the lead.
    return [lead, *(_("Player %(number)s", number=i) for i in range(2, count + 1))]


@dataclass
class CheckerInput:
    """The checker's query: player count, mode, cards in order, optional hands."""

    players: int
    mode: str
    cards: list[str]
    hands: dict[str, str]
    errors: dict[str, str]


def _checker_input(args: Mapping[str, str]) -> CheckerInput:
    errors: dict[str, str] = {}
    count_text = args.get("players", str(DEFAULT_CHECKER_PLAYERS))
    count = int(count_text) if count_text.isdigit() else 0
    if count not in CHECKER_PLAYERS:
        errors["players"] = _(
            "Owl About is for %(least)s to %(most)s players.",
            least=oa.MIN_PLAYERS,
            most=oa.MAX_PLAYERS,
        )
        count = DEFAULT_CHECKER_PLAYERS
    mode = args.get("mode", oa.Mode.BASIC.value)
    if mode not in set(oa.Mode):
        errors["mode"] = _("Pick basic, quick or advanced.")
        mode = oa.Mode.BASIC.value
    cards = [c.upper() for c in args.get("cards", "").replace(",", " ").split()]
    if args.get("card"):
        cards.append(args["card"].upper())
    if args.get("drop") and cards:
        cards.pop()
    if args.get("clear"):
        cards = []
    hands = {
        name: args.get(f"hand-{i}", "").strip()
        for i, name in enumerate(_seat_names(count))
        if args.get(f"hand-{i}", "").strip()
    }
    return CheckerInput(count, mode, cards, hands, errors)


def _check(query: CheckerInput) -> dict[str, Any] | None:
    """The engine's answer for the checker (``None`` before the first card)."""
    if not query.cards:
        return None
    names = _seat_names(query.players)
    body = {
        "mode": query.mode,
        "lead": names[0],
        "players": names,
        "cards": query.cards,
        "hands": {
            name: oa.parse_hand(text, where=f"hand-{names.index(name)}")
            for name, text in query.hands.items()
        },
    }
    return oa.check_trick(body, with_rules=True)


def _checker_errors(invalid: InvalidStateError, names: Sequence[str]) -> dict[str, str]:
    """Engine problems placed at the checker's fields (cards, or a hand)."""
    errors: dict[str, str] = {}
    # Listed problems only: a long list would bury the field it belongs to.
    for problem in listed_problems(invalid.problems)[0]:
        key = "cards"
        for i, name in enumerate(names):
            if problem.path.startswith((f"hands.{name}", f"hand-{i}")):
                key = f"hand-{i}"
        errors[key] = sentences(errors[key], problem.message) if key in errors else problem.message
    return errors


def check() -> Response:
    """Who wins this trick? Pick the cards in order (and hands, to check the rules)."""
    security.mark_public()  # a tool for anyone: no table, no link
    query = _checker_input(request.args)
    names = _seat_names(query.players)
    errors = dict(query.errors)
    answer = None
    if not errors:
        try:
            answer = _check(query)
        except InvalidStateError as invalid:
            errors = _checker_errors(invalid, names)
    left = dict(oa.DECK)
    for code in query.cards:
        if code in left:
            left[code] -= 1
    return page_or_fragment(
        CHECKER_PAGE,
        CHECKER_FRAGMENT,
        status=HTTPStatus.UNPROCESSABLE_ENTITY if errors else HTTPStatus.OK,
        query=query,
        names=names,
        answer=answer,
        errors=errors,
        left=left,
        picker=PICKER,
        cards=oa.CARDS,
        modes={mode: _(label) for mode, label in CHECKER_MODES.items()},
        counts=CHECKER_PLAYERS,
    )


#: The checker, as the home and table pages list it.
TOOL = GameTool(
    endpoint="owl_about.check",
    path="check",
    view=check,
    title=N_("Owl About: who takes this trick?"),
    short=N_("Owl About trick checker"),
)
