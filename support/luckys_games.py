"""Legal Lucky's Misadventures end states, drawn from the box as a game would reach them.

:func:`end_states` draws a table that the rules can produce, ended by each of the four
ends: the 14th round (the normal end) or one of the three escapes. Every card comes out
of the box's real component counts: a Machine is built only while a copy is left and the
two Junk it trashes are still in the box (they leave the game), the single Mavens the app
reads as one card (Pumpkin Ted, the Queen of Spades, each Sister) appear once at most,
the Sisters are Wicked, and an escaper first takes the cards their escape needs in play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from companion.games.luckys import facts as f

NAMES = ["Lewis", "Carol", "Romi", "Ann"]
#: The ends a game can reach: ``None`` for the 14th round, else an escape.
ENDS: tuple[f.Escape | None, ...] = (None, *f.Escape)
OTHER_MAVENS = ["Sprocket", "The Collector", "Stormbringer", "Relic Hunter", "Winkie Woddler"]
NAMED = {
    f.PUMPKIN_TED: "Pumpkin Ted",
    f.QUEEN_OF_SPADES: "The Queen of Spades",
    **{sister: sister.title() for sister in f.THREE_SISTERS},
}


@dataclass
class Box:
    """What is still in the box (the banks and decks not yet dealt), card by card."""

    hirelings: Counter[str] = field(
        default_factory=lambda: Counter({k: c for k, (_n, _f, c) in f.HIRELINGS.items()})
    )
    junk: Counter[str] = field(
        default_factory=lambda: Counter({k: c for k, (_n, c) in f.JUNK.items()})
    )
    machines: Counter[str] = field(
        default_factory=lambda: Counter({k: m.copies for k, m in f.MACHINES.items()})
    )
    mavens: Counter[f.Faction] = field(default_factory=lambda: Counter(f.MAVENS))
    named: set[str] = field(default_factory=lambda: set(NAMED))

    def can_build(self, key: str) -> bool:
        """A copy of the Machine is left and the box still has the Junk it trashes."""
        needs = f.junk_trashed({key: 1})
        return self.machines[key] > 0 and all(self.junk[k] >= n for k, n in needs.items())

    def build(self, key: str) -> None:
        """Build a Machine: take a copy, and trash its two Junk for good."""
        assert self.can_build(key)
        self.machines[key] -= 1
        self.junk.subtract(f.junk_trashed({key: 1}))


@dataclass
class Hand:
    """One deck being dealt, as counts (turned into the API's shape at the end)."""

    lucky: int = 0
    hirelings: Counter[str] = field(default_factory=Counter)
    junk: Counter[tuple[str, int]] = field(default_factory=Counter)
    machines: Counter[str] = field(default_factory=Counter)
    mavens: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self, *, machines_as_list: bool) -> dict[str, Any]:
        machines: list[str] | dict[str, int] = (
            sorted(self.machines.elements()) if machines_as_list else dict(self.machines)
        )
        return {
            "lucky": self.lucky,
            "hirelings": dict(self.hirelings),
            "junk": [{"kind": k, "vp": vp, "count": n} for (k, vp), n in self.junk.items()],
            "machines": machines,
            "mavens": self.mavens,
        }


def _junk_vp(draw: st.DrawFn, kind: str) -> int:
    if kind == f.JunkKind.CLOCKWORK_GIZMO:
        return f.GIZMO_VP
    return draw(st.sampled_from(list(f.JUNK_VP_RANGE)))


def _take_junk(draw: st.DrawFn, box: Box, hand: Hand, kind: str, count: int) -> None:
    box.junk[kind] -= count
    hand.junk[kind, _junk_vp(draw, kind)] += count


def _take_maven(draw: st.DrawFn, box: Box, hand: Hand, key: str | None) -> None:
    """A Maven into the hand: a named one (``key``) or any other, if the box has one."""
    if key in f.THREE_SISTERS:
        faction = f.SISTERS_FACTION
    else:
        factions = [x for x in f.Faction if box.mavens[x] > 0]
        if not factions:
            return
        faction = draw(st.sampled_from(factions))
    if box.mavens[faction] <= 0:
        return
    box.mavens[faction] -= 1
    if key is not None:
        box.named.discard(key)
    name = NAMED[key] if key is not None else draw(st.sampled_from(OTHER_MAVENS))
    hand.mavens.append({"name": name, "faction": faction.value, "vp": draw(st.integers(2, 6))})


def _escape_cards(draw: st.DrawFn, box: Box, hand: Hand, by: f.Escape) -> None:
    """What the escape needs in the escaper's play, taken from the box first."""
    if by is f.Escape.TIME_MACHINE:
        box.build(f.TIME_MACHINE)
        hand.machines[f.TIME_MACHINE] += 1
        _take_junk(draw, box, hand, f.JunkKind.REACTOR_PUMP, draw(st.integers(1, 3)))
    elif by is f.Escape.THREE_SISTERS:
        for sister in f.THREE_SISTERS:
            _take_maven(draw, box, hand, sister)
    else:
        _take_maven(draw, box, hand, f.PUMPKIN_TED)
        box.hirelings[f.CLOCKMAKERS] -= 1
        hand.hirelings[f.CLOCKMAKERS] += 1
        box.build(f.FATE_CLOCK)
        hand.machines[f.FATE_CLOCK] += 1


def _deal(draw: st.DrawFn, box: Box, hand: Hand) -> None:
    """Whatever else a deck gained during the game, as far as the box allows."""
    hand.lucky = draw(st.integers(0, 1))
    for kind in f.HIRELINGS:
        n = draw(st.integers(0, box.hirelings[kind]))
        box.hirelings[kind] -= n
        hand.hirelings[kind] += n
    # A few kinds of Machine, several of each: the box's limits are reached too.
    for key in draw(st.lists(st.sampled_from(sorted(f.MACHINES)), max_size=3)):
        for _ in range(draw(st.integers(1, f.MACHINE_COPIES))):
            if box.can_build(key):
                box.build(key)
                hand.machines[key] += 1
    for kind in f.JUNK:
        count = draw(st.integers(0, box.junk[kind]))
        if count:
            _take_junk(draw, box, hand, kind, count)
    for key in draw(st.lists(st.sampled_from([None, *NAMED]), max_size=5)):
        if key is None or key in box.named:
            _take_maven(draw, box, hand, key)


def fate_rounds(draw: st.DrawFn, count: int) -> list[list[str]]:
    """``count`` rounds of Fate cards as the deck deals them: each half is the 24 cards
    shuffled, 3 put aside unseen, then 3 per round."""
    rounds: list[list[str]] = []
    while len(rounds) < count:
        deck = draw(st.permutations(sorted(f.FATE)))[f.FATE_DISCARDED_UNSEEN :]
        half = [list(deck[i : i + f.FATE_PER_ROUND]) for i in range(0, len(deck), 3)]
        rounds += half[: count - len(rounds)]
    return rounds


def _turns(draw: st.DrawFn, players: list[str], end: f.Escape | None) -> dict[str, Any]:
    """The rounds (with the first Toad holder) and the last turn order, each maybe not
    entered; a normal end has all 14 rounds when it has any."""
    turns: dict[str, Any] = {"final_turn_order": None}
    if draw(st.booleans()):
        played = f.ROUNDS if end is None else draw(st.integers(1, f.ROUNDS))
        turns["rounds"] = fate_rounds(draw, played)
        turns["toad"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        first = players.index(draw(st.sampled_from(players)))
        turns["final_turn_order"] = players[first:] + players[:first]
    return turns


@st.composite
def end_states(draw: st.DrawFn, ends: Sequence[f.Escape | None] = ENDS) -> dict[str, Any]:
    """A legal table at the end of a game, reached through one of ``ends`` (``None``: the
    14th round; else an escape)."""
    size = draw(st.integers(f.MIN_PLAYERS, f.MAX_PLAYERS))
    players = NAMES[:size]
    ending = draw(st.sampled_from(ends))
    box = Box()
    hands = {name: Hand() for name in players}
    state: dict[str, Any] = {"players": players, "escaped": None}
    if ending is not None:
        escaper = draw(st.sampled_from(players))
        _escape_cards(draw, box, hands[escaper], ending)
        state["escaped"] = {"player": escaper, "by": ending.value}
    for name in draw(st.permutations(players)):
        _deal(draw, box, hands[name])
    # A deck may be left out (after an escape nobody counts): what is entered is a floor.
    entered = draw(st.lists(st.sampled_from(players), unique=True)) if ending else players
    as_list = draw(st.booleans())
    state["decks"] = {name: hands[name].to_json(machines_as_list=as_list) for name in entered}
    state.update(_turns(draw, players, ending))
    return state
