"""The app's readings of the Lucky's Misadventures rulebook, said aloud.

Where the rulebook is silent or leaves room, the engine makes a choice; each choice is a
:class:`~companion.games.readings.Reading` whose id is its clarification entry in
``companion/rules/luckys-misadventures.toml``. The answers that apply one carry it: a
score, a referee verdict, or a refusal resting on it.

>>> TOAD.id
'luckys-misadventures/feed-the-toad/symbols'
>>> all("the app's reading" in r.text for r in ALL)
True
"""

from __future__ import annotations

from companion.games.luckys.facts import SLUG
from companion.games.readings import Reading, places_reading
from companion.games.text import N_, _, sentences

PLAYERS = Reading(
    f"{SLUG}/players",
    N_(
        "2 to 4 players is the app's reading: the rulebook gives no player count; its one"
        " Lucky card per player seats at most 4, and its challenges need an opponent."
    ),
)
TOAD = Reading(
    f"{SLUG}/feed-the-toad/symbols",
    N_(
        "Every Wands card and every major card passing the Feed the Toad! card, and no Cups"
        " or Swords card, is the app's reading: the rulebook says so where it explains the"
        " card and in its example round, but elsewhere only says that some minor cards, and"
        " maybe the majors, carry the pass symbol."
    ),
)
FORTUNE = Reading(
    f"{SLUG}/fate/fortune-phases",
    N_(
        'Fortune\'s "no Tinkerer" and "no Wicked" bands meaning no Tinkerer challenge and no'
        " Wicked challenge is the app's reading: the rulebook names those phases nowhere else,"
        " and its challenge phase resolves the Tinkerers, then the Wickeds."
    ),
)
MARGIN = Reading(
    f"{SLUG}/clarify/challenge-margin",
    N_(
        "Counting the margin of victory against the runner-up is the app's reading: the"
        " rulebook explains margins with two players only."
    ),
)
PUMPKIN_TED = Reading(
    f"{SLUG}/tiebreak/pumpkin-ted",
    N_(
        "Pumpkin Ted being a single card is the app's reading: the rulebook speaks of the"
        " Pumpkin Ted card as of one card but never gives its number of copies."
    ),
)
QUEEN = Reading(
    f"{SLUG}/tiebreak/queen",
    N_(
        "The Queen of Spades being a single Maven card is the app's reading: the rulebook's"
        " tiebreaker names the card but gives neither its class nor its number of copies."
    ),
)
SISTERS = Reading(
    f"{SLUG}/escapes/sisters",
    N_(
        "Greed, Despair and Vanity being one Maven card each is the app's reading: the"
        " rulebook calls them the 3 Sisters but never gives their number of copies."
    ),
)
ESCAPE_PLACES = Reading(
    f"{SLUG}/escapes/others-rank",
    N_(
        "Everyone but the escaper sharing second place is the app's reading: the rulebook"
        " ends the game at once without counting VP, so nothing separates the others."
    ),
)
ONE_LUCKY = Reading(
    f"{SLUG}/clarify/one-lucky",
    N_(
        "At most one Lucky card in a deck is the app's reading: everyone starts with one and"
        " no rule hands a Lucky to another player, though the rulebook does not print every"
        " card's action."
    ),
)
JUNK_VP = Reading(
    f"{SLUG}/clarify/junk-vp",
    N_(
        "Junk worth 0 to 9 VP, and every Clockwork Gizmo 1, is the app's reading: the"
        " rulebook prints only the Clockwork Gizmo's value, so the app bounds typing slips"
        " without guessing the others."
    ),
)
#: The six tiebreakers put the places below first in order too: the app's extension.
PLACES = places_reading(SLUG)

#: Every reading the engine can apply (``Luckys.readings``).
ALL: tuple[Reading, ...] = (
    PLAYERS,
    TOAD,
    FORTUNE,
    MARGIN,
    PUMPKIN_TED,
    QUEEN,
    SISTERS,
    ESCAPE_PLACES,
    ONE_LUCKY,
    JUNK_VP,
    PLACES,
)


def said(message: str, reading: Reading | None) -> str:
    """A refusal's sentence and, after it, the reading it rests on (when there is one), so
    the pages, which show a refusal's message, say it next to the field too.

    >>> said("No.", ONE_LUCKY)[:23], said("No.", None)
    ('No. At most one Lucky c', 'No.')
    """
    return sentences(message, _(reading.text) if reading else "")
