"""What the box still has for one player: whether a card an escape needs can be in that
player's play, given the cards the other decks hold and the Junk the Machines built
trashed.

The decks entered are a floor of the truth: every card entered is a real card of that
deck, and a card the escaper needs but did not enter would be one card more. So a card
whose every copy is elsewhere (in other decks, or, for Junk, trashed to build the
Machines entered: trashed Junk is gone for good) cannot be in the escaper's play, and a
Machine none is left to build, or whose Junk is all used up, cannot either.

>>> from companion.games.luckys.state import Deck
>>> clock = f.ESCAPE_CARDS[f.Escape.PUMPKIN_TED][2]
>>> decks = {"Lewis": Deck(), "Carol": Deck(machines={"fate-clock": 4})}
>>> shortage(decks, "Lewis", clock).reason
'all 4 Fate Clock cards are in other decks (Carol 4)'
>>> shortage(decks, "Carol", clock) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.luckys import facts as f
from companion.games.luckys import readings
from companion.games.text import _, ngettext

if TYPE_CHECKING:
    from companion.games.luckys.state import Deck
    from companion.games.readings import Reading

#: The reading a single Maven card rests on, by its key.
SINGLE_MAVEN_READINGS: dict[str, Reading] = {
    f.PUMPKIN_TED: readings.PUMPKIN_TED,
    f.QUEEN_OF_SPADES: readings.QUEEN,
    **dict.fromkeys(f.THREE_SISTERS, readings.SISTERS),
}


@dataclass(frozen=True)
class Shortage:
    """Why a player cannot have a card in play (the end of a sentence, in the reader's
    language), and the app's reading it rests on."""

    reason: str
    reading: Reading | None = None


def held(deck: Deck, card: f.EscapeCard) -> int:
    """How many copies of ``card`` a deck holds."""
    if card.holding is f.Holding.MACHINE:
        return deck.machines.get(card.key, 0)
    if card.holding is f.Holding.JUNK:
        return sum(n for (kind, _vp), n in deck.junk.items() if kind == card.key)
    if card.holding is f.Holding.HIRELING:
        return deck.hirelings.get(card.key, 0)
    return sum(1 for maven in deck.mavens if maven.key == card.key)


def copies(card: f.EscapeCard) -> int:
    """Copies of ``card`` in the box (a named Maven is one card: the app's reading)."""
    if card.holding is f.Holding.MACHINE:
        return f.MACHINES[card.key].copies
    if card.holding is f.Holding.JUNK:
        return f.JUNK[card.key][1]
    if card.holding is f.Holding.HIRELING:
        return f.HIRELINGS[card.key][2]
    return 1


def shortage(
    decks: Mapping[str, Deck],
    player: str,
    card: f.EscapeCard,
    *,
    also_built: Mapping[str, int] | None = None,
) -> Shortage | None:
    """Why ``player`` cannot have ``card`` in play, or ``None`` when they may.

    ``also_built``: Machines the player must have built that no deck shows (the Junk
    they trashed is gone too). A card the player's own deck holds is always possible
    (more copies than the box holds are refused as such).
    """
    own = decks.get(player)
    if own is not None and held(own, card) > 0:
        return None
    others = {
        name: n for name, deck in decks.items() if name != player and (n := held(deck, card))
    }
    if sum(others.values()) >= copies(card):
        return _all_elsewhere(card, others)
    built = _machines_built(decks, also_built or {})
    if card.holding is f.Holding.MACHINE:
        return _no_junk_to_build(decks, card, built)
    if card.holding is f.Holding.JUNK:
        return _junk_gone(card, sum(others.values()), f.junk_trashed(built)[card.key])
    return None


def shortages(
    decks: Mapping[str, Deck], player: str, cards: Sequence[f.EscapeCard]
) -> list[tuple[int, Shortage]]:
    """Each of ``cards``, all in ``player``'s play at once, that cannot be there: its
    place in ``cards`` and why. A Machine among them that the player's deck does not show
    was built all the same, so the Junk it trashed is gone for the others.

    >>> from companion.games.luckys.state import Deck
    >>> needs = f.ESCAPE_CARDS[f.Escape.TIME_MACHINE]
    >>> decks = {"Carol": Deck(junk={("flux-capacitor", 2): 2})}
    >>> [(i, s.reason[:28]) for i, s in shortages(decks, "Lewis", needs)]
    [(0, 'no Time Machine can have bee')]
    """
    own = decks.get(player)
    built = {
        card.key: 1
        for card in cards
        if card.holding is f.Holding.MACHINE and not (own and own.machines.get(card.key))
    }
    found = []
    for index, card in enumerate(cards):
        others = {key: n for key, n in built.items() if key != card.key}
        short = shortage(decks, player, card, also_built=others)
        if short is not None:
            found.append((index, short))
    return found


def _all_elsewhere(card: f.EscapeCard, others: Mapping[str, int]) -> Shortage:
    if copies(card) == 1:
        holder = next(iter(others))
        reading = SINGLE_MAVEN_READINGS.get(card.key)
        if card.holding is not f.Holding.MAVEN:
            reading = None  # the Time Machine: the box's count, not a reading
        return Shortage(
            _(
                "there is one %(card)s card and %(player)s's deck holds it",
                card=_(card.name),
                player=holder,
            ),
            reading,
        )
    where = ", ".join(f"{name} {n}" for name, n in others.items())
    return Shortage(
        # TRANSLATORS: ends a sentence; the decks are players' names and counts ("Carol 4").
        _(
            "all %(copies)s %(card)s cards are in other decks (%(decks)s)",
            copies=copies(card),
            card=_(card.name),
            decks=where,
        )
    )


def _machines_built(decks: Mapping[str, Deck], also_built: Mapping[str, int]) -> Counter[str]:
    built: Counter[str] = Counter(also_built)
    for deck in decks.values():
        built.update(deck.machines)
    return built


def _junk_in_decks(decks: Mapping[str, Deck]) -> Counter[str]:
    junk: Counter[str] = Counter()
    for deck in decks.values():
        for (kind, _vp), n in deck.junk.items():
            junk[kind] += n
    return junk


def _no_junk_to_build(
    decks: Mapping[str, Deck], card: f.EscapeCard, built: Counter[str]
) -> Shortage | None:
    """A Machine whose Junk the decks and the Machines built use up: none can be built."""
    in_decks, trashed = _junk_in_decks(decks), f.junk_trashed(built)
    for kind, need in f.junk_trashed({card.key: 1}).items():
        name, box = f.JUNK[kind]
        if in_decks[kind] + trashed[kind] + need > box:
            return Shortage(_no_junk_words(card, name, need, box, in_decks[kind], trashed[kind]))
    return None


def _no_junk_words(
    card: f.EscapeCard, junk: str, need: int, box: int, in_decks: int, trashed: int
) -> str:
    """Why no ``card`` can have been built: ``junk`` (English) is used up."""
    cards = ngettext("a %(junk)s card", "%(num)s %(junk)s cards", need, junk=_(junk))
    if trashed:
        return _(
            "no %(machine)s can have been built: building one trashes %(cards)s, and of the"
            " box's %(box)s the decks hold %(count)s and the Machines built took %(trashed)s",
            machine=_(card.name),
            cards=cards,
            box=box,
            count=in_decks,
            trashed=trashed,
        )
    return _(
        "no %(machine)s can have been built: building one trashes %(cards)s, and of the"
        " box's %(box)s the decks hold %(count)s",
        machine=_(card.name),
        cards=cards,
        box=box,
        count=in_decks,
    )


def _junk_gone(card: f.EscapeCard, in_other_decks: int, trashed: int) -> Shortage | None:
    """A Junk kind whose every copy is in other decks or trashed for Machines built."""
    box = copies(card)
    if in_other_decks + trashed < box:
        return None
    return Shortage(
        _(
            "all %(copies)s %(card)s cards are gone: the other decks hold %(count)s and the"
            " Machines built took %(trashed)s",
            copies=box,
            card=_(card.name),
            count=in_other_decks,
            trashed=trashed,
        )
    )
