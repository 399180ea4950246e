"""Lucky's Misadventures view data: what the play page draws (built here, never by the
templates calling the engine)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.luckys import facts as f
from companion.games.luckys import referee
from companion.games.luckys.scoring import TIEBREAKS
from companion.games.readings import readings_json
from companion.games.text import N_, _
from companion.services import luckys as service
from companion.services.tables import PlayGlance
from companion.web.game_pages import PlayPage

SUIT_ORDER = tuple(f.Suit)
#: The majors' row of the Fate picker, by its name (English; translated where shown).
# TRANSLATORS: the row of major arcana (the six trumps) in Lucky's Fate card picker.
MAJOR = N_("Major")
#: The Fate picker: one row per suit (values 1-6), then the majors: the row's key (its
#: ids and classes), its name (English; translated where shown) and its cards.
PICKER_ROWS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    *(
        (s.value, f.SUIT_NAMES[s], tuple(f"{s.value}-{v}" for v in f.MINOR_VALUES))
        for s in SUIT_ORDER
    ),
    ("major", MAJOR, tuple(f.MAJORS)),
)
#: A mark for each suit, shown with its name and on its cards, so that a suit is never told
#: by colour alone (the three suits also get different border styles).
SUIT_MARKS = {"cups": "∪", "swords": "⚔", "wands": "⚚", "major": "★"}  # noqa: RUF001
#: How someone escaped, as the escape's picker names it (English; translated where shown).
ESCAPE_LABELS = {
    # TRANSLATORS: a way out of Oddtopia, on the escape's picker (the two cards it needs).
    f.Escape.TIME_MACHINE.value: N_("Time Machine + Reactor Pump"),
    # TRANSLATORS: a way out of Oddtopia, on the escape's picker.
    f.Escape.THREE_SISTERS.value: N_("The Three Sisters"),
    # TRANSLATORS: a way out of Oddtopia, on the escape's picker.
    f.Escape.PUMPKIN_TED.value: N_("Pumpkin Ted's portal"),
}


@dataclass(frozen=True)
class CountRow:
    """One stepper of the tally: what it counts, its field, value, top and VP each."""

    label: str
    field: str
    value: int
    most: int
    vp: int
    #: Cards of this kind still in the box (Machines: the box minus every deck's).
    left: int | None = None


@dataclass(frozen=True)
class DeckView:
    """One player's deck as the tally shows it."""

    seat: int
    name: str
    points: int
    lucky: CountRow
    hirelings: tuple[CountRow, ...]
    junk: tuple[CountRow, ...]
    machines: tuple[CountRow, ...]
    mavens: tuple[Mapping[str, Any], ...]
    rank: int | None = None
    #: The six tiebreak values in the game's words ("holds Lucky", "3 VP from allies").
    tiebreaks: tuple[str, ...] = ()


def maven_sources(play: PlayGlance) -> list[tuple[int, int]]:
    """The table's Lucky's plays and their versions: the Maven chips come from all of them
    (an edit of another play changes this one's panel)."""
    return service.maven_sources(play.table_id)


def context(page: PlayPage) -> dict[str, Any]:
    """The round companion and the tally as this phone shows them."""
    state = page.play.state
    players = [str(p) for p in state["players"]]
    result = page.view.result
    standings = {s["player"]: s for s in result["standings"]} if result else {}
    built = service.built_machines(page.play)
    rounds = [list(r) for r in state.get("rounds", [])]
    walk = referee.companion(players, state.get("toad"), rounds)
    return {
        "lm_suit_marks": SUIT_MARKS,
        "lm": {
            "players": players,
            "decks": [
                _deck(seat, name, state["decks"].get(name, {}), standings.get(name), built)
                for seat, name in enumerate(players)
            ],
            "walk": walk,
            # The current round's readings, said in the reader's language.
            "round_readings": readings_json(current.fate.readings)
            if (current := walk.current) and current.fate
            else [],
            "rounds_seen": len(rounds),
            "cards_seen": len(rounds[-1]) if rounds else 0,
            "used": _used_this_half(rounds),
            "picker": [(key, _(name), codes) for key, name, codes in PICKER_ROWS],
            "fate": f.FATE,
            "fate_names": {code: f.fate_name(code) for code in f.FATE},
            "known_mavens": service.known_mavens(page.play.table),
            "factions": {key: _(name) for key, name in f.FACTION_NAMES.items()},
            "junk_kinds": {k: f.junk_name(k) for k in f.JUNK},
            "escape_labels": {key: _(label) for key, label in ESCAPE_LABELS.items()},
            "escaped": state.get("escaped"),
            "toad": state.get("toad") or players[0],
            "last_order": state.get("final_turn_order"),
            "companion_order": list(referee.last_turn_order(players, state.get("toad"), rounds))
            if any(len(r) == f.FATE_PER_ROUND for r in rounds)
            else None,
            "rounds_total": f.ROUNDS,
            "per_half": f.ROUNDS_PER_HALF,
        },
    }


def _used_this_half(rounds: Sequence[Sequence[str]]) -> set[str]:
    """The Fate cards already out in the half the next tap goes to (they cannot repeat)."""
    if not rounds:
        return set()
    last = len(rounds)
    if len(rounds[-1]) == f.FATE_PER_ROUND:
        last += 1  # the next tap starts the next round
    start = 0 if last <= f.ROUNDS_PER_HALF else f.ROUNDS_PER_HALF
    return {code for r in rounds[start:] for code in r}


def _tiebreak_words(standing: Mapping[str, Any] | None) -> tuple[str, ...]:
    if standing is None:
        return ()
    words = {t.label: t for t in TIEBREAKS}
    return tuple(
        words[item["label"]].say(item["value"]) if item["label"] in words else str(item["value"])
        for item in standing["tiebreak"]
    )


def _deck(
    seat: int,
    name: str,
    deck: Mapping[str, Any],
    standing: Mapping[str, Any] | None,
    built: Mapping[str, int],
) -> DeckView:
    hirelings = deck.get("hirelings", {})
    machines = deck.get("machines", {})
    if isinstance(machines, list):
        machines = {k: machines.count(k) for k in f.MACHINES}
    return DeckView(
        seat=seat,
        name=name,
        points=int(standing["score"]) if standing else 0,
        rank=int(standing["rank"]) if standing else None,
        tiebreaks=_tiebreak_words(standing),
        lucky=CountRow(_("Lucky"), "lucky", int(deck.get("lucky", 0)), 1, f.LUCKY_VP),
        hirelings=tuple(
            CountRow(_(label), f"hirelings.{kind}", int(hirelings.get(kind, 0)), copies, 1)
            for kind, (label, _faction, copies) in f.HIRELINGS.items()
        ),
        junk=tuple(
            CountRow(
                f.junk_name(row["kind"]),
                f"junk.{index}",
                int(row.get("count", 1)),
                f.JUNK[row["kind"]][1],
                int(row.get("vp") or f.GIZMO_VP),
            )
            for index, row in enumerate(deck.get("junk", []))
        ),
        machines=tuple(
            CountRow(
                _(m.name),
                f"machines.{key}",
                int(machines.get(key, 0)),
                m.copies,
                m.vp,
                left=max(0, m.copies - built.get(key, 0)),
            )
            for key, m in f.MACHINES.items()
        ),
        mavens=tuple(deck.get("mavens", [])),
    )
