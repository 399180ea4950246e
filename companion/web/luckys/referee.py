"""The Lucky's referee tools on one page: challenge resolver, buy points calculator,
Machine builder and escape check.

A GET form (bookmarkable, no JavaScript needed). Opened from a play, it names that
play's players and counts the Machines already entered in its decks; opened alone, it
names Player 1-4 and counts none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from flask import request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from companion.games.luckys import facts as f
from companion.games.luckys import referee as r
from companion.games.luckys.state import Table
from companion.games.readings import readings_json
from companion.games.text import N_, _, sentences
from companion.services import luckys as service
from companion.web.game_pages import GameTool
from companion.web.luckys.routes import bp
from companion.web.play.actions import load_play
from companion.web.responses import page_or_fragment

PAGE = "games/luckys-misadventures/referee.html"
FRAGMENT = "games/luckys-misadventures/_referee.html"
MAX_TYPED = 99
#: How a challenge ends, as the answer names it (English; translated where shown).
OUTCOMES: dict[str, str] = {
    # TRANSLATORS: a Lucky's challenge's outcome: nobody wins it.
    r.Outcome.NO_WINNER.value: N_("No winner"),
    # TRANSLATORS: a Lucky's challenge's outcome: players tie for the win.
    r.Outcome.TIE.value: N_("Tie"),
    # TRANSLATORS: a Lucky's challenge's outcome (the glossary's "minor victory").
    r.Outcome.MINOR_VICTORY.value: N_("Minor victory"),
    # TRANSLATORS: a Lucky's challenge's outcome (the glossary's "crushed it").
    r.Outcome.CRUSHED_IT.value: N_("Crushed it"),
}


@dataclass
class Query:
    """What the tools page was asked, with a message per field that could not be read."""

    players: list[str]
    errors: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)


def _number(args: Mapping[str, str], name: str, query: Query, *, most: int = MAX_TYPED) -> int:
    """A typed count (blank is 0), with a stepper's ``step`` applied."""
    text = args.get(name, "").strip()
    value = 0
    if text:
        if text.isdigit() and int(text) <= most:
            value = int(text)
        else:
            query.errors[name] = _("Enter a whole number from 0 to %(most)s.", most=most)
    step = args.get("step", "")
    if step in (f"{name}:+1", f"{name}:-1"):
        value = max(0, min(most, value + (1 if step.endswith("+1") else -1)))
    query.values[name] = value
    return value


def _choice(args: Mapping[str, str], name: str, options: Sequence[str], query: Query) -> str:
    text = args.get(name, "")
    if text and text not in options:
        query.errors[name] = _("Pick one of the options.")
        text = ""
    query.values[name] = text
    return text


def _challenge(args: Mapping[str, str], query: Query) -> r.ChallengeResult | None:
    kind = _choice(args, "kind", [c.value for c in f.Challenge], query) or "tinkerer"
    query.values["kind"] = kind
    powers = {name: _number(args, f"p{i}", query) for i, name in enumerate(query.players)}
    first = _choice(args, "first", [str(i) for i in range(len(query.players))], query)
    order = r.turn_order(query.players, query.players[int(first or 0)])
    if any(k.startswith("p") for k in query.errors) or not any(f"p{i}" in args for i in range(4)):
        return None
    return r.challenge(powers, order, f.Challenge(kind))


def _buy(args: MultiDict[str, str], query: Query) -> r.BuyPoints | None:
    scarecrows = [s for s in args.getlist("scarecrow") if s in set(f.Suit)]
    query.values["scarecrow"] = scarecrows
    lucky = args.get("lucky") == "1"
    query.values["lucky"] = lucky
    rabbits = _number(args, "rabbits", query, most=f.HIRELINGS["white-rabbit"][2])
    odd_text = args.get("oddlings", "").replace(",", " ").split()
    query.values["oddlings"] = args.get("oddlings", "")
    oddlings = []
    for word in odd_text:
        if word.isdigit() and int(word) <= r.MAX_ODDLING_POWER:
            oddlings.append(int(word))
        else:
            query.errors["oddlings"] = _("Type each Oddling's Buy Points as a number, e.g. 2 1.")
    fate = [code for i in range(3) if (code := _choice(args, f"fate{i}", list(f.FATE), query))]
    problems = r.fate_problems(fate, whole=False)
    if problems:
        query.errors["fate0"] = sentences(*(p.message for p in problems))
    if "buy" not in args or any(k in query.errors for k in ("rabbits", "oddlings", "fate0")):
        return None
    return r.buy_points(
        lucky=lucky,
        scarecrows=[f.Suit(s) for s in scarecrows],
        white_rabbits=rabbits,
        oddlings=oddlings,
        suits=r.suits_in_play(fate),
    )


def _build(args: Mapping[str, str], query: Query, built: Mapping[str, int]) -> r.Build | None:
    first = _choice(args, "junk1", list(f.JUNK), query)
    second = _choice(args, "junk2", list(f.JUNK), query)
    if not first or not second:
        return None
    return r.build_machine(first, second, built)


def _escape(
    args: MultiDict[str, str], query: Query, table: Table | None
) -> tuple[r.EscapeCheck, ...] | None:
    """The escape check; with a play's table and whose cards they are, a card that cannot
    be in that player's play (every copy elsewhere) is refused next to the cards."""
    cards = [c for c in r.InPlay if c.value in args.getlist("in_play")]
    query.values["in_play"] = {c.value for c in cards}
    triggered = args.get("ted_triggered") == "1"
    query.values["ted_triggered"] = triggered
    seats = [str(i) for i in range(len(query.players))]
    whose = _choice(args, "whose", seats, query) if table is not None else ""
    if "escape" not in args or "whose" in query.errors:
        return None
    if table is not None and whose:
        problems = r.in_play_problems(cards, table, query.players[int(whose)])
        if problems:
            query.errors["in_play"] = sentences(*(p.message for p in problems))
            return None
    return r.escape_checks(set(cards), pumpkin_ted_triggered=triggered)


def _answer(
    players: list[str], built: Mapping[str, int], table: Table | None, **links: Any
) -> Response:
    args = request.args
    query = Query(players)
    count = len(players)
    challenge = _challenge(args, query)
    answers = {
        "challenge": challenge,
        "buy": _buy(args, query),
        "build": _build(args, query, built),
        "escape": _escape(args, query, table),
    }
    return page_or_fragment(
        PAGE,
        FRAGMENT,
        status=HTTPStatus.UNPROCESSABLE_ENTITY if query.errors else HTTPStatus.OK,
        q=query,
        count=count,
        answers=answers,
        challenge_readings=readings_json(challenge.readings) if challenge else [],
        built=built,
        machines=f.MACHINES,
        machine_names={key: _(m.name) for key, m in f.MACHINES.items()},
        junk_kinds={k: f.junk_name(k) for k in f.JUNK},
        fate_names={code: f.fate_name(code) for code in f.FATE},
        suits={suit: _(name) for suit, name in f.SUIT_NAMES.items()},
        challenges={c.value: _(f.FACTION_NAMES[f.Faction(c.value)]) for c in f.Challenge},
        outcomes={key: _(name) for key, name in OUTCOMES.items()},
        in_play={card: _(name) for card, name in r.IN_PLAY_NAMES.items()},
        escape_names={key: _(name) for key, name in f.ESCAPE_NAMES.items()},
        reminder=_(r.ESCAPE_REMINDER),
        buy_reminder=_(r.BUY_REMINDER),
        **links,
    )


def referee() -> Response:
    """The tools without a table: players 2-4 named by seat."""
    text = request.args.get("players", "2")
    count = int(text) if text in {"2", "3", "4"} else 2
    # TRANSLATORS: a player named by seat on the referee page opened without a table.
    players = [_("Player %(number)s", number=i) for i in range(1, count + 1)]
    return _answer(
        players,
        {},
        None,
        action=url_for("luckys.referee"),
        back=None,
        counts=range(f.MIN_PLAYERS, f.MAX_PLAYERS + 1),
    )


@bp.get("/referee")
def referee_for_play(token: str, play_id: int) -> Response:
    """The tools for a play: its players, the Machines entered in its decks, and its decks
    for the escape check."""
    opened = load_play(token, play_id, game=f.SLUG)
    players = [str(p) for p in opened.play.state["players"]]
    return _answer(
        players,
        service.built_machines(opened.play),
        service.stored_table(opened.play),
        action=url_for("luckys.referee_for_play", token=token, play_id=play_id),
        back=url_for("pages.play", token=token, play_id=play_id),
        counts=None,
    )


#: The tools page, as the home and table pages list it.
TOOL = GameTool(
    endpoint="luckys.referee",
    path="referee",
    view=referee,
    title=N_("Lucky's Misadventures: challenges, buy points, Machines, escapes"),
    short=N_("Lucky's referee"),
)
