"""The end-of-game tally: VP per deck, the six tiebreakers in order, or an escape.

>>> from companion.games.luckys.state import parse
>>> table = parse({"players": ["Lewis", "Carol"], "decks": {
...     "Lewis": {"lucky": 1, "machines": ["tiny-tin"]},
...     "Carol": {"lucky": 1, "mavens": [{"name": "Pumpkin Ted", "faction": "oddling", "vp": 6}],
...               "hirelings": {"winged-monkey": 1}}}})
>>> result = score_table(table)
>>> [(s.player, s.score) for s in result.standings], result.decided_by
([('Carol', 17), ('Lewis', 17)], 'Has Pumpkin Ted')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from companion.games.luckys import facts as f
from companion.games.luckys import readings as app
from companion.games.luckys.state import (
    RULE_HIRELINGS,
    RULE_JUNK,
    RULE_LUCKY,
    RULE_MACHINES,
    RULE_MAVENS,
    Deck,
    Table,
)
from companion.games.ranking import (
    Better,
    BreakdownLine,
    Entry,
    Result,
    Standing,
    Tiebreak,
    TiebreakScalar,
    TiebreakValue,
    rank,
)
from companion.games.readings import Reading, unique_readings
from companion.games.text import N_, _

#: The tiebreakers' labels: English, as the API's ``decided_by`` names them; translated
#: where shown.
LUCKY_TIEBREAK = N_("Has Lucky")
PUMPKIN_TED_TIEBREAK = N_("Has Pumpkin Ted")
QUEEN_TIEBREAK = N_("Has the Queen of Spades")
WICKED_TIEBREAK = N_("VP from Wicked cards")
ALLY_TIEBREAK = N_("VP from Ally cards")
LAST_TURN_TIEBREAK = N_("Later in the last turn order")


def _holds(card: str) -> Callable[[TiebreakScalar], str]:
    """Whether a player holds ``card`` (English, translated when said), in words."""

    def words(value: TiebreakScalar) -> str:
        if value:
            # TRANSLATORS: a player's value in a tiebreak: "holds Lucky".
            return _("holds %(card)s", card=_(card))
        # TRANSLATORS: a player's value in a tiebreak: "no Lucky".
        return _("no %(card)s", card=_(card))

    return words


def _vp_words(what: str) -> Callable[[TiebreakScalar], str]:
    """A player's VP from ``what`` (English, translated when said), in words."""

    def words(value: TiebreakScalar) -> str:
        # TRANSLATORS: a player's value in a tiebreak: "5 VP from allies".
        return _("%(vp)s VP from %(what)s", vp=value, what=_(what))

    return words


def _turn_words(value: TiebreakScalar) -> str:
    if value == 0:
        # TRANSLATORS: a player's value in the last tiebreak, not known.
        return _("last turn order not entered")
    # TRANSLATORS: a player's value in the last tiebreak: their turn in the last round.
    return _("turn %(number)s in the last round", number=value)


def _tiebreak(label: str, words: Callable[[TiebreakScalar], str], rule: str) -> Tiebreak:
    return Tiebreak(label, Better.HIGHER, words=words, rule=rule)


#: The rulebook's six tiebreakers, in order.
TIEBREAKS: tuple[Tiebreak, ...] = (
    _tiebreak(LUCKY_TIEBREAK, _holds(N_("Lucky")), "luckys-misadventures/tiebreak/lucky"),
    _tiebreak(
        PUMPKIN_TED_TIEBREAK,
        _holds(N_("Pumpkin Ted")),
        "luckys-misadventures/tiebreak/pumpkin-ted",
    ),
    _tiebreak(
        QUEEN_TIEBREAK, _holds(N_("the Queen of Spades")), "luckys-misadventures/tiebreak/queen"
    ),
    _tiebreak(
        WICKED_TIEBREAK,
        # TRANSLATORS: in a tiebreak: "5 VP from Wicked cards".
        _vp_words(N_("Wicked cards")),
        "luckys-misadventures/tiebreak/wicked",
    ),
    # TRANSLATORS: in a tiebreak: "5 VP from allies".
    _tiebreak(ALLY_TIEBREAK, _vp_words(N_("allies")), "luckys-misadventures/tiebreak/allies"),
    _tiebreak(LAST_TURN_TIEBREAK, _turn_words, "luckys-misadventures/tiebreak/last-turn"),
)


def breakdown(deck: Deck) -> tuple[BreakdownLine, ...]:
    """A deck's VP, one line per kind of card (the lines add up to its score)."""
    lines: list[BreakdownLine] = []
    if deck.lucky:
        # TRANSLATORS: Lucky's card, the hero's (every player starts with one).
        lines.append(BreakdownLine(_("Lucky"), f.LUCKY_VP, rule=RULE_LUCKY))
    for kind, count in deck.hirelings.items():
        if count:
            # TRANSLATORS: a breakdown line: a Hireling and how many a deck holds.
            label = _("%(card)s: %(count)s", card=_(f.HIRELINGS[kind][0]), count=count)
            lines.append(BreakdownLine(label, count * f.HIRELING_VP, rule=RULE_HIRELINGS))
    for maven in deck.mavens:
        faction = _(f.FACTION_NAMES[maven.faction])
        # TRANSLATORS: a breakdown line: a Maven as entered, and its faction.
        label = _("%(maven)s (%(faction)s)", maven=maven.name, faction=faction)
        lines.append(BreakdownLine(label, maven.vp, rule=RULE_MAVENS))
    for (kind, vp), count in sorted(deck.junk.items(), key=_junk_order):
        if count:
            label = _vp_each(f.junk_name(kind), count, vp)
            lines.append(BreakdownLine(label, count * vp, rule=RULE_JUNK))
    for key in f.MACHINES:
        count = deck.machines.get(key, 0)
        if count:
            machine = f.MACHINES[key]
            label = _vp_each(_(machine.name), count, machine.vp)
            lines.append(BreakdownLine(label, count * machine.vp, rule=RULE_MACHINES))
    return tuple(lines)


def _vp_each(name: str, count: int, vp: int) -> str:
    """A breakdown line's label: cards of one kind, how many, and what each is worth.

    >>> _vp_each("Tiny Tin", 2, 7)
    'Tiny Tin: 2 (7 VP each)'
    """
    return _("%(card)s: %(count)s (%(vp)s VP each)", card=name, count=count, vp=vp)


def _junk_order(item: tuple[tuple[str, int], int]) -> tuple[int, int]:
    (kind, vp), _count = item
    return list(f.JUNK).index(kind), vp


def wicked_vp(deck: Deck) -> int:
    """VP from Wicked cards: Winged Monkeys and Wicked Mavens."""
    monkeys = deck.hirelings.get("winged-monkey", 0) * f.HIRELING_VP
    return monkeys + sum(m.vp for m in deck.mavens if m.faction is f.Faction.WICKED)


def ally_vp(deck: Deck) -> int:
    """VP from Ally cards: Lucky, Hirelings and Mavens (Sidekicks score nothing)."""
    hirelings = sum(deck.hirelings.values()) * f.HIRELING_VP
    return deck.lucky * f.LUCKY_VP + hirelings + sum(m.vp for m in deck.mavens)


def tiebreak_values(deck: Deck, turn: int) -> tuple[int, ...]:
    """A deck's six tiebreak values, in the rulebook's order (``turn`` counts from 1)."""
    return (
        deck.lucky,
        int(deck.has_maven(f.PUMPKIN_TED)),
        int(deck.has_maven(f.QUEEN_OF_SPADES)),
        wicked_vp(deck),
        ally_vp(deck),
        turn,
    )


def score_table(
    table: Table,
    *,
    finished: bool = True,
    notes: Sequence[str] = (),
    order_from_rounds: bool = False,
) -> Result:
    """Score a validated table: the escape wins outright, else VP and the tiebreakers.

    ``notes`` are warnings of the caller's (why the turn order is not known, say); without
    them a missing turn order gets the general warning. ``order_from_rounds``: the last
    turn order was found by following the Feed the Toad! card through the rounds."""
    entries = []
    for name in table.players:
        deck = table.decks[name]
        lines = breakdown(deck)
        order = table.final_turn_order
        turn = order.index(name) + 1 if name in order else 0
        entries.append(
            Entry(name, sum(line.points for line in lines), tiebreak_values(deck, turn), lines)
        )
    if table.escaped is not None:
        return _escape_result(table, entries)
    ranking = rank(entries, tiebreaks=TIEBREAKS)
    warnings = tuple(notes)
    if not table.final_turn_order and not notes:
        warnings = (_(NO_TURN_ORDER_WARNING),)
    # A tiebreaker that put tied players in order applies the reading it rests on: a
    # single card, or the turn order found by passing the Toad through the rounds.
    by_tiebreak: dict[str, Reading | None] = {
        PUMPKIN_TED_TIEBREAK: app.PUMPKIN_TED,
        QUEEN_TIEBREAK: app.QUEEN,
        LAST_TURN_TIEBREAK: app.TOAD if order_from_rounds else None,
    }
    applied = [by_tiebreak.get(label) for label in separating_tiebreaks(ranking.standings)]
    places = app.PLACES if ranking.places_by_tiebreak else None
    return Result(
        f.SLUG,
        ranking.standings,
        ranking.decided_by,
        finished,
        warnings,
        readings=unique_readings([*applied, places]),
    )


def separating_tiebreaks(standings: Sequence[Standing]) -> list[str]:
    """The labels of the tiebreakers that put players tied on VP in order, each once.

    >>> from companion.games.ranking import TiebreakValue as V
    >>> def s(name, score, *values):
    ...     tb = tuple(V(t.label, v) for t, v in zip(TIEBREAKS, values))
    ...     return Standing(name, score, 1, True, (), tb)
    >>> separating_tiebreaks([s("A", 9, 1, 1, 0, 0, 0, 0), s("B", 9, 1, 0, 1, 0, 0, 0),
    ...                       s("C", 4, 0, 0, 0, 0, 0, 0)])
    ['Has Pumpkin Ted']
    """
    labels: list[str] = []
    for first, second in pairwise(standings):
        if first.score != second.score:
            continue
        differing = (
            a.label for a, b in zip(first.tiebreak, second.tiebreak, strict=True) if a != b
        )
        label = next(differing, None)
        if label is not None and label not in labels:
            labels.append(label)
    return labels


NO_TURN_ORDER_WARNING = N_(
    "The last round's turn order is not entered, so the last tiebreaker (who took the "
    "last turn) cannot separate tied players."
)


def escape_words(player: str, by: f.Escape) -> str:
    """The sentence of an escape.

    >>> escape_words("Carol", f.Escape.THREE_SISTERS)
    'Carol escaped Oddtopia with the Three Sisters and wins at once; no VP are counted.'
    """
    return _(
        "%(player)s escaped Oddtopia with %(escape)s and wins at once; no VP are counted.",
        player=player,
        escape=_(f.ESCAPE_NAMES[by]),
    )


def _escape_result(table: Table, entries: list[Entry]) -> Result:
    """The escaper ranks 1 and everyone else shares rank 2; nobody scores VP."""
    assert table.escaped is not None
    player, by = table.escaped
    ordered = sorted(entries, key=lambda e: e.player != player)  # stable: seating after
    standings = tuple(
        Standing(
            player=entry.player,
            score=0,
            rank=1 if entry.player == player else 2,
            winner=entry.player == player,
            breakdown=(),
            tiebreak=tuple(
                TiebreakValue(t.label, v) for t, v in zip(TIEBREAKS, entry.tiebreak, strict=True)
            ),
        )
        for entry in ordered
    )
    words = escape_words(player, by)
    # With two players the other is simply second; with more, they share it.
    shared = len(standings) > 2
    return Result(
        f.SLUG,
        standings,
        by.value,
        True,
        extra={
            "escape": {"player": player, "by": by.value, "words": words},
            "decided_words": words,
        },
        readings=(app.ESCAPE_PLACES,) if shared else (),
    )
