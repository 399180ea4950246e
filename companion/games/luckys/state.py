"""Lucky's Misadventures request shapes and their validation (every problem at once).

A score state is the API's: the players in seating order, an optional escape, the last
round's turn order and each player's deck. The app adds, for its round companion, who
held the Feed the Toad! card before round 1 (``toad``) and the Fate cards revealed each
round (``rounds``); and two shorthands: a Junk entry may carry a ``count`` (that many
cards of that kind and value) and ``machines`` may be an object of counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pydantic

from companion.games.limits import STRICT, list_size, object_size, text_size, validate_model
from companion.games.luckys import facts as f
from companion.games.luckys import readings as app
from companion.games.luckys.supply import SINGLE_MAVEN_READINGS, shortages
from companion.games.names import (
    MAX_NAME_LENGTH,
    NAME_SIZE,
    Roster,
    hidden_character,
    hidden_character_message,
    name_problems,
    player_count_problems,
    players_size,
)
from companion.games.problems import InvalidStateError, Problem
from companion.games.readings import Reading
from companion.games.text import _, ngettext

RULE_PLAYERS = "luckys-misadventures/setup"
RULE_LUCKY = "luckys-misadventures/scoring/lucky"
RULE_HIRELINGS = "luckys-misadventures/scoring/hirelings"
RULE_MAVENS = "luckys-misadventures/scoring/mavens"
RULE_JUNK = "luckys-misadventures/scoring/junk"
RULE_MACHINES = "luckys-misadventures/scoring/machines"
RULE_COMPONENTS = "luckys-misadventures/components"
RULE_FATE = "luckys-misadventures/fate"
RULE_HALVES = "luckys-misadventures/halves"
RULE_ESCAPES = "luckys-misadventures/escapes"
RULE_TURN_ORDER = "luckys-misadventures/turn-order"
RULE_MACHINE_JUNK = "luckys-misadventures/trash"

MAX_MAVEN_ENTRIES = sum(f.MAVENS.values())
MAX_JUNK_ENTRIES = sum(copies for _name, copies in f.JUNK.values())
MAX_MACHINE_ENTRIES = sum(m.copies for m in f.MACHINES.values())
MAX_CARD_COUNT = 99


class MavenModel(pydantic.BaseModel):
    """A Maven as entered: its name, faction and printed VP."""

    model_config = STRICT

    name: str
    faction: str
    vp: int


class JunkModel(pydantic.BaseModel):
    """Junk cards of one kind and printed VP (``count`` of them, 1 by default)."""

    model_config = STRICT

    kind: str
    vp: int | None = None
    count: int = 1


class DeckModel(pydantic.BaseModel):
    """One player's deck at the end of the game (the cards that score)."""

    model_config = STRICT

    lucky: int = 0
    hirelings: dict[str, int] = {}
    mavens: list[MavenModel] = []
    junk: list[JunkModel] = []
    machines: list[str] | dict[str, int] = []


class EscapeModel(pydantic.BaseModel):
    """Who escaped Oddtopia, and how."""

    model_config = STRICT

    player: str
    by: str


class StateModel(pydantic.BaseModel):
    """A whole table at the end of the game (and, for the app, its rounds so far)."""

    model_config = STRICT

    players: list[str]
    escaped: EscapeModel | None = None
    final_turn_order: list[str] | None = None
    decks: dict[str, DeckModel] = {}
    toad: str | None = None
    rounds: list[list[str]] = []


DECK_SIZE = object_size(
    {
        "hirelings": object_size(),
        "mavens": list_size(
            MAX_MAVEN_ENTRIES,
            lambda n: _(
                "Only %(most)s Maven cards exist, but %(count)s were entered.",
                most=MAX_MAVEN_ENTRIES,
                count=n,
            ),
            object_size({"name": text_size(), "faction": text_size()}),
        ),
        "junk": list_size(
            MAX_JUNK_ENTRIES,
            lambda n: _(
                "Only %(most)s Junk cards exist, but %(count)s entries were given.",
                most=MAX_JUNK_ENTRIES,
                count=n,
            ),
            object_size({"kind": text_size()}),
        ),
        "machines": list_size(
            MAX_MACHINE_ENTRIES,
            lambda n: _(
                "Only %(most)s Machine cards exist, but %(count)s were entered.",
                most=MAX_MACHINE_ENTRIES,
                count=n,
            ),
            text_size(),
        ),
    }
)


def fate_count_message(count: int) -> str:
    """A round with more or fewer than its 3 Fate cards.

    >>> fate_count_message(4)
    'A round reveals 3 Fate cards, not 4.'
    """
    return _(
        "A round reveals %(most)s Fate cards, not %(count)s.", most=f.FATE_PER_ROUND, count=count
    )


ROUNDS_SIZE = list_size(
    f.ROUNDS,
    lambda n: _("A game has at most %(most)s rounds, not %(count)s.", most=f.ROUNDS, count=n),
    list_size(f.FATE_PER_ROUND, fate_count_message, text_size()),
)
STATE_SIZE = object_size(
    {
        "players": players_size(f.MIN_PLAYERS, f.MAX_PLAYERS, reading=app.PLAYERS.text),
        "final_turn_order": players_size(f.MIN_PLAYERS, f.MAX_PLAYERS),
        "decks": object_size(each=DECK_SIZE),
        "toad": NAME_SIZE,
        "rounds": ROUNDS_SIZE,
        "escaped": object_size({"player": NAME_SIZE, "by": text_size()}),
    }
)


@dataclass(frozen=True)
class Maven:
    """A validated Maven."""

    name: str
    faction: f.Faction
    vp: int

    @property
    def key(self) -> str:
        """Its name as the tiebreakers and escapes look it up (see :func:`f.maven_key`)."""
        return f.maven_key(self.name)


@dataclass(frozen=True)
class Deck:
    """A validated deck: counts per kind, and the Mavens."""

    lucky: int = 0
    hirelings: Mapping[str, int] = field(default_factory=dict)
    mavens: tuple[Maven, ...] = ()
    #: (kind, printed VP) -> cards.
    junk: Mapping[tuple[str, int], int] = field(default_factory=dict)
    machines: Mapping[str, int] = field(default_factory=dict)

    def has_maven(self, key: str) -> bool:
        """Whether a Maven of this name (case-insensitive) is in the deck."""
        return any(m.key == key for m in self.mavens)


@dataclass(frozen=True)
class Table:
    """A validated table: players in seating order, decks, escape, turn order, rounds."""

    players: tuple[str, ...]
    decks: Mapping[str, Deck]
    escaped: tuple[str, f.Escape] | None
    final_turn_order: tuple[str, ...]
    toad: str | None
    rounds: tuple[tuple[str, ...], ...]


def machine_counts(machines: Sequence[str] | Mapping[str, int]) -> list[tuple[str, int, str]]:
    """(machine key, cards, path suffix) of a list or object of Machines.

    >>> machine_counts(["tiny-tin", "tiny-tin"])
    [('tiny-tin', 1, '[0]'), ('tiny-tin', 1, '[1]')]
    >>> machine_counts({"tiny-tin": 2})
    [('tiny-tin', 2, '.tiny-tin')]
    """
    if isinstance(machines, Mapping):
        return [(key, count, f".{key}") for key, count in machines.items()]
    return [(key, 1, f"[{index}]") for index, key in enumerate(machines)]


class _Checker:
    """Collects every problem of a state while reading it."""

    def __init__(self, model: StateModel) -> None:
        self.model = model
        self.problems: list[Problem] = []
        self.roster = Roster.of(model.players)

    def add(
        self, path: str, message: str, rule: str | None = None, reading: Reading | None = None
    ) -> None:
        """A problem; one resting on the app's reading says that reading after it."""
        self.problems.append(Problem(path, app.said(message, reading), rule=rule, reading=reading))

    def player(self, path: str, name: str) -> str | None:
        """The seated player a name refers to, else a problem."""
        found = self.roster.find(name)
        if found is None:
            self.add(path, _('"%(name)s" is not a player of this game.', name=name.strip()))
        return found


def parse(state: object) -> Table:
    """Validate a state; raises :class:`InvalidStateError` with every problem."""
    model = validate_model(StateModel, state, STATE_SIZE)
    check = _Checker(model)
    count = len(model.players)
    for problem in player_count_problems(count, minimum=f.MIN_PLAYERS, maximum=f.MAX_PLAYERS):
        check.add(problem.path, problem.message, RULE_PLAYERS, app.PLAYERS)
    check.problems += name_problems(model.players, path=lambda i: f"players[{i}]")
    decks = _decks(check)
    _totals(check, decks)
    escaped = _escape(check)
    _escape_card_problems(check, escaped, decks)
    order = _turn_order(check)
    toad = check.player("toad", model.toad) if model.toad is not None else None
    rounds = _rounds(check)
    if check.problems:
        raise InvalidStateError(check.problems)
    players = check.roster.names
    return Table(
        players=players,
        decks={name: decks.get(name, Deck()) for name in players},
        escaped=escaped,
        final_turn_order=order,
        toad=toad,
        rounds=rounds,
    )


def _decks(check: _Checker) -> dict[str, Deck]:
    decks: dict[str, Deck] = {}
    for key, deck in check.model.decks.items():
        where = f"decks.{key}"
        name = check.player(where, key)
        if name is not None and name in decks:
            check.add(where, _("%(player)s's deck was entered twice.", player=name))
        elif name is not None:
            decks[name] = _deck(check, where, deck)
    return decks


def _count(check: _Checker, where: str, count: int, cards: str) -> int:
    """A number of ``cards`` (their name, in the reader's language: "Tiny Tin cards") in
    one deck, or 0 with a problem."""
    if count < 0:
        check.add(where, _("A number of %(cards)s cannot be negative.", cards=cards))
        return 0
    if count > MAX_CARD_COUNT:
        check.add(
            where,
            _("%(count)s %(cards)s cannot be in one deck.", count=count, cards=cards),
            RULE_COMPONENTS,
        )
        return 0
    return count


def _cards(name: str) -> str:
    """Cards of one kind by its name (English, translated here): "Tiny Tin cards"."""
    # TRANSLATORS: cards of one kind, by the kind's name: "Tiny Tin cards".
    return _("%(card)s cards", card=_(name))


def _deck(check: _Checker, where: str, deck: DeckModel) -> Deck:
    lucky = _count(check, f"{where}.lucky", deck.lucky, _("Lucky cards"))
    if lucky > 1:
        check.add(
            f"{where}.lucky",
            _("Each player has one Lucky card, not %(count)s.", count=lucky),
            RULE_LUCKY,
            app.ONE_LUCKY,
        )
        lucky = 0
    hirelings: dict[str, int] = {}
    for kind, count in deck.hirelings.items():
        path = f"{where}.hirelings.{kind}"
        if kind not in f.HIRELINGS:
            check.add(
                path,
                _(
                    '"%(kind)s" is not a Hireling (Winged Monkey, Clockmakers, White Rabbit).',
                    kind=kind,
                ),
            )
        else:
            hirelings[kind] = _count(check, path, count, _cards(f.HIRELINGS[kind][0]))
    mavens = tuple(
        maven
        for index, entry in enumerate(deck.mavens)
        if (maven := _maven(check, f"{where}.mavens[{index}]", entry)) is not None
    )
    junk: Counter[tuple[str, int]] = Counter()
    for index, item in enumerate(deck.junk):
        parsed = _junk(check, f"{where}.junk[{index}]", item)
        if parsed is not None:
            junk[parsed[0]] += parsed[1]
    machines: Counter[str] = Counter()
    for key, count, suffix in machine_counts(deck.machines):
        path = f"{where}.machines{suffix}"
        if key not in f.MACHINES:
            check.add(
                path,
                _('"%(key)s" is not a Machine of the Machine Matrix.', key=key),
                RULE_MACHINES,
            )
        else:
            machines[key] += _count(check, path, count, _cards(f.MACHINES[key].name))
    return Deck(lucky, hirelings, mavens, dict(junk), dict(machines))


def _maven(check: _Checker, where: str, entry: MavenModel) -> Maven | None:
    ok = True
    name = entry.name.strip()
    hidden = hidden_character(entry.name)
    if not name:
        check.add(f"{where}.name", _("A Maven needs its name."), RULE_MAVENS)
        ok = False
    elif len(name) > MAX_NAME_LENGTH:
        check.add(
            f"{where}.name",
            _("Maven names have at most %(most)s characters.", most=MAX_NAME_LENGTH),
        )
        ok = False
    elif hidden is not None:
        check.add(f"{where}.name", hidden_character_message(hidden, subject="Names"))
        ok = False
    if entry.faction not in set(f.Faction):
        check.add(
            f"{where}.faction", _("A Maven is a Tinkerer, a Wicked or an Oddling."), RULE_MAVENS
        )
        ok = False
    elif f.maven_key(name) in f.THREE_SISTERS and entry.faction != f.SISTERS_FACTION:
        check.add(
            f"{where}.faction",
            _(
                "%(sister)s is one of the Three Sisters, and the Sister Pact symbol that marks"
                " them is part of a Wicked card: enter her as Wicked, not %(faction)s.",
                sister=_(f.MAVEN_NAMES[f.maven_key(name)]),
                faction=_(f.FACTION_NAMES[f.Faction(entry.faction)]),
            ),
            RULE_ESCAPES,
        )
        ok = False
    if entry.vp not in f.MAVEN_VP_RANGE:
        check.add(
            f"{where}.vp",
            _("A Maven is worth 2 to 6 VP, not %(vp)s.", vp=entry.vp),
            RULE_MAVENS,
        )
        ok = False
    return Maven(" ".join(name.split()), f.Faction(entry.faction), entry.vp) if ok else None


def _junk(check: _Checker, where: str, item: JunkModel) -> tuple[tuple[str, int], int] | None:
    if item.kind not in f.JUNK:
        check.add(f"{where}.kind", not_junk_message(item.kind), RULE_JUNK)
        return None
    name = f.JUNK[item.kind][0]
    vp = item.vp
    if vp is None and item.kind == f.JunkKind.CLOCKWORK_GIZMO:
        vp = f.GIZMO_VP
    if vp is None:
        check.add(
            f"{where}.vp", _("Enter the VP printed on the %(junk)s.", junk=_(name)), RULE_JUNK
        )
        return None
    if item.kind == f.JunkKind.CLOCKWORK_GIZMO and vp != f.GIZMO_VP:
        check.add(
            f"{where}.vp",
            _("A Clockwork Gizmo is worth %(worth)s VP, not %(vp)s.", worth=f.GIZMO_VP, vp=vp),
            RULE_JUNK,
            app.JUNK_VP,
        )
        return None
    if vp not in f.JUNK_VP_RANGE:
        check.add(
            f"{where}.vp",
            _("A Junk card is worth 0 to 9 VP, not %(vp)s.", vp=vp),
            RULE_JUNK,
            app.JUNK_VP,
        )
        return None
    count = _count(check, f"{where}.count", item.count, _cards(name))
    return (item.kind, vp), count


def not_junk_message(kind: str) -> str:
    """An unknown kind of Junk.

    >>> not_junk_message("spring")
    '"spring" is not a kind of Junk.'
    """
    return _('"%(kind)s" is not a kind of Junk.', kind=kind)


def too_many_message(copies: int, name: str, total: int) -> str:
    """More cards of one kind (``name``: English, translated here) entered than exist.

    >>> too_many_message(8, "Winged Monkey", 9)
    'Only 8 Winged Monkey cards exist, but 9 were entered.'
    """
    return _(
        "Only %(copies)s %(card)s cards exist, but %(total)s were entered.",
        copies=copies,
        card=_(name),
        total=total,
    )


def _totals(check: _Checker, decks: Mapping[str, Deck]) -> None:
    """Over all players, no kind can have more cards than the box holds."""
    hirelings: Counter[str] = Counter()
    junk: Counter[str] = Counter()
    machines: Counter[str] = Counter()
    mavens: Counter[f.Faction] = Counter()
    for deck in decks.values():
        hirelings.update(deck.hirelings)
        for (kind, _vp), count in deck.junk.items():
            junk[kind] += count
        machines.update(deck.machines)
        mavens.update(m.faction for m in deck.mavens)
    for kind, total in hirelings.items():
        name, _faction, copies = f.HIRELINGS[kind]
        if total > copies:
            check.add("decks", too_many_message(copies, name, total), RULE_COMPONENTS)
    trashed = f.junk_trashed(machines)
    for kind, (name, copies) in f.JUNK.items():
        total, gone = junk[kind], trashed[kind]
        if total > copies and not gone:
            check.add("decks", too_many_message(copies, name, total), RULE_COMPONENTS)
        elif total + gone > copies:
            check.add(
                "decks",
                _(
                    "Only %(copies)s %(junk)s cards exist: the Machines entered took %(gone)s"
                    " to build (trashed Junk is gone from the game), and the decks hold"
                    " %(total)s more.",
                    copies=copies,
                    junk=_(name),
                    gone=gone,
                    total=total,
                ),
                RULE_MACHINE_JUNK,
            )
    for key, total in machines.items():
        machine = f.MACHINES[key]
        if total > machine.copies:
            check.add(
                "decks",
                ngettext(
                    "Only %(num)s %(machine)s card exists, but %(total)s were entered.",
                    "Only %(num)s %(machine)s cards exist, but %(total)s were entered.",
                    machine.copies,
                    machine=_(machine.name),
                    total=total,
                ),
                RULE_COMPONENTS,
            )
    _named_maven_problems(check, decks)
    for faction, total in mavens.items():
        copies = f.MAVENS[faction]
        if total > copies:
            check.add(
                "decks",
                _(
                    "Only %(copies)s %(faction)s Mavens exist, not %(total)s.",
                    copies=copies,
                    faction=_(f.FACTION_NAMES[faction]),
                    total=total,
                ),
                RULE_COMPONENTS,
            )


def _named_maven_problems(check: _Checker, decks: Mapping[str, Deck]) -> None:
    """A Maven the rulebook names as one card (Pumpkin Ted, the Queen of Spades, each
    Sister) in two decks, or twice in one."""
    for key in f.NAMED_MAVENS:
        holders = [
            name for name, deck in decks.items() for maven in deck.mavens if maven.key == key
        ]
        if len(holders) > 1:
            check.add(
                "decks",
                one_card_twice_message(_(f.MAVEN_NAMES[key]), holders),
                RULE_COMPONENTS,
                SINGLE_MAVEN_READINGS[key],
            )


def one_card_twice_message(card: str, holders: Sequence[str]) -> str:
    """A card that exists once, entered for two players or twice for one.

    >>> one_card_twice_message("Greed", ["Ann", "Ann"])
    'There is one Greed card, but it is entered for Ann twice.'
    >>> one_card_twice_message("Greed", ["Ann", "Ben", "Cy"])
    'There is one Greed card, but it is entered for Ann and Ben and Cy.'
    """
    if len(set(holders)) == 1:
        return _(
            "There is one %(card)s card, but it is entered for %(player)s twice.",
            card=card,
            player=holders[0],
        )
    whom = holders[0]
    for holder in holders[1:]:
        # Each one more "and" (not the commas of a spoken list): "Ann and Ben and Cy".
        whom = _("%(items)s and %(last)s", items=whom, last=holder)
    return _(
        "There is one %(card)s card, but it is entered for %(players)s.", card=card, players=whom
    )


def _escape_card_problems(
    check: _Checker, escaped: tuple[str, f.Escape] | None, decks: Mapping[str, Deck]
) -> None:
    """An escape needing a card in the escaper's play that cannot be there: every copy is
    in other decks, or (Junk, Machines) trashed or used up to build the Machines entered."""
    if escaped is None:
        return
    player, by = escaped
    needs = f.ESCAPE_CARDS[by]
    for index, short in shortages(decks, player, needs):
        check.add(
            "escaped",
            # TRANSLATORS: the reason ends the sentence ("all 4 Fate Clock cards are in other
            # decks (Carol 4)").
            _(
                "%(player)s cannot escape with %(escape)s: it needs %(card)s in %(player)s's"
                " play, but %(reason)s.",
                player=player,
                escape=_(f.ESCAPE_NAMES[by]),
                card=_(needs[index].one),
                reason=short.reason,
            ),
            RULE_ESCAPES,
            short.reading,
        )


def _escape(check: _Checker) -> tuple[str, f.Escape] | None:
    escaped = check.model.escaped
    if escaped is None:
        return None
    player = check.player("escaped.player", escaped.player)
    if escaped.by not in set(f.Escape):
        check.add(
            "escaped.by",
            # TRANSLATORS: the ways out are keys to type, left in English.
            _("An escape is by the time-machine, the three-sisters or pumpkin-ted."),
            RULE_ESCAPES,
        )
        return None
    return (player, f.Escape(escaped.by)) if player is not None else None


def _turn_order(check: _Checker) -> tuple[str, ...]:
    order = check.model.final_turn_order
    if order is None:
        return ()  # not known: the last tiebreaker cannot separate anyone
    names = []
    known = True
    for index, name in enumerate(order):
        found = check.player(f"final_turn_order[{index}]", name)
        if found is not None:
            names.append(found)
        known = known and found is not None
    seats = list(check.roster.names)
    if known and sorted(names) != sorted(seats):
        check.add(
            "final_turn_order",
            _("The last round's turn order names every player exactly once."),
            RULE_TURN_ORDER,
        )
    elif known and names:
        first = seats.index(names[0])
        if names != seats[first:] + seats[:first]:
            check.add(
                "final_turn_order",
                _(
                    "Players act clockwise from who holds the Feed the Toad! card, so a turn"
                    " order is the seating order starting from that player; starting from"
                    " %(first)s it is %(order)s.",
                    first=names[0],
                    order=", ".join(seats[first:] + seats[:first]),
                ),
                RULE_TURN_ORDER,
            )
    return tuple(names)


def _rounds(check: _Checker) -> tuple[tuple[str, ...], ...]:
    rounds = check.model.rounds
    seen_in_half: dict[str, int] = {}
    for number, cards in enumerate(rounds, 1):
        where = f"rounds[{number - 1}]"
        if len(cards) < f.FATE_PER_ROUND and number < len(rounds):
            check.add(
                where,
                _("Round %(number)s needs its 3 Fate cards before the next round.", number=number),
                RULE_FATE,
            )
        if number == f.ROUNDS_PER_HALF + 1:
            seen_in_half = {}  # the Fate deck is shuffled again for the second half
        in_round: set[str] = set()
        for index, code in enumerate(cards):
            path = f"{where}[{index}]"
            if code not in f.FATE:
                check.add(path, not_fate_message(code), RULE_FATE)
            elif code in in_round:
                check.add(
                    path,
                    _(
                        "The %(card)s was entered twice in round %(number)s.",
                        card=f.fate_name(code),
                        number=number,
                    ),
                    RULE_FATE,
                )
            elif code in seen_in_half:
                check.add(
                    path,
                    _(
                        "The %(card)s already came up in round %(number)s; each Fate card comes"
                        " up once per half.",
                        card=f.fate_name(code),
                        number=seen_in_half[code],
                    ),
                    RULE_HALVES,
                )
            in_round.add(code)
            seen_in_half.setdefault(code, number)
    return tuple(tuple(cards) for cards in rounds)


def not_fate_message(code: str) -> str:
    """An unknown Fate card code.

    >>> not_fate_message("joker")
    '"joker" is not a Fate card.'
    """
    return _('"%(code)s" is not a Fate card.', code=code)
