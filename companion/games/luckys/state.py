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
MAX_JUNK_ENTRIES = sum(copies for _, copies in f.JUNK.values())
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
            lambda n: f"Only {MAX_MAVEN_ENTRIES} Maven cards exist, but {n} were entered.",
            object_size({"name": text_size(), "faction": text_size()}),
        ),
        "junk": list_size(
            MAX_JUNK_ENTRIES,
            lambda n: f"Only {MAX_JUNK_ENTRIES} Junk cards exist, but {n} entries were given.",
            object_size({"kind": text_size()}),
        ),
        "machines": list_size(
            MAX_MACHINE_ENTRIES,
            lambda n: f"Only {MAX_MACHINE_ENTRIES} Machine cards exist, but {n} were entered.",
            text_size(),
        ),
    }
)
ROUNDS_SIZE = list_size(
    f.ROUNDS,
    lambda n: f"A game has at most {f.ROUNDS} rounds, not {n}.",
    list_size(
        f.FATE_PER_ROUND,
        lambda n: f"A round reveals {f.FATE_PER_ROUND} Fate cards, not {n}.",
        text_size(),
    ),
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
        self.problems.append(
            Problem(path, message + app.said(reading), rule=rule, reading=reading)
        )

    def player(self, path: str, name: str) -> str | None:
        """The seated player a name refers to, else a problem."""
        found = self.roster.find(name)
        if found is None:
            self.add(path, f'"{name.strip()}" is not a player of this game.')
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
            check.add(where, f"{name}'s deck was entered twice.")
        elif name is not None:
            decks[name] = _deck(check, where, deck)
    return decks


def _count(check: _Checker, where: str, count: int, what: str) -> int:
    if count < 0:
        check.add(where, f"A number of {what} cannot be negative.")
        return 0
    if count > MAX_CARD_COUNT:
        check.add(where, f"{count} {what} cannot be in one deck.", RULE_COMPONENTS)
        return 0
    return count


def _deck(check: _Checker, where: str, deck: DeckModel) -> Deck:
    lucky = _count(check, f"{where}.lucky", deck.lucky, "Lucky cards")
    if lucky > 1:
        check.add(
            f"{where}.lucky",
            f"Each player has one Lucky card, not {lucky}.",
            RULE_LUCKY,
            app.ONE_LUCKY,
        )
        lucky = 0
    hirelings: dict[str, int] = {}
    for kind, count in deck.hirelings.items():
        path = f"{where}.hirelings.{kind}"
        if kind not in f.HIRELINGS:
            check.add(
                path, f'"{kind}" is not a Hireling (Winged Monkey, Clockmakers, White Rabbit).'
            )
        else:
            hirelings[kind] = _count(check, path, count, f"{f.HIRELINGS[kind][0]} cards")
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
            check.add(path, f'"{key}" is not a Machine of the Machine Matrix.', RULE_MACHINES)
        else:
            machines[key] += _count(check, path, count, f"{f.MACHINES[key].name} cards")
    return Deck(lucky, hirelings, mavens, dict(junk), dict(machines))


def _maven(check: _Checker, where: str, entry: MavenModel) -> Maven | None:
    ok = True
    name = entry.name.strip()
    hidden = hidden_character(entry.name)
    if not name:
        check.add(f"{where}.name", "A Maven needs its name.", RULE_MAVENS)
        ok = False
    elif len(name) > MAX_NAME_LENGTH:
        check.add(f"{where}.name", f"Maven names have at most {MAX_NAME_LENGTH} characters.")
        ok = False
    elif hidden is not None:
        check.add(f"{where}.name", hidden_character_message(hidden, subject="Names"))
        ok = False
    if entry.faction not in set(f.Faction):
        check.add(
            f"{where}.faction", "A Maven is a Tinkerer, a Wicked or an Oddling.", RULE_MAVENS
        )
        ok = False
    elif f.maven_key(name) in f.THREE_SISTERS and entry.faction != f.SISTERS_FACTION:
        check.add(
            f"{where}.faction",
            f"{f.maven_key(name).title()} is one of the Three Sisters, and the Sister Pact"
            f" symbol that marks them is part of a Wicked card: enter her as Wicked, not"
            f" {f.FACTION_NAMES[f.Faction(entry.faction)]}.",
            RULE_ESCAPES,
        )
        ok = False
    if entry.vp not in f.MAVEN_VP_RANGE:
        check.add(
            f"{where}.vp",
            f"A Maven is worth 2 to 6 VP, not {entry.vp}.",
            RULE_MAVENS,
        )
        ok = False
    return Maven(" ".join(name.split()), f.Faction(entry.faction), entry.vp) if ok else None


def _junk(check: _Checker, where: str, item: JunkModel) -> tuple[tuple[str, int], int] | None:
    if item.kind not in f.JUNK:
        check.add(f"{where}.kind", f'"{item.kind}" is not a kind of Junk.', RULE_JUNK)
        return None
    name = f.junk_name(item.kind)
    vp = item.vp
    if vp is None and item.kind == f.JunkKind.CLOCKWORK_GIZMO:
        vp = f.GIZMO_VP
    if vp is None:
        check.add(f"{where}.vp", f"Enter the VP printed on the {name}.", RULE_JUNK)
        return None
    if item.kind == f.JunkKind.CLOCKWORK_GIZMO and vp != f.GIZMO_VP:
        check.add(
            f"{where}.vp",
            f"A Clockwork Gizmo is worth {f.GIZMO_VP} VP, not {vp}.",
            RULE_JUNK,
            app.JUNK_VP,
        )
        return None
    if vp not in f.JUNK_VP_RANGE:
        check.add(
            f"{where}.vp", f"A Junk card is worth 0 to 9 VP, not {vp}.", RULE_JUNK, app.JUNK_VP
        )
        return None
    count = _count(check, f"{where}.count", item.count, f"{name} cards")
    return (item.kind, vp), count


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
            check.add(
                "decks",
                f"Only {copies} {name} cards exist, but {total} were entered.",
                RULE_COMPONENTS,
            )
    trashed = f.junk_trashed(machines)
    for kind, (name, copies) in f.JUNK.items():
        total, gone = junk[kind], trashed[kind]
        if total > copies and not gone:
            check.add(
                "decks",
                f"Only {copies} {name} cards exist, but {total} were entered.",
                RULE_COMPONENTS,
            )
        elif total + gone > copies:
            check.add(
                "decks",
                f"Only {copies} {name} cards exist: the Machines entered took {gone} to build"
                f" (trashed Junk is gone from the game), and the decks hold {total} more.",
                RULE_MACHINE_JUNK,
            )
    for key, total in machines.items():
        machine = f.MACHINES[key]
        if total > machine.copies:
            many = "card exists" if machine.copies == 1 else "cards exist"
            check.add(
                "decks",
                f"Only {machine.copies} {machine.name} {many}, but {total} were entered.",
                RULE_COMPONENTS,
            )
    _named_maven_problems(check, decks)
    for faction, total in mavens.items():
        copies = f.MAVENS[faction]
        if total > copies:
            check.add(
                "decks",
                f"Only {copies} {f.FACTION_NAMES[faction]} Mavens exist, not {total}.",
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
            whom = f"{holders[0]} twice" if len(set(holders)) == 1 else " and ".join(holders)
            check.add(
                "decks",
                f"There is one {key.title().replace(' Of ', ' of ')} card, but it is entered"
                f" for {whom}.",
                RULE_COMPONENTS,
                SINGLE_MAVEN_READINGS[key],
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
            f"{player} cannot escape with {f.ESCAPE_NAMES[by]}: it needs {needs[index].one} in"
            f" {player}'s play, but {short.reason}.",
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
            "An escape is by the time-machine, the three-sisters or pumpkin-ted.",
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
            "The last round's turn order names every player exactly once.",
            RULE_TURN_ORDER,
        )
    elif known and names:
        first = seats.index(names[0])
        if names != seats[first:] + seats[:first]:
            check.add(
                "final_turn_order",
                f"Players act clockwise from who holds the Feed the Toad! card, so a turn"
                f" order is the seating order starting from that player; starting from"
                f" {names[0]} it is {', '.join(seats[first:] + seats[:first])}.",
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
                where, f"Round {number} needs its 3 Fate cards before the next round.", RULE_FATE
            )
        if number == f.ROUNDS_PER_HALF + 1:
            seen_in_half = {}  # the Fate deck is shuffled again for the second half
        in_round: set[str] = set()
        for index, code in enumerate(cards):
            path = f"{where}[{index}]"
            if code not in f.FATE:
                check.add(path, f'"{code}" is not a Fate card.', RULE_FATE)
            elif code in in_round:
                check.add(
                    path,
                    f"The {f.FATE[code].name} was entered twice in round {number}.",
                    RULE_FATE,
                )
            elif code in seen_in_half:
                check.add(
                    path,
                    f"The {f.FATE[code].name} already came up in round {seen_in_half[code]}; "
                    "each Fate card comes up once per half.",
                    RULE_HALVES,
                )
            in_round.add(code)
            seen_in_half.setdefault(code, number)
    return tuple(tuple(cards) for cards in rounds)
