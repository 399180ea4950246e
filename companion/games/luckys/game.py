"""The registered Lucky's Misadventures engine: validation, scoring, edits, endpoints."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games import schemas
from companion.games.base import ApiDescription, Game
from companion.games.limits import problems_of, whole_number
from companion.games.luckys import facts as f
from companion.games.luckys import readings as app
from companion.games.luckys import referee
from companion.games.luckys.scoring import TIEBREAKS, escape_words, score_table
from companion.games.luckys.state import StateModel, Table, parse
from companion.games.problems import InvalidStateError, Problem, path_of
from companion.games.ranking import Result
from companion.games.text import N_, _

REFUSED = N_("This cannot be changed here.")


def finished(table: Table) -> bool:
    """Over when someone escaped, or when the round companion holds all 14 rounds (the
    app cannot see the Fate deck run out a second time otherwise)."""
    if table.escaped is not None:
        return True
    return len(table.rounds) == f.ROUNDS and len(table.rounds[-1]) == f.FATE_PER_ROUND


NO_TOAD_WARNING = N_(
    "Who held the Feed the Toad! card before round 1 is not entered, so the turn order is"
    " not known and the last tiebreaker (who took the last turn) cannot separate tied"
    " players; the app does not assume the first seat."
)
NOT_OVER_WARNING = N_(
    "The last round is not played yet, so the last tiebreaker (who takes the last turn)"
    " cannot separate tied players yet."
)


def _contradicting_rounds(table: Table) -> list[str]:
    """A warning when the entered last turn order is not the one the entered rounds give
    (the Feed the Toad! card followed from its first holder through all 14 rounds)."""
    if table.toad is None or not finished(table) or table.escaped is not None:
        return []
    followed = referee.last_turn_order(table.players, table.toad, table.rounds)
    if not table.final_turn_order or followed == table.final_turn_order:
        return []
    return [
        _(
            "The last round's turn order entered starts with %(entered)s, but following the"
            " Feed the Toad! card through the rounds entered, %(holder)s held it in the last"
            " round; the entered order decides the last tiebreaker.",
            entered=table.final_turn_order[0],
            holder=followed[0],
        )
    ]


def score(state: object) -> Result:
    """Score a state; the last round's turn order comes from the companion when it is
    not given, and only once the last round is played and the first Toad holder known
    (the app never assumes the first seat held it)."""
    table = parse(state)
    given = isinstance(state, Mapping) and state.get("final_turn_order") is not None
    notes: list[str] = []
    order: tuple[str, ...] = ()
    if given:
        notes += _contradicting_rounds(table)
    elif table.rounds:
        if table.toad is None:
            notes.append(_(NO_TOAD_WARNING))
        elif not finished(table):
            notes.append(_(NOT_OVER_WARNING))
        else:
            order = referee.last_turn_order(table.players, table.toad, table.rounds)
        table = Table(table.players, table.decks, table.escaped, order, table.toad, table.rounds)
    return score_table(table, finished=finished(table), notes=notes, order_from_rounds=bool(order))


class Luckys(Game):
    """The Lucky's Misadventures engine, registered under ``luckys-misadventures``."""

    slug = f.SLUG
    name = f.NAME
    min_players = f.MIN_PLAYERS
    max_players = f.MAX_PLAYERS
    engine_version = 3
    tiebreaks = TIEBREAKS
    player_count_reading = app.PLAYERS.text
    readings = app.ALL

    def validate(self, state: object) -> list[Problem]:
        """Every problem with a state; empty when it can be scored."""
        return problems_of(parse, state)

    def score(self, state: object) -> Result:
        """Score a table (see :mod:`companion.games.luckys.scoring`)."""
        return score(state)

    def over_words(self, result: Mapping[str, Any]) -> str:
        """An escape, or the end of round 14 (or a tally entered without rounds). An escape
        is said again from who and how (a stored result's words are English).

        >>> GAME.over_words({"escape": {"player": "Carol", "by": "three-sisters"}})
        'Carol escaped Oddtopia with the Three Sisters and wins at once; no VP are counted.'
        """
        escape = result.get("escape")
        if isinstance(escape, Mapping):
            by = escape.get("by")
            if by in set(f.Escape):
                return escape_words(str(escape.get("player")), f.Escape(str(by)))
            return _("Someone escaped: the game is over.")
        return _("All %(rounds)s rounds are played: the game is over.", rounds=f.ROUNDS)

    def going_on_words(self, _result: Mapping[str, Any]) -> str:
        """Fewer than 14 rounds are in the round companion, and nobody escaped."""
        # TRANSLATORS: why the game is not over yet, inside a question to finish it.
        return _(
            "nobody escaped and the round companion does not hold all %(rounds)s rounds yet",
            rounds=f.ROUNDS,
        )

    def new_state(self, players: Sequence[str], _options: Mapping[str, Any]) -> dict[str, Any]:
        """Every player starts with Lucky; the first player holds the Feed the Toad! card."""
        return {
            "players": list(players),
            "escaped": None,
            "final_turn_order": None,
            "toad": players[0] if players else None,
            "rounds": [],
            "decks": {name: new_deck() for name in players},
        }

    def parse_edit(self, path: Sequence[str | int], raw: str) -> object:
        """A count of one kind of card in a deck, a Maven's or Junk's VP, the Toad's holder
        or one Fate card."""
        where = path_of(path)
        match list(path):
            case ["decks", str(), "lucky"]:
                return whole_number(where, raw, minimum=0, maximum=1, unit="Lucky cards")
            case ["decks", str(), "hirelings", str(kind)] if kind in f.HIRELINGS:
                most = f.HIRELINGS[kind][2]
                return whole_number(where, raw, minimum=0, maximum=most, unit="cards")
            case ["decks", str(), "machines", str(key)] if key in f.MACHINES:
                most = f.MACHINES[key].copies
                return whole_number(where, raw, minimum=0, maximum=most, unit="cards")
            case ["decks", str(), "junk", int(), "count"]:
                most = max(copies for _name, copies in f.JUNK.values())
                return whole_number(where, raw, minimum=0, maximum=most, unit="cards")
            case ["decks", str(), "junk", int(), "vp"]:
                most = max(f.JUNK_VP_RANGE)
                return whole_number(where, raw, minimum=0, maximum=most, unit="VP")
            case ["decks", str(), "mavens", int(), "vp"]:
                return whole_number(where, raw, minimum=2, maximum=6, unit="VP")
            case ["rounds", int(), int()]:
                code = raw.strip()
                if code in f.FATE:
                    return code
                raise InvalidStateError([Problem(where, _("Pick one of the 24 Fate cards."))])
            case ["toad"]:
                return raw.strip()
        raise InvalidStateError([Problem(where, _(REFUSED))])

    def describe_path(self, state: Mapping[str, Any], path: Sequence[str | int]) -> str:
        """A field's name for people: "Lewis's Tiny Tin", "round 3's Fate cards"."""
        match list(path):
            case ["decks", str(name)]:
                return _("%(player)s's deck", player=name)
            case ["decks", str(name), "lucky"]:
                return _owned(name, _("Lucky"))
            case ["decks", str(name), "hirelings", str(kind)] if kind in f.HIRELINGS:
                return _owned(name, _(f.HIRELINGS[kind][0]))
            case ["decks", str(name), "machines", str(key)] if key in f.MACHINES:
                return _owned(name, _(f.MACHINES[key].name))
            case ["decks", str(name), "junk", int(index), *_]:
                return _owned(name, _junk_label(state, name, index))
            case ["decks", str(name), "mavens", int(index), *_]:
                return _owned(name, _maven_label(state, name, index))
            case ["decks"]:
                return _("the decks")
            case ["rounds"]:
                return _("the Fate cards")
            case ["rounds", int(index), *_]:
                return _("round %(number)s's Fate cards", number=index + 1)
            case ["toad"]:
                return _("the Feed the Toad! card")
            case ["final_turn_order", *_]:
                return _("the last round's turn order")
            case ["escaped", *_]:
                # TRANSLATORS: who escaped Oddtopia, and how (a field of the play).
                return _("the escape")
        # TRANSLATORS: a change that is about the whole game.
        return path_of(path) or _("the game")

    def display_value(self, _path: Sequence[str | int], value: Any) -> str:
        """Fate cards and Machines by name; everything else as it is."""
        if isinstance(value, str) and value in f.FATE:
            return f.fate_name(value)
        if value is None:
            return _("none")
        return str(value)

    def describe_change(
        self, _state: Mapping[str, Any], path: Sequence[str | int], previous: Any, value: Any
    ) -> str | None:
        """Whole-deck and whole-rounds edits in words: what changed inside them."""
        if list(path) == ["decks"] and isinstance(previous, dict) and isinstance(value, dict):
            return deck_changes(previous, value) or _("the decks: no change")
        if list(path) == ["rounds"] and isinstance(previous, list) and isinstance(value, list):
            return rounds_change(previous, value)
        if list(path) == ["escaped"]:
            return escape_change(value)
        if list(path) == ["final_turn_order"]:
            # TRANSLATORS: the last round's turn order: not entered.
            order = _("not entered") if not isinstance(value, list) else ", ".join(map(str, value))
            return _("The last round's turn order: %(order)s", order=order)
        return None

    def api_endpoints(self) -> dict[str, Callable[[object], dict[str, Any]]]:
        """The JSON endpoints of this game: name -> handler of a parsed body."""
        return {
            "score": lambda body: self.checked_score(body).to_json(),
            "challenge": referee.challenge_endpoint,
            "feed-the-toad": referee.feed_the_toad_endpoint,
            "buy-points": referee.buy_points_endpoint,
            "build-machine": referee.build_machine_endpoint,
            "escape": referee.escape_endpoint,
        }

    def api_descriptions(self) -> dict[str, ApiDescription]:
        """The request models and answer shapes of the JSON endpoints (OpenAPI)."""
        s = schemas
        condition = s.obj({"by": s.STRING, "met": s.BOOLEAN, "missing": s.STRINGS})
        return {
            "score": ApiDescription(
                "Score the decks.",
                StateModel,
                s.result(self.slug),
                {
                    "players": ["Lewis", "Carol"],
                    "escaped": None,
                    "final_turn_order": ["Lewis", "Carol"],
                    "decks": {
                        "Lewis": {
                            "lucky": 1,
                            "hirelings": {"winged-monkey": 1, "white-rabbit": 1},
                            "mavens": [{"name": "The Collector", "faction": "wicked", "vp": 3}],
                            "junk": [
                                {"kind": "clockwork-gizmo"},
                                {"kind": "reactor-pump", "vp": 2},
                            ],
                            "machines": ["tiny-tin"],
                        }
                    },
                },
            ),
            "challenge": ApiDescription(
                "Decide a challenge from each player's power.",
                referee.ChallengeModel,
                s.obj(
                    {
                        "outcome": {"enum": ["no-winner", "tie", "minor-victory", "crushed-it"]},
                        "winners": s.STRINGS,
                        "margin": s.INTEGER,
                    },
                    {"words": s.SENTENCE, "readings": s.READINGS},
                ),
                {
                    "kind": "tinkerer",
                    "powers": {"Lewis": 2, "Carol": 0},
                    "turn_order": ["Lewis", "Carol"],
                },
            ),
            "feed-the-toad": ApiDescription(
                "Who holds the Feed the Toad! card after the Fate cards are revealed.",
                referee.ToadModel,
                s.obj(
                    {"holder": s.STRING, "passes": s.INTEGER},
                    {
                        "turn_order": s.STRINGS,
                        "suits": s.STRINGS,
                        "effects": s.STRINGS,
                        "readings": s.READINGS,
                    },
                ),
                {
                    "players": ["Lewis", "Carol"],
                    "holder": "Lewis",
                    "fate": ["cups-4", "wands-5", "death"],
                },
            ),
            "buy-points": ApiDescription(
                "A player's Buy Points this turn, line by line.",
                referee.BuyModel,
                s.obj({"points": s.INTEGER, "lines": s.array(s.LINE)}, {"reminder": s.SENTENCE}),
                {"lucky": True, "scarecrows": ["wands"], "white_rabbits": 2, "fate": ["wands-1"]},
            ),
            "build-machine": ApiDescription(
                "The Machine two Junk kinds build, and how many are left.",
                referee.BuildModel,
                s.obj(
                    {"left": s.INTEGER, "can_build": s.BOOLEAN, "words": s.SENTENCE},
                    nullable={"machine": s.STRING, "name": s.STRING, "vp": s.INTEGER},
                ),
                {"junk": ["reactor-pump", "luminous-aether"]},
            ),
            "escape": ApiDescription(
                "Which escapes the cards in play allow.",
                referee.EscapeModel,
                s.obj(
                    {"escapes": s.STRINGS, "conditions": s.array(condition)},
                    {"reminder": s.SENTENCE, "readings": s.READINGS},
                ),
                {"in_play": ["greed", "despair", "vanity"]},
            ),
        }


def new_deck() -> dict[str, Any]:
    """A deck at the start of the tally: Lucky, no other scoring card yet."""
    return {
        "lucky": 1,
        "hirelings": dict.fromkeys(f.HIRELINGS, 0),
        "mavens": [],
        "junk": [{"kind": f.JunkKind.CLOCKWORK_GIZMO.value, "vp": f.GIZMO_VP, "count": 0}],
        "machines": dict.fromkeys(f.MACHINES, 0),
    }


def _owned(player: str, card: str) -> str:
    """A player's card (``card`` in the reader's language): "Lewis's Tiny Tin"."""
    return _("%(player)s's %(card)s", player=player, card=card)


def _junk_label(state: Mapping[str, Any], name: str, index: int) -> str:
    try:
        item = state["decks"][name]["junk"][index]
        kind, vp = f.junk_name(item["kind"]), item.get("vp", f.GIZMO_VP)
    except (LookupError, TypeError):
        # TRANSLATORS: the first, second... Junk entry of a deck.
        return _("Junk %(number)s", number=index + 1)
    # TRANSLATORS: a kind of Junk and its printed VP: "Reactor Pump (2 VP)".
    return _("%(junk)s (%(vp)s VP)", junk=kind, vp=vp)


def _maven_label(state: Mapping[str, Any], name: str, index: int) -> str:
    try:
        return str(state["decks"][name]["mavens"][index]["name"])
    except (LookupError, TypeError):
        # TRANSLATORS: the first, second... Maven entry of a deck.
        return _("Maven %(number)s", number=index + 1)


def _maven_text(maven: Mapping[str, Any]) -> str:
    faction = (
        _(f.FACTION_NAMES[f.Faction(maven["faction"])])
        if maven.get("faction") in set(f.Faction)
        else "?"
    )
    # TRANSLATORS: a Maven as entered, its faction and VP: "The Collector (Wicked, 3 VP)".
    return _(
        "%(maven)s (%(faction)s, %(vp)s VP)",
        maven=maven.get("name"),
        faction=faction,
        vp=maven.get("vp"),
    )


def deck_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What changed between two versions of the decks, in words.

    >>> deck_changes({"Lewis": {"lucky": 1}}, {"Lewis": {"lucky": 0}})
    "Lewis's Lucky: 1 → 0"
    """
    said: list[str] = []
    for name in after:
        old, new = before.get(name, {}), after[name]
        for key in ("lucky",):
            if old.get(key) != new.get(key):
                said.append(_changed(_owned(name, _("Lucky")), old.get(key, 0), new.get(key, 0)))
        for kind, label in ((k, v[0]) for k, v in f.HIRELINGS.items()):
            a, b = old.get("hirelings", {}).get(kind, 0), new.get("hirelings", {}).get(kind, 0)
            if a != b:
                said.append(_changed(_owned(name, _(label)), a, b))
        for key, machine in f.MACHINES.items():
            a, b = _machine_count(old, key), _machine_count(new, key)
            if a != b:
                said.append(_changed(_owned(name, _(machine.name)), a, b))
        said += _junk_changes(name, old.get("junk", []), new.get("junk", []))
        said += _maven_changes(name, old.get("mavens", []), new.get("mavens", []))
    return "; ".join(said)


def _changed(what: str, before: object, after: object) -> str:
    """One count changed: "Lewis's Lucky: 1 → 0"."""
    # TRANSLATORS: a count that changed in a deck: "Lewis's Lucky: 1 → 0".
    return _("%(what)s: %(before)s → %(after)s", what=what, before=before, after=after)


def _machine_count(deck: Mapping[str, Any], key: str) -> int:
    machines = deck.get("machines", {})
    if isinstance(machines, list):
        return machines.count(key)
    return int(machines.get(key, 0))


def _junk_counts(items: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], int]:
    counts: dict[tuple[str, int], int] = {}
    for item in items:
        key = (str(item.get("kind")), int(item.get("vp") or f.GIZMO_VP))
        counts[key] = counts.get(key, 0) + int(item.get("count", 1))
    return counts


def _junk_changes(name: str, before: Sequence[Any], after: Sequence[Any]) -> list[str]:
    old, new = _junk_counts(before), _junk_counts(after)
    return [
        _changed(
            _owned(name, _("%(junk)s (%(vp)s VP)", junk=f.junk_name(kind), vp=vp)),
            old.get(key, 0),
            new.get(key, 0),
        )
        for key in sorted(set(old) | set(new))
        for kind, vp in [key]
        if old.get(key, 0) != new.get(key, 0)
    ]


def _maven_changes(name: str, before: Sequence[Any], after: Sequence[Any]) -> list[str]:
    old = [_maven_text(m) for m in before]
    new = [_maven_text(m) for m in after]
    said = []
    for text in new:
        if text in old:
            old.remove(text)
        else:
            said.append(_("%(player)s's Mavens: added %(maven)s", player=name, maven=text))
    said += [_("%(player)s's Mavens: removed %(maven)s", player=name, maven=text) for text in old]
    return said


def rounds_change(before: Sequence[Any], after: Sequence[Any]) -> str:
    """A Fate card tapped or taken back, or a round started, in words.

    >>> rounds_change([["cups-4"]], [["cups-4", "wands-5"]])
    'Round 1: 5 of Wands revealed'
    """
    if len(after) > len(before) and all(not r for r in after[len(before) :]):
        return _("Round %(number)s begins", number=len(after))
    for number, (old, new) in enumerate(zip(before, after, strict=False), 1):
        if old != new:
            added = [c for c in new if c not in old]
            gone = [c for c in old if c not in new]
            parts = [_("%(card)s revealed", card=f.fate_name(c)) for c in added]
            parts += [_("%(card)s taken back", card=f.fate_name(c)) for c in gone]
            # TRANSLATORS: a round's Fate cards changed, without a card added or taken back.
            changes = ", ".join(parts) or _("changed")
            return _("Round %(number)s: %(changes)s", number=number, changes=changes)
    if len(after) > len(before):
        cards = ", ".join(f.fate_name(c) for c in after[-1])
        return _("Round %(number)s: %(cards)s revealed", number=len(after), cards=cards)
    return _("Round %(number)s taken back", number=len(before))


def escape_change(value: Any) -> str:
    """An escape recorded or taken back, in words.

    >>> escape_change({"player": "Carol", "by": "three-sisters"})
    'Carol escaped with the Three Sisters'
    >>> escape_change(None)
    'Nobody escaped after all'
    """
    if isinstance(value, Mapping) and value.get("by") in set(f.Escape):
        return _(
            "%(player)s escaped with %(escape)s",
            player=value.get("player"),
            escape=_(f.ESCAPE_NAMES[f.Escape(value["by"])]),
        )
    return _("Nobody escaped after all")


GAME = Luckys()
