"""Lucky's Misadventures at the table: the tally's counts, Mavens and Junk, the round
companion's Fate cards, the Feed the Toad! holder and an escape.

Each operation is one edit of the play (one *Undo* takes it back). Counts name the value
the phone showed (``base``): when another phone changed that very count first, the tap
is refused with the fresh value (:class:`EditConflict`); taps on other counts, even in
the same deck, are re-applied to the fresh state. Decks are keyed by player name, which
may hold any character, so every deck edit replaces ``decks`` as a whole (the engine
words the change for the history).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from companion.extensions import db
from companion.games import luckys
from companion.games.luckys import facts as f
from companion.games.luckys import referee
from companion.games.problems import InvalidStateError, Problem
from companion.games.text import _
from companion.models import Play, Table
from companion.services import plays
from companion.services.plays import Author, EditConflict, EditRefused

#: Deck fields a count tap may change: ``lucky``, ``hirelings.<kind>``,
#: ``machines.<key>`` and ``junk.<index>`` (the count of that Junk row).
COUNT_FIELDS = (
    ["lucky"] + [f"hirelings.{k}" for k in f.HIRELINGS] + [f"machines.{k}" for k in f.MACHINES]
)


def _refused(path: str, message: str) -> EditRefused:
    return EditRefused([Problem(path, message)])


def _player(play: Play, seat: int) -> str:
    players = play.state["players"]
    if not 0 <= seat < len(players):
        raise _refused("player", _("Pick one of the players."))
    return str(players[seat])


def _edit_deck(
    play: Play, *, seat: int, change: Callable[[dict[str, Any]], None], author: Author
) -> None:
    name = _player(play, seat)

    def build(decks: dict[str, Any]) -> dict[str, Any]:
        deck = decks.setdefault(name, luckys.new_deck())
        change(deck)
        return decks

    plays.update_value(play, path="decks", build=build, author=author)


def _count_cell(deck: dict[str, Any], field: str) -> tuple[dict[str, Any], str]:
    """The object and key a count field lives in."""
    if field == "lucky":
        return deck, "lucky"
    group, _dot, key = field.partition(".")
    if group == "junk" and key.isdigit():
        rows = deck.get("junk", [])
        if int(key) < len(rows):
            return rows[int(key)], "count"
    in_group = group in ("hirelings", "machines") and isinstance(deck.get(group), dict)
    if in_group and field in COUNT_FIELDS:
        return deck[group], key
    raise _refused(field, _("This cannot be changed here."))


def set_count(play: Play, *, seat: int, field: str, raw: str, base: str, author: Author) -> None:
    """Set one count of a player's deck from typed text (a stepper or a typed number)."""
    name = _player(play, seat)
    path = _engine_path(name, field)
    value = _parse(path, raw)
    expected = _parse(path, base)

    def change(deck: dict[str, Any]) -> None:
        cell, key = _count_cell(deck, field)
        current = cell.get(key, 0 if key != "count" else 1)
        if current != expected:
            message = _(
                "Someone changed %(field)s at the same time: it is now %(value)s. Check it and"
                " try again.",
                field=luckys.GAME.describe_path(play.state, path),
                value=current,
            )
            raise EditConflict(field, current, message)
        cell[key] = value

    _edit_deck(play, seat=seat, change=change, author=author)


def _engine_path(name: str, field: str) -> list[str | int]:
    group, _dot, key = field.partition(".")
    if group == "junk" and key.isdigit():
        return ["decks", name, "junk", int(key), "count"]
    return ["decks", name, *field.split(".")]


def _parse(path: list[str | int], raw: str) -> int:
    try:
        value = luckys.GAME.parse_edit(path, raw)
    except InvalidStateError as invalid:
        raise EditRefused([Problem("count", p.message) for p in invalid.problems]) from None
    assert isinstance(value, int)
    return value


def add_junk(play: Play, *, seat: int, kind: str, vp: int, author: Author) -> None:
    """One more Junk card of this kind and printed VP (a row of its own per value)."""
    if kind not in f.JUNK:
        raise _refused("junk", _("Pick a kind of Junk."))
    if kind == f.JunkKind.CLOCKWORK_GIZMO:
        vp = f.GIZMO_VP

    def change(deck: dict[str, Any]) -> None:
        rows = deck.setdefault("junk", [])
        for row in rows:
            if row.get("kind") == kind and row.get("vp", f.GIZMO_VP) == vp:
                row["count"] = row.get("count", 1) + 1
                return
        rows.append({"kind": kind, "vp": vp, "count": 1})

    _edit_deck(play, seat=seat, change=change, author=author)


def add_maven(play: Play, *, seat: int, name: str, faction: str, vp: int, author: Author) -> None:
    """A Maven into a player's deck, by its name, faction and printed VP."""

    def change(deck: dict[str, Any]) -> None:
        deck.setdefault("mavens", []).append(
            {"name": " ".join(name.split()), "faction": faction, "vp": vp}
        )

    _edit_deck(play, seat=seat, change=change, author=author)


def remove_maven(play: Play, *, seat: int, index: int, name: str, author: Author) -> None:
    """Take a Maven out of a deck (``name``: the one the phone showed at ``index``)."""

    def change(deck: dict[str, Any]) -> None:
        mavens = deck.get("mavens", [])
        if not 0 <= index < len(mavens) or mavens[index]["name"] != name:
            message = _("That Maven was changed by another phone. Check it and try again.")
            raise EditConflict("maven", None, message)
        del mavens[index]

    _edit_deck(play, seat=seat, change=change, author=author)


def reveal(play: Play, *, rounds_seen: int, cards_seen: int, code: str, author: Author) -> None:
    """One Fate card of the round being revealed (a new round after a complete one).

    The phone says how many rounds and cards of the last round it showed: a tap racing
    another phone's tap is refused with what is there now, never stored twice.
    """
    if code not in f.FATE:
        raise _refused("fate", _("Pick one of the 24 Fate cards."))

    def build(rounds: list[list[str]]) -> list[list[str]]:
        shown = len(rounds[-1]) if rounds else 0
        if len(rounds) != rounds_seen or shown != cards_seen:
            raise EditConflict(
                "fate",
                rounds,
                _("Another phone revealed a Fate card first: check the round and try again."),
            )
        if rounds and len(rounds[-1]) < f.FATE_PER_ROUND:
            rounds[-1].append(code)
        elif len(rounds) >= f.ROUNDS:
            raise _refused("fate", _("All 14 rounds are in: the game is over."))
        else:
            rounds.append([code])
        return rounds

    plays.update_value(play, path="rounds", build=build, author=author)


def set_toad(play: Play, *, seat: int, author: Author) -> None:
    """Who holds the Feed the Toad! card before round 1 (chosen at random at the table)."""
    if play.state.get("rounds"):
        raise _refused("toad", _("The first holder can only change before round 1."))
    plays.replace_value(play, path="toad", value=_player(play, seat), author=author)


def set_last_turn_order(play: Play, *, seat: int | None, author: Author) -> None:
    """The last round's turn order, clockwise from who held the Feed the Toad! card then
    (``None``: not entered; the round companion's last round is used when it has one)."""
    players = [str(p) for p in play.state["players"]]
    value = None if seat is None else list(referee.turn_order(players, _player(play, seat)))
    plays.replace_value(play, path="final_turn_order", value=value, author=author)


def set_escape(play: Play, *, seat: int | None, by: str, author: Author) -> None:
    """Someone escaped (and how), or nobody did (``seat`` None)."""
    if seat is None:
        plays.replace_value(play, path="escaped", value=None, author=author)
        return
    if by not in set(f.Escape):
        raise _refused("escape", _("Pick how they escaped."))
    value = {"player": _player(play, seat), "by": by}
    plays.replace_value(play, path="escaped", value=value, author=author)


@dataclass(frozen=True)
class KnownMaven:
    """A Maven entered at this table before: offered again as a chip."""

    name: str
    faction: str
    vp: int


def known_mavens(table: Table) -> list[KnownMaven]:
    """Mavens entered in this table's Lucky's plays (this one too), by name, first seen
    first; a later entry of the same name does not repeat it."""
    found: dict[str, KnownMaven] = {}
    query = select(Play).where(Play.table_id == table.id, Play.game == f.SLUG).order_by(Play.id)
    for play in db.session.scalars(query):
        decks = play.state.get("decks", {}) if isinstance(play.state, dict) else {}
        for deck in decks.values():
            for maven in deck.get("mavens", []):
                key = " ".join(str(maven.get("name", "")).split()).casefold()
                if key and key not in found:
                    found[key] = KnownMaven(maven["name"], maven["faction"], maven["vp"])
    return sorted(found.values(), key=lambda m: m.name.casefold())


def maven_sources(table_id: int) -> list[tuple[int, int]]:
    """The id and version of each of the table's Lucky's plays: what
    :func:`known_mavens` reads, without loading them."""
    query = select(Play.id, Play.version).where(Play.table_id == table_id, Play.game == f.SLUG)
    return [(int(i), int(v)) for i, v in db.session.execute(query.order_by(Play.id))]


def stored_table(play: Play) -> luckys.state.Table | None:
    """The play's table as the engine reads it; ``None`` for a state stored before a
    newer check refused it (its page says why at the next edit, and scores nothing)."""
    try:
        return luckys.state.parse(play.state)
    except InvalidStateError:
        return None


def built_machines(play: Play) -> dict[str, int]:
    """The Machines entered in this play's decks, all players together."""
    table = stored_table(play)
    built: dict[str, int] = {}
    for deck in table.decks.values() if table else ():
        for key, count in deck.machines.items():
            built[key] = built.get(key, 0) + count
    return built
