"""Oddland's readings: where the rulebook leaves room, the choice the app made, said aloud.

Each reading's id is also its rules entry (a clarification in ``rules/oddland.toml``);
the answers that rest on one carry it (see :mod:`companion.games.readings`).

>>> PAIR_READING.rule
'oddland/setup/pair'
"""

from __future__ import annotations

from companion.games.oddland.map import SLUG
from companion.games.readings import Reading, places_reading
from companion.games.text import N_

SHARED_READING = Reading(
    f"{SLUG}/tiebreak/shared",
    N_(
        "A shared victory is the app's reading: the rulebook compares the tied players'"
        " territories, largest first, but does not say what happens when every one is equal."
    ),
)
TWO_TOKENS_READING = Reading(
    f"{SLUG}/tiebreak/two-tokens",
    N_(
        "Counting a territory that holds two of a player's tokens once per token in the"
        " tiebreak is the app's reading: the rulebook compares the territories holding each"
        " player's tokens but does not say how a joined one counts."
    ),
)
WHALEPHANT_READING = Reading(
    f"{SLUG}/species/whalephant",
    N_(
        "The Whalephant's token covering two adjacent spaces is the app's reading, taken from"
        " the species card rather than the rulebook's text; it counts the larger of its"
        " territories for the tiebreak."
    ),
)
SOLO_READING = Reading(
    f"{SLUG}/solo",
    N_(
        "The solo modifiers are the app's reading: the rulebook's text shows only Begator A's"
        " (-3); the others come from the species cards (Flora A has none)."
    ),
)
FLORA_SOLO_READING = Reading(
    f"{SLUG}/species/flora-solo",
    N_(
        "Flora A's solo modifier of 0 is the app's reading: the rulebook's text shows none for"
        " it, and its tokens score nothing anyway."
    ),
)
BEGATOR_READING = Reading(
    f"{SLUG}/species/begator",
    N_(
        "Scoring Begator A as 2 points per space in neighbouring territories (solo -3) is the"
        " app's reading: that is the rulebook's example species card, whose side its text"
        " does not name."
    ),
)
TOKENS_READING = Reading(
    f"{SLUG}/tokens",
    N_(
        "Two Flora and one token of each other species per set is the app's reading: the"
        " rulebook gives 7 tokens a set and several Flora with 1 to 3 players, not the count"
        " of each species."
    ),
)
LINES_READING = Reading(
    f"{SLUG}/lines",
    N_(
        "Counting a token's row, column or diagonals across gaps between cards is the app's"
        " reading: the rulebook names these lines but does not say whether an empty place"
        " ends them."
    ),
)
PAIR_READING = Reading(
    f"{SLUG}/setup/pair",
    N_(
        "Accepting set-up cards shifted by one space along the side they share is the app's"
        " reading: the rulebook only says the 2 cards are dealt next to each other, which"
        " such cards still are."
    ),
)

#: The territory tiebreak puts the places below first in order too: the app's extension.
PLACES_READING = places_reading(SLUG)
