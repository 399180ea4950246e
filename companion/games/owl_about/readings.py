"""Owl About's readings: where the rulebook is silent or leaves room, the app's choice,
said in the answers that apply it (see :mod:`companion.games.readings`).

Each reading's id is its rules entry (``companion/rules/owl-about.toml``). The trick
readings are found from a trick's cards and fighting power (:func:`trick_readings`);
the round readings from what the night collections did (:func:`round_readings`).

>>> [r.id for r in trick_readings(Mode.BASIC, ["6", "2", "8", "10"], [6, 12, 8, 10])]
['owl-about/small-owls']
>>> trick_readings(Mode.BASIC, ["6", "5", "8"], [6, 5, 8])
()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.games.owl_about.cards import (
    BIG_OWLS,
    CARDS,
    NIGHT_COLLECTION_RESET,
    NIGHT_FP_BONUS,
    SLUG,
    SMALL_OWLS,
    Mode,
    NightCollection,
    Variant,
)
from companion.games.readings import Reading
from companion.games.text import N_

#: Entry ``fewest-vp``: the rulebook ends the game at the target but names no winner.
FEWEST_VP_READING = Reading(
    f"{SLUG}/fewest-vp",
    N_(
        "Fewest VP wins is the app's reading: the rulebook ends the game when someone reaches"
        " the target but never says who wins; VP are what a player collects toward becoming"
        " the new Owl Tribal Leader, the job every owl is trying to avoid."
    ),
)
#: Entry ``mode/quick/ties``: below a shared highest FP, the next FP shared too.
QUICK_TIES_READING = Reading(
    f"{SLUG}/mode/quick/ties",
    N_(
        "In quick mode, the trick going to the highest FP that only one card has (else to the"
        " lead) is the app's reading: when the highest FP is shared the rulebook gives the"
        " trick to the next highest FP, but it does not say what happens when that one is"
        " shared too; the app goes on down to an FP nobody shares, which agrees with the"
        " rulebook's example."
    ),
)
#: Entry ``small-owls``: the FP of a 1 and a 2 next to a 9 or a 10.
SMALL_OWLS_READING = Reading(
    f"{SLUG}/small-owls",
    N_(
        "A 1 fighting as 11 and a 2 as 12 next to a 9 or a 10 is the app's reading: the"
        " rulebook says only that their FP changes and leaves the numbers to the card manual;"
        " its example turns a 2 into 12, and the app adds 10 to the 1 too, so that the 2 stays"
        " above the 1."
    ),
)
#: Entry ``small-owls/night-7``: a Night 7 fights with 9 but is no 9.
NIGHT_SEVEN_READING = Reading(
    f"{SLUG}/small-owls/night-7",
    N_(
        "A Night 7 (9 FP) not making a 1 or a 2 stronger is the app's reading: the rulebook"
        " changes their FP when a 9 or a 10 is in the trick without saying whether a card that"
        " only fights with 9 counts; the app reads the cards numbered 9 and 10."
    ),
)
#: Entry ``night-collection-void``: Night Collection 3 voids the trophy VP only.
NIGHT_COLLECTION_VOID_READING = Reading(
    f"{SLUG}/night-collection-void",
    N_(
        "Night Collection 3 taking away only the round's VP from trophies is the app's"
        " reading: the rulebook says 0 VP for the round, but a same-speed bonus and a"
        " wrong-card penalty are gained at once during the round, so they stand."
    ),
)
#: Entry ``night-collection-both``: 4 night cards under Night Collection 3.
NIGHT_COLLECTION_BOTH_READING = Reading(
    f"{SLUG}/night-collection-both",
    N_(
        "Counting all 4 night cards as collecting 3 is the app's reading: the rulebook lists"
        " Night Collection 3 and 4 apart and does not say how they meet; with Night"
        " Collection 3 alone, 4 night cards void the round too, and with both variants on only"
        " the reset applies, so the same cards are not punished twice."
    ),
)
#: Entry ``night-collection-reset``: when Night Collection 4 sets the total to 0.
NIGHT_COLLECTION_RESET_READING = Reading(
    f"{SLUG}/night-collection-reset",
    N_(
        "Night Collection 4 setting the total to 0 after the round, so that nothing of that"
        " round counts, is the app's reading: the rulebook resets the VP of whoever collects"
        " all 4 night cards in a round but does not say when; the app settles it at the end"
        " of the round, as Night Collection 3 is."
    ),
)

#: The day cards that gain FP next to a big owl, and the big owls themselves (9 and 10).
_SMALL_CODES = frozenset(c.code for c in CARDS.values() if not c.night and c.speed in SMALL_OWLS)
_BIG_CODES = frozenset(c.code for c in CARDS.values() if not c.night and c.speed in BIG_OWLS)
#: Night cards that fight with a big owl's number (the Night 7, 9 FP) without being one.
_NIGHT_BIG_CODES = frozenset(
    c.code for c in CARDS.values() if c.night and c.speed + NIGHT_FP_BONUS in BIG_OWLS
)


def trick_readings(mode: Mode, cards: Sequence[str], fp: Sequence[int]) -> tuple[Reading, ...]:
    """The readings a trick's FP and winner rest on (cards in play order, with their FP).

    >>> [r.id for r in trick_readings(Mode.BASIC, ["N7", "1"], [9, 1])]
    ['owl-about/small-owls/night-7']
    >>> [r.id for r in trick_readings(Mode.QUICK, ["2", "2", "N4", "6"], [2, 2, 6, 6])]
    ['owl-about/mode/quick/ties']
    >>> trick_readings(Mode.QUICK, ["6", "6", "2"], [6, 6, 2])
    ()
    """
    found: list[Reading] = []
    played = set(cards)
    if not played.isdisjoint(_SMALL_CODES):
        if not played.isdisjoint(_BIG_CODES):
            found.append(SMALL_OWLS_READING)
        elif not played.isdisjoint(_NIGHT_BIG_CODES):
            found.append(NIGHT_SEVEN_READING)
    if mode is Mode.QUICK and _next_highest_shared_too(fp):
        found.append(QUICK_TIES_READING)
    return tuple(found)


def _next_highest_shared_too(fp: Sequence[int]) -> bool:
    """Whether the highest FP is shared and so is the next highest: the case the quick
    mode's rule leaves open."""
    counts = Counter(fp)
    values = sorted(counts, reverse=True)
    return len(values) > 1 and counts[values[0]] > 1 and counts[values[1]] > 1


def round_readings(
    collection: Mapping[str, NightCollection],
    *,
    night_cards: Mapping[str, int] | None,
    rules: frozenset[Variant],
    gained: Mapping[str, int],
) -> tuple[Reading, ...]:
    """The readings the night collections of a round rest on: ``collection`` is what
    they did to each player, ``gained`` the VP each gained during the round (same-speed
    bonuses and penalties).

    >>> [r.id for r in round_readings({"A": NightCollection.TOTAL_RESET},
    ...     night_cards={"A": 4}, rules=frozenset(Variant), gained={"A": 0})]
    ['owl-about/night-collection-both', 'owl-about/night-collection-reset']
    """
    found: list[Reading] = []
    for name, effect in collection.items():
        all_four = night_cards is not None and night_cards.get(name, 0) >= NIGHT_COLLECTION_RESET
        if all_four and Variant.NIGHT_COLLECTION_3 in rules:
            found.append(NIGHT_COLLECTION_BOTH_READING)
        if effect is NightCollection.TOTAL_RESET:
            found.append(NIGHT_COLLECTION_RESET_READING)
        elif gained.get(name, 0) > 0:
            found.append(NIGHT_COLLECTION_VOID_READING)
    return tuple(dict.fromkeys(found))
